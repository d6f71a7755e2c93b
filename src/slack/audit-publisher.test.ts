import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createHasher } from '../core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../core/checkpoint.js';
import type { AuditEvent, NewAuditEvent } from '../core/model.js';
import { generateSignerKey } from '../core/signed-note.js';
import { compareWithChannel } from '../core/witness.js';
import { type Emulator as FakeSlack, startEmulator as startFakeSlack } from '../emulator/index.js';
import { langFor } from '../i18n/index.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/store.js';
import { checkBlockKitLimits } from '../views/limits.js';
import {
  type AuditPostResult,
  type AuditPublisher,
  type AuditPublisherOptions,
  createAuditPublisher,
  createPublisherWebClient,
} from './audit-publisher.js';
import { readMessage } from './witness.js';

const CHANNEL = 'C0AUDIT01';
const BOT_TOKEN = 'xoxb-vidops-test';
const MOBILE = '09123456789';

function newEvent(n: number, overrides: Partial<NewAuditEvent> = {}): NewAuditEvent {
  return {
    id: randomUUID(),
    type: 'succeeded',
    at: new Date(Date.UTC(2024, 4, 1, 10, 0, n)).toISOString(),
    actor: { id: 'U0AGENT01', name: 'Sara Ahmadi' },
    operation: 'viewer.unblock',
    target: MOBILE,
    params: { mobile: MOBILE },
    requestId: randomUUID(),
    outcome: `unblocked viewer ${MOBILE}`,
    error: null,
    ...overrides,
  };
}

interface Posted {
  at: number;
  text: string;
  blocks: unknown[];
}

function postsOf(fake: FakeSlack): Posted[] {
  return fake.callsTo('chat.postMessage').map((call) => {
    const { text, blocks } = call.args;
    return {
      at: call.at.getTime(),
      text: typeof text === 'string' ? text : '',
      blocks: Array.isArray(blocks) ? blocks : [],
    };
  });
}

/** Short hashes shown across all successful posts, in order. */
function shownHashes(posts: readonly Posted[], events: readonly AuditEvent[]): string[] {
  const shown: string[] = [];
  const text = posts.map((p) => JSON.stringify(p.blocks)).join('\n');
  for (const e of events) {
    const short = e.hash.slice(0, 12);
    const times = text.split(short).length - 1;
    for (let i = 0; i < times; i += 1) shown.push(short);
  }
  return shown;
}

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const silent = pino({ level: 'silent' });

