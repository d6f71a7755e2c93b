import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Area, Phrase, Phrases } from '../src/i18n/define.js';
import { FSI, PDI } from '../src/i18n/format.js';
import { AREAS } from '../src/i18n/messages/index.js';
import { VIEWS } from '../src/operations/views.js';

/**
 * The message catalog is complete and clean, whatever areas it holds (they are read from AREAS
 * and from each operation's views in VIEWS, never listed here): every key is used by the code, both languages have the same keys, every
 * Persian phrase is written (not empty, not the English left in place), uses Persian letters and
 * no Latin digits in prose, and every phrase made from parameters makes a string. Each check
 * names every offending key (`area.key`), not only the first.
 * @see docs/architecture.md, "Languages"
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGES = join(ROOT, 'src', 'i18n', 'messages');
const OPERATIONS = join(ROOT, 'src', 'operations');

type AnyArea = Area<Phrases>;
/** The shared areas, then each operation's own (its `messages.ts`), named after the operation. */
const areas: [string, AnyArea][] = [
  ...Object.entries<AnyArea>(AREAS),
  ...Object.entries(VIEWS).flatMap(([name, views]): [string, AnyArea][] =>
    views.messages === undefined ? [] : [[name, views.messages]],
  ),
];

/** Every phrase of the catalog, both languages side by side. */
interface Entry {
  area: string;
  key: string;
  en: Phrase | undefined;
  fa: Phrase | undefined;
}

const entries: Entry[] = areas.flatMap(([area, { en, fa }]) =>
  [...new Set([...Object.keys(en), ...Object.keys(fa)])].map((key) => ({
    area,
    key,
    en: en[key],
    fa: fa[key],
  })),
);

const name = (e: Entry) => `${e.area}.${e.key}`;

/**
 * Phrases that may read the same in Persian as in English, each with why. Only a code, an ID or a
 * name written the same in every language belongs here, never a word left untranslated. (Texts
 * with no letters at all outside code spans, emoji codes and Slack's `<…>` tokens need no entry.)
 */
const SAME_IN_BOTH: Readonly<Record<string, string>> = {};

// ---------------------------------------------------------------------------------------------
// Sample parameters for the phrases made from parameters

/**
 * Parameters for the phrases that none of SAMPLES can fill (an enumeration looked up in a table of
 * functions, say), by `area.key`: tried before the samples. Keep it short; most phrases take text.
 */
const SAID_SAMPLE = { key: 'phoneEmpty', params: [] };
const PARAMETERS: Readonly<Record<string, readonly unknown[]>> = {
  // A refusal wrapped in another: the inner one is a sentence of the core (src/core/said.ts).
  'errors.ipUnusable': ['10.0.0.1', { kind: 'private', cidr: '10.0.0.0/8' }, false],
  'errors.protBadValue': ['opacity', SAID_SAMPLE],
  'errors.grammarNobodyUnblocked': [SAID_SAMPLE],
  'errors.grammarIdRefused': [SAID_SAMPLE],
  'errors.modalNobodyUnblocked': [SAID_SAMPLE],
  'errors.modalNothingRetried': [SAID_SAMPLE],
  'approvals.apprResource': ['folder'],
  'operator.docCheck': ['database'],
};

/**
 * Anything at all: reads as `Xo`, has every field (itself), can be called (and gives itself),
 * and lists nothing. For phrases whose parameters are records, lists of records or phrases.
 */
const ANYTHING: unknown = (() => {
  const proxy: unknown = new Proxy(() => undefined, {
    get: (_target, key) => {
      if (key === Symbol.toPrimitive) return () => 'Xo';
      if (key === Symbol.iterator) return function* nothing() {};
      return key === 'then' || key === 'toJSON' ? undefined : proxy;
    },
    apply: () => proxy,
  });
  return proxy;
})();

/**
 * What a parameter may be given as: text (most are: numbers, IDs and names come formatted),
 * a number (counts the English side needs for its plural), a list of texts, or anything else.
 * Latin letters without digits, so a digit in the output is the phrase's own.
 */
const SAMPLES: readonly unknown[] = ['Xq', 3, ['Xa', 'Xb'], ANYTHING];
/** The samples' own words, taken out of a made text before judging its words. */
const SAMPLE_WORDS = /X[qoab]/g;

