import { isIP } from 'node:net';
import { ID_NAMES, KEYWORDS, LANGUAGE_WORDS, type WordsSpec, type WordsValue } from './catalog.js';
import {
  type Command,
  commandLine,
  type ListedCommand,
  SLASH_COMMAND,
  SLASH_COMMANDS,
  usageOf,
} from './commands-help.js';
import { normalizeErrorCode } from './player-errors.js';
import { normalizeDigits } from './validate/digits.js';
import { parseResourceId, type ResourceKind } from './validate/ids.js';
import { parseIpList } from './validate/ip.js';
import { editDistance, nearest } from './validate/nearest.js';
import { parseMobile } from './validate/phone.js';
import { parseAssignments } from './validate/protection.js';

/**
 * The `/vidops …` grammar: text as Slack sends it → a typed command, or a message that says
 * what was wrong and the usage line to follow. Keywords are case-insensitive, extra spaces are
 * ignored, and Persian/Arabic-Indic digits are read everywhere. The commands and how their words
 * are read come from the command list (the catalog); `parseWords` reads the words after a
 * command for the CLI too.
 * @see docs/architecture.md, "Slash command grammar"
 */

export { KEYWORDS } from './catalog.js';
export type { Command, CommandKind } from './commands-help.js';

export type ParseResult =
  | { ok: true; command: Command; warnings: string[] }
  | { ok: false; message: string; usage: string | null };

export interface ParseOptions {
  /** Region for mobile numbers written without a country code (`PHONE_REGION`). */
  phoneRegion: string;
  /** Regions whose mobiles are accepted (`PHONE_REGIONS`); default: `phoneRegion` alone. */
  phoneRegions?: readonly string[];
}

/** Default and bounds of `audit [n]`. */
export const AUDIT_DEFAULT = 10;
export const AUDIT_MAX = 100;

/** How the words after a command were read: their typed values, or what was wrong. */
export type WordsResult<W extends WordsSpec> =
  | { ok: true; value: WordsValue<W>; warnings: string[] }
  | { ok: false; message: string; usage: string };

/** The commands of a first word: the bare one (`whitelist`) and those with a second word. */
function groupOf(keyword: string): { bare: ListedCommand | undefined; subs: ListedCommand[] } {
  const group = SLASH_COMMANDS.filter((c) => c.spec.words[0] === keyword);
  return {
    bare: group.find((c) => c.spec.words.length === 1),
    subs: group.filter((c) => c.spec.words.length === 2),
  };
}

function isKeyword(word: string): boolean {
  return (KEYWORDS as readonly string[]).includes(word);
}

/** Parses the text after `/vidops`. Empty text is `help`. */
export function parseCommand(text: string, options: ParseOptions): ParseResult {
  const clean = normalizeDigits(decodeSlackEntities(text)).trim();
  const tokens = clean === '' ? [] : clean.split(/\s+/);
  const [first, ...rest] = tokens;
  if (first === undefined) return ok({ kind: 'help' });
  const keyword = first.toLowerCase();
  // `help` reads no words: `/vidops help unblock` is help all the same.
  if (keyword === 'help' || keyword === '?') return ok({ kind: 'help' });
  if (!isKeyword(keyword)) return unknownCommand(first, rest);
  const { bare, subs } = groupOf(keyword);
  if (subs.length === 0 && bare !== undefined) return commandOf(bare, rest, options);
  const [sub, ...args] = rest;
  if (sub === undefined) {
    if (bare !== undefined) return commandOf(bare, [], options);
    return fail(
      `Say what to do with the ${keyword}: ${subs.map((s) => `\`${SLASH_COMMAND} ${s.spec.words.join(' ')}\``).join(', ')}.`,
      usageOf(subs[0]?.spec.words.join(' ') ?? keyword),
    );
  }
  const word = sub.toLowerCase();
  const named = subs.find((s) => s.spec.words[1] === word);
  if (named !== undefined) return commandOf(named, args, options);
  if (bare?.spec.also?.includes(word)) return commandOf(bare, args, options);
  const hint = HINTS[keyword]?.(sub, rest);
  if (hint !== undefined && hint !== null) return hint;
  const choices = [
    ...subs.map((s) => s.spec.words[1] ?? ''),
    ...(bare?.spec.also ?? []).filter((a) => subs.every((s) => s.spec.words[1] !== a)).slice(0, 1),
  ];
  return unknownSubcommand(keyword, sub, choices);
}

/** Reads the words after a listed command into its typed command. */
function commandOf(listed: ListedCommand, args: readonly string[], options: ParseOptions): ParseResult {
  const read = parseWords(listed.spec.args, args, options, listed.spec.words.join(' '));
  if (!read.ok) return read;
  const command = { kind: listed.spec.kind, ...read.value } as Command;
  return { ok: true, command, warnings: read.warnings };
}

/** What people type by mistake after a first word, and the command they meant. */
const HINTS: Partial<Record<string, (sub: string, rest: readonly string[]) => ParseResult | null>> = {
  whitelist: (sub, rest) =>
    isIP(sub) === 0
      ? null
      : fail(
          `To add ${sub} to the whitelist, write \`${SLASH_COMMAND} whitelist add ${rest.join(' ')}\`.`,
          usageOf('whitelist add'),
        ),
  protect: (sub, rest) =>
    sub.includes('=')
      ? fail(
          `To change settings, write \`${SLASH_COMMAND} protect set ${rest.join(' ')}\`.`,
          usageOf('protect set'),
        )
      : null,
  file: (sub, rest) =>
    sub.toLowerCase() === 'retry'
      ? fail(
          `To retry a conversion, write \`${SLASH_COMMAND} retry ${rest.slice(1).join(' ')}\`.`,
          usageOf('retry'),
        )
      : null,
};