describe('audit channel publisher', () => {
  let store: Store;
  let fake: FakeSlack;
  const running: AuditPublisher[] = [];

  beforeEach(async () => {
    store = await openStore('sqlite::memory:', { hash: createHasher() });
    fake = await startFakeSlack({ botToken: BOT_TOKEN });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    await fake.close();
    await store.close();
  });

  function publisher(overrides: Partial<AuditPublisherOptions> = {}): AuditPublisher {
    const p = createAuditPublisher({
      store,
      web: createPublisherWebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl }),
      channel: CHANNEL,
      clock: () => new Date(),
      logger: silent,
      workerId: `worker-${randomUUID().slice(0, 6)}`,
      minIntervalMs: 100,
      backoffBaseMs: 40,
      idlePollMs: 50,
      ...overrides,
    });
    running.push(p);
    return p;
  }

  async function append(count: number, from = 1): Promise<AuditEvent[]> {
    return store.appendAudit(Array.from({ length: count }, (_, i) => newEvent(from + i)));
  }

  it('posts a backlog of 120 events as 3 messages spaced by the minimum interval', async () => {
    const events = await append(120);
    const p = publisher({ minIntervalMs: 150 });
    p.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

    const posts = postsOf(fake);
    expect(posts).toHaveLength(3);
    for (let i = 1; i < posts.length; i += 1) {
      expect((posts[i]?.at ?? 0) - (posts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(148);
    }
    expect(fake.callsTo('chat.postMessage').every((c) => c.args.channel === CHANNEL)).toBe(true);
    // Every event shown exactly once, in chain order.
    expect(shownHashes(posts, events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
  });

  describe('a backlog far behind the channel', () => {
    /** What `audit witness` makes of the posts, against the log. */
    async function witnessed(events: readonly AuditEvent[]) {
      const bot = { userId: 'UBOT', botId: null };
      const lines = postsOf(fake).flatMap(
        (post) => readMessage({ ts: '1.0', user: 'UBOT', ...post }, bot).lines,
      );
      return compareWithChannel({
        events,
        lines,
        checkpoints: [],
        stored: [],
        undelivered: new Set(),
        readFrom: null,
      });
    }

    it('posts summaries that carry the last event’s hash, and marks every event delivered', async () => {
      const events = await append(130);
      const p = publisher({ batchMax: 10, summaryAfter: 20, summaryMax: 50 });
      p.start();
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

      const posts = postsOf(fake);
      expect(posts.map((post) => post.text.split('\n')[1])).toEqual([
        `#50 50 events #1–#50, all in vidops audit tail · hash ${events[49]?.hash.slice(0, 12)}`,
        `#100 50 events #51–#100, all in vidops audit tail · hash ${events[99]?.hash.slice(0, 12)}`,
        `#130 30 events #101–#130, all in vidops audit tail · hash ${events[129]?.hash.slice(0, 12)}`,
      ]);
      for (const [i, post] of posts.entries()) {
        const last = events[Math.min(49 + 50 * i, 129)];
        expect(JSON.stringify(post.blocks)).toContain(last?.hash);
        expect(checkBlockKitLimits(post, 'message')).toEqual([]);
      }
      expect(await store.undeliveredSeqs(1_000)).toEqual([]);
      expect((await witnessed(events)).findings).toEqual([]);
    });

    it('says the same in Persian, the count in Persian digits, the seqs and hash as the witness reads them', async () => {
      const events = await append(40);
      const p = publisher({ batchMax: 10, summaryAfter: 5, summaryMax: 40, lang: langFor('fa') });
      p.start();
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

      const [post, ...more] = postsOf(fake);
      expect(more).toEqual([]);
      const line = JSON.stringify(post?.blocks);
      expect(line).toContain('۴۰ رویداد');
      expect(line).toContain('#1–#40');
      expect(line).toContain(events[39]?.hash);
      expect((await witnessed(events)).findings).toEqual([]);
    });

    it('a summary the channel does not show leaves its events missing for the witness', async () => {
      const events = await append(30);
      const p = publisher({ batchMax: 10, summaryAfter: 5, summaryMax: 30 });
      p.start();
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
      fake.reset();

      const report = await witnessed(events);
      expect(report.findings.map((f) => f.kind)).toEqual(
        Array.from({ length: 30 }, () => 'missing-from-channel'),
      );
    });
  });

  it('keeps every post within Block Kit limits, with masked mobiles and short hashes', async () => {
    const events = await store.appendAudit(
      Array.from({ length: 25 }, (_, i) =>
        newEvent(i, {
          type: 'failed',
          target: `Folder called ${'x'.repeat(300)} of ${MOBILE}`,
          actor: { id: 'W0LEAD0001', name: 'L'.repeat(300) },
          error: {
            name: 'ServerError',
            // The number early, where the cut line still shows it (masked).
            message: `upstream said for ${MOBILE}: ${'e'.repeat(600)}`,
            status: 502,
          },
        }),
      ),
    );
    const p = publisher({ batchMax: 25 });
    while ((await p.flushOnce()) > 0) {
      // drain
    }
    const posts = postsOf(fake);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    for (const post of posts) {
      expect(checkBlockKitLimits({ text: post.text, blocks: post.blocks }, 'message')).toEqual([]);
      const all = `${post.text}${JSON.stringify(post.blocks)}`;
      expect(all).not.toContain(MOBILE);
      expect(all).toContain('0912***6789');
    }
    expect(shownHashes(posts, events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
    expect(fake.warnings).toEqual([]);
  });

  it('waits out a 429 with Retry-After and then posts everything once', async () => {
    const events = await append(5);
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 });
    const results: AuditPostResult[] = [];
    const p = publisher({ onResult: (r) => results.push(r) });
    p.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

    const attempts = fake.callsTo('chat.postMessage').map((c) => c.at.getTime());
    expect(attempts).toHaveLength(2);
    expect((attempts[1] ?? 0) - (attempts[0] ?? 0)).toBeGreaterThanOrEqual(990);
    expect(results.map((r) => r.outcome)).toEqual(['rate_limited', 'ok']);
    expect(shownHashes(postsOf(fake).slice(1), events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
  });

  it('retries with backoff after two server errors and loses nothing', async () => {
    const events = await append(8);
    fake.failNext('chat.postMessage', { status: 500 }, 2);
    const results: AuditPostResult[] = [];
    const p = publisher({ onResult: (r) => results.push(r) });
    p.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

    const attempts = fake.callsTo('chat.postMessage').map((c) => c.at.getTime());
    expect(results.map((r) => r.outcome)).toEqual(['error', 'error', 'ok']);
    const retryDelays = results.flatMap((r) => (r.outcome === 'error' ? [r.retryInMs] : []));
    expect(retryDelays).toEqual([40, 80]);
    expect((attempts[2] ?? 0) - (attempts[1] ?? 0)).toBeGreaterThanOrEqual(78);
    expect(shownHashes(postsOf(fake).slice(2), events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
  });

  it('after a restart, a new publisher posts the rest and nothing twice', async () => {
    const events = await append(12);
    const first = publisher({ batchMax: 5 });
    expect(await first.flushOnce()).toBe(5);
    expect(await first.flushOnce()).toBe(5);
    await first.stop();

    const second = publisher({ batchMax: 5 });
    second.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(3);
    expect(shownHashes(postsOf(fake), events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
  });

  it('picks up events a crashed replica had claimed once its lease runs out', async () => {
    const events = await append(4);
    const claimed = await store.claimOutbox('crashed-replica', 10, 300, new Date().toISOString());
    expect(claimed).toHaveLength(4);
    const p = publisher();
    expect(await p.flushOnce()).toBe(0);
    p.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
    expect(shownHashes(postsOf(fake), events)).toEqual(events.map((e) => e.hash.slice(0, 12)));
  });

  it('two replicas on one store never post the same event twice', async () => {
    const events = await append(30);
    const a = publisher({ batchMax: 4, minIntervalMs: 20 });
    const b = publisher({ batchMax: 4, minIntervalMs: 20 });
    a.start();
    b.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
    expect(shownHashes(postsOf(fake), events).sort()).toEqual(events.map((e) => e.hash.slice(0, 12)).sort());
  });

  it('wakes on kick() when new events are appended', async () => {
    const p = publisher({ idlePollMs: 60_000 });
    p.start();
    await new Promise((r) => setImmediate(r));
    const events = await append(2);
    p.kick();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0, 3000);
    expect(shownHashes(postsOf(fake), events)).toHaveLength(2);
  });

  it('a backed-off publisher posts what another replica appended within its longest poll, and its own at once', async () => {
    const p = publisher({ idlePollMs: 20, idlePollMaxMs: 200 });
    p.start();
    await new Promise((r) => setTimeout(r, 600)); // nothing found: backed off to 200 ms
    let appended = performance.now();
    await append(2); // another replica's events: its nudge reaches only its own publisher
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0, 3000);
    expect(performance.now() - appended).toBeLessThan(200 + 150);

    const slow = publisher({ idlePollMs: 50, idlePollMaxMs: 60_000 });
    await p.stop();
    slow.start();
    await new Promise((r) => setTimeout(r, 500)); // looks at 0, 50, 150, 350 ms; the next at 750
    appended = performance.now();
    await append(1, 3);
    slow.kick();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0, 3000);
    expect(performance.now() - appended).toBeLessThan(150);
    expect(postsOf(fake).length).toBeGreaterThanOrEqual(2);
  });

  it('stop() finishes the post in flight and records it', async () => {
    const events = await append(3);
    const p = publisher();
    p.start();
    await fake.waitFor('chat.postMessage');
    await p.stop();
    expect(await store.outboxDepth()).toBe(0);
    expect(shownHashes(postsOf(fake), events)).toHaveLength(3);
  });

  it('logs no token and no full mobile number when Slack refuses', async () => {
    await append(1);
    const lines: string[] = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    fake.failNext('chat.postMessage', { error: 'channel_not_found' });
    const p = publisher({ logger, onResult: () => undefined });
    expect(await p.flushOnce()).toBe(0);
    const log = lines.join('');
    expect(log).toContain('channel_not_found');
    expect(log).not.toContain(BOT_TOKEN);
    expect(log).not.toContain(MOBILE);
    expect(await store.outboxDepth()).toBe(1);
  });

  it('shows a batch of 500 numbers as its request lines, the last witnessing its steps', async () => {
    const requestId = randomUUID();
    const asked = await store.appendAudit([newEvent(0, { type: 'requested', requestId })]);
    const steps = await store.appendAudit(
      Array.from({ length: 500 }, () => newEvent(1, { type: 'step', requestId, outcome: { state: 'done' } })),
    );
    const finished = await store.appendAudit([newEvent(2, { type: 'succeeded', requestId })]);
    const p = publisher();
    p.start();
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
    const posts = postsOf(fake);
    expect(posts.length).toBeLessThanOrEqual(2);
    const shown = [...asked, ...finished].map((e) => e.hash.slice(0, 12));
    expect(shownHashes(posts, [...asked, ...steps, ...finished])).toEqual(shown);
    // The last line's hash covers the chain through the batch's last step.
    expect(finished[0]?.prevHash).toBe(steps.at(-1)?.hash);
  });

  describe('signed checkpoints', () => {
    const key = generateSignerKey(checkpointOrigin('tehran-1'));

    async function addCheckpoint(events: readonly AuditEvent[]): Promise<string> {
      const last = events.at(-1);
      if (last === undefined) throw new Error('no events');
      const time = '2026-11-21T12:00:00Z';
      const note = signCheckpoint({ origin: key.name, size: last.seq, head: last.hash, time }, [key]);
      await store.addCheckpoint({ size: last.seq, head: last.hash, time, note });
      return note;
    }

    /** Checkpoint posts Slack accepted. */
    const checkpointPosts = () => {
      const accepted = fake.callsTo('chat.postMessage').map((c) => c.response.ok === true);
      return postsOf(fake).filter((p, i) => accepted[i] && p.text.startsWith('vidops audit checkpoint'));
    };

    it('a checkpoint reaches the channel once, through Slack being down and a 429', async () => {
      const events = await append(3);
      const note = await addCheckpoint(events);
      fake.failNext('chat.postMessage', { status: 500 }, 2);
      fake.failNext('chat.postMessage', { status: 429, retryAfter: 0 });
      const results: AuditPostResult[] = [];
      const p = publisher({ onResult: (r) => results.push(r) });
      p.start();
      await until('the checkpoint to be posted', async () => (await store.unpostedCheckpoints()) === 0);
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
      // Every attempt is reported (the metrics count them), the checkpoint's apart from the events'.
      expect(results.filter((r) => r.post === 'checkpoint').map((r) => r.outcome)).toEqual([
        'error',
        'error',
        'rate_limited',
        'ok',
      ]);
      expect(results.find((r) => r.post === 'checkpoint' && r.outcome === 'ok')).toMatchObject({
        firstSeq: events.at(-1)?.seq,
      });
      expect(results.filter((r) => r.post === 'events').map((r) => r.outcome)).toEqual(['ok']);

      const posts = checkpointPosts();
      expect(posts).toHaveLength(1);
      expect(JSON.stringify(posts[0]?.blocks)).toContain(JSON.stringify(note.split('\n')[0]).slice(1, -1));
      expect(posts[0]?.text).toContain(note.replace(/\n$/, ''));
      expect((await store.listCheckpoints())[0]?.postedAt).not.toBeNull();
      expect(
        fake
          .callsTo('chat.postMessage')
          .map((c) => c.status)
          .slice(0, 3),
      ).toEqual([500, 500, 429]);
    });

    it('a checkpoint signed while events keep coming is posted at the next turn, not after the backlog', async () => {
      const first = await append(20);
      await append(20, 21);
      const p = publisher({ batchMax: 5 });
      expect(await p.flushOnce()).toBe(5);
      await addCheckpoint(first);
      // Not told: the checkpoint waits while there are events to post.
      expect(await p.flushOnce()).toBe(5);
      expect(checkpointPosts()).toHaveLength(0);
      // Told (the checkpointer does so for each one it signs): it goes next.
      p.kickCheckpoints();
      expect(await p.flushOnce()).toBe(1);
      expect(checkpointPosts()).toHaveLength(1);
      expect(await p.flushOnce()).toBe(5);
      expect(await store.unpostedCheckpoints()).toBe(0);
    });

    it('two replicas never post the same checkpoint', async () => {
      await addCheckpoint(await append(2));
      const [a, b] = [publisher(), publisher()];
      await Promise.all([a.flushOnce(), b.flushOnce(), a.flushOnce(), b.flushOnce()]);
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
      expect(checkpointPosts()).toHaveLength(1);
    });
  });
});
