import { isIP } from 'node:net';
import { z } from 'zod';
import type { DelegateWords } from './delegation.js';
import { InputError } from './errors.js';
import type { OperationRequest, RequestFields } from './model.js';
import type { OperationName, ReadOperation } from './operations.js';
import type { ProtectionConfig } from './protection.js';
import type { ResourceKind } from './validate/ids.js';
import { ipKey } from './validate/ip.js';
import { MobileParamSchema } from './validate/phone.js';
import { flattenProtection, ProtectionConfigSchema } from './validate/protection.js';

/**
 * The operation catalog: one declaration per change operation, the one source of truth every
 * surface reads. An entry holds the operation's title, spec number, risk and repeat rule; its
 * commands (words, usage, summary, example: slash grammar, help and CLI usage come from them);
 * its input (what a person gives: words after the command, modal fields, CLI flags); the schema
 * of its parameters (exactly what is sent, hashed for approval); the schema of its preview (what
 * approvers see); its target; the text a typed confirmation repeats; and its default policy.
 * What needs the API client (prepare, execute) is the services' table, keyed by the same names
 * (src/services/catalog.ts); the views render previews through tables keyed by them too.
 * @see docs/architecture.md, "The operation catalog"
 * @see docs/api.md, "Endpoints"
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
const DIRECT: RuleDefaults = { approval: false, quorum: 1, confirm: false, rateLimit: null };
/** One lead approves before it runs. */
const ONE_LEAD: RuleDefaults = { approval: true, quorum: 1, confirm: false, rateLimit: null };
/** A typed confirmation, then one lead. */
const CONFIRM_AND_ONE_LEAD: RuleDefaults = { ...ONE_LEAD, confirm: true };

// ---------------------------------------------------------------------------------------------
// Command words: the vocabulary of `/vidops …` and `vidops …`

