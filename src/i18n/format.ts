import { isolatedChange } from '../core/bidi.js';
import type { Lang } from './lang.js';

/**
 * Numbers, dates, lists and left-to-right tokens as a reader of each language expects them.
 * Persian prose gets Persian digits and Solar Hijri dates; anything a person copies (IDs, mobile
 * numbers, addresses, code spans) keeps Latin digits and is wrapped in Unicode isolates
 * (FSI … PDI) so that right-to-left text around it cannot reorder it.
 * @see docs/architecture.md, "Languages"
 */

/** FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. */
export const FSI = '\u2068';
export const PDI = '\u2069';

/** ASCII digits → Persian digits (۰-۹), one for one; everything else unchanged. */
export function persianDigits(text: string): string {
  return text.replace(/[0-9]/g, (d) => String.fromCharCode(0x06f0 + d.charCodeAt(0) - 48));
}

/**
 * A number in prose: `3` in English, `۳` in Persian; large numbers grouped in Persian (`۱٬۲۵۰`).
 * Never for IDs or anything a person copies: those go through `ltr`.
 */
export function num(lang: Lang, n: number | string): string {
  if (lang.locale === 'en') return String(n);
  if (typeof n === 'number' && Number.isFinite(n)) return numberFormat.format(n);
  return persianDigits(String(n));
}

const numberFormat = new Intl.NumberFormat('fa-IR', { maximumFractionDigits: 2 });

/**
 * A left-to-right token inside a sentence (an ID, a masked number, an IP, a code span): isolated
 * in Persian so its characters keep their order; unchanged in English. Wrap the whole token,
 * backticks included, so the code span itself stays intact.
 */
export function ltr(lang: Lang, token: string): string {
  return lang.locale === 'fa' ? `${FSI}${token}${PDI}` : token;
}

/**
 * `before → after` in a sentence: in Persian one isolate that runs left to right whatever its sides
 * hold (see `isolatedChange`), so a right-to-left line cannot swap them; unchanged in English,
 * whose lines run left to right already (a side from outside isolates itself there, as any).
 */
export function beforeAfter(lang: Lang, before: string, after: string): string {
  return lang.locale === 'fa' ? isolatedChange(before, after) : `${before} → ${after}`;
}

/** `Lee`, `Lee and Kim`, `Lee, Kim and Max`; in Persian `لی، کیم و مکس`. */
export function list(lang: Lang, items: readonly string[]): string {
  return (lang.locale === 'fa' ? faList : enList).format(items);
}

const enList = new Intl.ListFormat('en-GB', { type: 'conjunction' });
const faList = new Intl.ListFormat('fa', { type: 'conjunction' });

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: Lang): Intl.DateTimeFormat {
  const key = `${lang.locale}|${lang.timeZone}`;
  let format = dateFormats.get(key);
  if (format === undefined) {
    format =
      lang.locale === 'fa'
        ? new Intl.DateTimeFormat('fa-IR-u-ca-persian', {
            timeZone: lang.timeZone,
            year: 'numeric',
            month: 'long',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          })
        : new Intl.DateTimeFormat('en-GB', {
            timeZone: lang.timeZone,
            year: 'numeric',
            month: 'short',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
            timeZoneName: 'short',
          });
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * A moment as a person reads it, in `DISPLAY_TIME_ZONE`: `۱ آذر ۱۴۰۵ ساعت ۱۴:۰۰` (Solar Hijri) in
 * Persian, `22 Nov 2026, 14:00 GMT+3:30` in English. An unreadable value is returned as it is.
 */
export function dateTime(lang: Lang, iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return dateFormat(lang).format(new Date(ms));
}

const relativeFormats: Record<Lang['locale'], Intl.RelativeTimeFormat> = {
  en: new Intl.RelativeTimeFormat('en', { numeric: 'auto' }),
  fa: new Intl.RelativeTimeFormat('fa', { numeric: 'auto' }),
};

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/**
 * How far `iso` is from `now`, in the largest whole unit: `2 hours ago`, `in 15 minutes`;
 * `۲ ساعت پیش`, `۱۵ دقیقه بعد`. An unreadable value is returned as it is.
 */
export function relative(lang: Lang, iso: string, now: Date): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const diff = ms - now.getTime();
  const size = Math.abs(diff);
  for (const [unit, unitMs] of UNITS) {
    if (size >= unitMs || unit === 'second') {
      const amount = Math.round(diff / unitMs);
      return relativeFormats[lang.locale].format(amount, unit);
    }
  }
  return iso;
}
