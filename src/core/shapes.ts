import { type DelegateWords, parseDelegateWords } from './delegation.js';
import { ID_NAMES, LANGUAGE_NAMES, LANGUAGE_WORDS, type ReadMobile } from './operation-spec.js';
import { normalizeErrorCode } from './player-errors.js';
import type { ProtectionConfig } from './protection.js';
import { type Said, say } from './said.js';
import { isWindowWord } from './time-box.js';
import { parseResourceId, type ResourceKind } from './validate/ids.js';
import { parseIpList } from './validate/ip.js';
import { parseMobile } from './validate/phone.js';
import { parseAssignments } from './validate/protection.js';

/**
 * The closed set of argument shapes: how the words after a command are written (usage), how many
 * there are, how they are read (the slash grammar and the CLI alike), and which part of an
 * operation's input they give. One entry per shape in `SHAPES`, a table over every kind, so a new
 * shape is one entry here and a missing piece of it is a type error. Operation specs only name a
 * shape (`args: { kind: 'id', resource: 'file' }`); this module is never imported by them.
 * @see docs/architecture.md, "The operation catalog"
 */

/** How the words after a command are read. */
export type WordsSpec =
  /** Nothing may follow; `why` says where the values come from instead (`the form asks for the title`). */
  | { kind: 'none'; why?: string }
  /**
   * One folder, file or playlist ID; `and` adds IDs, each after a fixed word, each of another
   * resource: `<fileId> to <bucketId>` is `{ resource: 'file', and: [{ word: 'to', resource: 'folder' }] }`.
   */
  | { kind: 'id'; resource: ResourceKind; and?: readonly { word: string; resource: ResourceKind }[] }
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

export type ShapeKind = WordsSpec['kind'];
export type ShapeOf<K extends ShapeKind> = Extract<WordsSpec, { kind: K }>;

type IdValues = { [R in ResourceKind]: { [K in (typeof ID_NAMES)[R]]: string } };
/** The IDs of `and`, as one object: `{ bucketId }` for `[{ word: 'to', resource: 'folder' }]`. */
type SlotValues<T> = T extends readonly [{ resource: infer R extends ResourceKind }, ...infer Rest]
  ? IdValues[R] & SlotValues<Rest>
  : unknown;
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
export type WordsValue<W extends WordsSpec> = W extends {
  kind: 'id';
  resource: infer R extends ResourceKind;
  and?: infer T;
}
  ? IdValues[R] & SlotValues<T>
  : W extends { kind: infer K extends keyof WordsValues }
    ? WordsValues[K]
    : never;

export interface ParseOptions {
  /** Region for mobile numbers written without a country code (`PHONE_REGION`). */
  phoneRegion: string;
  /** Regions whose mobiles are accepted (`PHONE_REGIONS`); default: `phoneRegion` alone. */
  phoneRegions?: readonly string[];
}

/** Default and bounds of `audit [n]`. */
export const AUDIT_DEFAULT = 10;
export const AUDIT_MAX = 100;

type Refusal = { ok: false; said: Said; usage: string };

/** How the words after a command were read: their typed values, or what was wrong. */
export type WordsResult<W extends WordsSpec> = { ok: true; value: WordsValue<W>; warnings: Said[] } | Refusal;

/** Where words are read: the command's words (`folder delete`), its usage line, the options. */
interface ReadAt {
  name: string;
  usage: string;
  options: ParseOptions;
}

/** One shape of words, as data. */
interface Shape<W extends WordsSpec> {
  usage(words: W): string;
  /** Fewest and most words; `Infinity` for a list. */
  count(words: W): readonly [number, number];
  read(words: W, args: readonly string[], at: ReadAt): WordsResult<W>;
  /** The part of an operation's input the words give (a mobile's number to send, not its masked form). */
  input(words: W, value: WordsValue<W>): Record<string, unknown>;
}

const MANY = Number.POSITIVE_INFINITY;
const nothing = () => ({});