/**
 * Reads the words after a command (`name`, e.g. `folder delete`) as its words spec says: Slack's
 * tokens and the CLI's arguments alike. A refusal says what was wrong and gives the usage line.
 */
export function parseWords<W extends WordsSpec>(
  spec: W,
  args: readonly string[],
  options: ParseOptions,
  name: string,
): WordsResult<W> {
  return readWords(spec, args, options, name) as WordsResult<W>;
}

type AnyWords =
  | { ok: true; value: object; warnings: string[] }
  | { ok: false; message: string; usage: string };

function readWords(spec: WordsSpec, args: readonly string[], options: ParseOptions, name: string): AnyWords {
  const usage = usageOf(name);
  switch (spec.kind) {
    case 'none':
      return args.length === 0 ? value({}) : tooMany(name, args, spec.why);
    case 'id':
      return readId(args, spec.resource, name);
    case 'mobile': {
      if (args.length === 0) return fail('Give the mobile number of the viewer to unblock.', usage);
      // People paste `+98 912 345 6789`: the number is every word after the keyword.
      const mobile = parseMobile(args.join(' '), options.phoneRegion, {
        regions: options.phoneRegions ?? [options.phoneRegion],
      });
      if (!mobile.ok) return fail(`Nobody was unblocked: ${mobile.reason}.`, usage);
      const { param, national, e164, masked } = mobile;
      return value({ mobile: { param, national, e164, masked } });
    }
    case 'ips': {
      if (args.length === 0) return fail(`Give the IP addresses to ${spec.change}.`, usage);
      const parsed = parseIpList(args, spec.change);
      if (!parsed.ok) return fail(`The whitelist was not changed:\n${bullets(parsed.problems)}`, usage);
      return value({ ips: parsed.ips });
    }
    case 'assignments': {
      if (args.length === 0) return fail('Give the settings to change as field=value.', usage);
      const parsed = parseAssignments(args);
      if (!parsed.ok) return fail(`The settings were not changed:\n${bullets(parsed.problems)}`, usage);
      return value({ changes: parsed.changes });
    }
    case 'count': {
      if (args.length === 0) return value({ n: AUDIT_DEFAULT });
      if (args.length > 1) return tooMany(name, args.slice(1));
      const raw = args[0] ?? '';
      const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isInteger(n) || n < 1 || n > AUDIT_MAX) {
        return fail(`"${raw}" is not a number of events from 1 to ${AUDIT_MAX}.`, usage);
      }
      return value({ n });
    }
    case 'code': {
      if (args.length === 0) return fail('Give the error code the player shows, e.g. 9910.', usage);
      const raw = args.join(' ');
      const code = normalizeErrorCode(raw);
      if (code === null) return fail(`"${raw}" is not a player error code; it is a number like 9910.`, usage);
      return value({ code });
    }
    case 'language': {
      if (args.length === 0) return value({ locale: null });
      if (args.length > 1) return tooMany(name, args.slice(1));
      const raw = args[0] ?? '';
      const locale = LANGUAGE_WORDS.find((word) => word === raw.toLowerCase());
      if (locale === undefined) {
        return fail(
          `"${raw}" is not a language vidops speaks; choose ${LANGUAGE_WORDS.map((w) => `\`${w}\``).join(' or ')}.`,
          usage,
        );
      }
      return value({ locale });
    }
  }
}

/** One ID argument: missing, several, or refused → the usage line; not 24 hex digits → a warning. */
function readId(args: readonly string[], kind: ResourceKind, name: string): AnyWords {
  const usage = usageOf(name);
  if (args.length === 0) return fail(`Give the ${kind} ID (${ID_NAMES[kind]}).`, usage);
  if (args.length > 1) {
    return fail(`\`${name}\` takes one ${kind} ID; got ${args.length} words: ${args.join(' ')}.`, usage);
  }
  const parsed = parseResourceId(args[0] ?? '', kind);
  if (!parsed.ok) return fail(`${capitalize(parsed.reason)}.`, usage);
  return {
    ok: true,
    value: { [ID_NAMES[kind]]: parsed.id },
    warnings: parsed.warning === null ? [] : [parsed.warning],
  };
}

