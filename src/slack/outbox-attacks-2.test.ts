import { randomUUID } from 'node:crypto';
import pino from 'pino';
import {
  AUDIT,
  auditEvent,
  BACKENDS,
  type Backend,
  dropBackends,
  once,
  sleep,
  timesShown,
  until,
} from '../../test/slack/outbox-harness.js';
import type { AuditEvent } from '../core/model.js';
import { type Emulator, startEmulator } from '../emulator/index.js';
import type { Store } from '../store/store.js';
import {
  type AuditPublisher,
  type AuditPublisherOptions,
  createAuditPublisher,
  createPublisherWebClient,
} from './audit-publisher.js';

/**
 * More attacks on the audit channel's publisher (after outbox-attacks.test.ts): the order the
 * channel shows when replicas share a backlog Slack refused once, a process killed between
 * Slack's answer and the store's mark, and an event too long for one message.
 * @see docs/audit.md, "Audit log"; docs/architecture.md, "Audit log" and "Scale"
 */

const BOT_TOKEN = 'xoxb-vidops-attacks-2';
const silent = pino({ level: 'silent' });

afterAll(dropBackends);

/** The seqs the channel shows, in the order Slack accepted the posts. */
function seqsInChannelOrder(fake: Emulator, events: readonly AuditEvent[]): number[] {
  const order: number[] = [];
  for (const call of fake.callsTo('chat.postMessage')) {
    if (call.args.channel !== AUDIT || call.response.ok !== true) continue;
    const text = JSON.stringify(call.args.blocks ?? []);
    const shown = events
      .map((e) => ({ seq: e.seq, at: text.indexOf(e.hash.slice(0, 12)) }))
      .filter((s) => s.at >= 0)
      .sort((a, b) => a.at - b.at);
    order.push(...shown.map((s) => s.seq));
  }
  return order;
}

describe.each(BACKENDS)('the audit channel publisher on %s, attacked again', (_name, backendOf) => {
  let backend: Backend;
  let store: Store;
  let fake: Emulator;
  const running: AuditPublisher[] = [];

  beforeEach(async () => {
    backend = await backendOf();
    store = await backend.open();
    fake = await startEmulator({ botToken: BOT_TOKEN });
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
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
      backoffBaseMs: 200,
      backoffMaxMs: 400,
      idlePollMs: 20,
      ...overrides,
    });
    running.push(p);
    return p;
  }

  // KNOWN LIMIT (docs/audit.md, "Audit log": known limits of the channel): a replica claims past
  // events another holds or must retry later, so with several replicas they may show out of order.
  it.failing('two replicas recover a backlog after Slack refused the first post once: the channel shows the events in chain order', async () => {
    const events = await store.appendAudit(Array.from({ length: 9 }, (_, i) => auditEvent(i + 1)));
    fake.failNext('chat.postMessage', { status: 500 }, 1);
    const a = publisher({ batchMax: 3 });
    // Replica A's post of 1..3 is refused; they are held back for its backoff.
    expect(await a.flushOnce()).toBe(0);
    const b = publisher({ store: await backend.open(), batchMax: 3 });
    b.start();
    a.start();

    await until('every event posted', async () => (await store.outboxDepth()) === 0);

    expect(timesShown(fake, events)).toEqual(once(events));
    expect(seqsInChannelOrder(fake, events)).toEqual(events.map((e) => e.seq));
  });
  // KNOWN LIMIT (docs/audit.md, "Audit log": known limits of the channel): nothing on disk says a
  // post was attempted, so the next replica posts those events again: shown twice, never lost.
  it.failing('a replica is killed after Slack took its post but before the store marked it: the events show once in the channel', async () => {
    const events = await store.appendAudit(Array.from({ length: 3 }, (_, i) => auditEvent(i + 1)));
    // The database refuses the mark, then the process dies: what it kept in memory is gone.
    const dying: Store = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'ackOutbox') return () => Promise.reject(new Error('connection reset'));
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const killed = publisher({ store: dying, leaseMs: 300 });
    expect(await killed.flushOnce()).toBe(3);
    expect(timesShown(fake, events)).toEqual(once(events));

    // The next process starts on the same database once the lease ran out.
    await sleep(350);
    const next = publisher({ store: await backend.open(), leaseMs: 300 });
    next.start();
    await until('every event marked', async () => (await store.outboxDepth()) === 0);

    expect(timesShown(fake, events)).toEqual(once(events));
  });

  it('someone writes a reason too long for one message: its event reaches the channel and the events after it are not held back', async () => {
    const long = await store.appendAudit([auditEvent(1, `unblocked viewer; note: ${'x'.repeat(60_000)}`)]);
    const after = await store.appendAudit([auditEvent(2), auditEvent(3)]);
    const p = publisher();
    p.start();

    await until('every event posted', async () => (await store.outboxDepth()) === 0, 5000);

    expect(timesShown(fake, [...long, ...after])).toEqual(once([...long, ...after]));
  });
});
