import { dateTime, FSI, list, ltr, num, PDI, persianDigits, relative } from './format.js';
import { langFor } from './lang.js';
import { localeOf } from './locale.js';

const fa = langFor('fa', 'Asia/Tehran');
const en = langFor('en', 'UTC');

describe('a Persian reader', () => {
  it('reads numbers in prose with Persian digits, grouped', () => {
    expect(num(fa, 3)).toBe('۳');
    expect(num(fa, 1250)).toBe('۱٬۲۵۰');
    expect(persianDigits('R-0912')).toBe('R-۰۹۱۲');
  });

  it('sees IDs and code spans isolated, their Latin digits kept', () => {
    expect(ltr(fa, '`R-12`')).toBe(`${FSI}\`R-12\`${PDI}`);
  });

  it('reads dates in the Solar Hijri calendar in Tehran time', () => {
    // 2026-11-22 10:30 UTC is 14:00 on 1 Azar 1405 in Tehran (UTC+3:30).
    expect(dateTime(fa, '2026-11-22T10:30:00.000Z')).toBe('۱ آذر ۱۴۰۵ ساعت ۱۴:۰۰');
  });

  it('reads how long ago and how long left in Persian', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(relative(fa, '2026-11-22T10:00:00Z', now)).toBe('۲ ساعت پیش');
    expect(relative(fa, '2026-11-22T12:15:00Z', now)).toBe('۱۵ دقیقه بعد');
  });

  it('reads lists joined with و', () => {
    expect(list(fa, ['الف', 'ب'])).toBe('الف و ب');
  });
});

describe('an English reader', () => {
  it('reads plain digits, untouched tokens and lists without a serial comma', () => {
    expect(num(en, 1250)).toBe('1250');
    expect(ltr(en, '`R-12`')).toBe('`R-12`');
    expect(list(en, ['Lee', 'Kim', 'Max'])).toBe('Lee, Kim and Max');
  });

  it('reads dates in the display time zone and relative times', () => {
    expect(dateTime(en, '2026-11-22T10:30:00.000Z')).toBe('22 Nov 2026, 10:30 UTC');
    expect(relative(en, '2026-11-22T10:00:00Z', new Date('2026-11-22T12:00:00Z'))).toBe('2 hours ago');
  });
});

describe('a language tag', () => {
  it.each([
    ['fa', 'fa'],
    ['fa-IR', 'fa'],
    ['fa_IR.UTF-8', 'fa'],
    ['en-US', 'en'],
    ['en_GB.UTF-8', 'en'],
    ['C', undefined],
    ['de-DE', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s reads as %s', (tag, locale) => {
    expect(localeOf(tag)).toBe(locale);
  });
});
