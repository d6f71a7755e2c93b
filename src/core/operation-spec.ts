import type { z } from 'zod';
import type { WordsSpec } from './shapes.js';
import type { ResourceKind } from './validate/ids.js';

export type { WordsSpec, WordsValue } from './shapes.js';

/**
 * What an operation's catalog entry is made of (each entry lives in its own module,
 * `src/operations/<name>/spec.ts`; ./catalog.ts gathers them): its risk and repeat rule, the
 * commands that ask for it (words, usage, summary, example: slash grammar, help and CLI usage come
 * from them), its input, the schema of its parameters (exactly what is sent, hashed for
 * approval), the schema of its preview, its typed target, the text a typed confirmation repeats,
 * its default policy, and its titles in English and Persian. Pure: no I/O.
 * @see docs/architecture.md, "The operation catalog"
 */

/** `reversible`: can be put back; `sensitive`: changes security for every viewer; `irreversible`: deletes. */
export type OperationRisk = 'reversible' | 'sensitive' | 'irreversible';

/**
 * What may happen when nobody can tell whether a send took effect (vidops stopped while it ran,
 * or the answer was lost after sending):
 * - `resume`: vidops sends it again by itself; a second send gives the same end state and the
 *   same answer (edits, unblock, whitelist set, settings update);
 * - `lead`: never again on its own, because a repeat answers 404 (deletes); the request goes to
 *   `unknown` and a lead may send it again, a 404 to that repeat meaning "already deleted";
 * - `never`: a second send could do the work twice (creates, retry-conversion); the request goes
 *   to `unknown` and a lead settles it by looking at the service.
 * @see docs/architecture.md, "Approvals" (which operations are resumed after a crash)
 */
export type RepeatRule = 'resume' | 'lead' | 'never';

/**
 * An operation's rule when the policy file says nothing about it (see `DEFAULT_RULES`): whether it
 * needs approval and from how many approvers, whether a typed confirmation is asked first, and
 * how many per person and period run without approval.
 * @see docs/architecture.md, "Approvals"
 */
export interface RuleDefaults {
  approval: boolean;
  quorum: number;
  confirm: boolean;
  rateLimit: { max: number; per: string } | null;
}

/** Runs at once, for any agent. */
export const DIRECT: RuleDefaults = { approval: false, quorum: 1, confirm: false, rateLimit: null };
/** One lead approves before it runs. */
export const ONE_LEAD: RuleDefaults = { approval: true, quorum: 1, confirm: false, rateLimit: null };
/** A typed confirmation, then one lead. */
export const CONFIRM_AND_ONE_LEAD: RuleDefaults = { ...ONE_LEAD, confirm: true };

// ---------------------------------------------------------------------------------------------
// Command words: the vocabulary of `/vidops …` and `vidops …`

/** First words of a command, in the order help lists them. */
export const KEYWORDS = [
  'help',
  'unblock',
  'viewer',
  'retry',
  'whitelist',
  'protect',
  'folder',
  'file',
  'playlist',
  'requests',
  'audit',
  'explain',
  'delegate',
  'lang',
] as const;
export type Keyword = (typeof KEYWORDS)[number];

/**
 * The words of a command: `['retry']`, `['folder', 'delete']`. The second words are whatever the
 * commands declare (`SUBWORDS` in ./commands-help.ts gathers them).
 */
export type CommandWords = readonly [Keyword] | readonly [Keyword, string];

/** The argument a resource's ID fills, by resource. */
export const ID_NAMES = { folder: 'bucketId', file: 'fileId', playlist: 'playlistId' } as const;

/** The languages a person may choose with `/vidops lang` (the same as src/i18n's `LOCALES`). */
export const LANGUAGE_WORDS = ['fa', 'en'] as const;

/**
 * The languages' names as people also type them (`/vidops lang فارسی`), in both languages and
 * spellings, any case (the grammar has taken out ZWNJ and other invisible marks already).
 */
export const LANGUAGE_NAMES: ReadonlyMap<string, (typeof LANGUAGE_WORDS)[number]> = new Map([
  ['فارسی', 'fa'],
  ['پارسی', 'fa'],
  ['farsi', 'fa'],
  ['persian', 'fa'],
  ['انگلیسی', 'en'],
  ['english', 'en'],
]);

