import { maskMobile, maskMobilesInText } from './mask.js';

describe('mobile numbers are masked wherever people read them', () => {
  it.each([
    ['09123456789', '0912***6789'],
    ['+989123456789', '+9891***6789'],
    ['0912-345-6789', '0912***6789'],
    ['123', '***'],
  ])('%s is shown as %s', (input, shown) => {
    expect(maskMobile(input)).toBe(shown);
  });

  it.each([
    ['unblocked 09123456789 ok', 'unblocked 0912***6789 ok'],
    ['numbers +98 912 345 6789 and 0912-345-6789', 'numbers +9891***6789 and 0912***6789'],
    ['Persian ۰۹۱۲۳۴۵۶۷۸۹', 'Persian 0912***6789'],
    ['قسمت ۳: ۰۹۱۲۳۴۵۶۷۸۹', 'قسمت ۳: 0912***6789'],
    ['file 671018d0403eba579a6f90e2 stays', 'file 671018d0403eba579a6f90e2 stays'],
    ['at 2026-11-21T10:00:00Z, code 9910', 'at 2026-11-21T10:00:00Z, code 9910'],
    ['seq 12345678', 'seq 12345678'],
  ])('in "%s"', (input, shown) => {
    expect(maskMobilesInText(input)).toBe(shown);
  });
});
