import { isSolarHijriYear, solarHijriOf, solarHijriToGregorian } from './solar-hijri.js';

const DAY_MS = 86_400_000;

describe('reading a Solar Hijri date', () => {
  it('finds the Gregorian day of dates a Persian-speaking lead would type', () => {
    expect(solarHijriToGregorian(1405, 9, 10)).toEqual({ year: 2026, month: 12, day: 1 });
    expect(solarHijriToGregorian(1405, 1, 1)).toEqual({ year: 2026, month: 3, day: 21 });
    expect(solarHijriToGregorian(1404, 1, 1)).toEqual({ year: 2025, month: 3, day: 21 });
    // 1403 is a leap year: its last month has 30 days.
    expect(solarHijriToGregorian(1403, 12, 30)).toEqual({ year: 2025, month: 3, day: 20 });
    expect(solarHijriToGregorian(1404, 12, 29)).toEqual({ year: 2026, month: 3, day: 20 });
  });

  it('refuses days that do not exist', () => {
    expect(solarHijriToGregorian(1404, 12, 30)).toBeNull();
    expect(solarHijriToGregorian(1405, 7, 31)).toBeNull();
    expect(solarHijriToGregorian(1405, 13, 1)).toBeNull();
    expect(solarHijriToGregorian(1405, 0, 10)).toBeNull();
    expect(solarHijriToGregorian(1405, 1, 0)).toBeNull();
    expect(solarHijriToGregorian(2026, 1, 1)).toBeNull();
  });

  it('agrees with the Persian calendar shown to people on every day of eight years', () => {
    const start = Date.UTC(2024, 0, 1);
    const mismatches: string[] = [];
    for (let at = start; at < Date.UTC(2032, 0, 1); at += DAY_MS) {
      const persian = solarHijriOf(at);
      const back = solarHijriToGregorian(persian.year, persian.month, persian.day);
      const date = new Date(at);
      const want = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      if (JSON.stringify(back) !== JSON.stringify(want)) {
        mismatches.push(`${persian.year}/${persian.month}/${persian.day}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('takes the years of this Solar Hijri century only', () => {
    expect(isSolarHijriYear(1405)).toBe(true);
    expect(isSolarHijriYear(1299)).toBe(false);
    expect(isSolarHijriYear(2026)).toBe(false);
  });
});