/** A mobile number as read: what is sent (`param`), its national and E.164 forms, and the masked form shown. */
export interface ReadMobile {
  param: string;
  national: string;
  e164: string;
  masked: string;
}

/** What the CLI needs before a command runs: nothing, the store only, or the store, API client and policy. */
export type Needs = 'none' | 'store' | 'full';

/** How a command shows on the command line, where it differs from Slack. */
export interface CliSide {
  /** Summary for `vidops help`, when it differs from Slack's. */
  summary?: string;
  /** Usage, when it cannot be derived (read commands with their own flags). */
  usage?: string;
  /** Notes shown by `vidops <command> --help`. */
  notes?: readonly string[];
  /** Flags it takes besides those its input gives (`json`, `all`). */
  flags?: readonly string[];
  /** How many words follow, when not what the words spec says. */
  words?: readonly [number, number];
  needs?: Needs;
  /** Other spellings accepted on the command line, not listed (`whitelist show`). */
  aliases?: readonly CommandWords[];
}

/**
 * One command people type: its words, how the words after it are read, its summary and example.
 * `kind` names the typed command the grammar gives (and its Slack handler); `usage` is derived.
 */
export interface CommandSpec<K extends string = string, W extends WordsSpec = WordsSpec> {
  kind: K;
  words: CommandWords;
  args: W;
  summary: string;
  /** The same in Persian: what `/vidops help` shows a Persian reader. */
  fa: { summary: string };
  /** A full example, `/vidops folder delete 671018d0403eba579a6f90e2`; help shows it and tests run it. */
  example: string;
  /** Other second words that name this command in Slack (`whitelist show`, `whitelist list`). */
  also?: readonly string[];
  /** False for a command that exists only in Slack (the `protect` settings form). */
  cli?: CliSide | false;
  /** False for a command that exists only on the command line. */
  slash?: boolean;
}

/** A command of the catalog; `const` keeps its kind and words spec literal, for the typed grammar. */
export function command<const K extends string, const W extends WordsSpec>(
  spec: CommandSpec<K, W>,
): CommandSpec<K, W> {
  return spec;
}

/**
 * What an operation acts on, as data: an existing record by ID, a record to be created (by its
 * title), or the one whitelist or protection settings. Each language renders it with one
 * function (`targetText` for the English stored in requests and the audit log).
 */
export type Target =
  | { kind: ResourceKind | 'viewer'; id: string }
  | { kind: 'new'; resource: ResourceKind; title: string }
  | { kind: 'whitelist' }
  | { kind: 'protection' }
  /** A row whose parameters do not give its target (a view test's, a damaged one): its stored text. */
  | { kind: 'stored'; text: string };

const ID_KINDS: readonly string[] = ['folder', 'file', 'playlist', 'viewer'] satisfies (
  | ResourceKind
  | 'viewer'
)[];

/**
 * The target of a row whose parameters do not give it, from the text stored with it: the one
 * shape every ID target is stored in (`folder 6710…`), else the text as it is.
 */
export function storedTarget(text: string): Target {
  const [kind = '', id, ...more] = text.split(' ');
  return ID_KINDS.includes(kind) && id !== undefined && id !== '' && more.length === 0
    ? { kind: kind as ResourceKind | 'viewer', id }
    : { kind: 'stored', text };
}

/** The target with `clean` applied to the text it holds (an ID, a title): masking, stripping controls. */
export function mapTargetText(target: Target, clean: (text: string) => string): Target {
  switch (target.kind) {
    case 'new':
      return { ...target, title: clean(target.title) };
    case 'whitelist':
    case 'protection':
      return target;
    case 'stored':
      return { kind: 'stored', text: clean(target.text) };
    default:
      return { kind: target.kind, id: clean(target.id) };
  }
}

/**
 * The target as English text, as requests and audit events store it (`folder 6710…`,
 * `new playlist "Intro"`, `whitelist`): the hash chain covers it, so it never changes.
 */
export function targetText(target: Target): string {
  switch (target.kind) {
    case 'new':
      return `new ${target.resource} "${target.title}"`;
    case 'whitelist':
      return 'whitelist';
    case 'protection':
      return 'protection settings';
    case 'stored':
      return target.text;
    default:
      return `${target.kind} ${target.id}`;
  }
}

