import type { JsonValue } from './json.js';
import { asciiDigits } from './validate/digits.js';

/**
 * Masking of mobile numbers for everything people read outside the store (Slack posts, logs):
 * keep the first four and last four digits, `09123456789` → `0912***6789`.
 * @see docs/architecture.md, "Audit log"
 */
export function maskMobile(number: string): string {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 9) return '***';
  const prefix = number.startsWith('+') ? '+' : '';
  return `${prefix}${digits.slice(0, 4)}***${digits.slice(-4)}`;
}

/** Fewer digits than this is no mobile number (seq numbers, player codes, years). */
const MIN_DIGITS = 9;
/** More digits than this is no phone number (E.164 holds at most 15). */
const MAX_DIGITS = 15;
/** Separators people put between the groups of a number: spaces, dashes, dots, brackets. */
const GAP_CHARS = ' \u00a0\u202f-.()';
/** Marks that copy-paste and right-to-left text bring along; they cost nothing between digits. */
const INVISIBLE_CHARS = '\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\u061c';
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`);
/** Digits joined by any separators and marks; cut into numbers by {@link groupsOf}. */
const RUN = new RegExp(`\\d(?:[${GAP_CHARS.replace('-', '\\-')}${INVISIBLE_CHARS}]*\\d)*`, 'g');
/** At most this many separators between two groups: `(0912) 765-4321`, `0912  765  4321`. */
const MAX_GAP = 3;

// Numbers that are not phones, whatever their digits: hex IDs (with a letter in them), UUIDs,
// Slack IDs, IPv4 addresses, and dates with an optional time. They are never masked.
const NOT_PHONES = [
  /(?<![0-9A-Za-z])(?=[0-9]*[a-fA-F])[0-9a-fA-F]{12,}(?![0-9A-Za-z])/g,
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g,
  /(?<![0-9A-Za-z])[UWCGDSTBEF][0-9A-Z]{8,11}(?![0-9A-Za-z])/g,
  /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])/g,
  /(?<!\d)(?:1[34]|19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z?)?/g,
] as const;

/** The digits people mean as one group, as they stand in the text. */
interface Group {
  start: number;
  end: number;
  digits: string;
}

interface Phone {
  start: number;
  end: number;
  number: string;
}

/** Shapes of mobile numbers: national `09…`, `9…` without the 0, `98 9…`, `00…`, or `+…`. */
function looksLikeMobile(digits: string, plus: boolean): boolean {
  if (plus) return digits.length >= 10 && digits.length <= MAX_DIGITS;
  return (
    /^0[1-9]\d{8,9}$/.test(digits) ||
    /^00\d{9,13}$/.test(digits) ||
    /^989\d{9}$/.test(digits) ||
    /^9\d{9}$/.test(digits)
  );
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/**
 * The runs of digit groups inside `[from, to)` (a match of {@link RUN}): a gap of more than
 * {@link MAX_GAP} separators, or a digit that belongs to an ID, a date or an address, ends a run.
 */
function groupsOf(ascii: string, from: number, to: number, blocked: (i: number) => boolean): Group[][] {
  const runs: Group[][] = [];
  let run: Group[] = [];
  let gap = 0;
  let i = from;
  while (i < to) {
    if (blocked(i)) {
      gap = MAX_GAP + 1;
      i += 1;
      continue;
    }
    if (!isDigit(ascii[i])) {
      if (!INVISIBLE.test(ascii[i] ?? '')) gap += 1;
      i += 1;
      continue;
    }
    let end = i;
    while (end < to && isDigit(ascii[end]) && !blocked(end)) end += 1;
    if (gap > MAX_GAP && run.length > 0) {
      runs.push(run);
      run = [];
    }
    run.push({ start: i, end, digits: ascii.slice(i, end) });
    gap = 0;
    i = end;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The phone numbers in a run of groups: the longest mobile-shaped first, else 9 to 15 digits. */
function phonesIn(ascii: string, groups: readonly Group[]): Phone[] {
  const found: Phone[] = [];
  let a = 0;
  while (a < groups.length) {
    const first = groups[a] as Group;
    const plus = ascii[first.start - 1] === '+';
    // Candidate numbers from group `a` on, shortest first; at most 15 digits, so a long list
    // of small numbers costs a few steps per group, never a search over the whole run.
    const candidates: { end: number; digits: string }[] = [];
    let digits = '';
    for (let b = a; b < groups.length; b += 1) {
      digits += (groups[b] as Group).digits;
      if (digits.length > MAX_DIGITS) break;
      candidates.push({ end: b + 1, digits });
    }
    let chosen: { end: number; digits: string } | null = null;
    for (let c = candidates.length - 1; c >= 0 && chosen === null; c -= 1) {
      const candidate = candidates[c] as { end: number; digits: string };
      if (looksLikeMobile(candidate.digits, plus)) chosen = candidate;
    }
    for (let c = candidates.length - 1; c >= 0 && chosen === null; c -= 1) {
      const candidate = candidates[c] as { end: number; digits: string };
      if (candidate.digits.length >= MIN_DIGITS) chosen = candidate;
    }
    if (chosen === null) {
      a += 1;
      continue;
    }
    const last = groups[chosen.end - 1] as Group;
    let start = plus ? first.start - 1 : first.start;
    // `(0912) 765-4321`: the opening bracket goes with the number it opened.
    if (ascii[start - 1] === '(' && ascii.slice(start, last.end).includes(')')) start -= 1;
    found.push({ start, end: last.end, number: `${plus ? '+' : ''}${chosen.digits}` });
    a = chosen.end;
  }
  return found;
}

/**
 * Masks every phone number inside free text (reasons, titles, names, the service's answers),
 * however it is written: ASCII, Persian or Arabic-Indic digits; groups split by spaces (also
 * several), dashes, dots or brackets; zero-width marks in between; glued to a word
 * (`mobile09127654321`). Hex IDs, UUIDs, Slack IDs, IPv4 addresses, dates, and numbers of fewer
 * than 9 or more than 15 digits are left alone.
 */
export function maskMobilesInText(text: string): string {
  // Most texts (IDs, states, names, sentences) hold no digit in any script: nothing to mask.
  if (!ANY_DIGIT.test(text)) return text;
  // One code unit per digit either way, so offsets in `ascii` are offsets in `text`.
  const ascii = asciiDigits(text);
  let out = '';
  let last = 0;
  for (const match of ascii.matchAll(RUN)) {
    const run = match[0];
    let digits = 0;
    for (let i = 0; i < run.length; i += 1) if (isDigit(run[i])) digits += 1;
    // Most runs are short (counts, codes, times) or one long block of digits (an ID): no phone.
    if (digits < MIN_DIGITS || (digits > MAX_DIGITS && /^\d+$/.test(run))) continue;
    const blocked = notPhonesAround(ascii, match.index, match.index + run.length);
    for (const groups of groupsOf(ascii, match.index, match.index + run.length, blocked)) {
      for (const phone of phonesIn(ascii, groups)) {
        out += text.slice(last, phone.start) + maskMobile(phone.number);
        last = phone.end;
      }
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/** A digit in ASCII, Persian or Arabic-Indic. */
const ANY_DIGIT = /[0-9\u06F0-\u06F9\u0660-\u0669]/;

/** Characters an ID, a date or an address is made of. */
const TOKEN_CHAR = /[0-9A-Za-z.:-]/;

/**
 * Which characters around `[from, to)` belong to a hex ID, UUID, Slack ID, IPv4 address or date:
 * the patterns run on the run and the word-like text joined to it, not on the whole text.
 */
function notPhonesAround(ascii: string, from: number, to: number): (i: number) => boolean {
  let start = from;
  while (start > 0 && TOKEN_CHAR.test(ascii[start - 1] ?? '')) start -= 1;
  let end = to;
  while (end < ascii.length && TOKEN_CHAR.test(ascii[end] ?? '')) end += 1;
  const context = ascii.slice(start, end);
  let marked: Uint8Array | null = null;
  for (const pattern of NOT_PHONES) {
    for (const match of context.matchAll(pattern)) {
      marked ??= new Uint8Array(context.length);
      marked.fill(1, match.index, match.index + match[0].length);
    }
  }
  const found = marked;
  return found === null ? () => false : (i) => found[i - start] === 1;
}

// Slack tokens and request signatures, wherever they might surface in text.
const TOKEN_LIKE = /\b(xox[abeoprs]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|v0=[0-9a-f]{16,})/g;

/** Replaces Slack tokens and signatures in free text with `[redacted]`. */
export function redactTokens(text: string): string {
  return text.replace(TOKEN_LIKE, '[redacted]');
}

/** Free text fit for logs: Slack tokens and signatures removed, mobile numbers masked. */
export function redactText(text: string): string {
  return maskMobilesInText(redactTokens(text));
}

/**
 * What may be logged of an error: its name, code and message with tokens, signatures and mobile
 * numbers removed. Never the error object itself: Web API errors carry request data.
 */
export function redactError(error: unknown): { name: string; message: string; code?: string } {
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: unknown }).code;
  const message = redactText(e.message);
  return typeof code === 'string' ? { name: e.name, message, code } : { name: e.name, message };
}

/** Keys whose values are phone numbers, whatever their type (`mobileNumber`, `phone`, `msisdn`, `tel`). */
const PHONE_KEY = /phone|mobile|msisdn|cell|(?:^|_)tel(?:$|_)/i;

/**
 * Masks the phone numbers in a JSON value, a service's answer as people are shown it: every
 * string (and key) as free text with {@link maskMobilesInText}; a number only when it is a phone,
 * under a key that names one or in a mobile's shape (`9123456789`). Free text masks any run of 9
 * to 15 digits, which in an answer would hide a file's `size` or a timestamp; those stay as they
 * are. A masked number becomes a string.
 */
export function maskMobilesInJson(value: JsonValue, key = ''): JsonValue {
  if (typeof value === 'string') return maskMobilesInText(value);
  if (typeof value === 'number') {
    const digits = String(value);
    if (!/^\d+$/.test(digits)) return value;
    const phone = PHONE_KEY.test(key) ? digits.length >= MIN_DIGITS : looksLikeMobile(digits, false);
    return phone ? maskMobile(digits) : value;
  }
  if (Array.isArray(value)) return value.map((item) => maskMobilesInJson(item, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[maskMobilesInText(k)] = maskMobilesInJson(v, k);
    return out;
  }
  return value;
}
