/**
 * Solar Hijri (Persian calendar) dates as people in Iran write them, read into the Gregorian
 * calendar. Node's ICU has the Persian calendar (`fa-IR-u-ca-persian`, the one vidops shows dates
 * in), so reading a date asks ICU which day it is rather than repeating the calendar's leap-year
 * rules here: the Gregorian day is guessed from the day of the year, then checked and corrected
 * against ICU by at most a few days.
 * @see docs/architecture.md, "Languages"
 */

const DAY_MS = 86_400_000;

/** A calendar date: month 1-12, day 1-31. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const PERSIAN = new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-latn', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
});

/** The Solar Hijri date of a UTC day (its midnight, in milliseconds). */
export function solarHijriOf(utcMs: number): CalendarDate {
  const parts: Record<string, number> = {};
  for (const part of PERSIAN.formatToParts(new Date(utcMs))) parts[part.type] = Number(part.value);
  return { year: parts.year ?? Number.NaN, month: parts.month ?? Number.NaN, day: parts.day ?? Number.NaN };
}

/** Years vidops reads as Solar Hijri: this century of it (1300 is 1921, 1499 is 2121). */
export function isSolarHijriYear(year: number): boolean {
  return Number.isInteger(year) && year >= 1300 && year <= 1499;
}

/**
 * The Gregorian date of Solar Hijri `year`/`month`/`day` (`1405/09/10` → 2026-12-01); null when
 * that day does not exist (`1404/12/30`: 1404 is not a leap year; month 7 has 30 days) or the year
 * is outside {@link isSolarHijriYear}.
 */
export function solarHijriToGregorian(year: number, month: number, day: number): CalendarDate | null {
  if (!isSolarHijriYear(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || day > (month <= 6 ? 31 : 30)) return null;
  // Months 1-6 have 31 days, 7-11 have 30, and the year begins on 19-22 March (Nowruz): a guess
  // from 21 March lands within three days of the date.
  const dayOfYear = (month <= 6 ? (month - 1) * 31 : 186 + (month - 7) * 30) + day - 1;
  const guess = Date.UTC(year + 621, 2, 21) + dayOfYear * DAY_MS;
  for (const shift of [0, -1, 1, -2, 2, -3, 3]) {
    const at = guess + shift * DAY_MS;
    const read = solarHijriOf(at);
    if (read.year === year && read.month === month && read.day === day) {
      const date = new Date(at);
      return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    }
  }
  return null;
}
