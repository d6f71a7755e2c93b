import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import pino from 'pino';
import { eventFor, newRequest } from '../../test/store/fixtures.js';
import { schemaPool, TEST_DATABASE_URL } from '../../test/store/pg-schema.js';
import { createHasher } from '../core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../core/checkpoint.js';
import type { AuditEvent, NewAuditEvent, OperationRequest } from '../core/model.js';
import { generateSignerKey } from '../core/signed-note.js';
import { type Emulator, startEmulator } from '../emulator/index.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/store.js';
import {
  type AuditPublisher,
  type AuditPublisherOptions,
  createAuditPublisher,
  createPublisherWebClient,
} from './audit-publisher.js';
import {
  createNotificationWorker,
  type NotificationStore,
  type NotificationWorker,
  type NotificationWorkerOptions,
} from './notification-worker.js';

/**
 * More attacks on what vidops tells Slack after the fact: the audit publisher's read-back of a post
 * whose answer was lost (`settleUnsure`) against a busy channel, a deleted message, a lost
 * checkpoint post and a pause longer than its lease; and the notification worker's lease renewal
 * when renewals fail, after a take-over, and at stop. Slack is the emulator, sometimes behind a
 * proxy that loses answers; stores are SQLite files (PostgreSQL schemas with TEST_DATABASE_URL).
 * @see docs/architecture.md, "Audit log" and "Scale"; docs/operations.md, "PostgreSQL and several replicas"
 */

