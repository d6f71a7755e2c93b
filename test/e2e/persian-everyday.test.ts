import { FSI, PDI } from '../../src/i18n/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { type Harness, seedWorkspace, startHarness, USERS } from './app-harness.js';
import { notificationsDone, readable } from './change-helpers.js';

/**
 * A support agent who reads Persian runs the everyday commands: every sentence is Persian, and
 * what they copy (commands, masked numbers, request IDs, addresses) keeps its Latin characters,
 * isolated so the right-to-left text around it cannot reorder it. The agent chose Persian with
 * `/vidops lang fa` first.
 * @see docs/architecture.md, "Languages"
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  // Slack has no Persian interface, so a Persian reader chooses Persian once, as people do.
  const chosen = await h.slash('lang fa', { userId: USERS.agent.id });
  expect(chosen.status).toBe(200);
  expect((await chosen.reply()).status).toBe(200);
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  h.sandbox.reset();
  h.slack.reset();
  seedWorkspace(h.slack);
});

async function slashReply(text: string): Promise<string> {
  const sent = await h.slash(text, { userId: USERS.agent.id });
  expect(sent.status).toBe(200);
  const reply = await sent.reply();
  expect(reply.status).toBe(200);
  expect(reply.body.response_type).toBe('ephemeral');
  return readable(reply);
}

/** A token as a Persian reader gets it: isolated, its characters as they are. */
function isolated(token: string): string {
  return `${FSI}${token}${PDI}`;
}

describe('a Persian-speaking agent', () => {
  it('reads the help in Persian, each command isolated with its Latin words', async () => {
    const text = await slashReply('help');
    expect(text).toContain('دستورهای vidops که می‌توانید اجرا کنید');
    expect(text).toContain('رفع مسدودی بیننده‌ای که به‌خاطر رفتار مشکوک مسدود شده است');
    expect(text).toContain(isolated('*`/vidops unblock &lt;mobile&gt;`*'));
    expect(text).toContain(`_مثلاً_ ${isolated('`/vidops unblock 0912 345 6789`')}`);
    expect(text).not.toContain('List the commands you may run');
  });

  it('unblocks a viewer whose number is written in Persian digits, and reads the outcome in Persian', async () => {
    const text = await slashReply('unblock ۰۹۱۲۳۴۵۶۷۸۹');
    expect(upstreamUnblocks()).toHaveLength(1);
    // 09123456789 is a viewer the service does not list as blocked.
    expect(text).toContain(
      `بیننده‌ی ${isolated('`0912***6789`')} مسدود نبود؛ با این حال رفع مسدودی فرستاده شد.`,
    );
    expect(text).toMatch(new RegExp(`درخواست ${FSI}\`R-[0-9A-Z]+\`${PDI}`));
    expect(text).not.toContain('09123456789');
    expect(text).not.toContain('was not blocked');
  });

  it('is told in Persian that a number of the Philippines is refused, with nothing sent', async () => {
    const text = await slashReply('unblock +63 917 123 4567');
    expect(upstreamUnblocks()).toHaveLength(0);
    expect(text).toContain('مسدودی هیچ بیننده‌ای برداشته نشد');
    expect(text).toContain(`فیلیپین (${isolated('PH')})`);
    expect(text).toContain(`اینجا فقط شماره‌های ایران (${isolated('IR')}) پذیرفته می‌شود`);
    expect(text).toContain(`شکل دستور: ${isolated('`/vidops unblock &lt;mobile&gt;`')}`);
    // The number read is masked, kept Latin and isolated.
    expect(text).toContain(isolated('+6391***4567'));
    expect(text).not.toContain('9171234567');
  });

  it('asks for the audit log, which only leads read, and is told so in Persian', async () => {
    const text = await slashReply('audit');
    expect(text).toContain('فقط سرپرست‌ها');
    expect(text).not.toContain('Only leads may run');
  });

  it('reads the whitelist in Persian, each address isolated', async () => {
    const set = await fetch(`${h.sandbox.url}/v1/storage/dns/whitelist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', api_key: DEMO.apiKey, secret_key: DEMO.secretKey },
      body: JSON.stringify({ allowedDNS: ['203.0.113.7', '2a00:1::4'] }),
    });
    expect(set.status).toBe(200);
    const text = await slashReply('whitelist');
    expect(text).toContain(`*لیست سفید IP* · ۲ نشانی`);
    expect(text).toContain(`• ${isolated('`203.0.113.7`')}`);
    expect(text).toContain(`• ${isolated('`2a00:1::4`')}`);
    expect(text).toContain('افزودن نشانی…');
    expect(text).toContain('افزودن یا برداشتن نشانی‌ها با تأیید سرپرست انجام می‌شود.');
  });
});

function upstreamUnblocks() {
  return h.sandbox.requests().filter((r) => r.path === UNBLOCK_PATH);
}
