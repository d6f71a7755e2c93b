import { type Said, say } from './said.js';
import { isSolarHijriYear, solarHijriToGregorian } from './solar-hijri.js';
import { normalizeDigits } from './validate/digits.js';

/**
 * One reading of "a length of time or a moment" as people type it, shared by delegation
 * (`until 2d`) and time-boxed changes (`for 2h`, `until 1405/09/07T18:00`): a duration (`30m`,
 * `2h`, `1d`, `1w`, `1h30m`) or a date and time (`2026-12-01`, `2026-12-01T18:00`, Solar Hijri
 * `1405/09/10`), in Persian or Arabic-Indic digits as well, with `-` or `/` in the date, read as
 * a wall clock in the display time zone unless it ends with `Z` (UTC).
 * @see docs/commands.md, "Time-boxed changes"
 */

/**
 * What was typed, read: a duration (`ms`, signed: `-2h` reads as minus two hours so that the
 * caller can say why it is refused), or a moment as a clock on the wall shows it (`local`,
 * Gregorian, `YYYY-MM-DDTHH:MM:SS`) in the display time zone, or in UTC when `utc`. `text` is
 * what was typed.
 */
export type When =
  | { kind: 'duration'; ms: number; text: string }
  | { kind: 'time'; local: string; utc: boolean; text: string };

/**
 * How `until` was written for a delegation: the same as {@link When}.
 * @see docs/approvals.md, "Break-glass and delegation"
 */
export type UntilSpec = When;

// `-` or `/` between the parts of a date (`1405/09/10` is how dates are written in Iran); the time
// after `T` or a space (`1405/09/07 18:00`, when two words are joined).
const TIME = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?(Z)?$/i;

/** One amount and unit of a duration, largest unit first: `1h30m` is one hour and thirty minutes. */
const SPAN = /^(-)?((?:\d+[wdhms])+)$/;
const SPAN_PART = /(\d+)([wdhms])/g;
const SPAN_UNITS = 'wdhms';
const UNIT_MS: Readonly<Record<string, number>> = {
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
};

/**
 * A duration: one or more amounts with a unit each, largest unit first and each unit once
 * (`15m`, `2h`, `1d`, `1w`, `1h30m`), optionally signed (`-2h`). Null when it is not one.
 */
export function readSpan(plain: string): number | null {
  const match = SPAN.exec(plain.trim());
  if (match === null) return null;
  let ms = 0;
  let last = -1;
  for (const part of (match[2] ?? '').matchAll(SPAN_PART)) {
    const unit = part[2] ?? '';
    const rank = SPAN_UNITS.indexOf(unit);
    if (rank <= last) return null;
    last = rank;
    ms += Number(part[1]) * (UNIT_MS[unit] ?? Number.NaN);
  }
  if (!Number.isFinite(ms)) return null;
  return match[1] === '-' ? -ms : ms;
}

/** A date, with an optional time and `Z`, as a wall clock shows it; null when it is not a moment that exists. */
function readMoment(plain: string): { local: string; utc: boolean } | null {
  const m = TIME.exec(plain.trim());
  const local = m === null ? null : wallClock(m);
  return m === null || local === null ? null : { local, utc: m[8] !== undefined };
}

/**
 * Reads a duration or a date and time, in any digits (`۴h`, `۱۴۰۵/۰۹/۱۰`); null when it is
 * neither. A year from 1300 to 1499 is a Solar Hijri one (`1405/09/10` is 2026-12-01); a date
 * alone means its start.
 */
export function readWhen(text: string): When | null {
  const raw = text.trim();
  const plain = normalizeDigits(raw);
  const ms = readSpan(plain);
  if (ms !== null) return { kind: 'duration', ms, text: raw };
  const moment = readMoment(plain);
  return moment === null ? null : { kind: 'time', ...moment, text: raw };
}

/**
 * Reads a delegation's `until`: a duration longer than zero, or a date or time (see
 * {@link readWhen}); anything else is refused with what can be written.
 */
export function parseUntil(text: string): { ok: true; until: UntilSpec } | { ok: false; said: Said } {
  const when = readWhen(text);
  if (when === null || (when.kind === 'duration' && when.ms <= 0)) {
    return { ok: false, said: say.delegBadUntil(text.trim()) };
  }
  return { ok: true, until: when };
}

/** The {@link TIME} that was matched as `YYYY-MM-DDTHH:MM:SS` in the Gregorian calendar; null if no such moment. */
function wallClock(m: RegExpExecArray): string | null {
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = [m[1], m[3], m[4], m[5], m[6], m[7]].map((part) =>
    Number(part ?? '0'),
  );
  const date = isSolarHijriYear(y) ? solarHijriToGregorian(y, mo, d) : { year: y, month: mo, day: d };
  if (date === null) return null;
  const at = new Date(Date.UTC(date.year, date.month - 1, date.day, h, mi, s));
  const same =
    at.getUTCFullYear() === date.year &&
    at.getUTCMonth() === date.month - 1 &&
    at.getUTCDate() === date.day &&
    at.getUTCHours() === h &&
    at.getUTCMinutes() === mi &&
    at.getUTCSeconds() === s;
  return same ? at.toISOString().slice(0, 19) : null;
}

/** How far `zone`'s clocks are ahead of UTC at the moment `utcMs` (Tehran: 3 h 30 min). */
function zoneOffsetMs(utcMs: number, zone: string): number {
  const parts: Record<string, number> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  for (const part of format.formatToParts(new Date(utcMs))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** The moment a wall clock in `zone` shows `local` (`2026-12-01T18:00:00`), as UTC milliseconds. */
export function zonedToUtc(local: string, zone: string): number {
  const asUtc = Date.parse(`${local}Z`);
  // Twice, so that a time just across a change of offset (summer time) lands on the right side.
  const first = asUtc - zoneOffsetMs(asUtc, zone);
  return asUtc - zoneOffsetMs(first, zone);
}

/** The moment a {@link When} of kind `time` names, as UTC milliseconds: with `utc`, in UTC; else in `timeZone`. */
export function momentMs(when: { local: string; utc: boolean }, timeZone: string): number {
  return zonedToUtc(when.local, when.utc ? 'UTC' : timeZone);
}
