import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { eventFor, LEAD, newRequest } from '../../test/store/fixtures.js';
import { createHasher } from '../core/audit-chain.js';
import type { OperationRequest, RequestState } from '../core/model.js';
import { type Emulator, startEmulator } from '../emulator/index.js';
import { openStore } from '../store/index.js';
import type { NotificationJob, Store } from '../store/store.js';
import { createPublisherWebClient } from './audit-publisher.js';
import {
  createNotificationWorker,
  type DeliveryOutcome,
  type NotificationWorker,
  type NotificationWorkerOptions,
} from './notification-worker.js';

const BOT_TOKEN = 'xoxb-vidops-test';
const CHANNEL = 'C0APPROVALS';
const silent = pino({ level: 'silent' });

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Delivery {
  worker: string;
  requestId: string;
  versions: number[];
  /** performance.now() when the delivery began. */
  at: number;
}

describe('notification worker', () => {
  let dir: string;
  let store: Store;
  let fake: Emulator;
  const running: NotificationWorker[] = [];
  const extraStores: Store[] = [];
  let deliveries: Delivery[];
  let holding: Map<string, string>;
  let overlaps: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vidops-notify-'));
    store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
    fake = await startEmulator({ botToken: BOT_TOKEN });
    deliveries = [];
    holding = new Map();
    overlaps = [];
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
    await fake.close();
    await Promise.all([store, ...extraStores.splice(0)].map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
  });

  const web = () => createPublisherWebClient(BOT_TOKEN, { slackApiUrl: fake.apiUrl });

  /** Says the request's state now in the channel, as the Slack notifier would update a message. */
  function teller(name: string, on: Store = store, client = web()) {
    return async (requestId: string, jobs: readonly NotificationJob[]): Promise<DeliveryOutcome> => {
      if (holding.has(requestId)) overlaps.push(`${requestId}: ${holding.get(requestId)} and ${name}`);
      holding.set(requestId, name);
      deliveries.push({
        worker: name,
        requestId,
        versions: jobs.map((j) => j.version),
        at: performance.now(),
      });
      try {
        const request = await on.getRequest(requestId);
        await client.chat.postMessage({ channel: CHANNEL, text: `${requestId} is ${request?.state}` });
        return { kind: 'done' };
      } finally {
        holding.delete(requestId);
      }
    };
  }

  function worker(overrides: Partial<NotificationWorkerOptions> = {}): NotificationWorker {
    const w = createNotificationWorker({
      store,
      deliver: teller('w1'),
      clock: () => new Date(),
      logger: silent,
      workerId: 'w1',
      settleMs: 100,
      backoffBaseMs: 40,
      backoffMaxMs: 400,
      idlePollMs: 50,
      ...overrides,
    });
    running.push(w);
    return w;
  }

  async function created(on: Store = store): Promise<OperationRequest> {
    const now = new Date().toISOString();
    const request = newRequest({ createdAt: now, updatedAt: now });
    await on.createRequest(request, [eventFor(request, 'requested')]);
    return request;
  }

  async function moved(request: OperationRequest, version: number, state: RequestState, on = store) {
    const done = await on.transition(request.id, version, { state }, new Date().toISOString(), [
      eventFor(request, state === 'pending' ? 'approved' : 'succeeded', { actor: LEAD }),
    ]);
    if (done === null) throw new Error(`${request.id} was not at version ${version}`);
    return done.request;
  }

  const okPosts = () => fake.callsTo('chat.postMessage').filter((c) => c.response.ok === true);
  const empty = async () => (await store.notificationDepth()) === 0;

  it('a burst of changes to one request is told once it settled, as one delivery of its latest state', async () => {
    const w = worker({ idlePollMs: 60_000 });
    w.start();
    const request = await created();
    w.kick();
    await moved(request, 1, 'pending');
    w.kick();
    await moved(request, 2, 'succeeded');
    w.kick();
    const last = performance.now();

    await until('the jobs to be done', empty);

    expect(deliveries.map((d) => d.versions)).toEqual([[1, 2, 3]]);
    expect((deliveries[0]?.at ?? 0) - last).toBeGreaterThanOrEqual(90);
    expect(okPosts().map((c) => c.args.text)).toEqual([`${request.id} is succeeded`]);
  });

  it('Slack answers 500: the jobs go back and are told after the backoff, acknowledged only then', async () => {
    fake.failNext('chat.postMessage', { status: 500 }, 2);
    const w = worker();
    const request = await created();
    w.start();

    await until('a failed try', () => fake.callsTo('chat.postMessage').length >= 1);
    expect(await store.notificationDepth()).toBe(1);
    await until('the jobs to be done', empty);

    expect(fake.callsTo('chat.postMessage').map((c) => c.status)).toEqual([500, 500, 200]);
    expect(okPosts().map((c) => c.args.text)).toEqual([`${request.id} is pending`]);
    const [first, second, third] = deliveries.map((d) => d.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(35);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(75);
  });

  it('Slack answers 429: the worker waits the Retry-After before it tells anything again', async () => {
    fake.failNext('chat.postMessage', { status: 429, retryAfter: 1 }, 1);
    const w = worker();
    await created();
    await created();
    w.start();

    await until('the jobs to be done', empty);

    expect(fake.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200, 200]);
    const [limited, next] = fake.callsTo('chat.postMessage').map((c) => c.at.getTime());
    expect((next ?? 0) - (limited ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('a delivery put off comes back at the time it named, and only then is done', async () => {
    let first = true;
    const tell = teller('w1');
    const w = worker({
      deliver: async (requestId, jobs) => {
        if (!first) return tell(requestId, jobs);
        first = false;
        return { kind: 'later', notBefore: new Date(Date.now() + 300), reason: 'another replica is posting' };
      },
    });
    const request = await created();
    const started = performance.now();
    w.start();

    await until('the jobs to be done', empty);

    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(okPosts().map((c) => c.args.text)).toEqual([`${request.id} is pending`]);
  });

  it('a delivery put off comes back when due, though the idle poll has backed off far beyond it', async () => {
    let first = true;
    let triedAgain = 0;
    const tell = teller('w1');
    const w = worker({
      settleMs: 0,
      idlePollMs: 400,
      idlePollMaxMs: 60_000,
      deliver: async (requestId, jobs) => {
        if (!first) {
          triedAgain = performance.now();
          return tell(requestId, jobs);
        }
        first = false;
        return { kind: 'later', notBefore: new Date(Date.now() + 500), reason: 'another replica is posting' };
      },
    });
    await created();
    const started = performance.now();
    w.start();

    await until('the jobs to be done', empty);

    // Looks 400 and 800 ms apart would come back at 1,200 ms; the job's own time wakes it.
    expect(triedAgain - started).toBeGreaterThanOrEqual(490);
    expect(triedAgain - started).toBeLessThan(1000);
  });

  it('a backed-off worker tells what another replica recorded within its longest poll, and its own at once', async () => {
    const other = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
    extraStores.push(other);
    const w = worker({ idlePollMs: 20, idlePollMaxMs: 200 });
    w.start();
    await new Promise((r) => setTimeout(r, 600)); // nothing found: backed off to 200 ms
    let recorded = performance.now();
    await created(other); // that replica's nudge wakes only its own worker
    await until('the other replica’s job to be done', empty);
    // The longest poll, plus the settle time a job waits before it is told.
    expect(performance.now() - recorded).toBeLessThan(200 + 100 + 150);

    await w.stop();
    const slow = worker({ idlePollMs: 60_000, workerId: 'w3' });
    slow.start();
    await new Promise((r) => setTimeout(r, 100));
    recorded = performance.now();
    await created();
    slow.kick();
    await until('its own job to be done', empty);
    expect(performance.now() - recorded).toBeLessThan(100 + 250);
  });

  it('two replicas on one database while requests change: each change told, no request by both at once', async () => {
    const other = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
    extraStores.push(other);
    const a = worker({ settleMs: 0 });
    const b = worker({ store: other, deliver: teller('w2', other), workerId: 'w2', settleMs: 0 });
    a.start();
    b.start();

    const requests = await Promise.all(Array.from({ length: 15 }, (_, i) => created(i % 2 ? other : store)));
    await Promise.all(
      requests.map(async (r, i) => {
        const on = i % 2 ? other : store;
        await moved(r, 1, 'pending', on);
        (i % 2 ? b : a).kick();
      }),
    );
    await until('the jobs to be done', empty);

    expect(overlaps).toEqual([]);
    const told = deliveries.flatMap((d) => d.versions.map((v) => `${d.requestId}@${v}`));
    expect(told.sort()).toEqual(requests.flatMap((r) => [`${r.id}@1`, `${r.id}@2`]).sort());
    expect(new Set(deliveries.map((d) => d.worker))).toEqual(new Set(['w1', 'w2']));
  });

  it('drains the backlog within the bound when stopping, and says when Slack keeps it from finishing', async () => {
    const w = worker({ idlePollMs: 60_000 });
    w.start();
    await created();
    await created();
    expect(await w.drain(2000)).toBe(true);
    expect(okPosts()).toHaveLength(2);

    fake.failNext('chat.postMessage', { status: 429, retryAfter: 30 }, 1);
    await created();
    const started = performance.now();
    expect(await w.drain(2000)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await store.notificationDepth()).toBe(1);
  });

  it('a job waiting when the process stops is done by the next one, once', async () => {
    fake.failNext('chat.postMessage', { status: 500 }, 1);
    const first = worker({ backoffBaseMs: 10_000, backoffMaxMs: 10_000 });
    const request = await created();
    first.start();
    await until('a failed try', () => fake.callsTo('chat.postMessage').length >= 1);
    await first.stop();
    expect(await store.notificationDepth()).toBe(1);

    // The next process runs on a clock past the backoff the first one recorded.
    const next = worker({ workerId: 'w9', clock: () => new Date(Date.now() + 20_000) });
    next.start();
    await until('the jobs to be done', empty);

    expect(okPosts().map((c) => c.args.text)).toEqual([`${request.id} is pending`]);
  });
});