function findSlash(words: readonly string[]): ListedCommand | undefined {
  return SLASH_COMMANDS.find(
    (c) => c.spec.words.length === words.length && c.spec.words.every((w, i) => w === words[i]),
  );
}

function unknownCommand(typed: string, rest: readonly string[]): ParseResult {
  const word = typed.toLowerCase();
  // `delete folder X` → `folder delete X`.
  const [next, ...after] = rest;
  const nextWord = next?.toLowerCase();
  const turned = nextWord === undefined ? undefined : findSlash([nextWord, word]);
  if (turned !== undefined && nextWord !== undefined) {
    const suggestion = [nextWord, word, ...after].join(' ');
    return fail(
      `Unknown command "${typed}". Did you mean \`${SLASH_COMMAND} ${suggestion}\`?`,
      `${SLASH_COMMAND} ${commandLine(turned.spec)}`,
    );
  }
  const guess = closeKeyword(word, KEYWORDS);
  if (guess === null) {
    return fail(`Unknown command "${typed}". \`${SLASH_COMMAND} help\` lists what you can run.`, null);
  }
  return fail(`Unknown command "${typed}". Did you mean \`${SLASH_COMMAND} ${guess}\`?`, usageOf(guess));
}

// Words people use for a subcommand; only ever suggested, never run (a delete must be typed).
const SUBCOMMAND_SYNONYMS: Record<string, readonly string[]> = {
  delete: ['remove', 'rm', 'del', 'destroy'],
  remove: ['delete', 'rm', 'del'],
  create: ['new', 'add', 'make'],
  edit: ['rename', 'update', 'change', 'modify'],
  show: ['get', 'view', 'list'],
  set: ['change', 'update'],
};

function unknownSubcommand(command: string, typed: string, subs: readonly string[]): ParseResult {
  const word = typed.toLowerCase();
  const guess =
    subs.find((sub) => SUBCOMMAND_SYNONYMS[sub]?.includes(word) === true) ?? closeKeyword(word, subs);
  const choices = subs.map((s) => `\`${command} ${s}\``).join(', ');
  if (guess === null) {
    return fail(
      `\`${command}\` has no "${typed}"; it has ${choices}.`,
      usageOf(`${command} ${subs[0] ?? ''}`),
    );
  }
  return fail(
    `\`${command}\` has no "${typed}". Did you mean \`${SLASH_COMMAND} ${command} ${guess}\`?`,
    usageOf(`${command} ${guess}`),
  );
}

/** The keyword meant by a typo or an abbreviation, or null when nothing is close. */
function closeKeyword(word: string, keywords: readonly string[]): string | null {
  const prefixed = keywords.filter((k) => word.length >= 3 && k.startsWith(word));
  if (prefixed.length === 1) return prefixed[0] ?? null;
  const best = nearest(word, keywords);
  if (best === null) return null;
  const allowed = word.length >= 5 ? 2 : 1;
  // A unique best: two keywords equally close are a guess, not a suggestion.
  const ties = keywords.filter((k) => editDistance(word, k) === best.distance).length;
  return best.distance <= allowed && ties === 1 ? best.value : null;
}

function tooMany(
  command: string,
  extra: readonly string[],
  why?: string,
): { ok: false; message: string; usage: string } {
  return fail(
    `\`${command}\` takes nothing more; remove "${extra.join(' ')}"${why === undefined ? '' : ` (${why})`}.`,
    usageOf(command),
  );
}

function ok(command: Command): ParseResult {
  return { ok: true, command, warnings: [] };
}

function value(v: object): AnyWords {
  return { ok: true, value: v, warnings: [] };
}

function fail<U extends string | null>(message: string, usage: U): { ok: false; message: string; usage: U } {
  return { ok: false, message, usage };
}

function bullets(lines: readonly string[]): string {
  return lines.map((line) => `• ${line}`).join('\n');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Slack escapes `&`, `<` and `>` in slash command text. */
function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
