import type { Said } from './said.js';
import { normalizeDigits } from './validate/digits.js';
import { parseResourceId } from './validate/ids.js';
import { type MobileOptions, parseMobile } from './validate/phone.js';

/**
 * What a customer's message offers to act on: the mobile numbers and the file IDs written in it,
 * for the message shortcuts "Unblock viewer" and "Retry conversion". Nothing here has a rule of
 * its own: a number is whatever the one mobile rule (`parseMobile`) accepts, a file ID whatever
 * `parseResourceId` accepts; this module only finds the candidates in free text.
 * @see docs/architecture.md, "Validation"; docs/slack.md, "Shortcuts"
 */

/** A number found and accepted, as `parseMobile` gives it (never shown whole: `masked` is). */
export interface FoundMobile {
  param: string;
  national: string;
  e164: string;
  region: string;
  masked: string;
}

/** A number-like run that the mobile rule refused, with the rule's own reason. */
export interface RefusedMobile {
  read: string;
  said: Said;
}

export interface ExtractedMobiles {
  /** Accepted numbers, de-duplicated by what would be sent, in the order they appear. */
  found: FoundMobile[];
  /** Runs that look like a phone number (a `+` or `0` first, 8 digits or more) and were refused. */
  refused: RefusedMobile[];
}

/** At most this many numbers (or file IDs) are offered: a modal is not a list of hundreds. */
export const EXTRACT_LIMIT = 10;
/** Only the start of a very long message is read. */
const SCAN_MAX_CHARS = 10_000;
/** A number written in groups rarely has more than this many: `+98 (912) 123 45 67` is six. */
const MAX_GROUPS = 6;
/** Fewer digits than this is a count, a code or a time, not a phone number. */
const MIN_DIGITS = 7;
/** A refused run is reported only when it looks meant as a phone number. */
const REFUSED_MIN_DIGITS = 8;

// Digits with the separators people put inside numbers (spaces, dashes, dots, brackets), on one
// line, not glued to a Latin letter or digit (that would be an ID, a token, a hex string).
const NUMBER_RUN = /(?<![A-Za-z0-9_+])\+?\(?\d[\d \t\-‐-―−.()]*\d\)?(?![A-Za-z0-9_])/g;
const FILE_ID = /(?<![A-Za-z0-9])[0-9a-fA-F]{24}(?![A-Za-z0-9])/g;

/** Characters that may be inside a number or an ID, digits of every script included. */
const TOKEN_CHAR = /[\p{Nd}A-Za-z \t\-‐-―−.()+]/u;

/**
 * The start of a very long message that is read: its first {@link SCAN_MAX_CHARS} characters,
 * less a number or ID the cut would split (read short, it could be a number the message does not
 * hold): the cut backs off to the last character that cannot be inside one, at most 64 back,
 * else to the last space.
 */
function scanned(text: string): string {
  if (text.length <= SCAN_MAX_CHARS) return text;
  const head = text.slice(0, SCAN_MAX_CHARS);
  for (let i = head.length - 1; i >= head.length - 64; i -= 1) {
    if (!TOKEN_CHAR.test(head.charAt(i))) return head.slice(0, i + 1);
  }
  return head.slice(0, Math.max(0, head.search(/\s\S*$/)));
}

/**
 * A message's text as Slack sends it → what a person reads: `&amp;`, `&lt;`, `&gt;` decoded, and
 * Slack's `<…>` markup replaced by what it shows (`<tel:+98…|0912…>` → `0912…`; a link's label,
 * or its address with `keepLinks`, which file IDs in a link need; mentions dropped). Persian and
 * Arabic-Indic digits become ASCII.
 */