/** First words of a command, in the order help lists them. */
export const KEYWORDS = [
  'help',
  'unblock',
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

/** Second words of a command, in the order help lists them within their first word. */
export const SUBWORDS = ['create', 'add', 'remove', 'show', 'set', 'edit', 'delete', 'cancel'] as const;
export type Subword = (typeof SUBWORDS)[number];

/** The words of a command: `['retry']`, `['folder', 'delete']`. */
export type CommandWords = readonly [Keyword] | readonly [Keyword, Subword];

/** The argument a resource's ID fills, by resource. */
export const ID_NAMES = { folder: 'bucketId', file: 'fileId', playlist: 'playlistId' } as const;

/**
 * How the words after a command are read; the slash grammar and the CLI read them with the same
 * functions (src/core/grammar.ts, `parseWords`).
 */
export type WordsSpec =
  /** Nothing may follow; `why` says where the values come from instead (`the form asks for the title`). */
  | { kind: 'none'; why?: string }
  /** One folder, file or playlist ID. */
  | { kind: 'id'; resource: ResourceKind }
  /** A mobile number, written as people paste it (`+98 912 345 6789`). */
  | { kind: 'mobile' }
  /** IP addresses to add or remove. */
  | { kind: 'ips'; change: 'add' | 'remove' }
  /** Protection settings as `field=value`. */
  | { kind: 'assignments' }
  /** `audit [n]`. */
  | { kind: 'count' }
  /** A player error code. */
  | { kind: 'code' }
  /** `<@user> until <date or duration> [reason]` (core/delegation.ts). */
  | { kind: 'delegation' }
  /** `lang [fa|en]`: a language to choose, or none (show the current one). */
  | { kind: 'language' };

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

type IdValues = { [R in ResourceKind]: { [K in (typeof ID_NAMES)[R]]: string } };
interface WordsValues {
  none: Record<never, never>;
  mobile: { mobile: ReadMobile };
  ips: { ips: string[] };
  assignments: { changes: ProtectionConfig };
  count: { n: number };
  code: { code: string };
  delegation: DelegateWords;
  language: { locale: (typeof LANGUAGE_WORDS)[number] | null };
}

/** What the words of a command give, typed: `{ bucketId }` for a folder ID, `{ ips }` for addresses. */
export type WordsValue<W extends WordsSpec> = W extends { kind: 'id'; resource: infer R extends ResourceKind }
  ? IdValues[R]
  : W extends { kind: infer K extends keyof WordsValues }
    ? WordsValues[K]
    : never;

/** The usage text of a command's words: `<bucketId>`, `<ip>…`. */
export function wordsUsage(words: WordsSpec): string {
  switch (words.kind) {
    case 'none':
      return '';
    case 'id':
      return `<${ID_NAMES[words.resource]}>`;
    case 'mobile':
      return '<mobile>';
    case 'ips':
      return '<ip>…';
    case 'assignments':
      return '<field>=<value>…';
    case 'count':
      return '[n]';
    case 'code':
      return '<code>';
    case 'delegation':
      return '<@user> until <date or duration> [reason]';
    case 'language':
      return `[${LANGUAGE_WORDS.join('|')}]`;
  }
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

// ---------------------------------------------------------------------------------------------
// Values shared by several operations. Stored parameters are already clean: a params schema
// checks, it never rewrites (the params hash binds approvals to them).

const ResourceIdSchema = z
  .string()
  .min(1, 'must not be empty')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused in IDs.
  .regex(/^[^\s/\u0000-\u001f\u007f]+$/, 'must have no spaces, slashes or control characters')
  // `.` and `..` in a URL path would change the route the call goes to.
  .refine((id) => !/^\.+$/.test(id), 'must not be made only of dots');

const TitleSchema = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => s.trim() !== '', 'must not be blank');

const IpLiteralSchema = z
  .string()
  .refine((s) => isIP(s) !== 0 && !s.includes('%'), 'must be an IPv4 or IPv6 address');

const PlaylistEntrySchema = z.strictObject({
  _id: ResourceIdSchema,
  title: z.string().exactOptional(),
});

/** A cover image as the Slack layer knows it: a Slack file, downloaded only at execution. */
const CoverSchema = z.strictObject({
  slackFileId: z.string().min(1),
  filename: z.string().min(1),
  contentType: z.string().regex(/^image\//, 'must be an image type'),
  url: z.url(),
});
export type CoverRef = z.output<typeof CoverSchema>;

// Named input fields (modal inputs, CLI flags), read from what a person typed: trimmed, and an
// empty optional field is no field.
const TitleField = z.string().trim().min(1, 'must not be empty');
const OptionalText = z
  .string()
  .transform((s) => s.trim() || undefined)
  .optional();
const PlaylistEntryField = z.strictObject({
  _id: ResourceIdSchema,
  title: OptionalText,
});

/** Words-given values are read by the grammar's functions; the schema names their type. */
const WordsGiven = {
  id: ResourceIdSchema,
  ips: z.array(IpLiteralSchema),
  mobileNumber: MobileParamSchema,
  changes: z.custom<ProtectionConfig>((value) => ProtectionConfigSchema.safeParse(value).success),
};

// Previews: what approvers see before deciding, built by `prepare`. Old requests kept a preview
// of the same shapes; one that does not parse is shown as "preview not available".
const Known = z.string().nullable();
const ProtectionScalar = z.union([z.string(), z.number(), z.boolean()]);
const EntryPreview = z.object({ _id: z.string(), title: z.string().exactOptional() });

function createPreview<const R extends ResourceKind, S extends z.ZodRawShape>(resource: R, after: S) {
  return z.object({ kind: z.literal('create'), resource: z.literal(resource), after: z.object(after) });
}

function editPreview<const R extends ResourceKind, B extends z.ZodRawShape, A extends z.ZodRawShape>(
  resource: R,
  before: B,
  after: A,
) {
  return z.object({
    kind: z.literal('edit'),
    resource: z.literal(resource),
    id: z.string(),
    /** Null when the current values could not be read. */
    before: z.object(before).nullable(),
    after: z.object(after),
  });
}

function deletePreview<const R extends ResourceKind, S extends z.ZodRawShape>(resource: R, known: S) {
  return z.object({ kind: z.literal('delete'), resource: z.literal(resource), id: z.string(), ...known });
}

// ---------------------------------------------------------------------------------------------
// The entries

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
  /** The same in Persian: `رفع مسدودی بیننده`. */
  fa: { title: string };
  /** Operation number in the spec's endpoint table; null for a documented extra (docs/api-extras.md). */
  specOp: number | null;
  risk: OperationRisk;
  /** Whether vidops, or a lead, may send it again when its outcome is not known. */
  repeat: RepeatRule;
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
  /** What the operation acts on, for people: `viewer 09123456789`, `whitelist`. */
  target(params: z.output<P>): string;
  /** What a typed confirmation repeats, when the policy asks for one: the ID, else the title. */
  confirm(input: z.output<I>): string;
  policy: RuleDefaults;
}

/** An entry of the catalog; the generics keep its schemas' and commands' own types. */
function operation<
  const O extends string,
  I extends z.ZodObject,
  P extends z.ZodType,
  V extends z.ZodType,
  const C extends readonly CommandSpec[],
  const F extends readonly (keyof z.output<I> & string)[],
>(
  spec: OperationSpec<O, I, P, V> & { commands: C; fields: F },
): OperationSpec<O, I, P, V> & { commands: C; fields: F } {
  return spec;
}

const CHANGE_NOTE = 'needs a lead’s approval';
const CHANGE_NOTE_FA = 'با تأیید سرپرست';
const DELETE_NOTE_FA = 'با تأیید تایپی و تأیید سرپرست';

const whitelistSet = operation({
  name: 'whitelist.set',
  title: 'Update whitelist',
  fa: { title: 'به‌روزرسانی لیست سفید' },
  specOp: 1,
  risk: 'sensitive',
  repeat: 'resume',
  commands: [
    command({
      kind: 'whitelist.add',
      words: ['whitelist', 'add'],
      args: { kind: 'ips', change: 'add' },
      summary: `Add server IPs to the whitelist (${CHANGE_NOTE}).`,
      fa: { summary: `افزودن IP سرورها به لیست سفید (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist add 1.2.3.4 2a00:1::4',
    }),
    command({
      kind: 'whitelist.remove',
      words: ['whitelist', 'remove'],
      args: { kind: 'ips', change: 'remove' },
      summary: `Remove server IPs from the whitelist (${CHANGE_NOTE}).`,
      fa: { summary: `برداشتن IP سرورها از لیست سفید (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist remove 1.2.3.4',
    }),
  ],
  input: z.strictObject({
    /** `set`: the whole list at once (e.g. an edit form). */
    change: z.enum(['add', 'remove', 'set']),
    ips: WordsGiven.ips,
  }),
  fields: [],
  params: z.strictObject({
    allowedDNS: z
      .array(IpLiteralSchema)
      .refine((ips) => new Set(ips.map(ipKey)).size === ips.length, 'must not list an address twice'),
    /** The list as read when the request was made; execution refuses if it changed since. */
    expectBefore: z.array(z.string()),
  }),
  preview: z.object({
    kind: z.literal('whitelist'),
    before: z.array(z.string()),
    after: z.array(z.string()),
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  target: () => 'whitelist',
  confirm: () => 'whitelist.set',
  policy: ONE_LEAD,
});

const protectSet = operation({
  name: 'protect.set',
  title: 'Change protection settings',
  fa: { title: 'تغییر تنظیمات حفاظت' },
  specOp: 3,
  risk: 'sensitive',
  repeat: 'resume',
  commands: [
    command({
      kind: 'protect.modal',
      words: ['protect'],
      args: { kind: 'none' },
      summary: `Open the protection settings to change them (${CHANGE_NOTE}).`,
      fa: { summary: `باز کردن تنظیمات حفاظت برای تغییرشان (${CHANGE_NOTE_FA}).` },
      example: '/vidops protect',
      cli: false,
    }),
    command({
      kind: 'protect.set',
      words: ['protect', 'set'],
      args: { kind: 'assignments' },
      summary: `Change protection settings; nested ones by dotted name (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر تنظیمات حفاظت؛ تنظیم‌های تودرتو با نام نقطه‌دار (${CHANGE_NOTE_FA}).` },
      example: '/vidops protect set player.offlineMode=true link.expireTime=2h opacity=0.5 fontColor=red',
      cli: {
        notes: [
          'Example: vidops protect set opacity=0.4 player.offlineMode=true link.expireTime=2h fontColor=red',
          'Only the settings that differ from the current ones are sent.',
        ],
      },
    }),
  ],
  input: z.strictObject({ changes: WordsGiven.changes }),
  fields: [],
  params: z.strictObject({
    changes: ProtectionConfigSchema.refine(
      (changes) => flattenProtection(changes).length > 0,
      'must change at least one setting',
    ),
  }),
  preview: z.object({
    kind: z.literal('protection'),
    rows: z.array(
      z.object({ field: z.string(), before: ProtectionScalar.nullable(), after: ProtectionScalar }),
    ),
  }),
  target: () => 'protection settings',
  confirm: () => 'protect.set',
  policy: ONE_LEAD,
});

const folderCreate = operation({
  name: 'folder.create',
  title: 'Create folder',
  fa: { title: 'ساخت پوشه' },
  specOp: 5,
  risk: 'reversible',
  repeat: 'never',
  commands: [
    command({
      kind: 'folder.create',
      words: ['folder', 'create'],
      args: { kind: 'none', why: 'the form asks for the title' },
      summary: `Create a folder (${CHANGE_NOTE}).`,
      fa: { summary: `ساخت پوشه (${CHANGE_NOTE_FA}).` },
      example: '/vidops folder create',
    }),
  ],
  input: z.strictObject({ title: TitleField, description: OptionalText }),
  fields: ['title', 'description'],
  params: z.strictObject({ title: TitleSchema, description: z.string().exactOptional() }),
  preview: createPreview('folder', { title: z.string(), description: z.string().exactOptional() }),
  target: (p) => `new folder "${p.title}"`,
  confirm: (i) => i.title,
  policy: ONE_LEAD,
});

const folderEdit = operation({
  name: 'folder.edit',
  title: 'Edit folder',
  fa: { title: 'ویرایش پوشه' },
  specOp: 6,
  risk: 'reversible',
  repeat: 'resume',
  commands: [
    command({
      kind: 'folder.edit',
      words: ['folder', 'edit'],
      args: { kind: 'id', resource: 'folder' },
      summary: `Rename a folder or change its description (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر نام یا توضیح پوشه (${CHANGE_NOTE_FA}).` },
      example: '/vidops folder edit 671018d0403eba579a6f90e2',
    }),
  ],
  input: z.strictObject({ bucketId: WordsGiven.id, title: TitleField, description: OptionalText }),
  fields: ['title', 'description'],
  params: z.strictObject({
    bucketId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
  }),
  preview: editPreview(
    'folder',
    { title: Known, description: Known },
    { title: z.string(), description: Known },
  ),
  target: (p) => `folder ${p.bucketId}`,
  confirm: (i) => i.bucketId,
  policy: ONE_LEAD,
});

/**
 * A delete: for good, sent again only by a lead (a repeat answers 404), confirmed by typing the
 * ID; it names the one ID it acts on, and its preview says what the look-up found of it.
 */
function deleteOperation<
  const O extends string,
  const R extends ResourceKind,
  S extends z.ZodRawShape,
>(spec: {
  name: O;
  title: string;
  fa: { title: string; summary: string };
  specOp: number;
  resource: R;
  summary: string;
  /** What the preview says of the record when the look-up found it. */
  found: S;
}) {
  const { name, resource } = spec;
  const id: IdName<R> = ID_NAMES[resource];
  return operation({
    name,
    title: spec.title,
    fa: { title: spec.fa.title },
    specOp: spec.specOp,
    risk: 'irreversible',
    repeat: 'lead',
    commands: [
      command({
        kind: name,
        words: [resource, 'delete'],
        args: { kind: 'id', resource },
        summary: spec.summary,
        fa: { summary: spec.fa.summary },
        example: `/vidops ${resource} delete 671018d0403eba579a6f90e2`,
      }),
    ],
    input: z.strictObject(idShape(resource, WordsGiven.id)),
    fields: [],
    params: z.strictObject(idShape(resource, ResourceIdSchema)),
    preview: deletePreview(resource, spec.found),
    target: (p) => `${resource} ${idIn(p, id)}`,
    confirm: (i) => idIn(i, id),
    policy: CONFIRM_AND_ONE_LEAD,
  });
}

type IdName<R extends ResourceKind> = (typeof ID_NAMES)[R];

/** The ID in a delete's input or parameters (an object of that one ID; zod's generic type hides it). */
function idIn(value: object, id: string): string {
  return (value as Record<string, string>)[id] ?? '';
}

/** `{ bucketId: schema }` for a folder, `{ fileId: schema }` for a file… */
function idShape<R extends ResourceKind, T extends z.ZodType>(resource: R, schema: T) {
  return { [ID_NAMES[resource]]: schema } as { [K in IdName<R>]: T };
}

const folderDelete = deleteOperation({
  name: 'folder.delete',
  title: 'Delete folder',
  fa: { title: 'حذف پوشه', summary: `حذف همیشگی پوشه و هرچه در آن است (${DELETE_NOTE_FA}).` },
  specOp: 7,
  resource: 'folder',
  summary: 'Delete a folder and everything in it, for good (typed confirmation and a lead’s approval).',
  found: { title: Known, filesCount: z.number().nullable() },
});

const fileEdit = operation({
  name: 'file.edit',
  title: 'Edit file',
  fa: { title: 'ویرایش فایل' },
  specOp: 8,
  risk: 'reversible',
  repeat: 'resume',
  commands: [
    command({
      kind: 'file.edit',
      words: ['file', 'edit'],
      args: { kind: 'id', resource: 'file' },
      summary: `Change a file’s title, description or cover image (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر عنوان، توضیح یا تصویر کاور فایل (${CHANGE_NOTE_FA}).` },
      example: '/vidops file edit 671018d0403eba579a6f90e2',
      cli: {
        notes: [
          '--cover takes a PNG, JPEG, GIF or WebP file; the approval binds its exact bytes, so the file must be unchanged when the request runs.',
        ],
      },
    }),
  ],
  input: z.strictObject({
    fileId: WordsGiven.id,
    title: TitleField,
    description: OptionalText,
    cover: CoverSchema.optional(),
  }),
  fields: ['title', 'description', 'cover'],
  params: z.strictObject({
    fileId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
    cover: CoverSchema.exactOptional(),
  }),
  preview: editPreview(
    'file',
    { title: Known, description: Known, bucketId: Known, hlsStatus: Known },
    { title: z.string(), description: Known, cover: Known },
  ),
  target: (p) => `file ${p.fileId}`,
  confirm: (i) => i.fileId,
  policy: ONE_LEAD,
});

const fileDelete = deleteOperation({
  name: 'file.delete',
  title: 'Delete file',
  fa: { title: 'حذف فایل', summary: `حذف همیشگی فایل (${DELETE_NOTE_FA}).` },
  specOp: 9,
  resource: 'file',
  summary: 'Delete a file for good (typed confirmation and a lead’s approval).',
  found: { title: Known, bucketId: Known },
});

const fileRetry = operation({
  name: 'file.retry',
  title: 'Retry conversion',
  fa: { title: 'تبدیل دوباره' },
  specOp: 10,
  risk: 'reversible',
  repeat: 'never',
  commands: [
    command({
      kind: 'retry',
      words: ['retry'],
      args: { kind: 'id', resource: 'file' },
      summary: 'Queue a file whose conversion failed for conversion again.',
      fa: { summary: `فرستادن دوباره‌ی فایلی که تبدیلش ناموفق بوده به صف تبدیل.` },
      example: '/vidops retry 671018d0403eba579a6f90e2',
    }),
  ],
  input: z.strictObject({ fileId: WordsGiven.id }),
  fields: [],
  params: z.strictObject({ fileId: ResourceIdSchema }),
  preview: z.object({
    kind: z.literal('retry'),
    resource: z.literal('file'),
    id: z.string(),
    title: Known,
    hlsStatus: Known,
  }),
  target: (p) => `file ${p.fileId}`,
  confirm: (i) => i.fileId,
  policy: DIRECT,
});

const playlistCreate = operation({
  name: 'playlist.create',
  title: 'Create playlist',
  fa: { title: 'ساخت پلی‌لیست' },
  specOp: null,
  risk: 'reversible',
  repeat: 'never',
  commands: [
    command({
      kind: 'playlist.create',
      words: ['playlist', 'create'],
      args: { kind: 'none', why: 'the form asks for the title' },
      summary: `Create a playlist (${CHANGE_NOTE}).`,
      fa: { summary: `ساخت پلی‌لیست (${CHANGE_NOTE_FA}).` },
      example: '/vidops playlist create',
    }),
  ],
  input: z.strictObject({ title: TitleField }),
  fields: ['title'],
  params: z.strictObject({ title: TitleSchema }),
  preview: createPreview('playlist', { title: z.string() }),
  target: (p) => `new playlist "${p.title}"`,
  confirm: (i) => i.title,
  policy: ONE_LEAD,
});

const playlistEdit = operation({
  name: 'playlist.edit',
  title: 'Edit playlist',
  fa: { title: 'ویرایش پلی‌لیست' },
  specOp: 11,
  risk: 'reversible',
  repeat: 'resume',
  commands: [
    command({
      kind: 'playlist.edit',
      words: ['playlist', 'edit'],
      args: { kind: 'id', resource: 'playlist' },
      summary: `Change a playlist’s title or files (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر عنوان یا فایل‌های پلی‌لیست (${CHANGE_NOTE_FA}).` },
      example: '/vidops playlist edit 671018d0403eba579a6f90e2',
      cli: {
        notes: [
          'Give --title, --files or both. --files replaces the whole list, in order: --files 6710b…201:Intro,6710b…202',
        ],
      },
    }),
  ],
  input: z.strictObject({
    playlistId: WordsGiven.id,
    title: OptionalText,
    files: z.array(PlaylistEntryField).optional(),
  }),
  fields: ['title', 'files'],
  params: z
    .strictObject({
      playlistId: ResourceIdSchema,
      title: TitleSchema.exactOptional(),
      files: z.array(PlaylistEntrySchema).exactOptional(),
    })
    .refine((p) => p.title !== undefined || p.files !== undefined, 'must change the title or the files'),
  preview: editPreview(
    'playlist',
    { title: Known, files: z.array(EntryPreview) },
    { title: Known, files: z.array(EntryPreview).nullable() },
  ),
  target: (p) => `playlist ${p.playlistId}`,
  confirm: (i) => i.playlistId,
  policy: ONE_LEAD,
});

const playlistDelete = deleteOperation({
  name: 'playlist.delete',
  title: 'Delete playlist',
  fa: { title: 'حذف پلی‌لیست', summary: `حذف همیشگی پلی‌لیست و محتوای آن (${DELETE_NOTE_FA}).` },
  specOp: 12,
  resource: 'playlist',
  summary: 'Delete a playlist and its contents, for good (typed confirmation and a lead’s approval).',
  found: { title: Known, filesCount: z.number().nullable() },
});

const viewerUnblock = operation({
  name: 'viewer.unblock',
  title: 'Unblock viewer',
  fa: { title: 'رفع مسدودی بیننده' },
  specOp: 13,
  risk: 'reversible',
  repeat: 'resume',
  commands: [
    command({
      kind: 'unblock',
      words: ['unblock'],
      args: { kind: 'mobile' },
      summary: 'Unblock a viewer blocked for suspicious behaviour (player error 9910).',
      fa: { summary: `رفع مسدودی بیننده‌ای که به‌خاطر رفتار مشکوک مسدود شده است (خطای پخش‌کننده‌ی ۹۹۱۰).` },
      example: '/vidops unblock 0912 345 6789',
      cli: {
        notes: [
          'The number may be written with spaces, dashes, +98/0098, or Persian and Arabic-Indic digits.',
          'Runs at once; over the rate limit of the policy it needs a lead’s approval instead.',
        ],
      },
    }),
  ],
  // As parseMobile gives it: national digits (`09123456789`) or E.164 for another region.
  input: z.strictObject({ mobileNumber: WordsGiven.mobileNumber }),
  fields: [],
  params: z.strictObject({ mobileNumber: MobileParamSchema }),
  preview: z.object({
    kind: z.literal('unblock'),
    mobileNumber: z.string(),
    blocked: z.boolean().nullable(),
    actionType: Known,
  }),
  target: (p) => `viewer ${p.mobileNumber}`,
  confirm: (i) => i.mobileNumber,
  policy: { ...DIRECT, rateLimit: { max: 30, per: '1h' } },
});

/**
 * Every change operation, in the order of the spec's endpoint table. The key is the operation's
 * name; `checkNames` makes a key and its entry's `name` agree.
 */
export const CATALOG = checkNames({
  'whitelist.set': whitelistSet,
  'protect.set': protectSet,
  'folder.create': folderCreate,
  'folder.edit': folderEdit,
  'folder.delete': folderDelete,
  'file.edit': fileEdit,
  'file.delete': fileDelete,
  'file.retry': fileRetry,
  'playlist.create': playlistCreate,
  'playlist.edit': playlistEdit,
  'playlist.delete': playlistDelete,
  'viewer.unblock': viewerUnblock,
});

function checkNames<T extends { [K in keyof T]: OperationSpec<K & string> }>(catalog: T): T {
  return catalog;
}

type Catalog = typeof CATALOG;

/** Every command that asks for a change, with its literal kind and words spec. */
export type ChangeCommand = Catalog[keyof Catalog]['commands'][number];

/** Names of the operations vidops performs; the numbers of `docs/api.md`, the extras of `docs/api-extras.md`. */
export type ChangeOperation = keyof Catalog;
export const CHANGE_OPERATIONS = Object.keys(CATALOG) as [ChangeOperation, ...ChangeOperation[]];

/** What a person gives for each operation, typed (see `OperationSpec.input`). */
export type OperationInput = { [O in ChangeOperation]: z.output<Catalog[O]['input']> };
/** The typed parameters of each operation. */
export type OperationParams = { [O in ChangeOperation]: z.output<Catalog[O]['params']> };
/** The typed preview of each operation. */
export type OperationPreview = { [O in ChangeOperation]: z.output<Catalog[O]['preview']> };
export type Preview<O extends ChangeOperation = ChangeOperation> = OperationPreview[O];

/** An entry with its types spelt out, so that a generic `O` indexes it. */
export interface Spec<O extends ChangeOperation> {
  name: O;
  title: string;
  fa: { title: string };
  specOp: number | null;
  risk: OperationRisk;
  repeat: RepeatRule;
  commands: readonly CommandSpec[];
  input: z.ZodType<OperationInput[O]> & z.ZodObject;
  fields: readonly string[];
  params: z.ZodType<OperationParams[O]>;
  preview: z.ZodType<OperationPreview[O]>;
  target(params: OperationParams[O]): string;
  confirm(input: OperationInput[O]): string;
  policy: RuleDefaults;
}

/** The catalog, typed for generic access (`OPERATION_SPECS[op]` for `op: O`). */
export const OPERATION_SPECS: { readonly [O in ChangeOperation]: Spec<O> } = CATALOG;

/** Titles of the read-only operations (spec ops 2 and 4, and the documented extras). */
export const READ_OPERATION_TITLES: Readonly<Record<ReadOperation, string>> = {
  'whitelist.get': 'Show whitelist',
  'protect.get': 'Show protection settings',
  'folder.list': 'List folders',
  'folder.info': 'Show folder',
  'file.list': 'List files',
  'file.info': 'Show file',
  'playlist.info': 'Show playlist',
  'playlist.list': 'List playlists',
  'viewer.lookup': 'Look up viewer',
};

export function isChangeOperation(name: string): name is ChangeOperation {
  return Object.hasOwn(CATALOG, name);
}

/** Title of any operation, change or read. */
export function operationTitle(name: OperationName): string {
  return isChangeOperation(name) ? OPERATION_SPECS[name].title : READ_OPERATION_TITLES[name];
}

/** Titles of the read-only operations in Persian. */
export const READ_OPERATION_TITLES_FA: Readonly<Record<ReadOperation, string>> = {
  'whitelist.get': 'نمایش لیست سفید',
  'protect.get': 'نمایش تنظیمات حفاظت',
  'folder.list': 'فهرست پوشه‌ها',
  'folder.info': 'نمایش پوشه',
  'file.list': 'فهرست فایل‌ها',
  'file.info': 'نمایش فایل',
  'playlist.info': 'نمایش پلی‌لیست',
  'playlist.list': 'پلی‌لیست‌ها',
  'viewer.lookup': 'جست‌وجوی بیننده',
};

/** Title of any operation in Persian. */
export function operationTitleFa(name: OperationName): string {
  return isChangeOperation(name) ? OPERATION_SPECS[name].fa.title : READ_OPERATION_TITLES_FA[name];
}

/** `field.sub: message` for each zod issue. */
function issueLines(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  );
}

