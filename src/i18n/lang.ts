import { DEFAULT_TIME_ZONE, type Locale } from './locale.js';
import { AREAS } from './messages/index.js';

/**
 * A reader's language: which catalog side to speak, the time zone to show dates in, and the
 * writing direction. Views take one and never decide the language themselves.
 * @see docs/architecture.md, "Languages"
 */

type Areas = typeof AREAS;

/** The whole catalog in one language: `t.common.statePending`. */
export type Messages = {
  readonly [A in keyof Areas]: Areas[A]['en'];
};

export interface Lang {
  readonly locale: Locale;
  readonly t: Messages;
  /** IANA zone that dates are shown in (`DISPLAY_TIME_ZONE`). */
  readonly timeZone: string;
  readonly dir: 'ltr' | 'rtl';
}

function side(locale: Locale): Messages {
  const out: Record<string, unknown> = {};
  for (const [name, area] of Object.entries(AREAS)) out[name] = area[locale];
  return out as Messages;
}

const CATALOG: Readonly<Record<Locale, Messages>> = { en: side('en'), fa: side('fa') };

const cache = new Map<string, Lang>();

/** The `Lang` for a locale and time zone (made once per pair). */
export function langFor(locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): Lang {
  const key = `${locale}|${timeZone}`;
  let lang = cache.get(key);
  if (lang === undefined) {
    lang = Object.freeze({ locale, t: CATALOG[locale], timeZone, dir: locale === 'fa' ? 'rtl' : 'ltr' });
    cache.set(key, lang);
  }
  return lang;
}

/** English in Tehran time: what tests and code paths without a reader use. */
export const ENGLISH: Lang = langFor('en');

/**
 * Who reads in which language, as the Slack edge decides it: a person's stored choice, else
 * their Slack locale, else `DEFAULT_LOCALE`; channel posts in `CHANNEL_LOCALE`.
 */
export interface Languages {
  /** The language `userId` reads. Never throws: falls back to the default. */
  of(userId: string): Promise<Lang>;
  /** The same, and how it was decided (for `/vidops lang`). Never throws. */
  decide(userId: string): Promise<LanguageDecision>;
  /** Keeps `userId`'s own choice (`/vidops lang fa`); what they read from then on. */
  choose(userId: string, locale: Locale): Promise<Lang>;
  /** The language of messages posted to channels (approvals, audit): `CHANNEL_LOCALE`. */
  readonly channel: Lang;
  /** `DEFAULT_LOCALE`, for readers vidops knows nothing about. */
  readonly fallback: Lang;
}

/**
 * How a person's language was decided: their own choice, their Slack locale, or `DEFAULT_LOCALE`.
 */
export type LanguageSource = 'chosen' | 'slack' | 'default';

export interface LanguageDecision {
  lang: Lang;
  source: LanguageSource;
}

/**
 * Languages from configuration, and choices kept in memory only (tools and tests without a
 * store): a person reads what they chose, else `defaultLocale`; channels `channelLocale`.
 */
export function fixedLanguages(options: {
  defaultLocale: Locale;
  channelLocale: Locale;
  timeZone: string;
}): Languages {
  const fallback = langFor(options.defaultLocale, options.timeZone);
  const chosen = new Map<string, Lang>();
  const decide = async (userId: string): Promise<LanguageDecision> => {
    const lang = chosen.get(userId);
    return lang === undefined ? { lang: fallback, source: 'default' } : { lang, source: 'chosen' };
  };
  return {
    of: async (userId) => (await decide(userId)).lang,
    decide,
    async choose(userId, locale) {
      const lang = langFor(locale, options.timeZone);
      chosen.set(userId, lang);
      return lang;
    },
    channel: langFor(options.channelLocale, options.timeZone),
    fallback,
  };
}
