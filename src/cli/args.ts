import { parseArgs } from 'node:util';
import { nearest } from '../core/validate/nearest.js';

/**
 * The `vidops` command line: which commands exist, which flags each takes, how many words follow
 * it, and what configuration it needs. `parseInvocation` turns argv into one of them or a usage
 * error; the words after the command are checked later by the slash command grammar.
 * @see docs/architecture.md, "Slash command grammar" and "Runtime contract"
 */

/** Every flag of the CLI, as `node:util` `parseArgs` declares them. */
const FLAG_SPECS = {
  help: { type: 'boolean', short: 'h' },
  as: { type: 'string' },
  'as-name': { type: 'string' },
  reason: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  cover: { type: 'string' },
  files: { type: 'string' },
  confirm: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  format: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  out: { type: 'string' },
  lines: { type: 'string', short: 'n' },
  // `vidops resolve`: how an unknown outcome is settled.
  check: { type: 'boolean' },
  applied: { type: 'boolean' },
  'not-applied': { type: 'boolean' },
  'send-again': { type: 'boolean' },
} as const;

export type FlagName = keyof typeof FLAG_SPECS;

/** What a command needs before it can run: nothing, the store only, or the store, API client and policy. */
export type Needs = 'none' | 'store' | 'full';

export type CommandId =
  | 'help'
  | 'unblock'
  | 'retry'
  | 'whitelist'
  | 'whitelist show'
  | 'whitelist add'
  | 'whitelist remove'
  | 'protect'
  | 'protect show'
  | 'protect set'
  | 'folder create'
  | 'folder edit'
  | 'folder delete'
  | 'file edit'
  | 'file delete'
  | 'playlist edit'
  | 'playlist delete'
  | 'explain'
  | 'requests'
  | 'approve'
  | 'reject'
  | 'cancel'
  | 'resolve'
  | 'audit verify'
  | 'audit export'
  | 'audit tail';

export interface CliCommand {
  id: CommandId;
  /** Usage line, e.g. `vidops folder delete <bucketId> --confirm <bucketId> [--reason "…"]`. */
  usage: string;
  summary: string;
  /** Longer notes shown by `vidops <command> --help`. */
  details: readonly string[];
  /** Flags it accepts besides `--help`. */
  flags: readonly FlagName[];
  /** Flags that must be given. */
  required: readonly FlagName[];
  /** How many words follow the command words. */
  words: { min: number; max: number };
  needs: Needs;
  /** Another spelling of a listed command (`whitelist show`): accepted, not listed by `vidops help`. */
  alias: boolean;
}

const ACTOR: readonly FlagName[] = ['as', 'as-name'];
const CHANGE: readonly FlagName[] = [...ACTOR, 'reason'];
const MANY = Number.POSITIVE_INFINITY;

function command(
  id: CommandId,
  usage: string,
  summary: string,
  options: {
    flags?: readonly FlagName[];
    required?: readonly FlagName[];
    words?: [number, number];
    needs?: Needs;
    details?: readonly string[];
    alias?: boolean;
  } = {},
): CliCommand {
  const [min, max] = options.words ?? [0, 0];
  return {
    id,
    usage,
    summary,
    details: options.details ?? [],
    flags: options.flags ?? [],
    required: options.required ?? [],
    words: { min, max },
    needs: options.needs ?? 'full',
    alias: options.alias ?? false,
  };
}

const ACTOR_NOTE =
  'You act as cli:<your OS user name>; --as U… acts as that Slack user (--as-name gives the name the audit log shows). Either way the audit log records your OS user too: "U0LEAD1 via cli:root".';
const APPROVAL_NOTE =
  'When the policy needs approval, the request is created and its ID printed; a lead approves it in Slack (or with `vidops approve <id> --as <lead>` where the policy lets the CLI approve).';

/**
 * The commands, in the order `vidops help` lists them.
 * @see docs/architecture.md, "Slash command grammar"
 */
