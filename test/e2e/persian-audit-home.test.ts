import { dirname } from 'node:path';
import { maskMobilesInText } from '../../src/core/mask.js';
import { appHomeOpened } from '../../src/emulator/index.js';
import { FSI, PDI } from '../../src/i18n/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { runVidops } from '../cli/run-vidops.js';
import { CHANNELS, type Harness, startHarness, USERS } from './app-harness.js';
import { until } from './change-helpers.js';

/**
 * Persian where people read it, end to end: with `CHANNEL_LOCALE=fa` an unblock's events reach
 * the audit channel in Persian (number masked, IDs isolated, the witness still reads the lines);
 * a person who chose Persian reads their App Home in Persian; `vidops audit tail --lang fa` prints
 * the same sentences and `vidops audit verify` still passes on the same log.
 * @see docs/architecture.md, "Languages"
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { CHANNEL_LOCALE: 'fa' } });
});

afterAll(() => h.stop());

/** Polls until every audit event was posted (bounded). */
async function drained(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await h.store.outboxDepth()) > 0) {
    if (Date.now() > deadline) throw new Error(`audit outbox not empty after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const place = () => ({
  dir: dirname(h.config.databaseUrl.replace(/^sqlite:/, '')),
  sandboxUrl: h.sandbox.url,
  leads: USERS.lead.id,
});

describe('Persian in the audit channel, the App Home and the CLI', () => {
  let masked = '';
  let requestId = '';

  it("an unblock's events reach the audit channel in Persian, the number masked and the IDs isolated", async () => {
    await (await h.slash(`unblock ${DEMO.blockedMobiles[0]}`)).reply();
    const done = await h.waitForAudit((e) => e.type === 'succeeded' && e.operation === 'viewer.unblock');
    requestId = done.requestId ?? '';
    masked = maskMobilesInText(done.target.split(' ')[1] ?? '');
    await drained(20_000);

    const posts = h.slack.messages(CHANNELS.audit);
    const all = posts.map((m) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`).join('\n');
    expect(all).toContain('ممیزی vidops');
    expect(all).toContain(`مسدودی بیننده‌ی ${FSI}\`${masked}\`${PDI} برداشته شد`);
    expect(all).toContain(`${FSI}\`${requestId}\`${PDI}`);
    expect(all).toContain(`هش ${FSI}\``);
    expect(all).not.toContain(done.target.split(' ')[1] ?? '');
    expect(all).not.toContain('unblocked');
    // The log itself is untouched: UTC ISO-8601 and English kinds.
    expect(done.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('a person who ran `/vidops lang fa` opens their App Home and reads it in Persian', async () => {
    await (await h.slash('lang fa', { userId: USERS.agent2.id })).reply();
    const since = h.slack.calls.length;
    const answer = await h.send(appHomeOpened({ userId: USERS.agent2.id }));
    expect(answer.status).toBe(200);
    const call = await until(
      () =>
        h.slack.calls
          .slice(since)
          .find((c) => c.method === 'views.publish' && c.args.user_id === USERS.agent2.id && c.response.ok),
      'a Home tab for ben',
    );
    const home = JSON.stringify(call.args.view);
    expect(home).toContain('درخواست‌های باز شما');
    expect(home).toContain('تنظیمات حفاظت');
    expect(home).toContain('فعالیت‌های اخیر شما');
    expect(home).toContain('تازه‌سازی');
    expect(home).not.toContain('Your open requests');

    // Someone who chose nothing still reads English.
    const before = h.slack.calls.length;
    await h.send(appHomeOpened({ userId: USERS.agent.id }));
    const english = await until(
      () =>
        h.slack.calls
          .slice(before)
          .find((c) => c.method === 'views.publish' && c.args.user_id === USERS.agent.id && c.response.ok),
      'a Home tab for ana',
    );
    expect(JSON.stringify(english.args.view)).toContain('Your open requests');
  });

  it('`vidops audit tail --lang fa` prints the Persian sentences and `audit verify` still passes', async () => {
    const tail = await runVidops(place(), ['audit', 'tail', '--lang', 'fa']);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toContain(
      `مسدودی بیننده‌ی ${FSI}${masked}${PDI} برداشته شد · ${FSI}${requestId}${PDI}`,
    );
    expect(tail.stdout).not.toContain('unblocked');

    const verify = await runVidops(place(), ['audit', 'verify']);
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);

    // The export is the log, byte for byte, whatever the language.
    const fa = await runVidops(place(), ['audit', 'export', '--format', 'jsonl', '--lang', 'fa']);
    const en = await runVidops(place(), ['audit', 'export', '--format', 'jsonl']);
    expect(fa.code).toBe(0);
    expect(fa.stdout).toBe(en.stdout);
    expect(en.stdout).toContain(`"requestId":"${requestId}"`);
  });
});
