import { randomUUID } from 'node:crypto';
import { createHasher } from '../core/audit-chain.js';
import { checkpointOrigin, signCheckpoint, verifyCheckpoints } from '../core/checkpoint.js';
import type { NewAuditEvent } from '../core/model.js';
import { generateSignerKey, verifierKeyOf } from '../core/signed-note.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/store.js';
import { type CheckpointerOptions, createCheckpointer } from './checkpoints.js';

const ORIGIN = checkpointOrigin('tehran-1');
const hash = createHasher();

function newEvent(i: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: 'requested',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: {},
    requestId: null,
    outcome: null,
    error: null,
  };
}

let store: Store;
let now: number;
const key = generateSignerKey(ORIGIN);

beforeEach(async () => {
  store = await openStore('sqlite::memory:', { hash });
  now = Date.parse('2026-11-21T12:00:00Z');
});

afterEach(async () => {
  await store.close();
});

function checkpointer(overrides: Partial<CheckpointerOptions> = {}) {
  return createCheckpointer({
    store,
    signer: key,
    origin: ORIGIN,
    hash,
    clock: () => new Date(now),
    every: { events: 5, ms: 60 * 60_000 },
    ...overrides,
  });
}

async function append(n: number): Promise<void> {
  const head = (await store.auditHead())?.seq ?? 0;
  await store.appendAudit(Array.from({ length: n }, (_, i) => newEvent(head + i)));
}

describe('the bot signs audit checkpoints', () => {
  it('after every N events: the checkpoint states the head, signed, and verifies against the log', async () => {
    const written: number[] = [];
    const cp = checkpointer({ onWritten: (c) => written.push(c.size) });
    await append(4);
    expect(await cp.checkIfDue()).toBeNull();
    await append(1);
    const result = await cp.checkIfDue();
    expect(result).toMatchObject({ kind: 'written', checkpoint: { size: 5, time: '2026-11-21T12:00:00Z' } });
    expect(written).toEqual([5]);
    await append(4);
    expect(await cp.checkIfDue()).toBeNull();

    const stored = await store.listCheckpoints();
    expect(stored.map((c) => [c.size, c.postedAt])).toEqual([[5, null]]);
    const verdict = await verifyCheckpoints(
      store.iterateAudit(),
      stored.map((c) => c.note),
      [verifierKeyOf(key)],
      {
        origin: ORIGIN,
      },
    );
    expect(verdict).toMatchObject({ ok: true, events: 9, newest: { size: 5 } });
  });

  it('after the interval, however few events came', async () => {
    const cp = checkpointer();
    await append(2);
    expect(await cp.checkIfDue()).toBeNull();
    now += 60 * 60_000;
    expect(await cp.checkIfDue()).toMatchObject({ kind: 'written', checkpoint: { size: 2 } });
    now += 60 * 60_000;
    // Nothing new since: nothing to sign, however long it has been.
    expect(await cp.checkIfDue()).toBeNull();
  });

  it('at once when asked, and not again for the same head', async () => {
    const cp = checkpointer();
    expect(await cp.checkpointNow()).toEqual({ kind: 'covered', latest: null, events: 0 });
    await append(1);
    expect(await cp.checkpointNow()).toMatchObject({ kind: 'written', checkpoint: { size: 1 } });
    expect(await cp.checkpointNow()).toMatchObject({ kind: 'covered', events: 1, latest: { size: 1 } });
  });

  it('two replicas due at the same moment: one signs, the other is told it was taken', async () => {
    await append(5);
    const [a, b] = await Promise.all([checkpointer().checkpointNow(), checkpointer().checkpointNow()]);
    expect([a.kind, b.kind].sort()).toEqual(['taken', 'written']);
    expect(await store.listCheckpoints()).toHaveLength(1);
  });

  it('refuses to sign events that do not extend the previous checkpoint, and says which', async () => {
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_: object, msg?: string) => errors.push(msg ?? ''),
    };
    // The log was rewritten: the key vouched for another event #3 than the one the database holds.
    await store.addCheckpoint({
      size: 3,
      head: 'f'.repeat(64),
      time: '2026-11-21T11:00:00Z',
      note: signCheckpoint({ origin: ORIGIN, size: 3, head: 'f'.repeat(64), time: '2026-11-21T11:00:00Z' }, [
        key,
      ]),
    });
    await append(6);
    const cp = checkpointer({ logger });
    const refused = {
      kind: 'refused',
      reason:
        'no checkpoint signed: event #4 does not link to the checkpoint of 3 events; run `vidops audit verify`',
    };
    expect(await cp.checkpointNow()).toEqual(refused);
    expect(await cp.checkpointNow()).toEqual(refused);
    // Said once in the log, not at every look.
    expect(errors).toEqual([refused.reason]);
    expect(await store.listCheckpoints()).toHaveLength(1);
  });

  it('refuses when the stored checkpoint was edited so that it no longer verifies', async () => {
    await append(3);
    await checkpointer().checkpointNow();
    await append(3);
    const sqlite = store as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } };
    sqlite.db
      .prepare(`UPDATE checkpoints SET note = replace(note, '2026-11-21T12:00:00Z', '2026-11-21T12:00:01Z')`)
      .run();
    expect(await checkpointer().checkpointNow()).toEqual({
      kind: 'refused',
      reason:
        'no checkpoint signed: the stored checkpoint of 3 events does not verify; run `vidops audit verify`',
    });
  });

  it('refuses when an event after the checkpoint was altered', async () => {
    const cp = checkpointer();
    await append(3);
    await cp.checkpointNow();
    await append(2);
    const sqlite = store as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } };
    sqlite.db
      .prepare(`UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 0') WHERE seq = 4`)
      .run();
    expect(await cp.checkpointNow()).toEqual({
      kind: 'refused',
      reason:
        'no checkpoint signed: event #4 was altered (its hash does not match); run `vidops audit verify`',
    });
  });

  it('after a key rotation, the new key extends the checkpoints of the old one', async () => {
    await append(3);
    await checkpointer().checkpointNow();
    await append(3);
    const newKey = generateSignerKey(ORIGIN);
    expect(await checkpointer({ signer: newKey }).checkpointNow()).toMatchObject({ kind: 'written' });
    const notes = (await store.listCheckpoints()).map((c) => c.note);
    expect(notes[0]).toContain(`— ${ORIGIN} `);
    const both = await verifyCheckpoints(
      store.iterateAudit(),
      notes,
      [verifierKeyOf(key), verifierKeyOf(newKey)],
      {
        origin: ORIGIN,
      },
    );
    expect(both).toMatchObject({ ok: true, checkpoints: [{ size: 3 }, { size: 6 }] });
    const newOnly = await verifyCheckpoints(store.iterateAudit(), notes, [verifierKeyOf(newKey)], {
      origin: ORIGIN,
    });
    expect(newOnly.problems.map((p) => p.kind)).toEqual(['unknown-key']);
  });

  it('the loop signs when woken by appends, at most once per gap', async () => {
    const written: number[] = [];
    let resolveWritten: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      resolveWritten = resolve;
    });
    const cp = checkpointer({
      minGapMs: 0,
      pollMs: 60_000,
      onWritten: (c) => {
        written.push(c.size);
        resolveWritten();
      },
    });
    cp.start();
    try {
      await append(5);
      cp.kick();
      await first;
      expect(written).toEqual([5]);
    } finally {
      await cp.stop();
    }
  });
});
