import {
  CATALOG,
  type CommandSpec,
  type CommandWords,
  command,
  isChangeOperation,
  KEYWORDS,
} from './catalog.js';
import type { OperationName } from './operations.js';
import { type WordsSpec, type WordsValue, wordsUsage } from './shapes.js';
import type { BoxAsked } from './time-box.js';

/**
 * Every command people type, in Slack and on the command line: the change commands come from
 * the catalog's entries, the read-only ones are declared here. `/vidops help`, the slash grammar
 * and `vidops help` all read this one list.
 * @see docs/architecture.md, "Slash command grammar" and "The operation catalog"
 */

/** The slash command the bot answers to. */
export const SLASH_COMMAND = '/vidops';

const NONE = { kind: 'none' } as const;
const MANY = Number.POSITIVE_INFINITY;

/**
 * The commands that only read, with the operation the policy is asked about to list them (null:
 * every agent may run it) and whether only leads see them.
 */
const READ_COMMANDS = [
  {
    reads: null,
    spec: command({
      kind: 'help',
      words: ['help'],
      args: NONE,
      summary: 'List the commands you may run.',
      fa: { summary: 'فهرست دستورهایی که می‌توانید اجرا کنید.' },
      example: '/vidops help',
      cli: {
        summary: 'Show the commands, or the details of one.',
        usage: 'vidops help [command]',
        words: [0, 3],
        needs: 'none',
      },
    }),
  },
  {
    reads: null,
    spec: command({
      kind: 'viewer',
      words: ['viewer'],
      args: { kind: 'mobile' },
      summary: 'What vidops did for a viewer: each unblock, who asked and approved, when, and why.',
      fa: {
        summary:
          'آنچه vidops برای یک بیننده کرده است: هر رفع مسدودی، درخواست‌کننده و تأییدکننده، زمان و دلیل.',
      },
      example: '/vidops viewer 0912 345 6789',
      cli: {
        summary: 'A viewer’s unblocks from the audit log, the number shown whole.',
        usage: 'vidops viewer <mobile> [--json]',
        flags: ['json'],
        needs: 'full',
      },
    }),
  },
  {
    reads: 'whitelist.get',
    spec: command({
      kind: 'whitelist.show',
      words: ['whitelist'],
      args: NONE,
      also: ['show', 'list'],
      summary: 'Show the IP whitelist, with Add and Remove buttons.',
      fa: { summary: 'نمایش لیست سفید IP، با دکمه‌های افزودن و برداشتن.' },
      example: '/vidops whitelist',
      cli: {
        summary: 'Show the IP whitelist.',
        usage: 'vidops whitelist [show] [--json]',
        flags: ['json'],
        aliases: [['whitelist', 'show']],
      },
    }),
  },
  {
    reads: 'protect.get',
    spec: command({
      kind: 'protect.show',
      words: ['protect', 'show'],
      args: NONE,
      summary: 'Show the current protection settings.',
      fa: { summary: 'نمایش تنظیمات فعلی حفاظت.' },
      example: '/vidops protect show',
      cli: { usage: 'vidops protect show [--json]', flags: ['json'], aliases: [['protect']] },
    }),
  },
  {
    reads: null,
    spec: command({
      kind: 'requests',
      words: ['requests'],
      args: NONE,
      summary: 'Your open requests; for leads, also the requests awaiting them.',
      fa: { summary: 'درخواست‌های باز شما؛ برای سرپرست‌ها، درخواست‌هایی هم که منتظر تأیید آن‌هاست.' },
      example: '/vidops requests',
      cli: {
        summary:
          'Your open and recent requests, and those awaiting your approval; --all lists everyone’s latest.',
        usage: 'vidops requests [--all] [--as U…]',
        flags: ['as', 'as-name', 'all'],
        needs: 'store',
        notes: ['Needs only DATABASE_URL; with LEADS set it also lists the requests awaiting you.'],
      },
    }),
  },
  {
    reads: null,
    leadsOnly: true,
    spec: command({
      kind: 'audit',
      words: ['audit'],
      args: { kind: 'count' },
      summary: 'The last n audit events (default 10, at most 100).',
      fa: { summary: 'آخرین n رویداد ممیزی (پیش‌فرض ۱۰، حداکثر ۱۰۰).' },
      example: '/vidops audit 20',
      cli: false,
    }),
  },
  {
    reads: null,
    spec: command({
      kind: 'explain',
      words: ['explain'],
      args: { kind: 'code' },
      summary: 'What a player error code means and how to fix it.',
      fa: { summary: 'معنای یک کد خطای پخش‌کننده و راه رفع آن.' },
      example: '/vidops explain 9910',
      cli: { words: [1, MANY], needs: 'none' },
    }),
  },
  // Delegation (docs/architecture.md, "Break-glass and delegation"): leads only, Slack only.
  {
    reads: null,
    leadsOnly: true,
    spec: command({
      kind: 'delegate',
      words: ['delegate'],
      args: { kind: 'delegation' },
      summary: 'Let someone approve in your place until a date or for a while (e.g. `until 2d`).',
      fa: { summary: 'کسی را تا تاریخی یا برای مدتی جانشین خود در تأیید کنید (مثلاً `until 2d`).' },
      example: '/vidops delegate <@U0123ABCD|sara> until 2d on leave',
      cli: false,
    }),
  },
  {
    reads: null,
    leadsOnly: true,
    spec: command({
      kind: 'delegate.cancel',
      words: ['delegate', 'cancel'],
      args: NONE,
      summary: 'End your delegation now.',
      fa: { summary: 'جانشینی‌تان را همین حالا پایان دهید.' },
      example: '/vidops delegate cancel',
      cli: false,
    }),
  },
  {
    reads: null,
    spec: command({
      kind: 'lang',
      words: ['lang'],
      args: { kind: 'language' },
      summary: 'Read vidops in Persian (fa) or English (en); alone, shows your language.',
      fa: {
        summary: 'vidops را به فارسی (fa) یا انگلیسی (en) بخوانید؛ به‌تنهایی، زبان فعلی‌تان را نشان می‌دهد.',
      },
      example: '/vidops lang fa',
      // The command line follows --lang and LANG instead.
      cli: false,
    }),
  },
] as const satisfies readonly { reads: OperationName | null; leadsOnly?: boolean; spec: CommandSpec }[];

