import { isIP } from 'node:net';
import { isChangeOperation, KEYWORDS, OPERATION_SPECS } from './catalog.js';
import {
  type Command,
  commandLine,
  type ListedCommand,
  SLASH_COMMAND,
  SLASH_COMMANDS,
  takesWindow,
  usageOf,
} from './commands-help.js';
import { type Said, say } from './said.js';
import { type ParseOptions, readWords, type WordsResult, type WordsSpec } from './shapes.js';
import { type BoxAsked, isWindowWord, splitWindowWords } from './time-box.js';
import { normalizeDigits } from './validate/digits.js';
import { editDistance, nearest } from './validate/nearest.js';
import { parseMobile } from './validate/phone.js';
import { type NumberList, parseNumberList } from './validate/phone-list.js';

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
export { AUDIT_DEFAULT, AUDIT_MAX, type ParseOptions, type WordsResult } from './shapes.js';

export type ParseResult =
  | { ok: true; command: Command; warnings: Said[] }
  /** `message` is `said` in English; the Slack edge words `said` in the reader's language. */
  | { ok: false; said: Said; usage: string | null };

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
      say.grammarSayWhat(
        keyword,
        subs.map((s) => s.spec.words.join(' ')),
      ),
      usageOf(subs[0]?.spec.words.join(' ') ?? keyword),
    );
  }
  const word = sub.toLowerCase();
  const named = subs.find((s) => s.spec.words[1] === word);
  if (named !== undefined) return commandOf(named, args, options);
  // `delegate <@user> until …`: the bare command reads words that are not a second word.
  if (bare !== undefined && bare.spec.args.kind === 'delegation') return commandOf(bare, rest, options);
  if (bare?.spec.also?.includes(word)) return commandOf(bare, args, options);
  const hint = HINTS[keyword]?.(sub, rest);
  if (hint !== undefined && hint !== null) return hint;
  const choices = [
    ...subs.map((s) => s.spec.words[1] ?? ''),
    ...(bare?.spec.also ?? []).filter((a) => subs.every((s) => s.spec.words[1] !== a)).slice(0, 1),
  ];
  return unknownSubcommand(keyword, sub, choices);
}

/**
 * `/vidops unblock` with several numbers (pasted, one per line or separated by commas, spaces or
 * `،`): the list as read, lines kept, for a batch's preview. Null when the words make one number,
 * or no number at all: the single unblock reads (and refuses) those.
 * @see docs/commands.md, "Many numbers at once"
 */
export function unblockListOf(text: string, options: ParseOptions): NumberList | null {
  const clean = decodeSlackEntities(text).replace(/^\s+/, '');
  const keyword = /^unblock(?=\s)/i.exec(clean);
  if (keyword === null) return null;
  const rest = clean.slice(keyword[0].length);
  const regions = { regions: options.phoneRegions ?? [options.phoneRegion] };
  if (parseMobile(rest, options.phoneRegion, regions).ok) return null;
  const list = parseNumberList(rest, options.phoneRegion, regions);
  return list.numbers.length > 0 && list.numbers.length + list.refused.length > 1 ? list : null;
}

/**
 * Reads the words after a listed command into its typed command; a change that goes back by
 * itself may end with a window (`for 2h`, `until 1405/09/07T18:00`), kept as `timeBox`.
 */
function commandOf(listed: ListedCommand, args: readonly string[], options: ParseOptions): ParseResult {
  const name = listed.spec.words.join(' ');
  const window = windowOf(listed, args);
  if (!window.ok) return fail(window.said, usageOf(name));
  const read = parseWords(listed.spec.args, window.rest, options, name);
  if (!read.ok) return read;
  const timeBox = window.asked === null ? {} : { timeBox: window.asked };
  const command = { kind: listed.spec.kind, ...read.value, ...timeBox } as Command;
  return { ok: true, command, warnings: read.warnings };
}

/**
 * The window at the end of a command's words, for a change whose operation goes back by itself
 * (`undo: 'time-box'`) and whose words are addresses or settings; a window on any other change
 * is refused, saying which changes take one and whether a Revert… undoes this one.
 * @see docs/commands.md, "Time-boxed changes"
 */
