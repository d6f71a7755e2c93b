import { isIP } from 'node:net';
import { SLASH_COMMAND, usageOf } from './commands-help.js';
import { normalizeErrorCode } from './player-errors.js';
import type { ProtectionConfig } from './protection.js';
import { normalizeDigits } from './validate/digits.js';
import { parseResourceId, type ResourceKind } from './validate/ids.js';
import { parseIpList } from './validate/ip.js';
import { editDistance, nearest } from './validate/nearest.js';
import { parseMobile } from './validate/phone.js';
import { parseAssignments } from './validate/protection.js';

/**
 * The `/vidops …` grammar: text as Slack sends it → a typed command, or a message that says
 * what was wrong and the usage line to follow. Keywords are case-insensitive, extra spaces are
 * ignored, and Persian/Arabic-Indic digits are read everywhere.
 * @see docs/architecture.md, "Slash command grammar"
 */
export type Command =
  | { kind: 'help' }
  /** `param` is what is sent: national digits for `PHONE_REGION`, E.164 for other regions. */
  | { kind: 'unblock'; mobile: { param: string; national: string; e164: string; masked: string } }
  | { kind: 'retry'; fileId: string }
  | { kind: 'whitelist.show' }
  | { kind: 'whitelist.add'; ips: string[] }
  | { kind: 'whitelist.remove'; ips: string[] }
  | { kind: 'protect.modal' }
  | { kind: 'protect.show' }
  | { kind: 'protect.set'; changes: ProtectionConfig }
  | { kind: 'folder.create' }
  | { kind: 'folder.edit'; bucketId: string }
  | { kind: 'folder.delete'; bucketId: string }
  | { kind: 'file.edit'; fileId: string }
  | { kind: 'file.delete'; fileId: string }
  | { kind: 'playlist.edit'; playlistId: string }
  | { kind: 'playlist.delete'; playlistId: string }
  | { kind: 'requests' }
  | { kind: 'audit'; n: number }
  | { kind: 'explain'; code: string };

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

/** First words of `/vidops …` that name a command. */
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
] as const;

const RESOURCE_KEYWORDS: Record<string, ResourceKind> = {
  folder: 'folder',
  file: 'file',
  playlist: 'playlist',
};
const ID_NAMES: Record<ResourceKind, string> = { folder: 'bucketId', file: 'fileId', playlist: 'playlistId' };

/** Parses the text after `/vidops`. Empty text is `help`. */
export function parseCommand(text: string, options: ParseOptions): ParseResult {
  const clean = normalizeDigits(decodeSlackEntities(text)).trim();
  const tokens = clean === '' ? [] : clean.split(/\s+/);
  const [first, ...rest] = tokens;
  if (first === undefined) return ok({ kind: 'help' });
  const keyword = first.toLowerCase();
  switch (keyword) {
    case 'help':
    case '?':
      return ok({ kind: 'help' });
    case 'unblock':
      return parseUnblock(rest, options);
    case 'retry':
      return withId(rest, 'file', 'retry', (fileId) => ({ kind: 'retry', fileId }));
    case 'whitelist':
      return parseWhitelist(rest);
    case 'protect':
      return parseProtect(rest);
    case 'folder':
    case 'file':
    case 'playlist':
      return parseResource(keyword, rest);
    case 'requests':
      return rest.length === 0 ? ok({ kind: 'requests' }) : tooMany('requests', rest);
    case 'audit':
      return parseAudit(rest);
    case 'explain':
      return parseExplain(rest);
    default:
      return unknownCommand(first, rest);
  }
}

function parseUnblock(rest: readonly string[], options: ParseOptions): ParseResult {
  const usage = usageOf('unblock');
  if (rest.length === 0) return fail('Give the mobile number of the viewer to unblock.', usage);
  // People paste `+98 912 345 6789`: the number is everything after the keyword.
  const mobile = parseMobile(rest.join(' '), options.phoneRegion, {
    regions: options.phoneRegions ?? [options.phoneRegion],
  });
  if (!mobile.ok) return fail(`Nobody was unblocked: ${mobile.reason}.`, usage);
  return ok({
    kind: 'unblock',
    mobile: { param: mobile.param, national: mobile.national, e164: mobile.e164, masked: mobile.masked },
  });
}

function parseWhitelist(rest: readonly string[]): ParseResult {
  const [sub, ...args] = rest;
  if (sub === undefined) return ok({ kind: 'whitelist.show' });
  const word = sub.toLowerCase();
  if (word === 'show' || word === 'list') {
    return args.length === 0 ? ok({ kind: 'whitelist.show' }) : tooMany('whitelist', args);
  }
  if (word === 'add' || word === 'remove') {
    const usage = usageOf(`whitelist ${word}`);
    if (args.length === 0) return fail(`Give the IP addresses to ${word}.`, usage);
    const parsed = parseIpList(args, word);
    if (!parsed.ok) return fail(`The whitelist was not changed:\n${bullets(parsed.problems)}`, usage);
    return ok({ kind: word === 'add' ? 'whitelist.add' : 'whitelist.remove', ips: parsed.ips });
  }
  if (isIP(sub) !== 0) {
    return fail(
      `To add ${sub} to the whitelist, write \`${SLASH_COMMAND} whitelist add ${rest.join(' ')}\`.`,
      usageOf('whitelist add'),
    );
  }
  return unknownSubcommand('whitelist', sub, ['add', 'remove', 'show']);
}

