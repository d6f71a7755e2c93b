import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import { type Lang, type LanguageDecision, type Languages, langFor } from '../i18n/lang.js';
import { isLocale, type Locale, localeOf } from '../i18n/locale.js';
import type { Store } from '../store/index.js';

/**
 * Who reads which language in Slack: a person's own choice (`/vidops lang fa|en`, kept in the
 * store), else their Slack locale (`users.info` with `include_locale`, cached per person), else
 * `DEFAULT_LOCALE`. Channel posts use `CHANNEL_LOCALE`.
 * @see docs/architecture.md, "Languages"
 */

export interface LanguagesOptions {
  store: Pick<Store, 'getLanguageChoice' | 'setLanguageChoice'>;
  web: Pick<WebClient, 'users'>;
  defaultLocale: Locale;
  channelLocale: Locale;
  /** `DISPLAY_TIME_ZONE`. */
  timeZone: string;
  /** How long a person's Slack locale is used before asking Slack again. */
  ttlMs?: number;
  clock?: () => Date;
  logger?: Pick<Logger, 'debug' | 'warn'>;
}

/** Thirty minutes: people rarely change their Slack language, and `users.info` is asked per person. */
export const LOCALE_TTL_MS = 30 * 60_000;

interface Cached {
  /** Undefined: Slack gave no locale vidops speaks, or could not be asked. */
  locale: Locale | undefined;
  fetchedAt: number;
}

export function createLanguages(options: LanguagesOptions): Languages {
  const ttlMs = options.ttlMs ?? LOCALE_TTL_MS;
  const clock = options.clock ?? (() => new Date());
  const fallback = langFor(options.defaultLocale, options.timeZone);
  const slackLocales = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<Locale | undefined>>();

  /** The person's Slack locale when vidops speaks it; a failure is no locale (logged at debug). */
  async function slackLocale(userId: string): Promise<Locale | undefined> {
    const cached = slackLocales.get(userId);
    if (cached !== undefined && clock().getTime() - cached.fetchedAt < ttlMs) return cached.locale;
    const running = inFlight.get(userId);
    if (running !== undefined) return running;
    const started = (async () => {
      let locale: Locale | undefined;
      try {
        const answer = await options.web.users.info({ user: userId, include_locale: true });
        locale = localeOf(answer.user?.locale);
      } catch (error) {
        options.logger?.debug({ err: redactError(error), user: userId }, 'could not read a Slack locale');
      }
      slackLocales.set(userId, { locale, fetchedAt: clock().getTime() });
      return locale;
    })().finally(() => inFlight.delete(userId));
    inFlight.set(userId, started);
    return started;
  }

  async function stored(userId: string): Promise<Locale | undefined> {
    try {
      const choice = await options.store.getLanguageChoice(userId);
      return isLocale(choice) ? choice : undefined;
    } catch (error) {
      options.logger?.warn({ err: redactError(error), user: userId }, 'could not read a language choice');
      return undefined;
    }
  }

  const lang = (locale: Locale): Lang => langFor(locale, options.timeZone);

  async function decide(userId: string): Promise<LanguageDecision> {
    const chosen = await stored(userId);
    if (chosen !== undefined) return { lang: lang(chosen), source: 'chosen' };
    const fromSlack = await slackLocale(userId);
    if (fromSlack !== undefined) return { lang: lang(fromSlack), source: 'slack' };
    return { lang: fallback, source: 'default' };
  }

  return {
    async of(userId) {
      return (await decide(userId)).lang;
    },
    decide,
    async choose(userId, locale) {
      await options.store.setLanguageChoice(userId, locale, clock().toISOString());
      return lang(locale);
    },
    channel: lang(options.channelLocale),
    fallback,
  };
}
