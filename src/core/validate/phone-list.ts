import { type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';
import { type MobileOptions, parseMobile } from './phone.js';

/**
 * A pasted list of mobile numbers (a ticket export, a spreadsheet column, several numbers after
 * `/vidops unblock`), read line by line: numbers in any form `parseMobile` reads, one per line or
 * separated by commas, semicolons, tabs, Persian commas (`،`) or spaces. Spaces also occur inside
 * numbers (`0912 345 6789`), so a run of words is read as the longest run that makes one number.
 * Words without a digit (names, a header) are skipped; a line with none of its words a number is
 * refused, as is every run of words with digits that makes no number, with its line and reason.
 * Pure: no I/O.
 * @see docs/commands.md, "Many numbers at once"
 */

/** A number of the list, as sent (`param`), masked, and the lines it was read on (first first). */
export interface ListedNumber {
  param: string;
  masked: string;
  lines: number[];
}

/** What could not be read as a number: its line (1-based), what was read there, and why. */
export interface RefusedEntry {
  line: number;
  read: string;
  said: Said;
}

export interface NumberList {
  /** Each number once, in the order first read. */
  numbers: ListedNumber[];
  refused: RefusedEntry[];
  /** How many numbers were merged into one read before (the same number, however written). */
  duplicates: number;
}

// What separates numbers on a line besides spaces: commas (Latin, Persian, full-width), semicolons, tabs.
const SEPARATORS = /[,،，;؛\t]+/;
/** The most words one number spans (`+98 912 345 67 89`). */
const MAX_WORDS = 6;
const DIGIT = /\d/;
const INTERNATIONAL = /^(?:\+|00)/;
const MAX_E164_DIGITS = 15;

function digitCount(word: string): number {
  return word.replace(/\D/g, '').length;
}

/** Reads every number of `text`. */
export function parseNumberList(text: string, home: string, options: MobileOptions = {}): NumberList {
  const byParam = new Map<string, ListedNumber>();
  const refused: RefusedEntry[] = [];
  let duplicates = 0;
  const found = (param: string, masked: string, line: number) => {
    const known = byParam.get(param);
    if (known === undefined) byParam.set(param, { param, masked, lines: [line] });
    else {
      duplicates += 1;
      if (!known.lines.includes(line)) known.lines.push(line);
    }
  };
  normalizeDigits(text)
    .split(/\r\n|\r|\n/)
    .forEach((raw, index) => {
      const line = index + 1;
      const words = raw.split(SEPARATORS).flatMap((chunk) => chunk.trim().split(/\s+/));
      const numbered = words.filter((w) => DIGIT.test(w));
      if (numbered.length === 0) {
        if (raw.trim() !== '') refused.push({ line, read: raw.trim(), said: say.listNoNumber() });
        return;
      }
      readWords(numbered, home, options, line, found, refused);
    });
  return { numbers: [...byParam.values()], refused, duplicates };
}

/** Reads the words with digits of one line: the longest run from each word that makes a number. */
function readWords(
  words: readonly string[],
  home: string,
  options: MobileOptions,
  line: number,
  found: (param: string, masked: string, line: number) => void,
  refused: RefusedEntry[],
): void {
  const numberAt = (i: number) => {
    for (let j = Math.min(words.length, i + MAX_WORDS); j > i; j -= 1) {
      const read = parseMobile(words.slice(i, j).join(' '), home, options);
      if (read.ok) return { read, end: j };
    }
    return null;
  };
  let i = 0;
  while (i < words.length) {
    const hit = numberAt(i);
    if (hit !== null) {
      found(hit.read.param, hit.read.masked, line);
      i = hit.end;
      continue;
    }
    // The words up to the next that starts a number make one refusal, not one per word.
    // A number with a country code that is refused (another country's) keeps its words: a part of
    // it must never be read as a number of the home region (`+63 917 123 4567` is not `0917…`).
    let end = i + 1;
    if (INTERNATIONAL.test(words[i] ?? '')) {
      let digits = digitCount(words[i] ?? '');
      while (end < words.length && digits + digitCount(words[end] ?? '') <= MAX_E164_DIGITS) {
        digits += digitCount(words[end] ?? '');
        end += 1;
      }
    }
    while (end < words.length && numberAt(end) === null) end += 1;
    const text = words.slice(i, end).join(' ');
    const read = parseMobile(text, home, options);
    if (read.ok) found(read.param, read.masked, line);
    else refused.push({ line, read: text, said: read.said });
    i = end;
  }
}
