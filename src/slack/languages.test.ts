import type { WebClient } from '@slack/web-api';
import { createLanguages } from './languages.js';

/** A store of choices in memory, and a `users.info` that answers from a table of locales. */
function setup(
  options: { locales?: Record<string, string>; failing?: boolean; stored?: Record<string, string> } = {},
) {
  const choices = new Map(Object.entries(options.stored ?? {}));
  const calls: { user: string; include_locale?: boolean }[] = [];
  const debug: unknown[] = [];
  let now = Date.parse('2026-11-22T10:00:00Z');
  const web = {
    users: {
      info: async (args: { user: string; include_locale?: boolean }) => {
        calls.push(args);
        if (options.failing) throw new Error('ratelimited');
        return { ok: true, user: { id: args.user, locale: options.locales?.[args.user] } };
      },
    },
  } as unknown as Pick<WebClient, 'users'>;
  const languages = createLanguages({
    store: {
      getLanguageChoice: async (userId) => choices.get(userId) ?? null,
      setLanguageChoice: async (userId, locale) => {
        choices.set(userId, locale);
      },
    },
    web,
    defaultLocale: 'en',
    channelLocale: 'fa',
    timeZone: 'Asia/Tehran',
    ttlMs: 60_000,
    clock: () => new Date(now),
    logger: { debug: (...args: unknown[]) => debug.push(args), warn: () => undefined },
  });
  return { languages, calls, debug, choices, advance: (ms: number) => (now += ms) };
}

describe('who reads which language', () => {
  it('a person who chose Persian reads Persian; Slack is not asked', async () => {
    const { languages, calls } = setup({ stored: { U1: 'fa' }, locales: { U1: 'en-US' } });
    expect(await languages.decide('U1')).toMatchObject({
      lang: { locale: 'fa', dir: 'rtl' },
      source: 'chosen',
    });
    expect(calls).toEqual([]);
  });

  it('without a choice, the Slack locale decides, asked with include_locale and kept for the TTL', async () => {
    const { languages, calls, advance } = setup({ locales: { U1: 'fa-IR' } });
    expect(await languages.decide('U1')).toMatchObject({ lang: { locale: 'fa' }, source: 'slack' });
    await languages.of('U1');
    expect(calls).toEqual([{ user: 'U1', include_locale: true }]);
    advance(60_000);
    await languages.of('U1');
    expect(calls).toHaveLength(2);
  });

  it('a burst of look-ups of one person makes one call', async () => {
    const { languages, calls } = setup({ locales: { U1: 'fa-IR' } });
    await Promise.all([languages.of('U1'), languages.of('U1'), languages.of('U1')]);
    expect(calls).toHaveLength(1);
  });

  it('a Slack locale vidops does not speak, or none, gives DEFAULT_LOCALE', async () => {
    const { languages } = setup({ locales: { U1: 'de-DE' } });
    expect(await languages.decide('U1')).toMatchObject({ lang: { locale: 'en' }, source: 'default' });
    expect(await languages.decide('U2')).toMatchObject({ lang: { locale: 'en' }, source: 'default' });
  });

  it('Slack failing falls back to DEFAULT_LOCALE silently, logged at debug', async () => {
    const { languages, debug } = setup({ failing: true });
    expect(await languages.decide('U1')).toMatchObject({ source: 'default', lang: { locale: 'en' } });
    expect(debug).toHaveLength(1);
  });

  it('a stored value that is no language is ignored', async () => {
    const { languages } = setup({ stored: { U1: 'de' }, locales: { U1: 'fa-IR' } });
    expect(await languages.decide('U1')).toMatchObject({ source: 'slack', lang: { locale: 'fa' } });
  });

  it('choosing stores the choice and wins over Slack from then on; channels read CHANNEL_LOCALE', async () => {
    const { languages, choices } = setup({ locales: { U1: 'fa-IR' } });
    expect((await languages.choose('U1', 'en')).locale).toBe('en');
    expect(choices.get('U1')).toBe('en');
    expect(await languages.decide('U1')).toMatchObject({ source: 'chosen', lang: { locale: 'en' } });
    expect(languages.channel).toMatchObject({ locale: 'fa', timeZone: 'Asia/Tehran' });
    expect(languages.fallback.locale).toBe('en');
  });
});