/** The ways to give `arity` parameters from SAMPLES, the most text first (at most a few hundred). */
function argumentSets(arity: number): unknown[][] {
  let sets: number[][] = [[]];
  if (SAMPLES.length ** arity > 1024) {
    sets = SAMPLES.map((_, s) => Array.from({ length: arity }, () => s));
  } else {
    for (let i = 0; i < arity; i++) sets = sets.flatMap((set) => SAMPLES.map((_, s) => [...set, s]));
  }
  const others = (set: number[]) => set.filter((s) => s !== 0).length;
  return sets.sort((a, b) => others(a) - others(b)).map((set) => set.map((s) => SAMPLES[s]));
}

/** Calls a phrase with `args`; the text, or why not. */
function call(phrase: Phrase, args: readonly unknown[]): { text: string } | { problem: string } {
  try {
    const value: unknown = (phrase as (...a: unknown[]) => unknown)(...args);
    return typeof value === 'string' ? { text: value } : { problem: `gave a ${typeof value}, not a text` };
  } catch (error) {
    return { problem: `threw “${error instanceof Error ? error.message : String(error)}”` };
  }
}

/** A phrase's text in both languages: itself, or what it makes from sample parameters. */
interface Made {
  en: string;
  fa: string;
}

/** A text that shows a parameter the phrase could not read (a sample of the wrong kind). */
const CLUMSY = /undefined|NaN|\[object /;

/**
 * What a phrase says: a text as it is; a phrase made from parameters, from the first parameters
 * both languages make a text of, preferring one that reads every parameter. A problem when no
 * parameters do (every try threw or gave something else than a text).
 */
function made(e: Entry): Made | { problem: string } {
  if (typeof e.en === 'string' && typeof e.fa === 'string') return { en: e.en, fa: e.fa };
  if (typeof e.en !== 'function' || typeof e.fa !== 'function') return { problem: 'not the same shape' };
  const given = PARAMETERS[name(e)];
  const sets = [...(given === undefined ? [] : [given]), ...argumentSets(Math.max(e.en.length, e.fa.length))];
  let first: Made | undefined;
  let last = '';
  for (const args of sets) {
    const en = call(e.en, args);
    const fa = call(e.fa, args);
    if ('text' in en && 'text' in fa) {
      const both = { en: en.text, fa: fa.text };
      if (!CLUMSY.test(both.en + both.fa)) return both;
      first ??= both;
    } else {
      last = 'problem' in en ? `English ${en.problem}` : 'problem' in fa ? `Persian ${fa.problem}` : last;
    }
  }
  return first ?? { problem: `makes no text from any sample parameters (last: ${last})` };
}

// ---------------------------------------------------------------------------------------------
// The code that reads the catalog

const CODE = /\.(ts|js|mjs|cjs)$/;
const TEST = /\.test\.(ts|js|mjs|cjs)$/;

/** An operation's own sentences (`src/operations/<op>/messages.ts`): the catalog, not its readers. */
const isOperationMessages = (file: string) =>
  dirname(dirname(file)) === OPERATIONS && /^messages\.(ts|js)$/.test(file.slice(dirname(file).length + 1));

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== MESSAGES && entry.name !== '__snapshots__') sources(full, out);
    } else if (CODE.test(entry.name) && !TEST.test(entry.name) && !isOperationMessages(full)) {
      out.push(readFileSync(full, 'utf8'));
    }
  }
  return out;
}

