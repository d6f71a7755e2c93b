import { normalizeDigits } from './digits.js';

describe('digits as people paste them', () => {
  it.each([
    ['Persian digits', '۰۹۱۲۳۴۵۶۷۸۹', '09123456789'],
    ['Arabic-Indic digits', '٠٩١٢٣٤٥٦٧٨٩', '09123456789'],
    ['mixed scripts', '۰9١2', '0912'],
    ['left-to-right and right-to-left marks', '\u200e0912\u200f345', '0912345'],
    ['bidi embeddings and isolates', '\u202b0912\u202c \u20669910\u2069', '0912 9910'],
    ['zero-width joiners and BOM', '\ufeff09\u200c12\u200d', '0912'],
    ['no-break spaces become spaces', '0912\u00a0345\u202f6789', '0912 345 6789'],
    ['ASCII text is left alone', 'retry 671018d0403eba579a6f90e2', 'retry 671018d0403eba579a6f90e2'],
  ])('%s', (_, input, expected) => {
    expect(normalizeDigits(input)).toBe(expected);
  });
});