export const SHAPES: { [K in ShapeKind]: Shape<ShapeOf<K>> } = {
  none: {
    usage: () => '',
    count: () => [0, 0],
    read: (w, args, at) => (args.length === 0 ? value({}) : tooMany(at, args, w.why)),
    input: nothing,
  },
  id: {
    usage: (w) =>
      idSlots(w)
        .map((s) => `${s.word} <${ID_NAMES[s.resource]}>`.trimStart())
        .join(' '),
    count: (w) => [2 * idSlots(w).length - 1, 2 * idSlots(w).length - 1],
    read: readIds,
    input: (_w, v) => ({ ...v }),
  },
  mobile: {
    usage: () => '<mobile>',
    count: () => [1, MANY],
    read(_w, args, { usage, options }) {
      if (args.length === 0) return fail(say.grammarNoMobile(), usage);
      // People paste `+98 912 345 6789`: the number is every word after the keyword.
      const mobile = parseMobile(args.join(' '), options.phoneRegion, {
        regions: options.phoneRegions ?? [options.phoneRegion],
      });
      if (!mobile.ok) return fail(say.grammarNobodyUnblocked(mobile.said), usage);
      const { param, national, e164, masked } = mobile;
      return value({ mobile: { param, national, e164, masked } });
    },
    input: (_w, v) => ({ mobileNumber: v.mobile.param }),
  },
  ips: {
    usage: () => '<ip>…',
    count: () => [1, MANY],
    read(w, args, { usage }) {
      if (args.length === 0) return fail(say.grammarNoIps(w.change), usage);
      // The slash grammar took a window off already: one left is the command line's.
      const refused = windowLeft(args, usage);
      if (refused !== null) return refused;
      const parsed = parseIpList(args, w.change);
      return parsed.ok ? value({ ips: parsed.ips }) : fail(say.grammarWhitelistRefused(parsed.said), usage);
    },
    input: (w, v) => ({ change: w.change, ips: v.ips }),
  },
  assignments: {
    usage: () => '<field>=<value>…',
    count: () => [1, MANY],
    read(_w, args, { usage }) {
      if (args.length === 0) return fail(say.grammarNoSettings(), usage);
      const refused = windowLeft(args, usage);
      if (refused !== null) return refused;
      const parsed = parseAssignments(args);
      return parsed.ok
        ? value({ changes: parsed.changes })
        : fail(say.grammarSettingsRefused(parsed.said), usage);
    },
    input: (_w, v) => ({ ...v }),
  },
  count: {
    usage: () => '[n]',
    count: () => [0, 1],
    read(_w, args, at) {
      if (args.length === 0) return value({ n: AUDIT_DEFAULT });
      if (args.length > 1) return tooMany(at, args.slice(1));
      const raw = args[0] ?? '';
      const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(n) || n < 1 || n > AUDIT_MAX)
        return fail(say.grammarBadCount(raw, AUDIT_MAX), at.usage);
      return value({ n });
    },
    input: nothing,
  },
  code: {
    usage: () => '<code>',
    count: () => [1, MANY],
    read(_w, args, { usage }) {
      if (args.length === 0) return fail(say.grammarNoCode(), usage);
      const raw = args.join(' ');
      const code = normalizeErrorCode(raw);
      return code === null ? fail(say.grammarBadCode(raw), usage) : value({ code });
    },
    input: nothing,
  },
  delegation: {
    usage: () => '<@user> until <date or duration> [reason]',
    count: () => [1, MANY],
    read(_w, args, { usage }) {
      const read = parseDelegateWords(args);
      return read.ok ? value(read.value) : fail(read.said, usage);
    },
    input: nothing,
  },
  language: {
    usage: () => `[${LANGUAGE_WORDS.join('|')}]`,
    count: () => [0, 1],
    read(_w, args, at) {
      if (args.length === 0) return value({ locale: null });
      if (args.length > 1) return tooMany(at, args.slice(1));
      const raw = args[0] ?? '';
      const word = raw.toLowerCase();
      const locale = LANGUAGE_WORDS.find((w) => w === word) ?? LANGUAGE_NAMES.get(word);
      return locale === undefined
        ? fail(say.grammarBadLanguage(raw, LANGUAGE_WORDS), at.usage)
        : value({ locale });
    },
    input: nothing,
  },
};