function windowOf(
  listed: ListedCommand,
  args: readonly string[],
): { ok: true; rest: readonly string[]; asked: BoxAsked | null } | { ok: false; said: Said } {
  if (takesWindow(listed)) return splitWindowWords(args);
  const operation = listed.operation;
  if (operation === null || !isChangeOperation(operation) || !args.some(isWindowWord)) {
    return { ok: true, rest: args, asked: null };
  }
  const { undo, title } = OPERATION_SPECS[operation];
  return { ok: false, said: say.boxNotTimeBoxed(operation, title, undo === 'time-box' ? 'revert' : undo) };
}

/** What people type by mistake after a first word, and the command they meant. */
const HINTS: Partial<Record<string, (sub: string, rest: readonly string[]) => ParseResult | null>> = {
  whitelist: (sub, rest) =>
    isIP(sub) === 0 ? null : fail(say.grammarHintAdd(sub, rest.join(' ')), usageOf('whitelist add')),
  protect: (sub, rest) =>
    sub.includes('=') ? fail(say.grammarHintSet(rest.join(' ')), usageOf('protect set')) : null,
  file: (sub, rest) =>
    sub.toLowerCase() === 'retry'
      ? fail(say.grammarHintRetry(rest.slice(1).join(' ')), usageOf('retry'))
      : null,
};

/**
 * Reads the words after a command (`name`, e.g. `folder delete`) as its shape says (./shapes.ts):
 * Slack's tokens and the CLI's arguments alike. A refusal says what was wrong and gives the usage line.
 */
export function parseWords<W extends WordsSpec>(
  spec: W,
  args: readonly string[],
  options: ParseOptions,
  name: string,
): WordsResult<W> {
  return readWords(spec, args, { name, usage: usageOf(name), options });
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
    return fail(say.grammarUnknownGuess(typed, suggestion), `${SLASH_COMMAND} ${commandLine(turned.spec)}`);
  }
  const guess = closeKeyword(word, KEYWORDS);
  if (guess === null) {
    return fail(say.grammarUnknown(typed), null);
  }
  return fail(say.grammarUnknownGuess(typed, guess), usageOf(guess));
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
  if (guess === null) {
    return fail(say.grammarNoSub(command, typed, subs), usageOf(`${command} ${subs[0] ?? ''}`));
  }
  return fail(say.grammarNoSubGuess(command, typed, guess), usageOf(`${command} ${guess}`));
}

/** The keyword meant by a typo or an abbreviation, or null when nothing is close. */
function closeKeyword(word: string, keywords: readonly string[]): string | null {
  const prefixed = keywords.filter((k) => word.length >= 3 && k.startsWith(word));
  if (prefixed.length === 1) return prefixed[0] ?? null;
  const allowed = word.length >= 5 ? 2 : 1;
  // Each letter past the longest keyword's is one edit at least: nothing is that close.
  if (keywords.every((k) => word.length - k.length > allowed)) return null;
  const best = nearest(word, keywords);
  if (best === null) return null;
  // A unique best: two keywords equally close are a guess, not a suggestion.
  const ties = keywords.filter((k) => editDistance(word, k) === best.distance).length;
  return best.distance <= allowed && ties === 1 ? best.value : null;
}

function ok(command: Command): ParseResult {
  return { ok: true, command, warnings: [] };
}

function fail<U extends string | null>(said: Said, usage: U): { ok: false; said: Said; usage: U } {
  return { ok: false, said, usage };
}

/**
 * The command's text as the person typed it. Slack escapes `&`, `<` and `>` in slash command text
 * (`&amp;`, `&lt;`, `&gt;`); with the manifest's `should_escape: true` it also sends what it
 * recognised as markup: links as `<https://example.com|example.com>` (or `<https://…>`), email
 * addresses as `<mailto:…|…>`, phone numbers as `<tel:…|…>`. Those become what was typed (the
 * label, else the address). Mentions of people, channels and groups (`<@U…|name>`, `<#C…|name>`,
 * `<!subteam^S…>`) stay as Slack sent them, one word each: they name an ID that the label does
 * not. Markup is read before the entities are decoded, so a `&lt;` typed by the person stays text.
 * @see docs/slack.md, "App manifest"
 */
export function decodeSlackEntities(text: string): string {
  const unwrapped = text.replace(/<([^<>\s|]*)(?:\|([^<>]*))?>/g, (whole, target: string, label?: string) => {
    if (/^[@#!]/.test(target)) return whole;
    return label ?? target;
  });
  return unwrapped.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