export const CLI_COMMANDS: readonly CliCommand[] = [
  command('help', 'vidops help [command]', 'Show the commands, or the details of one.', {
    words: [0, 3],
    needs: 'none',
  }),
  command('unblock', 'vidops unblock <mobile> [--reason "…"]', 'Unblock a viewer (player error 9910).', {
    flags: CHANGE,
    words: [1, MANY],
    details: [
      'The number may be written with spaces, dashes, +98/0098, or Persian and Arabic-Indic digits.',
      'Runs at once; over the rate limit of the policy it needs a lead’s approval instead.',
      ACTOR_NOTE,
    ],
  }),
  command('retry', 'vidops retry <fileId>', 'Queue a file whose conversion failed for conversion again.', {
    flags: CHANGE,
    words: [1, 1],
    details: [ACTOR_NOTE],
  }),
  command('whitelist', 'vidops whitelist [show] [--json]', 'Show the IP whitelist.', { flags: ['json'] }),
  command('whitelist show', 'vidops whitelist show [--json]', 'Show the IP whitelist.', {
    flags: ['json'],
    alias: true,
  }),
  command(
    'whitelist add',
    'vidops whitelist add <ip>… [--reason "…"]',
    'Add server IPs to the whitelist (needs a lead’s approval).',
    { flags: CHANGE, words: [1, MANY], details: [APPROVAL_NOTE, ACTOR_NOTE] },
  ),
  command(
    'whitelist remove',
    'vidops whitelist remove <ip>… [--reason "…"]',
    'Remove server IPs from the whitelist (needs a lead’s approval).',
    { flags: CHANGE, words: [1, MANY], details: [APPROVAL_NOTE, ACTOR_NOTE] },
  ),
  command('protect', 'vidops protect [--json]', 'Show the current protection settings.', {
    flags: ['json'],
    alias: true,
  }),
  command('protect show', 'vidops protect show [--json]', 'Show the current protection settings.', {
    flags: ['json'],
  }),
  command(
    'protect set',
    'vidops protect set <field>=<value>… [--reason "…"]',
    'Change protection settings; nested ones by dotted name (needs a lead’s approval).',
    {
      flags: CHANGE,
      words: [1, MANY],
      details: [
        'Example: vidops protect set opacity=0.4 player.offlineMode=true link.expireTime=2h fontColor=red',
        'Only the settings that differ from the current ones are sent.',
        APPROVAL_NOTE,
        ACTOR_NOTE,
      ],
    },
  ),
  command(
    'folder create',
    'vidops folder create --title T [--description D] [--reason "…"]',
    'Create a folder (needs a lead’s approval).',
    { flags: [...CHANGE, 'title', 'description'], required: ['title'], details: [APPROVAL_NOTE, ACTOR_NOTE] },
  ),
  command(
    'folder edit',
    'vidops folder edit <bucketId> --title T [--description D] [--reason "…"]',
    'Rename a folder or change its description (needs a lead’s approval).',
    {
      flags: [...CHANGE, 'title', 'description'],
      required: ['title'],
      words: [1, 1],
      details: [APPROVAL_NOTE, ACTOR_NOTE],
    },
  ),
  command(
    'folder delete',
    'vidops folder delete <bucketId> --confirm <bucketId> [--reason "…"]',
    'Delete a folder and its files for good (typed confirmation and a lead’s approval).',
    {
      flags: [...CHANGE, 'confirm'],
      words: [1, 1],
      details: ['--confirm must repeat the folder ID exactly.', APPROVAL_NOTE, ACTOR_NOTE],
    },
  ),
  command(
    'file edit',
    'vidops file edit <fileId> --title T [--description D] [--cover <image file>] [--reason "…"]',
    'Change a file’s title, description or cover image (needs a lead’s approval).',
    {
      flags: [...CHANGE, 'title', 'description', 'cover'],
      required: ['title'],
      words: [1, 1],
      details: [
        '--cover takes a PNG, JPEG, GIF or WebP file; the approval binds its exact bytes, so the file must be unchanged when the request runs.',
        APPROVAL_NOTE,
        ACTOR_NOTE,
      ],
    },
  ),
  command(
    'file delete',
    'vidops file delete <fileId> --confirm <fileId> [--reason "…"]',
    'Delete a file for good (typed confirmation and a lead’s approval).',
    {
      flags: [...CHANGE, 'confirm'],
      words: [1, 1],
      details: ['--confirm must repeat the file ID exactly.', APPROVAL_NOTE, ACTOR_NOTE],
    },
  ),
  command(
    'playlist edit',
    'vidops playlist edit <playlistId> [--title T] [--files id[:title],…] [--reason "…"]',
    'Change a playlist’s title or files (needs a lead’s approval).',
    {
      flags: [...CHANGE, 'title', 'files'],
      words: [1, 1],
      details: [
        'Give --title, --files or both. --files replaces the whole list, in order: --files 6710b…201:Intro,6710b…202',
        APPROVAL_NOTE,
        ACTOR_NOTE,
      ],
    },
  ),
  command(
    'playlist delete',
    'vidops playlist delete <playlistId> --confirm <playlistId> [--reason "…"]',
    'Delete a playlist for good (typed confirmation and a lead’s approval).',
    {
      flags: [...CHANGE, 'confirm'],
      words: [1, 1],
      details: ['--confirm must repeat the playlist ID exactly.', APPROVAL_NOTE, ACTOR_NOTE],
    },
  ),
  command('explain', 'vidops explain <code>', 'What a player error code means and how to fix it.', {
    words: [1, MANY],
    needs: 'none',
  }),
  command(
    'requests',
    'vidops requests [--all] [--as U…]',
    'Your open and recent requests, and those awaiting your approval; --all lists everyone’s latest.',
    {
      flags: [...ACTOR, 'all'],
      needs: 'store',
      details: ['Needs only DATABASE_URL; with LEADS set it also lists the requests awaiting you.'],
    },
  ),
  command(
    'approve',
    'vidops approve <id> --as <lead>',
    'Approve a request; it runs once the quorum is met.',
    {
      flags: ACTOR,
      required: ['as'],
      words: [1, 1],
      details: [
        'Only where the policy file says `cli: { approve: true }`; by default approvals happen in Slack, where Slack vouches for who clicked.',
        'The CLI does not know Slack user groups: a lead approves from the CLI only when LEADS (or the policy) names their user ID.',
        'You can never approve your own request, nor one that your OS user asked for as someone else; one OS user gives one approval per request.',
      ],
    },
  ),
  command('reject', 'vidops reject <id> --as <lead> --reason "…"', 'Reject a request, saying why.', {
    flags: CHANGE,
    required: ['as', 'reason'],
    words: [1, 1],
  }),
  command('cancel', 'vidops cancel <id> [--as <user>] [--reason "…"]', 'Cancel a request you made.', {
    flags: CHANGE,
    words: [1, 1],
  }),
  command(
    'resolve',
    'vidops resolve <id> --as <lead> --check | --send-again | --applied --reason "…" | --not-applied --reason "…"',
    'Settle a request whose outcome is unknown (it may or may not have been applied).',
    {
      flags: [...CHANGE, 'check', 'applied', 'not-applied', 'send-again'],
      required: ['as'],
      words: [1, 1],
      details: [
        '--check looks the deleted folder, file or playlist up: gone means already deleted, still there means not applied; a service without the look-up changes nothing.',
        '--send-again sends a delete once more; a 404 to it is recorded as already deleted.',
        '--applied and --not-applied record what you found on the service; --reason says what, and is required.',
        'Anyone who may approve the operation can settle it, never its requester.',
      ],
    },
  ),
  command(
    'audit verify',
    'vidops audit verify',
    'Recompute the audit chain and name the first broken event.',
    {
      needs: 'store',
      details: [
        'Needs DATABASE_URL, and AUDIT_HMAC_KEY when the deployment sets it (a different key breaks every hash).',
      ],
    },
  ),
  command(
    'audit export',
    'vidops audit export --format jsonl|csv [--since ISO] [--until ISO] [--out file]',
    'Write the audit log for compliance (stdout by default).',
    {
      flags: ['format', 'since', 'until', 'out'],
      required: ['format'],
      needs: 'store',
      details: [
        'The export is for compliance: it holds full mobile numbers and every parameter. Keep it accordingly.',
        'jsonl: one event per line, with seq, prevHash and hash, so the chain can be checked again. csv: a header row, one event per row, JSON columns for params, outcome and error.',
        '--since and --until are ISO-8601 times (2024-10-17 or 2024-10-17T06:00:00Z), both inclusive.',
      ],
    },
  ),
  command('audit tail', 'vidops audit tail [-n N]', 'The last N audit events (default 10), numbers masked.', {
    flags: ['lines'],
    needs: 'store',
  }),
];