// ---------------------------------------------------------------------------------------------
// An entry

/** @see OperationSpec.undo */
export type UndoRule = 'time-box' | 'revert' | 'none';

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where an operation is sent, declared once beside it: the client calls it from here, its retry
 * policy follows from `repeat`, and test/e2e and src/client hold it against the sandbox's own
 * statement of the documented endpoints.
 * @see docs/architecture.md, "The operation catalog"
 */
export interface Endpoint<R extends RepeatRule | 'read' = RepeatRule | 'read'> {
  /** Number in the spec's endpoint table; null for a documented extra (docs/api-extras.md). */
  specOp: number | null;
  method: EndpointMethod;
  /** Methods the spec also shows for it (op 10 is shown with POST and PATCH). */
  alsoMethods?: readonly EndpointMethod[];
  /** `{fileId}` stands for an ID that the call puts in the path. */
  path: `/v1/${string}`;
  body: 'json' | 'multipart' | 'none';
  /** A read may always be sent again; a change as its RepeatRule says. */
  repeat: R;
}

/** One change operation, every part of it that needs no I/O. */
export interface OperationSpec<
  O extends string = string,
  I extends z.ZodObject = z.ZodObject,
  P extends z.ZodType = z.ZodType,
  V extends z.ZodType = z.ZodType,
> {
  name: O;
  /** Imperative title people read: `Unblock viewer`. */
  title: string;
  /** The same in Persian: `رفع مسدودی بیننده`; `cli`, as the command line titles it. */
  fa: { title: string; cli: string };
  risk: OperationRisk;
  /** Where it is sent, and whether vidops, or a lead, may send it again when its outcome is not known. */
  endpoint: Endpoint<RepeatRule>;
  /**
   * Whether a done change can be undone: `time-box` (it may be asked for a while, `for 2h`, and
   * is put back at the end; it can also be reverted), `revert` (a Revert… opens its inverse as a
   * new request), `none` (deletes, creates and one-way actions).
   * @see docs/time-boxed.md
   */
  undo: UndoRule;
  /**
   * Whether its sends must never overlap, in any process: each takes a lease in the store first
   * (the whitelist is read, checked and posted whole, so two at once would lose one).
   */
  sendsAlone?: boolean;
  /** The commands that ask for it. */
  commands: readonly CommandSpec[];
  /**
   * What a person gives for it, typed: the values the words after a command give (read by the
   * grammar), and the named `fields` (a modal's inputs, the CLI's flags), read by this schema.
   */
  input: I;
  /** The named fields of `input`, in the order the CLI usage lists them. */
  fields: readonly (keyof z.output<I> & string)[];
  /** Exactly what is sent (strict: unknown members are refused); hashed for approval. */
  params: P;
  preview: V;
  /** What the operation acts on: `{ kind: 'viewer', id }`, `{ kind: 'whitelist' }`. */
  target(params: z.output<P>): Target;
  /** What a typed confirmation repeats, when the policy asks for one: the ID, else the title. */
  confirm(input: z.output<I>): string;
  policy: RuleDefaults;
}

/**
 * An entry of the catalog; the generics keep its schemas' and commands' own types, and the names
 * of the documented reads that belong to it (`reads`: the whitelist and settings it changes).
 */
export function operation<
  const O extends string,
  I extends z.ZodObject,
  P extends z.ZodType,
  V extends z.ZodType,
  const C extends readonly CommandSpec[],
  const F extends readonly (keyof z.output<I> & string)[],
  const R extends Readonly<Record<string, Endpoint<'read'>>> = Record<never, Endpoint<'read'>>,
>(
  spec: OperationSpec<O, I, P, V> & { commands: C; fields: F; reads?: R },
): OperationSpec<O, I, P, V> & { commands: C; fields: F; reads?: R } {
  return spec;
}

export const CHANGE_NOTE = 'needs a lead’s approval';
export const CHANGE_NOTE_FA = 'با تأیید سرپرست';
export const DELETE_NOTE_FA = 'با تأیید تایپی و تأیید سرپرست';