/**
 * The typed parameters of `operation` read from JSON (a stored request, a form's draft), or
 * InputError listing every problem (`allowedDNS.1: must be an IPv4 or IPv6 address`).
 */
export function parseParams<O extends ChangeOperation>(operation: O, params: unknown): OperationParams[O] {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const result = spec.params.safeParse(params);
  if (result.success) return result.data;
  const issues = issueLines(result.error);
  throw new InputError(`The parameters of "${spec.title}" are not valid: ${issues.join('; ')}`, issues);
}

/** The typed preview of `operation` read from JSON; null when it is not one (a request of an older build). */
export function parsePreview<O extends ChangeOperation>(operation: O, preview: unknown): Preview<O> | null {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const result = spec.preview.safeParse(preview);
  return result.success ? result.data : null;
}

/** The target text of a request, from its typed parameters. */
export function operationTarget<O extends ChangeOperation>(operation: O, params: OperationParams[O]): string {
  const spec: Spec<O> = OPERATION_SPECS[operation];
  return spec.target(params);
}

/**
 * A stored request read back, typed: its parameters parsed with its operation's schema (they were
 * checked when asked, so a failure means the row was altered: it throws, naming the request), its
 * preview parsed too (a preview of an older shape reads as null: "preview not available").
 * @see docs/architecture.md, "The operation catalog"
 */
