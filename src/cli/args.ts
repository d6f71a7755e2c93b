import { parseArgs } from 'node:util';
import {
  type CATALOG,
  type ChangeOperation,
  type CommandSpec,
  isChangeOperation,
  type Needs,
  OPERATION_SPECS,
} from '../core/catalog.js';
import { COMMANDS, commandLine, type ListedCommand } from '../core/commands-help.js';
import { wordsCount, wordsUsage } from '../core/shapes.js';
import { nearest } from '../core/validate/nearest.js';
import { ltr, num } from '../i18n/format.js';
import { ENGLISH, type Lang } from '../i18n/lang.js';

/**
 * The `vidops` command line: which commands exist, which flags each takes, how many words follow
 * it, and what configuration it needs. The commands that Slack has too come from the command
 * list of the catalog (usage, flags and notes derived from each operation's entry); the rest are
 * the command line's own. `parseInvocation` turns argv into one of them or a usage error; the
 * words after the command are read later with the grammar's `parseWords`, the flags into the
 * operation's input.
 * @see docs/architecture.md, "Slash command grammar" and "Runtime contract"
 */

/** Every flag of the CLI, as `node:util` `parseArgs` declares them. */
const FLAG_SPECS = {
  help: { type: 'boolean', short: 'h' },
  // The language printed (`fa`, `en`); read before anything else (src/cli/run.ts).
  lang: { type: 'string' },
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
  // `vidops audit verify` of files, without a database.
  events: { type: 'string' },
  checkpoints: { type: 'string' },
  pubkey: { type: 'string', multiple: true },
  'hmac-key-file': { type: 'string' },
  // `vidops audit checkpoint`: sign a log that no longer extends what the key signed (a restore).
  'accept-baseline': { type: 'boolean' },
  // `vidops resolve`: how an unknown outcome is settled.
  check: { type: 'boolean' },
  applied: { type: 'boolean' },
  'not-applied': { type: 'boolean' },
  'send-again': { type: 'boolean' },
  // `vidops unblock`: many numbers at once, from a file (or `-`, standard input), confirmed ahead.
  file: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  // A time-boxed change (`--for 2h`, or an end: `--for 1405/09/07T18:00`); `extend`'s new window.
  for: { type: 'string' },
} as const;

export type FlagName = keyof typeof FLAG_SPECS;

// Every named field of an operation's input is a flag of its commands.
type FieldName = (typeof CATALOG)[ChangeOperation]['fields'][number];
const _everyFieldIsAFlag: [Exclude<FieldName, FlagName>] extends [never] ? true : never = true;

/** What a command needs before it can run: nothing, the store only, or the store, API client and policy. */
export type { Needs } from '../core/catalog.js';

/** A command's words: `folder delete`, `audit export`. */
export type CommandId = string;

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
  /** For a command of the catalog: its spec (how its words are read) and its change operation, if any. */
  spec?: CommandSpec;
  operation?: ChangeOperation;
}

const ACTOR: readonly FlagName[] = ['as', 'as-name'];
const CHANGE: readonly FlagName[] = [...ACTOR, 'reason'];

