import { createVidops } from '../../src/app.js';
import { shortHash } from '../../src/core/audit-chain.js';
import { DEMO } from '../../src/sandbox/server.js';
import { CHANNELS, type Harness, seedWorkspace, startHarness, USERS } from './app-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
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

/** Text of every message in the audit channel (fallback and blocks). */
function channelText(): string[] {
  return h.slack
    .messages(CHANNELS.audit)
    .map((m) => JSON.stringify({ text: m.text, blocks: m.blocks ?? [] }));
}

describe('the audit channel is an outside witness of the chain', () => {
  it('Slack answering 429 (Retry-After 1) and then 500 for a while loses no event and posts none twice', async () => {
    h.slack.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, 2);
    h.slack.failNext('chat.postMessage', { status: 500 }, 3);

    const replies = [
      await h.slash(`unblock ${DEMO.blockedMobiles[0]}`),
      await h.slash(`retry ${DEMO.files.lecture3}`),
      await h.slash('unblock 0990 123 4567', { userId: USERS.outsider.id }),
      await h.slash(`unblock ${DEMO.blockedMobiles[1]}`, { userId: USERS.agent2.id }),
    ];
    for (const sent of replies) await sent.reply();
    await drained(20_000);

    const events = await h.store.listAudit();
    expect(events.length).toBeGreaterThanOrEqual(10);
    const calls = h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === CHANNELS.audit);
    expect(calls.slice(0, 5).map((c) => c.status)).toEqual([429, 429, 500, 500, 500]);

    const posts = channelText();
    for (const event of events) {
      const hash = shortHash(event.hash);
      const seen = posts.reduce((n, post) => n + post.split(`\`${hash}\``).length - 1, 0);
      expect({ seq: event.seq, seen }).toEqual({ seq: event.seq, seen: 1 });
    }
    // Whole numbers stay in the store; the channel shows them masked.
    const all = posts.join('\n');
    expect(all).toContain('0912***4567');
    expect(all).not.toContain(DEMO.blockedMobiles[0]);
    expect(all).not.toContain('09901234567');
  });

  it('a backlog is batched into fewer messages than events, in chain order', async () => {
    const before = h.slack.messages(CHANNELS.audit).length;
    const firstNew = ((await h.store.auditHead())?.seq ?? 0) + 1;
    h.slack.failNext('chat.postMessage', { status: 500 }, 2);
    for (const mobile of DEMO.unblockedMobiles.slice(0, 4))
      await (await h.slash(`unblock ${mobile}`)).reply();
    await drained(20_000);
    const events = (await h.store.listAudit()).filter((e) => e.seq >= firstNew);
    const messages = h.slack.messages(CHANNELS.audit).slice(before);
    expect(events.length).toBe(12);
    expect(messages.length).toBeLessThan(events.length);
    const order = messages.flatMap((m) => [...m.text.matchAll(/^#(\d+) /gm)].map((x) => Number(x[1])));
    expect(order).toEqual(events.map((e) => e.seq));
  });

  it('events not yet posted when the process stops are posted after the next start', async () => {
    h.slack.failNext('chat.postMessage', { status: 500 }, 10_000);
    const sent = await h.slash(`unblock ${DEMO.blockedMobiles[2]}`);
    await sent.reply();
    const head = await h.store.auditHead();
    await h.vidops.stop();

    // Slack is back; a new process on the same database posts what the old one could not.
    h.slack.reset();
    seedWorkspace(h.slack);
    const next = await createVidops({
      config: h.config,
      logDestination: { write: () => undefined },
      host: '127.0.0.1',
      publisher: { minIntervalMs: 50, idlePollMs: 100 },
    });
    await next.start();
    try {
      // Events the old process still held when its stop's flush ran out come back when their lease
      // (30 s) ends; on a loaded machine that happens, so the wait covers it.
      const deadline = Date.now() + 45_000;
      while ((await next.store.outboxDepth()) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await next.store.outboxDepth()).toBe(0);
      const posted = channelText().join('\n');
      expect(head).not.toBeNull();
      expect(posted).toContain(`\`${shortHash(head?.hash ?? '')}\``);
      expect(posted).toContain('0990***4567');
    } finally {
      await next.stop();
    }
  }, 60_000);
});