function parseProtect(rest: readonly string[]): ParseResult {
  const [sub, ...args] = rest;
  if (sub === undefined) return ok({ kind: 'protect.modal' });
  const word = sub.toLowerCase();
  if (word === 'show')
    return args.length === 0 ? ok({ kind: 'protect.show' }) : tooMany('protect show', args);
  if (word === 'set') {
    const usage = usageOf('protect set');
    if (args.length === 0) return fail('Give the settings to change as field=value.', usage);
    const parsed = parseAssignments(args);
    if (!parsed.ok) return fail(`The settings were not changed:\n${bullets(parsed.problems)}`, usage);
    return ok({ kind: 'protect.set', changes: parsed.changes });
  }
  if (sub.includes('=')) {
    return fail(
      `To change settings, write \`${SLASH_COMMAND} protect set ${rest.join(' ')}\`.`,
      usageOf('protect set'),
    );
  }
  return unknownSubcommand('protect', sub, ['show', 'set']);
}

function parseResource(keyword: string, rest: readonly string[]): ParseResult {
  const kind = RESOURCE_KEYWORDS[keyword] ?? 'file';
  const subs = kind === 'folder' ? ['create', 'edit', 'delete'] : ['edit', 'delete'];
  const [sub, ...args] = rest;
  if (sub === undefined) {
    return fail(
      `Say what to do with the ${kind}: ${subs.map((s) => `\`${SLASH_COMMAND} ${kind} ${s}\``).join(', ')}.`,
      usageOf(`${kind} ${subs[0] ?? 'edit'}`),
    );
  }
  const word = sub.toLowerCase();
  if (kind === 'folder' && word === 'create') {
    return args.length === 0
      ? ok({ kind: 'folder.create' })
      : tooMany('folder create', args, 'the form asks for the title');
  }
  if (word === 'edit' || word === 'delete') {
    const command = `${kind} ${word}`;
    return withId(args, kind, command, (id) => resourceCommand(kind, word, id));
  }
  if (kind === 'file' && word === 'retry') {
    return fail(
      `To retry a conversion, write \`${SLASH_COMMAND} retry ${args.join(' ')}\`.`,
      usageOf('retry'),
    );
  }
  return unknownSubcommand(kind, sub, subs);
}

function resourceCommand(kind: ResourceKind, action: 'edit' | 'delete', id: string): Command {
  switch (kind) {
    case 'folder':
      return action === 'edit'
        ? { kind: 'folder.edit', bucketId: id }
        : { kind: 'folder.delete', bucketId: id };
    case 'file':
      return action === 'edit' ? { kind: 'file.edit', fileId: id } : { kind: 'file.delete', fileId: id };
    case 'playlist':
      return action === 'edit'
        ? { kind: 'playlist.edit', playlistId: id }
        : { kind: 'playlist.delete', playlistId: id };
  }
}

function parseAudit(rest: readonly string[]): ParseResult {
  const usage = usageOf('audit');
  if (rest.length === 0) return ok({ kind: 'audit', n: AUDIT_DEFAULT });
  if (rest.length > 1) return tooMany('audit', rest.slice(1));
  const raw = rest[0] ?? '';
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > AUDIT_MAX) {
    return fail(`"${raw}" is not a number of events from 1 to ${AUDIT_MAX}.`, usage);
  }
  return ok({ kind: 'audit', n });
}

function parseExplain(rest: readonly string[]): ParseResult {
  const usage = usageOf('explain');
  if (rest.length === 0) return fail('Give the error code the player shows, e.g. 9910.', usage);
  const raw = rest.join(' ');
  const code = normalizeErrorCode(raw);
  if (code === null) return fail(`"${raw}" is not a player error code; it is a number like 9910.`, usage);
  return ok({ kind: 'explain', code });
}

/** One ID argument: missing, several, or refused → the usage line; not 24 hex digits → a warning. */
function withId(
  args: readonly string[],
  kind: ResourceKind,
  command: string,
  build: (id: string) => Command,
): ParseResult {
  const usage = usageOf(command);
  if (args.length === 0) return fail(`Give the ${kind} ID (${ID_NAMES[kind]}).`, usage);
  if (args.length > 1) {
    return fail(`\`${command}\` takes one ${kind} ID; got ${args.length} words: ${args.join(' ')}.`, usage);
  }
  const parsed = parseResourceId(args[0] ?? '', kind);
  if (!parsed.ok) return fail(`${capitalize(parsed.reason)}.`, usage);
  return { ok: true, command: build(parsed.id), warnings: parsed.warning === null ? [] : [parsed.warning] };
}

function unknownCommand(typed: string, rest: readonly string[]): ParseResult {
  const word = typed.toLowerCase();
  // `delete folder X` → `folder delete X`.
  const [next, ...after] = rest;
  const nextWord = next?.toLowerCase();
  if (
    (word === 'create' || word === 'edit' || word === 'delete') &&
    nextWord !== undefined &&
    nextWord in RESOURCE_KEYWORDS &&
    !(word === 'create' && nextWord !== 'folder')
  ) {
    const suggestion = [nextWord, word, ...after].join(' ');
    return fail(
      `Unknown command "${typed}". Did you mean \`${SLASH_COMMAND} ${suggestion}\`?`,
      usageOf(`${nextWord} ${word}`),
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

function tooMany(command: string, extra: readonly string[], why?: string): ParseResult {
  return fail(
    `\`${command}\` takes nothing more; remove "${extra.join(' ')}"${why === undefined ? '' : ` (${why})`}.`,
    usageOf(command),
  );
}

function ok(command: Command): ParseResult {
  return { ok: true, command, warnings: [] };
}

function fail(message: string, usage: string | null): ParseResult {
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