function command(
  id: CommandId,
  usage: string,
  summary: string,
  options: {
    flags?: readonly FlagName[];
    required?: readonly FlagName[];
    words?: readonly [number, number];
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

const WINDOW_NOTE =
  '--for 2h (or 30m, 1d, 1h30m, or an end such as 1405/09/07T18:00 in DISPLAY_TIME_ZONE) puts the change back by itself at the end of the window, where nobody changed it since; `vidops put-back <id>` does it at once, `vidops extend <id> --for 4h` asks for a new window.';
const UNDO_NOTE =
  'Its requester or a lead; a lead from the CLI only where the policy file says `cli: { approve: true }`, since --as is otherwise only a claim.';

/**
 * The one identity rule of the command line, said for an action on another's request: as for an
 * approval, off unless the policy trusts `--as` claims (src/core/actor.ts, `identityRefusal`).
 */
const CLI_TRUST_NOTE = (verb: 'settle'): string =>
  `Only where the policy file says \`cli: { approve: true }\`, as for approvals; by default ${verb} in Slack, where Slack vouches for who clicked.`;

/** How a field's value is written in a usage line. */
const FIELD_VALUES: Record<FieldName, string> = {
  title: 'T',
  description: 'D',
  cover: '<image file>',
  files: 'id[:title],…',
};

function isFlag(name: string): name is FlagName {
  return Object.hasOwn(FLAG_SPECS, name);
}

/** A CLI command from a command of the catalog: usage, flags and notes derived from its entry. */
function fromCatalog(listed: ListedCommand): CliCommand[] {
  const { spec, operation } = listed;
  if (spec.cli === false) return [];
  const cli = spec.cli ?? {};
  const id = spec.words.join(' ');
  const op = operation !== null && isChangeOperation(operation) ? OPERATION_SPECS[operation] : null;
  const extra = (cli.flags ?? []).filter(isFlag);
  let main: CliCommand;
  if (op === null) {
    main = command(id, cli.usage ?? `vidops ${commandLine(spec)}`, cli.summary ?? spec.summary, {
      flags: extra,
      words: cli.words ?? wordsCount(spec.args),
      needs: cli.needs ?? 'full',
      details: cli.notes ?? [],
    });
  } else {
    const shape: Record<string, { isOptional(): boolean }> = op.input.shape;
    const fields = op.fields.filter(isFlag);
    const required = fields.filter((f) => shape[f]?.isOptional() === false);
    const confirm = op.risk === 'irreversible';
    const fieldUsage = fields.map((f) => {
      const written = `--${f} ${FIELD_VALUES[f as FieldName]}`;
      return required.includes(f) ? ` ${written}` : ` [${written}]`;
    });
    const what = spec.args.kind === 'id' ? spec.args.resource : 'target';
    const boxed = op.undo === 'time-box';
    main = command(
      id,
      `vidops ${commandLine(spec)}${fieldUsage.join('')}${confirm ? ` --confirm ${wordsUsage(spec.args)}` : ''}${boxed ? ' [--for <duration or end>]' : ''} [--reason "…"]`,
      cli.summary ?? spec.summary,
      {
        flags: [
          ...CHANGE,
          ...fields,
          ...(confirm ? (['confirm'] as const) : []),
          ...(boxed ? (['for'] as const) : []),
          ...extra,
        ],
        required,
        words: cli.words ?? wordsCount(spec.args),
        needs: cli.needs ?? 'full',
        details: [
          ...(cli.notes ?? []),
          ...(confirm ? [`--confirm must repeat the ${what} ID exactly.`] : []),
          ...(op.policy.approval ? [APPROVAL_NOTE] : []),
          ...(boxed ? [WINDOW_NOTE] : []),
          ACTOR_NOTE,
        ],
      },
    );
    main.operation = op.name;
  }
  main.spec = spec;
  const aliases = (cli.aliases ?? []).map((words) => ({
    ...main,
    id: words.join(' '),
    usage: `vidops ${words.join(' ')}${main.flags.map((f) => ` [--${f}]`).join('')}`,
    alias: true,
  }));
  return [main, ...aliases];
}

/** The commands of the command line alone: deciding on requests, and the audit log's tools. */
const CLI_ONLY: readonly CliCommand[] = [
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
    details: [
      'Only the requester cancels. A request asked for on the command line is cancelled by the OS user who asked for it, with the same --as (or none).',
      'A request asked for in Slack is cancelled in Slack; here, with --as its requester, only where the policy file says `cli: { approve: true }`, since --as is otherwise only a claim.',
    ],
  }),
  command(
    'revert',
    'vidops revert <id> [--as <user>] [--reason "…"]',
    'Undo a done change: ask for its inverse.',
    {
      flags: CHANGE,
      words: [1, 1],
      details: [
        'For protection, whitelist, folder, file and playlist edits. The inverse is computed from what the change replaced and what the service shows now: what others changed since is left as it is, and said. It is a new request, approved like any change.',
        'Deletes, creates, unblocks and conversion retries cannot be reverted.',
        UNDO_NOTE,
      ],
    },
  ),
  command(
    'put-back',
    'vidops put-back <id> [--as <user>]',
    'Put a time-boxed change back now, before its end.',
    {
      flags: ACTOR,
      words: [1, 1],
      details: [UNDO_NOTE],
    },
  ),
  command(
    'extend',
    'vidops extend <id> --for <duration or end> [--as <user>] [--reason "…"]',
    'Ask for a new window for a time-boxed change in force.',
    {
      flags: [...CHANGE, 'for'],
      required: ['for'],
      words: [1, 1],
      details: [
        'A new request that keeps the same values for the new window, approved as the change was; once it applies, the first change leaves its put-back to it.',
        UNDO_NOTE,
      ],
    },
  ),
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
        CLI_TRUST_NOTE('settle'),
        'Anyone who may approve the operation can settle it, never its requester: not as the Slack user who asked, nor from the OS user who asked, whichever --as it gives.',
      ],
    },
  ),
  command(
    'audit verify',
    'vidops audit verify [--pubkey F]… | vidops audit verify --events F --checkpoints F --pubkey F [--pubkey F]… [--hmac-key-file F]',
    'Recompute the audit chain and check its signed checkpoints; name the first broken event.',
    {
      flags: ['pubkey', 'events', 'checkpoints', 'hmac-key-file'],
      needs: 'store',
      details: [
        'On the database: needs DATABASE_URL, and AUDIT_HMAC_KEY when the deployment sets it (a different key breaks every hash). Every stored checkpoint must be signed by a known key, name as its head the hash of the event at its size, and cover no more events than the database holds.',
        'Known keys: the public key of AUDIT_SIGNING_KEY_FILE and every --pubkey file. After a key rotation, give the old public keys too: a checkpoint signed by a key not given fails.',
        'With --events and --checkpoints it checks files instead (`vidops audit export --format jsonl` and `vidops audit checkpoints`), needs no database and no configuration, and exits 0 only when every event links, every checkpoint is signed by a --pubkey key, and the export holds every event the newest checkpoint covers. --hmac-key-file gives AUDIT_HMAC_KEY when the deployment sets one.',
      ],
    },
  ),
  command(
    'audit checkpoint',
    'vidops audit checkpoint [--accept-baseline --reason "…"]',
    'Sign a checkpoint of the audit log now (the bot posts it to the audit channel).',
    {
      flags: ['accept-baseline', 'reason'],
      needs: 'store',
      details: [
        'Needs DATABASE_URL and AUDIT_SIGNING_KEY_FILE (AUDIT_LOG_NAME and AUDIT_HMAC_KEY when the deployment sets them). The events since the previous checkpoint are checked before anything is signed.',
        'The key remembers the last checkpoint it signed in a file beside it (AUDIT_SIGNING_KEY_FILE.last) and never signs a log that does not extend it: one with fewer events, or another hash at that size.',
        '--accept-baseline --reason "…" signs such a log all the same after a deliberate restore from a backup, when its chain holds from event #1; an audit event records who accepted it and why.',
      ],
    },
  ),
  command(
    'audit checkpoints',
    'vidops audit checkpoints [--out file]',
    'Write the signed checkpoints the database holds, for an offline verify (stdout by default).',
    { flags: ['out'], needs: 'store' },
  ),
  command(
    'audit keygen',
    'vidops audit keygen --out DIR',
    'Make a new key pair for signing audit checkpoints.',
    {
      flags: ['out'],
      required: ['out'],
      needs: 'none',
      details: [
        'Writes DIR/audit-signing.key (mode 600: set AUDIT_SIGNING_KEY_FILE to it) and DIR/audit-signing.pub (give it to compliance), and prints the public key and its key ID. The key is named after AUDIT_LOG_NAME (vidops/<name>).',
        'An existing key is never overwritten. To rotate, make the new key in another directory and point AUDIT_SIGNING_KEY_FILE at it; keep the old .pub for verifying older checkpoints.',
      ],
    },
  ),
  command(
    'audit witness',
    'vidops audit witness [--since ISO]',
    "Compare the audit channel's history with the database: missing, foreign and differing lines and checkpoints.",
    {
      flags: ['since'],
      needs: 'store',
      details: [
        'Needs DATABASE_URL, SLACK_BOT_TOKEN and AUDIT_CHANNEL (SLACK_API_URL when set), and the bot scope channels:history (groups:history for a private channel).',
        "Reads at most 20,000 messages (newest first), waiting out Slack's rate limits; --since reads only the messages posted since then. Events older than what was read are not compared, and it says how many.",
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
  command(
    'doctor',
    'vidops doctor [--json]',
    'Check the configuration, database, Slack, keys, video service, clock and policy.',
    {
      flags: ['json'],
      needs: 'none',
      details: [
        'One line per check, with its fix: every variable parses; the database answers and its schema is current; the Slack token works and has the scopes of manifest.yml; the bot is in the audit and approval channels; the signing key and its state file are mode 600 and agree with the database; the video service answers a whitelist read; the clock agrees with the database; Slack knows everyone the policy names.',
        'Exit 0 when every check passes, 1 otherwise. --json prints {"ok":…,"checks":[{"check","ok","detail","fix"}]} for scripts. It changes nothing: no migration, no checkpoint, no change upstream.',
      ],
    },
  ),
  command('backup', 'vidops backup <file>', 'Copy the SQLite database while the bot runs, verified.', {
    words: [1, 1],
    needs: 'none',
    details: [
      "Uses SQLite's online backup: the bot keeps running. The copy is written to a temporary file (mode 600) beside <file>, checked like `vidops audit verify`, then renamed to <file>; a copy that does not verify is not kept.",
      'Needs DATABASE_URL (and AUDIT_HMAC_KEY, AUDIT_SIGNING_KEY_FILE when the deployment sets them). PostgreSQL is refused: use pg_dump (docs/operations.md, "Backup and restore").',
      'Keep beside it what the database does not hold: the signing key and its state file, AUDIT_HMAC_KEY and VIDEO_SECRET_KEY.',
    ],
  }),
];

/**
 * The commands, in the order `vidops help` lists them: those of the catalog (the same list as
 * Slack's help), then the command line's own.
 * @see docs/architecture.md, "Slash command grammar" and "The operation catalog"
 */
export const CLI_COMMANDS: readonly CliCommand[] = [...COMMANDS.flatMap(fromCatalog), ...CLI_ONLY];

/** The flags every command takes. */
const COMMON_FLAGS: readonly FlagName[] = ['help', 'lang'];

export function findCommand(id: CommandId): CliCommand {
  const found = CLI_COMMANDS.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no CLI command "${id}"`);
  return found;
}

/** Flag values as given; strings for value flags, true for switches, a list for repeatable flags. */
export type Flags = Partial<Record<FlagName, string | boolean | string[]>>;

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
export function parseInvocation(argv: readonly string[], lang: Lang = ENGLISH): Invocation {
  const t = lang.t.cli;
  const cmd = (text: string) => ltr(lang, text);
  let values: Record<string, string | boolean | string[] | undefined>;
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
    return { kind: 'usage', message: t.cliGiveCommand, command: null };
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
            ? t.cliSayWhatToDo(subs.map((s) => cmd(`vidops ${s}`)).join(lang.locale === 'fa' ? '، ' : ', '))
            : t.cliNoSubcommand(
                word,
                typed,
                subs.map((s) => cmd(`\`${s}\``)).join(lang.locale === 'fa' ? '، ' : ', '),
              ),
        command: findCommand(subs[0] as CommandId),
      };
    }
    const guess = suggestCommand(word);
    return {
      kind: 'usage',
      message: `${t.cliUnknownCommand(first)}${guess === null ? '' : t.cliDidYouMean(guess)}${t.cliHelpLists}`,
      command: null,
    };
  }
  const { command: found, used } = match;
  const words = positionals.slice(used);
  if (found.id === 'help') {
    if (words.length === 0) return { kind: 'help', command: null };
    const topic = matchCommand(words);
    if (topic === null) {
      return { kind: 'usage', message: t.cliNoSuchCommand(words.join(' ')), command: null };
    }
    return { kind: 'help', command: topic.command };
  }
  if (flags.help === true) return { kind: 'help', command: found };
  const allowed = new Set<FlagName>([...found.flags, ...COMMON_FLAGS]);
  const unknown = (Object.keys(flags) as FlagName[]).filter((f) => !allowed.has(f));
  if (unknown.length > 0) {
    const list = unknown.map((f) => `--${f}`).join(', ');
    return { kind: 'usage', message: t.cliDoesNotTake(found.id, cmd(list)), command: found };
  }
  const missing = found.required.filter((f) => flags[f] === undefined);
  if (missing.length > 0) {
    return {
      kind: 'usage',
      message: t.cliNeedsFlags(
        found.id,
        missing.map((f) => `--${f}`),
      ),
      command: found,
    };
  }
  if (words.some((w) => w.trim() === '')) {
    return {
      kind: 'usage',
      message: t.cliEmptyArgument(found.id),
      command: found,
    };
  }
  if (words.length < found.words.min) {
    return { kind: 'usage', message: t.cliNeedsMore(found.id, found.usage), command: found };
  }
  if (words.length > found.words.max) {
    const extra = words.slice(found.words.max).join(' ');
    return {
      kind: 'usage',
      message: t.cliTooManyWords(found.id, found.words.max, num(lang, found.words.max), extra),
      command: found,
    };
  }
  return { kind: 'run', command: found, words, flags };
}

/** A string flag's value (undefined when absent). Switches are never read through this. */
export function stringFlag(flags: Flags, name: FlagName): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every value of a repeatable flag (`--pubkey a --pubkey b`), in order; empty when absent. */
export function stringsFlag(flags: Flags, name: FlagName): string[] {
  const value = flags[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}
