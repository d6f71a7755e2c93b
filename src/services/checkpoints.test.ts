import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliActor } from '../core/actor.js';
import { createHasher, GENESIS_HASH } from '../core/audit-chain.js';
import { checkpointOrigin, parseCheckpoint, signCheckpoint, verifyCheckpoints } from '../core/checkpoint.js';
import { canonicalJson } from '../core/json.js';
import type { NewAuditEvent } from '../core/model.js';
import { generateSignerKey, parseNote, verifierKeyOf } from '../core/signed-note.js';
import { openStore } from '../store/index.js';
import type { Store } from '../store/store.js';
import { type CheckpointMemory, fileMemory, processMemory } from './checkpoint-memory.js';
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
/** The key's memory, shared by every checkpointer of a test as the file beside the key is. */
let memory: CheckpointMemory;
const key = generateSignerKey(ORIGIN);

beforeEach(async () => {
  store = await openStore('sqlite::memory:', { hash });
  now = Date.parse('2026-11-21T12:00:00Z');
  memory = processMemory();
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
    memory,
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

  it('two replicas on two hosts due at the same moment: one signs, the other is told it was taken', async () => {
    await append(5);
    // Each host has its own copy of the key, and so its own memory of what it signed.
    const [a, b] = await Promise.all([
      checkpointer({ memory: processMemory() }).checkpointNow(),
      checkpointer({ memory: processMemory() }).checkpointNow(),
    ]);
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

/** SQL behind vidops' back on the test's in-memory SQLite store. */
function sql(text: string, ...params: unknown[]): void {
  const sqlite = store as unknown as { db: { prepare(sql: string): { run(...a: unknown[]): unknown } } };
  sqlite.db.prepare(text).run(...params);
}

/**
 * What someone with write access to the database but not the key does: edits event #`seq`,
 * recomputes every hash from there with vidops' own hash function, deletes the checkpoint rows.
 */
async function rewriteFrom(seq: number): Promise<void> {
  let prevHash = GENESIS_HASH;
  for (const event of await store.listAudit({ afterSeq: 0, limit: 1000 })) {
    const { seq: at, prevHash: _prev, hash: _hash, ...body } = event;
    const edited = at === seq ? { ...body, target: 'viewer 09000000000' } : body;
    const rehashed = hash({ ...edited, seq: at, prevHash });
    sql(
      'UPDATE audit_events SET event = ?, prev_hash = ?, hash = ? WHERE seq = ?',
      canonicalJson(edited),
      prevHash,
      rehashed,
      at,
    );
    prevHash = rehashed;
  }
  sql('DELETE FROM checkpoints');
}

async function rememberedSize(): Promise<number | null> {
  const text = await memory.read();
  return text === null ? null : parseCheckpoint(parseNote(text).text).size;
}

function recordingLogger() {
  const errors: { fields: object; msg: string }[] = [];
  return {
    errors,
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: (fields: object, msg?: string) => errors.push({ fields, msg: msg ?? '' }),
    },
  };
}

describe('the key remembers what it signed', () => {
  it('the first checkpoint ever is remembered, and each later one moves the memory forward', async () => {
    expect(await memory.read()).toBeNull();
    await append(5);
    expect(await checkpointer().checkpointNow()).toMatchObject({ kind: 'written' });
    expect(await rememberedSize()).toBe(5);
    await append(5);
    expect(await checkpointer().checkIfDue()).toMatchObject({ kind: 'written', checkpoint: { size: 10 } });
    expect(await rememberedSize()).toBe(10);
  });

  it('a log rewritten under what it signed: refused, said once in the log, counted at every look, nothing stored', async () => {
    await append(5);
    await checkpointer().checkpointNow();
    await rewriteFrom(2);
    await append(5);
    const { errors, logger } = recordingLogger();
    const refusals: string[] = [];
    const cp = checkpointer({ logger, onRefused: (reason) => refusals.push(reason) });

    const first = await cp.checkIfDue();
    expect(first).toMatchObject({ kind: 'refused' });
    const reason = first?.kind === 'refused' ? first.reason : '';
    expect(reason).toMatch(
      /^no checkpoint signed: the log does not extend the checkpoint this key signed before \(5 events, of 2026-11-21T12:00:00Z, remembered in this process\): the log's event #5 has hash [0-9a-f]{12}, not [0-9a-f]{12} as signed; /,
    );
    expect(await cp.checkIfDue()).toEqual(first);
    expect(refusals).toEqual([reason, reason]);
    expect(errors).toEqual([
      { fields: expect.objectContaining({ alert: 'audit_checkpoint_refused' }), msg: reason },
    ]);
    expect(await store.listCheckpoints()).toEqual([]);
    expect(await rememberedSize()).toBe(5);
  });

  it('a log cut below what it signed, checkpoints deleted: refused', async () => {
    await append(8);
    await checkpointer().checkpointNow();
    sql('DELETE FROM outbox WHERE seq > 6');
    sql('DELETE FROM audit_events WHERE seq > 6');
    sql('DELETE FROM checkpoints');
    const result = await checkpointer().checkpointNow();
    expect(result).toMatchObject({ kind: 'refused' });
    expect(result.kind === 'refused' && result.reason).toContain(
      'the log holds 6 events, fewer than the 8 this key signed for',
    );
    expect(await store.listCheckpoints()).toEqual([]);
  });

  it('a stored checkpoint by a key vidops does not know is not taken as what the events extend', async () => {
    await append(6);
    // Event #2 was edited (its hash no longer matches); a checkpoint by another key covers it.
    sql(`UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 0') WHERE seq = 2`);
    const impostor = generateSignerKey(ORIGIN);
    const [third] = await store.listAudit({ afterSeq: 2, limit: 1 });
    const head = third?.hash ?? '';
    await store.addCheckpoint({
      size: 3,
      head,
      time: '2026-11-21T11:00:00Z',
      note: signCheckpoint({ origin: ORIGIN, size: 3, head, time: '2026-11-21T11:00:00Z' }, [impostor]),
    });
    expect(await checkpointer().checkpointNow()).toEqual({
      kind: 'refused',
      reason:
        'no checkpoint signed: event #2 was altered (its hash does not match); run `vidops audit verify`',
    });
  });

  it('a crash between remembering and storing does not stop the next checkpoint', async () => {
    await append(5);
    const crashing = Object.create(store) as Store;
    crashing.addCheckpoint = () => Promise.reject(new Error('the process died'));
    await expect(checkpointer({ store: crashing }).checkpointNow()).rejects.toThrow('the process died');
    // The memory is ahead of the database; the next checkpoint of the same head extends it.
    expect(await rememberedSize()).toBe(5);
    expect(await store.listCheckpoints()).toEqual([]);
    expect(await checkpointer().checkpointNow()).toMatchObject({ kind: 'written', checkpoint: { size: 5 } });
    await append(1);
    expect(await checkpointer().checkpointNow()).toMatchObject({ kind: 'written', checkpoint: { size: 6 } });
  });

  it('an operator accepts a new baseline: an audit event says who and why, and signing goes on from it', async () => {
    await append(5);
    await checkpointer().checkpointNow();
    await rewriteFrom(3);
    const cp = checkpointer();
    expect(await cp.checkpointNow()).toMatchObject({ kind: 'refused' });
    const accepted = await cp.checkpointNow({ actor: cliActor('ops'), reason: 'restored from backup' });
    expect(accepted).toMatchObject({
      kind: 'written',
      checkpoint: { size: 6 },
      baseline: { forgotten: { size: 5 }, seq: 6 },
    });
    const [event] = await store.listAudit({ afterSeq: 5, limit: 1 });
    expect(event).toMatchObject({
      type: 'checkpoint-baseline',
      actor: { id: 'cli:ops' },
      params: { reason: 'restored from backup' },
      outcome: { forgotten: { size: 5 }, accepted: { size: 5 } },
    });
    expect(await rememberedSize()).toBe(6);
    await append(5);
    expect(await cp.checkIfDue()).toMatchObject({ kind: 'written', checkpoint: { size: 11 } });
  });
});

describe('two replicas signing with one key file on one host', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vidops-memory-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('take turns: the memory only moves forward, neither is refused, no lock or temporary file is left', async () => {
    const url = `sqlite:${join(dir, 'x.db')}`;
    const [a, b] = [await openStore(url, { hash }), await openStore(url, { hash })];
    const path = join(dir, 'audit-signing.key.last');
    try {
      const replica = (s: Store) => checkpointer({ store: s, memory: fileMemory(path) });
      const results = [];
      for (let round = 0; round < 6; round += 1) {
        await (round % 2 === 0 ? a : b).appendAudit([newEvent(round)]);
        results.push(...(await Promise.all([replica(a).checkpointNow(), replica(b).checkpointNow()])));
      }
      expect(results.filter((r) => r.kind === 'refused')).toEqual([]);
      const stored = await a.listCheckpoints();
      expect(stored.map((c) => c.size)).toEqual([1, 2, 3, 4, 5, 6]);
      const remembered = parseCheckpoint(parseNote(await readFile(path, 'utf8')).text);
      expect(remembered.size).toBe(6);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect(await readdir(dir)).toEqual(
        expect.not.arrayContaining([expect.stringMatching(/\.(lock|tmp)$/)]),
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a lock file left by a signer that died does not stop signing', async () => {
    const path = join(dir, 'audit-signing.key.last');
    await writeFile(`${path}.lock`, '4242 gone 2026-11-21T00:00:00Z\n');
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(`${path}.lock`, old, old);
    const stale: string[] = [];
    await append(2);
    const result = await checkpointer({
      memory: fileMemory(path, { onStaleLock: (p) => stale.push(p) }),
    }).checkpointNow();
    expect(result).toMatchObject({ kind: 'written' });
    expect(stale).toEqual([`${path}.lock`]);
  });
});