const BOT_TOKEN = 'xoxb-vidops-attacks-2';
const AUDIT = 'C0AUDIT01';
const silent = pino({ level: 'silent' });
const hash = createHasher();

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A proxy in front of the emulator that can lose Slack's answer: the call reaches Slack and is
 * carried out, then the connection is cut before the answer gets back (a timeout, a reset).
 * (The same as outbox-attacks.test.ts's.)
 */
async function lossyProxy(target: string) {
  const upstream = new URL(target);
  const drops = new Map<string, number>();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection')
        headers[k] = v;
    }
    const answer = await fetch(new URL(req.url ?? '/', upstream.origin), {
      method: req.method ?? 'POST',
      headers,
      body: Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const left = drops.get(method) ?? 0;
    if (left > 0) {
      drops.set(method, left - 1);
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    /** The next `times` calls of `method` land in Slack, but their answer is lost. */
    loseAnswers(method: string, times = 1) {
      drops.set(method, times);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One database the test's replicas share: a SQLite file, or a PostgreSQL schema. */
interface Backend {
  open(): Promise<Store>;
  done(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'vidops-outbox-attacks-2-'));
  const url = `sqlite:${join(dir, 'vidops.db')}`;
  const stores: Store[] = [];
  return {
    async open() {
      const s = await openStore(url, { hash });
      stores.push(s);
      return s;
    },
    async done() {
      await Promise.all(stores.map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const pgSchemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'outbox_attacks_2');

async function postgresBackend(): Promise<Backend> {
  if (pgSchemas === null) throw new Error('no TEST_DATABASE_URL');
  const url = pgSchemas.url();
  const stores: Store[] = [];
  return {
    async open() {
      const s = await openStore(url, { hash });
      stores.push(s);
      return s;
    },
    async done() {
      await Promise.all(stores.map((s) => s.close()));
    },
  };
}

const BACKENDS: [string, () => Promise<Backend>][] = [
  ['SQLite', sqliteBackend],
  ...(TEST_DATABASE_URL === undefined
    ? []
    : [['PostgreSQL', postgresBackend] as [string, () => Promise<Backend>]]),
];

afterAll(async () => {
  await pgSchemas?.dropAll();
});

function auditEvent(n: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString(),
    actor: { id: 'U0AGENT01', name: 'Sara' },
    operation: 'viewer.unblock',
    target: '09123456789',
    params: { mobile: '09123456789' },
    requestId: randomUUID(),
    outcome: `unblocked viewer ${n}`,
    error: null,
  };
}

/** How many times each event's short hash shows in the audit channel's accepted posts. */
function timesShown(fake: Emulator, events: readonly AuditEvent[]): Record<number, number> {
  const text = fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === AUDIT && c.response.ok === true)
    .map((c) => JSON.stringify(c.args.blocks ?? []))
    .join('\n');
  return Object.fromEntries(events.map((e) => [e.seq, text.split(e.hash.slice(0, 12)).length - 1]));
}

/** How many times each event's short hash shows in the channel as it stands now. */
function timesInChannel(fake: Emulator, events: readonly AuditEvent[]): Record<number, number> {
  const text = fake
    .messages(AUDIT)
    .map((m) => JSON.stringify(m.blocks ?? []))
    .join('\n');
  return Object.fromEntries(events.map((e) => [e.seq, text.split(e.hash.slice(0, 12)).length - 1]));
}

const once = (events: readonly AuditEvent[]) => Object.fromEntries(events.map((e) => [e.seq, 1]));

describe.each(BACKENDS)('the audit publisher’s read-back on %s, attacked', (_name, backendOf) => {
  let backend: Backend;
  let store: Store;
  let fake: Emulator;
  const running: AuditPublisher[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    backend = await backendOf();
    store = await backend.open();
    fake = await startEmulator({ botToken: BOT_TOKEN });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    for (const c of cleanups.splice(0)) await c();
    await fake.close();
    await backend.done();
  });

  function publisher(overrides: Partial<AuditPublisherOptions> = {}): AuditPublisher {
    const p = createAuditPublisher({
      store,
      web: createPublisherWebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl }),
      channel: AUDIT,
      clock: () => new Date(),
      logger: silent,
      workerId: `p-${randomUUID().slice(0, 6)}`,
      minIntervalMs: 50,
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      idlePollMs: 50,
      ...overrides,
    });
    running.push(p);
    return p;
  }

  async function lossy() {
    const proxy = await lossyProxy(fake.apiUrl);
    cleanups.push(proxy.close);
    return { proxy, web: createPublisherWebClient(BOT_TOKEN, { slackApiUrl: proxy.apiUrl }) };
  }

  const append = (count: number) =>
    store.appendAudit(Array.from({ length: count }, (_, i) => auditEvent(i + 1)));

  it('someone floods the audit channel with 201 messages after a post whose answer was lost: each event still shows once', async () => {
    // Was a defect: settleUnsure reads one page of conversations.history (limit 200, newest first) and never
    // follows `response_metadata.next_cursor`, so a post older than the 200 newest messages since
    // `since` is not found and its events are posted again. It should page back to `since`.
    const { proxy, web } = await lossy();
    proxy.loseAnswers('chat.postMessage', 1);
    const events = await append(3);
    const p = publisher({ web });
    expect(await p.flushOnce()).toBe(0);
    expect(timesShown(fake, events)).toEqual(once(events));

    for (let i = 0; i < 201; i += 1) fake.postAsUser(AUDIT, 'U0CHATTY', `chatter ${i}`);
    p.start();
    await until('every event posted', async () => (await store.outboxDepth()) === 0);

    expect(timesShown(fake, events)).toEqual(once(events));
  });

  it('the landed post whose answer was lost is deleted from the channel before the read-back: its events are posted again, and the channel shows each once', async () => {
    const { proxy, web } = await lossy();
    proxy.loseAnswers('chat.postMessage', 1);
    const events = await append(2);
    const p = publisher({ web });
    expect(await p.flushOnce()).toBe(0);
    const landed = fake.messages(AUDIT);
    expect(landed).toHaveLength(1);
    // Someone with the rights deletes it (here through the API, as the bot could).
    await new WebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl }).chat.delete({
      channel: AUDIT,
      ts: landed[0]?.ts ?? '',
    });

    p.start();
    await until('every event posted', async () => (await store.outboxDepth()) === 0);

    expect(timesInChannel(fake, events)).toEqual(once(events));
  });

  it('a checkpoint post whose answer was lost: the checkpoint shows in the channel once', async () => {
    // Was a defect: checkpointStep ignores `answerLost` and releases the checkpoint, so a checkpoint post
    // Slack took (answer lost) is posted again and shows twice. It should be looked for in the
    // channel (the bot's own code block with that note) before it is posted again, as events are.
    const key = generateSignerKey(checkpointOrigin('tehran-1'));
    const events = await append(2);
    const last = events.at(-1) as AuditEvent;
    const time = '2026-11-21T12:00:00Z';
    const note = signCheckpoint({ origin: key.name, size: last.seq, head: last.hash, time }, [key]);
    await store.addCheckpoint({ size: last.seq, head: last.hash, time, note });

    const { proxy, web } = await lossy();
    // The checkpoint goes first: its answer is lost.
    proxy.loseAnswers('chat.postMessage', 1);
    const p = publisher({ web });
    p.start();
    await until('the checkpoint posted', async () => (await store.unpostedCheckpoints()) === 0);
    await until('every event posted', async () => (await store.outboxDepth()) === 0);
    await sleep(200);

    const checkpointPosts = fake
      .callsTo('chat.postMessage')
      .filter(
        (c) => c.response.ok === true && String(c.args.text ?? '').startsWith('vidops audit checkpoint'),
      );
    expect(checkpointPosts.length).toBe(1);
  });

  it('a replica’s post whose answer was lost, then a backoff longer than its lease: another replica does not post those events again', async () => {
    // Was a defect: the events of an unsure post stayed leased only until the lease ended; nothing
    // renewed it while the publisher waited out its backoff (here 800 ms against a 300 ms lease; by
    // default up to 60 s against 30 s), so another replica claimed and posted them while the first
    // post had landed. The next turn now comes within a third of the lease, and renews it.
    const { proxy, web } = await lossy();
    proxy.loseAnswers('chat.postMessage', 1);
    const events = await append(3);
    const a = publisher({ web, leaseMs: 300, backoffBaseMs: 800, backoffMaxMs: 800, minIntervalMs: 20 });
    fake.failNext('conversations.history', { status: 500 }, 2);
    a.start();
    await until('the first post landed', () => timesShown(fake, events)[1] === 1);

    // Replica b takes turns all along, while a waits and reads the channel back.
    const other = await backend.open();
    const b = publisher({ store: other, leaseMs: 300, minIntervalMs: 20 });
    b.start();
    await until('every event posted', async () => (await store.outboxDepth()) === 0);
    await sleep(400);

    expect(timesShown(fake, events)).toEqual(once(events));
  });
});