export function readableMessageText(text: string, options: { keepLinks?: boolean } = {}): string {
  const unwrapped = scanned(text).replace(/<([^<>]*)>/g, (_all, inner: string) => {
    const bar = inner.indexOf('|');
    const target = bar < 0 ? inner : inner.slice(0, bar);
    const label = bar < 0 ? '' : inner.slice(bar + 1);
    if (/^[@#!]/.test(target)) return ' ';
    if (/^tel:/i.test(target)) return ` ${label || target.slice(4)} `;
    if (options.keepLinks) return ` ${target} ${label} `;
    return ` ${label} `;
  });
  const decoded = unwrapped.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return normalizeDigits(decoded);
}

function digitCount(text: string): number {
  return text.replace(/\D/g, '').length;
}

function looksMeantAsPhone(text: string): boolean {
  const trimmed = text.replace(/^\(/, '');
  return /^[+0]/.test(trimmed) && digitCount(text) >= REFUSED_MIN_DIGITS;
}

/**
 * The mobile numbers in a message (`home` is `PHONE_REGION`, `options.regions` is
 * `PHONE_REGIONS`, as for `/vidops unblock`). A run of digits and separators is read as one
 * number when the rule accepts it whole; otherwise its space-separated groups are read from the
 * left, the longest run of groups that the rule accepts each time, so `0912 123 4567 0935 123
 * 4567` is two numbers; after groups that made no number, only a group that opens one (`+`,
 * `0`, a bracket) starts the next, so no tail of a foreign number is read as a local one. What is
 * left over and looks meant as a number is refused with the rule's
 * reason (a number of another country, a landline, one digit missing).
 */
export function extractMobiles(
  text: string,
  home: string,
  options: MobileOptions = {},
  limit: number = EXTRACT_LIMIT,
): ExtractedMobiles {
  const found: FoundMobile[] = [];
  const refused: RefusedMobile[] = [];
  const seen = new Set<string>();
  const refusedSeen = new Set<string>();
  const parse = (piece: string) => parseMobile(piece, home, options);
  const refuse = (piece: string) => {
    if (!looksMeantAsPhone(piece)) return;
    const result = parse(piece);
    if (result.ok || refusedSeen.has(result.read)) return;
    refusedSeen.add(result.read);
    refused.push({ read: result.read, said: result.said });
  };

  for (const match of readableMessageText(text).matchAll(NUMBER_RUN)) {
    if (found.length >= limit) break;
    const run = match[0];
    if (digitCount(run) < MIN_DIGITS) continue;
    const groups = run.split(/[ \t]+/).filter((g) => g !== '');
    let leftover: string[] = [];
    let i = 0;
    while (i < groups.length && found.length < limit) {
      let taken = 0;
      // After a group that began no number, only a group that opens one (`+`, `0`, a bracket)
      // may begin the next: `917 123 4567` of `+63 917 123 4567` is not an Iranian number.
      const mayStart = leftover.length === 0 || /^[+0(]/.test(groups[i] ?? '');
      for (let j = Math.min(groups.length, i + MAX_GROUPS); mayStart && j > i; j -= 1) {
        const piece = groups.slice(i, j).join(' ');
        if (digitCount(piece) < MIN_DIGITS) break;
        const result = parse(piece);
        if (!result.ok) continue;
        if (leftover.length > 0) refuse(leftover.join(' '));
        leftover = [];
        if (!seen.has(result.param)) {
          seen.add(result.param);
          const { param, national, e164, region, masked } = result;
          found.push({ param, national, e164, region, masked });
        }
        taken = j - i;
        break;
      }
      if (taken === 0) {
        leftover.push(groups[i] ?? '');
        i += 1;
      } else {
        i += taken;
      }
    }
    if (leftover.length > 0) refuse(leftover.join(' '));
  }
  return { found, refused: refused.slice(0, limit) };
}

/**
 * The file IDs in a message: the service's IDs are 24 hex digits, the one shape that can be told
 * apart from other words in free text (an ID of another shape is typed into the form instead).
 * Each is read by `parseResourceId`, as `/vidops retry` reads it; repeats are dropped. IDs inside
 * a link (`…/files/6710…`) count.
 */
export function extractFileIds(text: string, limit: number = EXTRACT_LIMIT): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const match of readableMessageText(text, { keepLinks: true }).matchAll(FILE_ID)) {
    if (ids.length >= limit) break;
    const parsed = parseResourceId(match[0], 'file');
    if (!parsed.ok || seen.has(parsed.id.toLowerCase())) continue;
    seen.add(parsed.id.toLowerCase());
    ids.push(parsed.id);
  }
  return ids;
}