type ReadCommand = (typeof READ_COMMANDS)[number]['spec'];
type AnyCommand = ReadCommand | (typeof CATALOG)[keyof typeof CATALOG]['commands'][number];

/**
 * The window a change that goes back by itself may end with (`for 2h`): the words of those
 * changes are addresses or settings (`protect set`, `whitelist add`, `whitelist remove`).
 * @see docs/commands.md, "Time-boxed changes"
 */
type Windowed<W extends WordsSpec> = W extends { kind: 'ips' | 'assignments' }
  ? { timeBox?: BoxAsked }
  : unknown;

/** A command as the grammar reads it: its kind, the typed values of its words, and its window if any. */
export type Command = AnyCommand extends infer C
  ? C extends CommandSpec<infer K, infer W extends WordsSpec>
    ? { kind: K } & WordsValue<W> & Windowed<W>
    : never
  : never;
export type CommandKind = Command['kind'];

/**
 * One command in the list: its spec, the operation the policy is asked about to decide whether
 * the caller may run it (null: every agent may), and whether only leads see it.
 */
export interface ListedCommand {
  spec: CommandSpec<CommandKind>;
  operation: OperationName | null;
  leadsOnly: boolean;
}

function rank(words: CommandWords): [number, number] {
  return [KEYWORDS.indexOf(words[0]), words.length];
}

/**
 * Every command, in the order help lists them: by first word, the bare command first; within a
 * first word, the read-only commands, then the changes in the catalog's order (a stable sort).
 */
export const COMMANDS: readonly ListedCommand[] = [
  ...READ_COMMANDS.map(
    (entry): ListedCommand => ({
      spec: entry.spec,
      operation: entry.reads,
      leadsOnly: 'leadsOnly' in entry && entry.leadsOnly,
    }),
  ),
  ...Object.values(CATALOG).flatMap((op) =>
    op.commands.map(
      (spec): ListedCommand => ({
        spec: spec as CommandSpec<CommandKind>,
        operation: op.name,
        leadsOnly: false,
      }),
    ),
  ),
].sort((a, b) => {
  const [a1, a2] = rank(a.spec.words);
  const [b1, b2] = rank(b.spec.words);
  return a1 - b1 || a2 - b2;
});

/** The second words of the commands, in help's order: derived, so a new command's word is known. */
export const SUBWORDS: readonly string[] = [
  ...new Set(COMMANDS.flatMap(({ spec }) => (spec.words[1] === undefined ? [] : [spec.words[1]]))),
];

/** The commands of Slack, in help's order. */
export const SLASH_COMMANDS: readonly ListedCommand[] = COMMANDS.filter((c) => c.spec.slash !== false);

/** The words and arguments of a command: `folder delete <bucketId>`. */
export function commandLine(spec: Pick<CommandSpec, 'words' | 'args'>): string {
  const args = wordsUsage(spec.args);
  return `${spec.words.join(' ')}${args === '' ? '' : ` ${args}`}`;
}

/**
 * One line of `/vidops help`. `operation` is what the policy is asked about to decide whether
 * the caller may run it (null: every agent may); `leadsOnly` commands are listed to leads only.
 * @see docs/architecture.md, "Slash command grammar"
 */
export interface CommandHelp {
  usage: string;
  summary: string;
  /** The summary in Persian. */
  fa: { summary: string };
  operation: OperationName | null;
  leadsOnly: boolean;
  example: string;
}

/** What a change that goes back by itself may end with, in Slack (the command line has `--for`). */
export const WINDOW_USAGE = '[for <duration>|until <end>]';

/** Whether a command's words may end with a window: a time-boxed operation's addresses or settings. */
export function takesWindow(listed: Pick<ListedCommand, 'spec' | 'operation'>): boolean {
  const { operation, spec } = listed;
  const boxed = operation !== null && isChangeOperation(operation) && CATALOG[operation].undo === 'time-box';
  return boxed && (spec.args.kind === 'ips' || spec.args.kind === 'assignments');
}

/** The whole grammar, in help's order. */
export const COMMAND_HELP: readonly CommandHelp[] = SLASH_COMMANDS.map(({ spec, operation, leadsOnly }) => ({
  usage: `${SLASH_COMMAND} ${commandLine(spec)}${takesWindow({ spec, operation }) ? ` ${WINDOW_USAGE}` : ''}`,
  summary: spec.summary,
  fa: { summary: spec.fa.summary },
  operation,
  leadsOnly,
  example: spec.example,
}));

/**
 * The usage line of a command given by its words (`retry`, `whitelist add`), or of the first
 * command of a first word (`folder`). Throws for words that are not a command: that is a
 * programming error, not user input.
 */
export function usageOf(words: string): string {
  const prefix = `${SLASH_COMMAND} ${words}`;
  const entry =
    COMMAND_HELP.find((h) => h.usage === prefix) ??
    COMMAND_HELP.find((h) => h.usage.startsWith(`${prefix} `));
  if (entry === undefined) throw new Error(`no help entry for "${words}"`);
  return entry.usage;
}
