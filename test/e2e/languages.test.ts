import { type Harness, seedWorkspace, startHarness, USERS } from './app-harness.js';
import { notificationsDone, readable } from './change-helpers.js';

/**
 * Who reads which language: `/vidops lang fa|en` keeps a person's choice and answers in it;
 * without a choice, their Slack locale (`users.info` with `include_locale`) decides, else
 * `DEFAULT_LOCALE`.
 * @see docs/architecture.md, "Languages"
 */

let h: Harness;

beforeAll(async () => {
  // Persian by default, so "the default" and "the Slack locale" give different answers.
  h = await startHarness({ env: { DEFAULT_LOCALE: 'fa' } });
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  h.slack.reset();
  seedWorkspace(h.slack);
});

async function lang(text: string, userId: string): Promise<string> {
  const sent = await h.slash(text, { userId });
  expect(sent.status).toBe(200);
  const reply = await sent.reply();
  expect(reply.body.response_type).toBe('ephemeral');
  return readable(reply);
}

describe('a person’s language', () => {
  it('an agent whose Slack is in English reads English, and is told it follows Slack', async () => {
    const text = await lang('lang', USERS.agent.id);
    expect(text).toContain('vidops speaks to you in English.');
    expect(text).toContain('It follows your Slack language.');
    const asked = h.slack.callsTo('users.info').filter((c) => c.args.user === USERS.agent.id);
    expect(asked.some((c) => String(c.args.include_locale) === 'true')).toBe(true);
  });

  it('an agent chooses Persian: the answer is in Persian, and so is every later answer', async () => {
    const chosen = await lang('lang fa', USERS.agent2.id);
    expect(chosen).toContain('از این پس vidops با شما به فارسی صحبت می‌کند.');
    const shown = await lang('lang', USERS.agent2.id);
    expect(shown).toContain('زبان vidops برای شما فارسی است.');
    expect(shown).toContain('خودتان');
    // And back to English, in English.
    expect(await lang('LANG en', USERS.agent2.id)).toContain('From now on vidops speaks to you in English.');
    expect(await lang('lang', USERS.agent2.id)).toContain('You chose it with `/vidops lang`.');
  });

  it('a lead whose Slack locale is fa-IR reads Persian without choosing', async () => {
    h.slack.setUsers([{ ...USERS.lead, locale: 'fa-IR' }]);
    const text = await lang('lang', USERS.lead.id);
    expect(text).toContain('زبان vidops برای شما فارسی است.');
    expect(text).toContain('زبان Slack شما');
  });

  it('when Slack cannot say (users.info fails), the person reads DEFAULT_LOCALE', async () => {
    h.slack.failNext('users.info', { error: 'ratelimited' }, 10);
    const text = await lang('lang', USERS.lead2.id);
    expect(text).toContain('زبان vidops برای شما فارسی است.');
    expect(text).toContain('پیش‌فرض');
  });

  it('a person may name the language in words, in Persian or English: فارسی, English', async () => {
    expect(await lang('lang فارسی', USERS.lead2.id)).toContain(
      'از این پس vidops با شما به فارسی صحبت می‌کند.',
    );
    expect(await lang('lang English', USERS.lead2.id)).toContain(
      'From now on vidops speaks to you in English.',
    );
    expect(await lang('lang', USERS.lead2.id)).toContain('You chose it with `/vidops lang`.');
  });

  it('a language vidops does not speak is refused, and nothing is chosen', async () => {
    const refused = await lang('lang de', USERS.agent.id);
    expect(refused).toContain('"de" is not a language vidops speaks; choose `fa` or `en`.');
    expect(await lang('lang', USERS.agent.id)).toContain('It follows your Slack language.');
  });
});