function shapeOf<W extends WordsSpec>(words: W): Shape<W> {
  // The table is keyed by kind, so the entry of `words.kind` is the shape of `W`.
  return SHAPES[words.kind] as Shape<W>;
}

/** How the words of a command are written in its usage line. */
export function wordsUsage(words: WordsSpec): string {
  return shapeOf(words).usage(words);
}

/** How many words a command takes after its own. */
export function wordsCount(words: WordsSpec): readonly [number, number] {
  return shapeOf(words).count(words);
}

/**
 * Reads the words after a command (`name`, e.g. `folder delete`, whose usage line is `usage`) as
 * its shape says: Slack's tokens and the CLI's arguments alike. A refusal says what was wrong.
 */
export function readWords<W extends WordsSpec>(
  words: W,
  args: readonly string[],
  at: ReadAt,
): WordsResult<W> {
  return shapeOf(words).read(words, args, at);
}

/**
 * The part of an operation's input that a command's words give: the ID, the number to send for a
 * mobile, the addresses and whether they are added or removed, the settings. Slack's text
 * commands and the CLI build their input with it.
 */
export function wordsInput<W extends WordsSpec>(words: W, value: WordsValue<W>): Record<string, unknown> {
  return shapeOf(words).input(words, value);
}

/** An ID shape's slots: its first ID (no word before it), then each joining word and its ID. */
function idSlots(w: ShapeOf<'id'>): readonly { word: string; resource: ResourceKind }[] {
  return [{ word: '', resource: w.resource }, ...(w.and ?? [])];
}

/**
 * IDs joined by fixed words (`<fileId> to <bucketId>`), slot by slot: the words up to the next
 * joining word are one ID (missing, several, or refused → the usage line; not 24 hex digits → a
 * warning), and a missing joining word means the ID after it is missing.
 */
function readIds<W extends ShapeOf<'id'>>(
  w: W,
  args: readonly string[],
  { name, usage }: ReadAt,
): WordsResult<W> {
  const slots = idSlots(w);
  const value: Record<string, string> = {};
  const warnings: Said[] = [];
  let rest = args;
  for (const [i, { resource }] of slots.entries()) {
    const next = slots[i + 1];
    const end = next === undefined ? -1 : rest.findIndex((word) => word.toLowerCase() === next.word);
    const words = end === -1 ? rest : rest.slice(0, end);
    if (words.length === 0) return fail(say.grammarNoId(resource, ID_NAMES[resource]), usage);
    if (words.length > 1) return fail(say.grammarManyIds(name, resource, words), usage);
    const parsed = parseResourceId(words[0] ?? '', resource);
    if (!parsed.ok) return fail(say.grammarIdRefused(parsed.said), usage);
    value[ID_NAMES[resource]] = parsed.id;
    if (parsed.warning !== null) warnings.push(parsed.warning);
    if (next === undefined) break;
    if (end === -1) return fail(say.grammarNoId(next.resource, ID_NAMES[next.resource]), usage);
    rest = rest.slice(end + 1);
  }
  // Each slot filled its resource's ID name, so the object is the value `W` says.
  return { ok: true, value: value as WordsValue<W>, warnings };
}

/** A window word the slash grammar did not take (`for 2h` on the command line, which has `--for`). */
function windowLeft(args: readonly string[], usage: string): Refusal | null {
  const word = args.find(isWindowWord);
  return word === undefined ? null : fail(say.boxCliWords(word.toLowerCase()), usage);
}

function tooMany({ name, usage }: ReadAt, extra: readonly string[], why?: string): Refusal {
  return fail(say.grammarTooMany(name, extra.join(' '), why ?? null), usage);
}

function value<V>(v: V): { ok: true; value: V; warnings: Said[] } {
  return { ok: true, value: v, warnings: [] };
}

function fail(said: Said, usage: string): Refusal {
  return { ok: false, said, usage };
}