/** The code without its comments (those that begin a line): a key named in a comment is not used. */
const CODE_TEXT = sources(join(ROOT, 'src'))
  .join('\n')
  .replace(/^\s*\/\*[\s\S]*?\*\//gm, ' ')
  .replace(/^\s*\/\/.*$/gm, ' ');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------
// What Persian text must not hold

/** Arabic letters whose Persian forms are other code points: ي → ی, ك → ک. */
const ARABIC_LETTERS = /[\u064A\u0643]/;
/** Arabic-Indic digits (٠-٩), which Persian writes as its own (۰-۹). */
const ARABIC_DIGITS = /[\u0660-\u0669]/;

/**
 * The prose of a Persian text: without isolated runs (FSI … PDI, where IDs, numbers and code
 * spans keep their Latin digits), emoji codes (`:hourglass_flowing_sand:`) and Slack's `<…>`
 * tokens (mentions, links, dates).
 */
function prose(text: string): string {
  return text
    .replace(new RegExp(`${FSI}[^${FSI}${PDI}]*${PDI}`, 'g'), ' ')
    .replace(/:[a-z0-9_+-]+:/g, ' ')
    .replace(/<[@#!][^>]*>/g, ' ');
}

/**
 * The numbers written in Latin digits in a Persian text's prose. A Latin term with a digit in it
 * (`IPv4`, `ISO-8601`, `mp4`) is a name people write so, not a number; a number alone is one.
 */
function bareNumbers(text: string): string[] {
  return (
    prose(text)
      .replace(/[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*/g, ' ')
      .match(/[0-9]+/g) ?? []
  );
}

/** True when a text is only a code, an ID or an emoji: no letters outside those. */
function onlyCode(text: string): boolean {
  return !/\p{L}/u.test(prose(text).replace(/`[^`]*`/g, ' '));
}

// ---------------------------------------------------------------------------------------------

describe('the message catalog', () => {
  it('holds areas, and every area written in src/i18n/messages or an operation’s messages.ts is registered', async () => {
    expect(areas.length).toBeGreaterThan(0);
    const registered = new Set<unknown>(areas.map(([, area]) => area));
    const written = [
      ...readdirSync(MESSAGES).map((file) => join(MESSAGES, file)),
      ...readdirSync(OPERATIONS).map((op) => join(OPERATIONS, op, 'messages.ts')),
    ].filter(
      (file) => existsSync(file) && CODE.test(file) && !TEST.test(file) && !/[\\/]index\.\w+$/.test(file),
    );
    const unregistered: string[] = [];
    for (const file of written) {
      if (!readFileSync(file, 'utf8').includes('defineArea(')) continue;
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      if (!Object.values(module).some((value) => registered.has(value))) {
        unregistered.push(relative(ROOT, file).split(sep).join('/'));
      }
    }
    expect(unregistered).toEqual([]);
  });

  it('uses every key somewhere in src/ outside the catalog, as `.key` (tests do not count)', () => {
    const unused = entries
      .filter((e) => !new RegExp(`\\.${escapeRegExp(e.key)}(?![\\w$])`).test(CODE_TEXT))
      .map(name);
    expect(unused).toEqual([]);
  });

  it('has exactly the same keys in English and Persian, each a text in both or made in both', () => {
    const different = entries.flatMap((e) => {
      if (e.en === undefined) return [`${name(e)}: only in Persian`];
      if (e.fa === undefined) return [`${name(e)}: only in English`];
      const kinds = [e.en, e.fa].map((p) => typeof p);
      if (kinds.some((kind) => kind !== 'string' && kind !== 'function')) {
        return [`${name(e)}: neither a text nor made from parameters (${kinds.join(', ')})`];
      }
      return kinds[0] === kinds[1] ? [] : [`${name(e)}: English is a ${kinds[0]}, Persian a ${kinds[1]}`];
    });
    expect(different).toEqual([]);
  });

  it('uses each key in one area only', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const e of entries) {
      const first = seen.get(e.key);
      if (first !== undefined && first !== e.area) twice.push(`${name(e)}: also in ${first}`);
      seen.set(e.key, first ?? e.area);
    }
    expect(twice).toEqual([]);
  });

  it('makes a text from sample parameters with every phrase, in both languages, without throwing', () => {
    const broken = entries.flatMap((e) => {
      if (e.en === undefined || e.fa === undefined) return [];
      const text = made(e);
      return 'problem' in text ? [`${name(e)}: ${text.problem}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('writes every Persian phrase: none empty, none the English left as it was (codes and IDs aside)', () => {
    const unwritten = entries.flatMap((e) => {
      const text = e.en === undefined || e.fa === undefined ? undefined : made(e);
      if (text === undefined || 'problem' in text) return [];
      if (text.fa.trim() === '') return [`${name(e)}: empty in Persian`];
      if (text.en.trim() === '') return [`${name(e)}: empty in English`];
      // A phrase made from parameters that adds no words of its own (a lookup that falls back
      // to the English name it is given) says nothing to translate.
      const own = typeof e.en === 'function' ? text.en.replace(SAMPLE_WORDS, ' ') : text.en;
      if (text.fa !== text.en || onlyCode(own) || name(e) in SAME_IN_BOTH) return [];
      return [`${name(e)}: the same as the English, ${JSON.stringify(text.en)}`];
    });
    expect(unwritten).toEqual([]);
  });

  it('writes Persian with Persian letters and digits: no Arabic ي/ك, no Latin digits in prose', () => {
    const misspelt = entries.flatMap((e) => {
      const text = e.en === undefined || e.fa === undefined ? undefined : made(e);
      if (text === undefined || 'problem' in text) return [];
      const problems: string[] = [];
      if (ARABIC_LETTERS.test(text.fa)) problems.push('Arabic ي or ك where Persian writes ی or ک');
      if (ARABIC_DIGITS.test(text.fa)) problems.push('Arabic-Indic digits where Persian writes ۰-۹');
      const digits = /\p{Script=Arabic}/u.test(text.fa) ? bareNumbers(text.fa) : [];
      if (digits.length > 0) {
        problems.push(
          `Latin digits in prose (${digits.join(', ')}): give them through num, or ltr if copied`,
        );
      }
      return problems.map((problem) => `${name(e)}: ${problem}`);
    });
    expect(misspelt).toEqual([]);
  });
});

describe('the catalog’s checks themselves', () => {
  it('find Latin digits outside isolates only, and Arabic letters anywhere', () => {
    expect(prose(`شناسه‌ی ${FSI}\`R-12\`${PDI} :100: <@U12>`)).not.toMatch(/[0-9]/);
    expect(bareNumbers('۲۴ نویسه، 24 نویسه')).toEqual(['24']);
    expect(bareNumbers('نشانی IPv4 یا IPv6، زمان ISO-8601، فایل mp4')).toEqual([]);
    expect(bareNumbers(`شناسه‌ی ${FSI}671018d0403eba579a6f90e2${PDI} و 3 فایل`)).toEqual(['3']);
    expect(ARABIC_LETTERS.test('كليك')).toBe(true);
    expect(ARABIC_LETTERS.test('کلیک')).toBe(false);
  });

  it('take a text made only of a code or an emoji as the same in both languages, never a word', () => {
    expect(onlyCode('`/vidops`')).toBe(true);
    expect(onlyCode(':warning: •')).toBe(true);
    expect(onlyCode('Unblock')).toBe(false);
  });

  it('try text, numbers, lists and objects as parameters, and report a phrase that throws', () => {
    const entry = (en: Phrase, fa: Phrase): Entry => ({ area: 'a', key: 'k', en, fa });
    expect(
      made(
        entry(
          (n: number) => n.toFixed(0),
          (n: number) => n.toFixed(0),
        ),
      ),
    ).toEqual({ en: '3', fa: '3' });
    expect(
      made(
        entry(
          (xs: string[]) => xs.join('+'),
          (xs: string[]) => xs.join('+'),
        ),
      ),
    ).toEqual({
      en: 'Xa+Xb',
      fa: 'Xa+Xb',
    });
    expect(
      made(
        entry(
          (o: { title: string }) => `${o.title}!`,
          (o: { title: string }) => `${o.title}!`,
        ),
      ),
    ).toEqual({
      en: 'Xo!',
      fa: 'Xo!',
    });
    const throws = () => {
      throw new Error('boom');
    };
    expect(made(entry(throws, throws))).toMatchObject({ problem: expect.stringContaining('boom') });
    expect(
      made(
        entry(
          () => 3 as unknown as string,
          () => 'x',
        ),
      ),
    ).toMatchObject({
      problem: expect.stringContaining('English gave a number'),
    });
    const table: Record<string, (n: string) => string> = { on: (n) => `${n} is on` };
    const lookup = (state: string) => (table[state] as (n: string) => string)('x');
    expect(made(entry(lookup, lookup))).toMatchObject({ problem: expect.stringContaining('threw') });
  });
});