describe.each(BACKENDS)('the notification worker’s lease renewal on %s, attacked', (_name, backendOf) => {
  let backend: Backend;
  let store: Store;
  const running: NotificationWorker[] = [];
  const gates: (() => void)[] = [];

  beforeEach(async () => {
    backend = await backendOf();
    store = await backend.open();
  });

  afterEach(async () => {
    for (const open of gates.splice(0)) open();
    await Promise.all(running.splice(0).map((w) => w.stop()));
    await backend.done();
  });

  function worker(
    overrides: Partial<NotificationWorkerOptions> & Pick<NotificationWorkerOptions, 'deliver'>,
  ) {
    const w = createNotificationWorker({
      store,
      clock: () => new Date(),
      logger: silent,
      workerId: `w-${randomUUID().slice(0, 6)}`,
      settleMs: 0,
      backoffBaseMs: 20,
      backoffMaxMs: 200,
      idlePollMs: 30,
      ...overrides,
    });
    running.push(w);
    return w;
  }

  /** A gate a test opens (or the cleanup does). */
  function gate(): { wait: Promise<void>; open: () => void } {
    let open: () => void = () => undefined;
    const wait = new Promise<void>((resolve) => {
      open = resolve;
    });
    gates.push(open);
    return { wait, open };
  }

  /** `on` as the worker uses it, with renewals that fail while `failing.now` and are counted. */
  function renewing(on: Store, failing: { now: boolean }, renewals: { at: number; held: number }[]) {
    const s: NotificationStore = {
      claimNotifications: (c) => on.claimNotifications(c),
      ackNotifications: (ids) => on.ackNotifications(ids),
      releaseNotifications: (ids, notBefore, worker) => on.releaseNotifications(ids, notBefore, worker),
      notificationDepth: () => on.notificationDepth(),
      async renewNotifications(ids, worker, until) {
        if (failing.now) throw new Error('the database is failing over');
        const held = await on.renewNotifications(ids, worker, until);
        renewals.push({ at: Date.now(), held });
        return held;
      },
    };
    return s;
  }

  async function created(): Promise<OperationRequest> {
    const now = new Date().toISOString();
    const request = newRequest({ createdAt: now, updatedAt: now });
    await store.createRequest(request, [eventFor(request, 'requested')]);
    return request;
  }

  it('a replica whose lease renewals fail while Slack is slow, then finishes: it gives back no job another replica now holds', async () => {
    // Was a defect: releaseNotifications (and ackNotifications) take no worker, so replica a, whose lease ran
    // out while it told the first request, "gives back" the rest of its batch that replica b has since
    // claimed and still holds: a third replica then tells that request while b does. Release and ack
    // only jobs still leased to the caller (as renewNotifications does), and drop the rest of a batch
    // whose renewal said it is no longer held (notification-worker.ts step/tell, store release/ack).
    const [first, second] = [await created(), await created()];
    const aSlack = gate();
    let aTelling = '';
    const failing = { now: true };
    const a = worker({
      store: renewing(store, failing, []),
      leaseMs: 300,
      workerId: 'a',
      deliver: async (requestId) => {
        aTelling = requestId;
        if (requestId === first.id) await aSlack.wait;
        return { kind: 'done' };
      },
    });
    const aStep = a.flushOnce();
    await until('replica a telling the first request', () => aTelling === first.id);
    // a's renewals fail: its lease runs out.
    await sleep(500);

    const bSlack = gate();
    const bTold: string[] = [];
    const other = await backend.open();
    const b = worker({
      store: other,
      leaseMs: 300,
      workerId: 'b',
      deliver: async (requestId) => {
        bTold.push(requestId);
        await bSlack.wait;
        return { kind: 'done' };
      },
    });
    const bStep = b.flushOnce();
    await until('replica b telling', () => bTold.length === 1);

    // Slack answers replica a at last.
    aSlack.open();
    await aStep;

    // A third replica looks while b still holds both requests (its renewals work).
    const cTold: string[] = [];
    const third = await backend.open();
    const c = worker({
      store: third,
      leaseMs: 300,
      workerId: 'c',
      deliver: async (requestId) => {
        cTold.push(requestId);
        return { kind: 'done' };
      },
    });
    await c.flushOnce();
    bSlack.open();
    await bStep;

    expect({ cTold, second: second.id }).toEqual({ cTold: [], second: second.id });
  });

  it('a replica’s lease is taken over while its renewals fail; when they work again they do not take the jobs back', async () => {
    const request = await created();
    const aSlack = gate();
    let aTelling = false;
    const failing = { now: true };
    const aRenewals: { at: number; held: number }[] = [];
    const a = worker({
      store: renewing(store, failing, aRenewals),
      leaseMs: 300,
      workerId: 'a',
      deliver: async () => {
        aTelling = true;
        await aSlack.wait;
        return { kind: 'done' };
      },
    });
    const aStep = a.flushOnce();
    await until('replica a telling', () => aTelling);
    await sleep(500);

    const bSlack = gate();
    let bTelling = false;
    const other = await backend.open();
    const b = worker({
      store: other,
      leaseMs: 300,
      workerId: 'b',
      deliver: async () => {
        bTelling = true;
        await bSlack.wait;
        return { kind: 'done' };
      },
    });
    const bStep = b.flushOnce();
    await until('replica b telling', () => bTelling);

    // The database is back: a's renewals run again, and find nothing of theirs.
    failing.now = false;
    await until('two renewals by a', () => aRenewals.length >= 2);
    expect(aRenewals.every((r) => r.held === 0)).toBe(true);

    // b still holds the request: a third replica gets nothing.
    const cTold: string[] = [];
    const third = await backend.open();
    const c = worker({
      store: third,
      leaseMs: 300,
      deliver: async (requestId) => {
        cTold.push(requestId);
        return { kind: 'done' };
      },
    });
    expect(await c.flushOnce()).toBe(0);
    expect(cTold).toEqual([]);
    expect(await store.notificationDepth()).toBeGreaterThan(0);
    void request;

    bSlack.open();
    aSlack.open();
    await Promise.all([aStep, bStep]);
  });

  it('an operator stops the worker while Slack is slow and renewals are under way: stop waits for the telling, and no renewal starts after it', async () => {
    await created();
    const slack = gate();
    let telling = false;
    const renewals: { at: number; held: number }[] = [];
    const w = worker({
      store: renewing(store, { now: false }, renewals),
      leaseMs: 150,
      deliver: async () => {
        telling = true;
        await slack.wait;
        return { kind: 'done' };
      },
    });
    w.start();
    await until('telling', () => telling);
    await until('renewals under way', () => renewals.length >= 2);

    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await sleep(150);
    expect(stopped).toBe(false);
    slack.open();
    await stopping;
    const after = renewals.length;
    await sleep(300);

    expect({ renewalsAfterStop: renewals.length - after, left: await store.notificationDepth() }).toEqual({
      renewalsAfterStop: 0,
      left: 0,
    });
  });
});
