/**
 * The languages vidops speaks and how a language tag (Slack's `en-US`, a shell's `fa_IR.UTF-8`,
 * a person's `/vidops lang fa`) becomes one of them.
 * @see docs/architecture.md, "Languages"
 */

export const LOCALES = ['en', 'fa'] as const;
export type Locale = (typeof LOCALES)[number];

/** The time zone dates are shown in when `DISPLAY_TIME_ZONE` says nothing. */
export const DEFAULT_TIME_ZONE = 'Asia/Tehran';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * `fa`, `FA`, `fa-IR`, `fa_IR.UTF-8` → `fa`; `en`, `en-US`, `en_GB.UTF-8` → `en`; anything else
 * (`C`, `POSIX`, `de-DE`, empty) → undefined, so the caller falls back to its default.
 */
export function localeOf(tag: string | null | undefined): Locale | undefined {
  if (tag === null || tag === undefined) return undefined;
  const primary = /^\s*([A-Za-z]{2,3})(?:[-_.@]|\s*$)/.exec(tag)?.[1]?.toLowerCase();
  return isLocale(primary) ? primary : undefined;
}

/** True when `zone` is an IANA time zone this Node's ICU knows (`Asia/Tehran`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
