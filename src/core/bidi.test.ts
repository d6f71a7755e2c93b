import {
  FSI,
  isolate,
  isolatedChange,
  mayReorder,
  neutraliseBidi,
  openIsolates,
  PDI,
  stripBidiControls,
} from './bidi.js';

/**
 * Text from outside cannot reorder what approvers read: its bidi controls are taken out, and the
 * views put their own isolates around it, always balanced.
 */

describe('a reason or title loses every bidi control it carries', () => {
  it.each([
    ['a right-to-left override (U+202E)', 'abc\u202Edef', 'abcdef'],
    ['a left-to-right override (U+202D)', 'abc\u202Ddef', 'abcdef'],
    ['embeddings and their pop (U+202A, U+202B, U+202C)', '\u202Aa\u202Bb\u202Cc', 'abc'],
    ['isolates (U+2066…U+2069)', '\u2066a\u2069 \u2067b\u2069 \u2068c\u2069', 'a b c'],
    ['an isolate never closed', 'title \u2067R-1 hash', 'title R-1 hash'],
    ['a closing isolate alone', 'title\u2069 R-1', 'title R-1'],
    ['the marks (LRM, RLM, ALM)', 'a\u200Eb\u200Fc\u061Cd', 'abcd'],
  ])('%s', (_what, typed, shown) => {
    expect(stripBidiControls(typed)).toBe(shown);
  });

  it('keeps Persian and Arabic letters, digits and joiners as they are', () => {
    const text = 'دوره‌ی ۱۲ «مقدمه» — كتاب ٣';
    expect(stripBidiControls(text)).toBe(text);
  });
});

describe('the views isolate outside text, and their isolates always pair up', () => {
  it('isolates a token with FSI … PDI', () => {
    expect(isolate('دوره')).toBe(`${FSI}دوره${PDI}`);
  });

  it('counts the isolates left open', () => {
    expect(openIsolates(`${FSI}a${PDI}${FSI}b`)).toBe(1);
    expect(openIsolates(`${PDI}${FSI}a`)).toBe(1);
    expect(openIsolates(`${FSI}${FSI}a${PDI}${PDI}`)).toBe(0);
  });

  it.each([
    [
      'keeps pairs, nested or not',
      `a ${FSI}b ${FSI}c${PDI}${PDI} ${FSI}d${PDI}`,
      `a ${FSI}b ${FSI}c${PDI}${PDI} ${FSI}d${PDI}`,
    ],
    ['drops a PDI that closes nothing', `a${PDI} ${FSI}b${PDI}${PDI}`, `a ${FSI}b${PDI}`],
    ['drops an FSI never closed', `${FSI}a${PDI} ${FSI}b ${FSI}c${PDI}`, `${FSI}a${PDI} b ${FSI}c${PDI}`],
    ['drops overrides, embeddings, LRI and RLI', 'a\u202Eb\u202Bc\u202Cd\u2066e\u2067f', 'abcdef'],
    [
      'keeps the marks Intl writes in Persian lists and numbers',
      'a\u060C\u200F b \u200E\u2212\u06F1',
      'a\u060C\u200F b \u200E\u2212\u06F1',
    ],
    ['drops every other mark', 'a\u200Fb\u200Ec\u061Cd \u060C\u200E', 'abcd \u060C'],
  ])('%s', (_what, text, balanced) => {
    expect(neutraliseBidi(text)).toBe(balanced);
    expect(openIsolates(neutraliseBidi(text))).toBe(0);
  });
});

describe('outside text that may reorder an English line is told apart from plain ASCII', () => {
  it.each([
    ['a Latin title', 'Course lectures (2025): part 1', false],
    ['a reason typed on two lines', 'ticket 42\nasked by the customer', false],
    ['a title in Persian', 'دوره ۱۲', true],
    ['a title in Hebrew', 'קורס', true],
    ['Arabic-Indic digits', 'part ٣', true],
    ['a right-to-left override alone', 'abc\u202Edef', true],
    ['a mark alone', 'abc\u200Fdef', true],
    ['a Latin letter with an accent', 'José', true],
  ])('%s', (_what, text, may) => {
    expect(mayReorder(text)).toBe(may);
  });
});

describe('a change, before → after', () => {
  it('is one isolate holding each side isolated, so it has no letter of its own and runs left to right', () => {
    expect(isolatedChange('خاموش', '*روشن*')).toBe(`${FSI}${FSI}خاموش${PDI} → ${FSI}*روشن*${PDI}${PDI}`);
    expect(openIsolates(isolatedChange('a', 'b'))).toBe(0);
  });
});