export function readRequest(
  stored: RequestFields & { operation: string; params: unknown; preview: unknown },
): OperationRequest {
  const { operation, params, preview, ...fields } = stored;
  if (!isChangeOperation(operation)) {
    throw new InputError(
      `Request ${stored.id} is for "${operation}", an operation this build does not know.`,
    );
  }
  return typedRequest(operation, fields, params, preview);
}

function typedRequest<O extends ChangeOperation>(
  operation: O,
  fields: RequestFields,
  params: unknown,
  preview: unknown,
): OperationRequest<O> {
  let typed: OperationParams[O];
  try {
    typed = parseParams(operation, params);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const { title } = OPERATION_SPECS[operation];
    throw new InputError(
      `Request ${fields.id} holds parameters that are not valid for "${title}": ${error.issues.join('; ')}`,
      error.issues,
    );
  }
  return { ...fields, operation, params: typed, preview: parsePreview(operation, preview) };
}

/**
 * The part of an operation's input that a command's words give, from their typed values: the
 * ID for `{ kind: 'id' }`, the number to send for a mobile, the addresses and whether they are
 * added or removed, the settings. Slack's text commands and the CLI build their input with it.
 */
export function wordsInput(args: WordsSpec, value: object): Record<string, unknown> {
  switch (args.kind) {
    case 'mobile':
      return { mobileNumber: (value as WordsValue<{ kind: 'mobile' }>).mobile.param };
    case 'ips':
      return { change: args.change, ips: (value as WordsValue<{ kind: 'ips'; change: 'add' }>).ips };
    case 'id':
    case 'assignments':
      return { ...value };
    case 'none':
    case 'count':
    case 'code':
    case 'delegation':
    case 'language':
      return {};
  }
}