/** The flags every command takes. */
const COMMON_FLAGS: readonly FlagName[] = ['help'];

export function findCommand(id: CommandId): CliCommand {
  const found = CLI_COMMANDS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no CLI command "${id}"`);
  return found;
}

/** Flag values as given; strings for value flags, true for switches. */
export type Flags = Partial<Record<FlagName, string | boolean>>;

export type Invocation =
  | { kind: 'help'; command: CliCommand | null }
  | { kind: 'run'; command: CliCommand; words: string[]; flags: Flags }
  | { kind: 'usage'; message: string; command: CliCommand | null };

/** Words of the command IDs, longest first, so `whitelist add` wins over `whitelist`. */
const BY_LENGTH = [...CLI_COMMANDS].sort((a, b) => b.id.split(' ').length - a.id.split(' ').length);

/** The command named by the first positional words, and how many words named it. */
export function matchCommand(positionals: readonly string[]): { command: CliCommand; used: number } | null {
  const lower = positionals.map((p) => p.toLowerCase());
  for (const candidate of BY_LENGTH) {
    const words = candidate.id.split(' ');
    if (words.every((w, i) => lower[i] === w)) return { command: candidate, used: words.length };
  }
  return null;
}

/** Top-level words, for "did you mean". */
const TOP_WORDS = [...new Set(CLI_COMMANDS.map((c) => c.id.split(' ')[0] ?? ''))];

/** A suggestion for a mistyped first word (`unblok` → `unblock`), or null. */
export function suggestCommand(typed: string): string | null {
  const best = nearest(typed, TOP_WORDS);
  if (best === null) return null;
  return best.distance <= (typed.length >= 5 ? 2 : 1) ? best.value : null;
}

/** Sub-commands of a group word (`audit` → verify, export, tail), for messages. */
export function subcommandsOf(word: string): string[] {
  return CLI_COMMANDS.filter((c) => c.id.startsWith(`${word} `)).map((c) => c.id);
}

/**
 * Reads argv: flags anywhere (`--as U1 approve R-…` and `approve R-… --as U1` are the same),
 * then the command words, then checks the flags and the number of words against the command.
 */
export function parseInvocation(argv: readonly string[]): Invocation {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: [...argv], options: FLAG_SPECS, allowPositionals: true, strict: true });
    values = parsed.values;
    positionals = parsed.positionals;
  } catch (error) {
    const guess = matchCommand(argv.filter((a) => !a.startsWith('-')));
    return {
      kind: 'usage',
      message: error instanceof Error ? error.message : String(error),
      command: guess?.command ?? null,
    };
  }
  const flags: Flags = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && name in FLAG_SPECS) flags[name as FlagName] = value;
  }
  const first = positionals[0];
  if (first === undefined) {
    if (flags.help === true) return { kind: 'help', command: null };
    return { kind: 'usage', message: 'Give a command.', command: null };
  }
  const match = matchCommand(positionals);
  if (match === null) {
    const word = first.toLowerCase();
    const subs = subcommandsOf(word);
    if (subs.length > 0) {
      const typed = positionals[1];
      return {
        kind: 'usage',
        message:
          typed === undefined
            ? `Say what to do: ${subs.map((s) => `vidops ${s}`).join(', ')}.`
            : `\`vidops ${word}\` has no "${typed}"; it has ${subs.map((s) => `\`${s}\``).join(', ')}.`,
        command: findCommand(subs[0] as CommandId),
      };
    }
    const guess = suggestCommand(word);
    return {
      kind: 'usage',
      message: `Unknown command "${first}".${guess === null ? '' : ` Did you mean \`vidops ${guess}\`?`} \`vidops help\` lists the commands.`,
      command: null,
    };
  }
  const { command: cmd, used } = match;
  const words = positionals.slice(used);
  if (cmd.id === 'help') {
    if (words.length === 0) return { kind: 'help', command: null };
    const topic = matchCommand(words);
    if (topic === null) {
      return { kind: 'usage', message: `There is no command "${words.join(' ')}".`, command: null };
    }
    return { kind: 'help', command: topic.command };
  }
  if (flags.help === true) return { kind: 'help', command: cmd };
  const allowed = new Set<FlagName>([...cmd.flags, ...COMMON_FLAGS]);
  const unknown = (Object.keys(flags) as FlagName[]).filter((f) => !allowed.has(f));
  if (unknown.length > 0) {
    const list = unknown.map((f) => `--${f}`).join(', ');
    return { kind: 'usage', message: `\`vidops ${cmd.id}\` does not take ${list}.`, command: cmd };
  }
  const missing = cmd.required.filter((f) => flags[f] === undefined);
  if (missing.length > 0) {
    const list = missing.map((f) => `--${f}`).join(' and ');
    return { kind: 'usage', message: `\`vidops ${cmd.id}\` needs ${list}.`, command: cmd };
  }
  if (words.some((w) => w.trim() === '')) {
    return {
      kind: 'usage',
      message: `\`vidops ${cmd.id}\` was given an empty argument (""); nothing was sent.`,
      command: cmd,
    };
  }
  if (words.length < cmd.words.min) {
    return { kind: 'usage', message: `\`vidops ${cmd.id}\` needs more: ${cmd.usage}`, command: cmd };
  }
  if (words.length > cmd.words.max) {
    const extra = words.slice(cmd.words.max).join(' ');
    return {
      kind: 'usage',
      message: `\`vidops ${cmd.id}\` takes ${cmd.words.max === 0 ? 'no words' : `${cmd.words.max} word${cmd.words.max === 1 ? '' : 's'}`} after it; remove "${extra}".`,
      command: cmd,
    };
  }
  return { kind: 'run', command: cmd, words, flags };
}

/** A string flag's value (undefined when absent). Switches are never read through this. */
export function stringFlag(flags: Flags, name: FlagName): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}
