import { createHash } from 'node:crypto';
import { createHasher, GENESIS_HASH, shortHash } from './audit-chain.js';
import {
  CheckpointFormatError,
  type CheckpointVerification,
  checkpointOrigin,
  extensionProblem,
  formatCheckpoint,
  formatCheckpointFile,
  parseCheckpoint,
  readRememberedCheckpoint,
  signCheckpoint,
  splitCheckpointFile,
  verifyCheckpoints,
} from './checkpoint.js';
import type { AuditEvent } from './model.js';
import { generateSignerKey, type SignerKey, verifierKeyOf } from './signed-note.js';

const ORIGIN = 'vidops/test';

function chainOf(count: number, edit?: (seq: number) => Partial<AuditEvent>): AuditEvent[] {
  const hash = createHasher();
  const out: AuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq += 1) {
    const unhashed = {
      id: `ev-${seq}`,
      type: 'requested' as const,
      at: new Date(Date.UTC(2026, 10, 21, 10, 0, seq)).toISOString(),
      actor: { id: 'U0AGENT', name: 'agent' },
      operation: 'viewer.unblock',
      target: '09123456789',
      params: { mobileNumber: '09123456789' },
      requestId: `r${seq}`,
      outcome: null,
      error: null,
      ...edit?.(seq),
      seq,
      prevHash,
    };
    const event = { ...unhashed, hash: hash(unhashed) };
    out.push(event);
    prevHash = event.hash;
  }
  return out;
}

/** A signed checkpoint of the first `size` events of `events`, made at `time`. */
function checkpointOf(events: AuditEvent[], size: number, time: string, signer: SignerKey): string {
  const head = size === 0 ? GENESIS_HASH : (events[size - 1] as AuditEvent).hash;
  return signCheckpoint({ origin: ORIGIN, size, head, time }, [signer]);
}

function messages(result: CheckpointVerification): string[] {
  return result.problems.map((p) => p.message);
}

describe('the checkpoint text', () => {
  const head = 'ab'.repeat(32);

  it('is origin, size, head in base64 and the time line, and reads back the same', () => {
    const text = formatCheckpoint({ origin: ORIGIN, size: 67, head, time: '2026-11-22T10:00:00Z' });
    expect(text).toBe(
      `vidops/test\n67\n${Buffer.from(head, 'hex').toString('base64')}\ntime 2026-11-22T10:00:00Z\n`,
    );
    expect(parseCheckpoint(text)).toEqual({
      origin: ORIGIN,
      size: 67,
      head,
      time: '2026-11-22T10:00:00Z',
      extensions: [],
    });
  });

  it('of an empty log has size 0 and the head 64 zeros; other extension lines are kept', () => {
    const text = formatCheckpoint({
      origin: ORIGIN,
      size: 0,
      head: GENESIS_HASH,
      time: null,
      extensions: ['x y'],
    });
    expect(parseCheckpoint(text)).toEqual({
      origin: ORIGIN,
      size: 0,
      head: GENESIS_HASH,
      time: null,
      extensions: ['x y'],
    });
    expect(() => formatCheckpoint({ origin: ORIGIN, size: 0, head, time: null })).toThrow(
      CheckpointFormatError,
    );
  });

  it('has the origin vidops/<AUDIT_LOG_NAME>, vidops/vidops by default', () => {
    expect(checkpointOrigin()).toBe('vidops/vidops');
    expect(checkpointOrigin('tehran-1')).toBe('vidops/tehran-1');
    expect(() => checkpointOrigin('tehran 1')).toThrow(CheckpointFormatError);
    expect(() => checkpointOrigin('a+b')).toThrow(CheckpointFormatError);
    expect(() => checkpointOrigin('')).toThrow(CheckpointFormatError);
  });

  const b64 = Buffer.from(head, 'hex').toString('base64');
  it.each([
    ['no final newline', `vidops/test\n1\n${b64}`, /does not end with a newline/],
    ['two lines', 'vidops/test\n1\n', /at least three lines/],
    [
      'an empty line',
      `vidops/test\n1\n${b64}\n\ntime 2026-11-22T10:00:00Z\n`,
      /Line 4 of the checkpoint is empty/,
    ],
    ['a size with a leading zero', `vidops/test\n01\n${b64}\n`, /Line 2/],
    ['a negative size', `vidops/test\n-1\n${b64}\n`, /Line 2/],
    ['a size past 2^53', `vidops/test\n9007199254740993\n${b64}\n`, /Line 2/],
    ['a 31-byte head', `vidops/test\n1\n${Buffer.alloc(31, 1).toString('base64')}\n`, /Line 3/],
    ['a hex head', `vidops/test\n1\n${head}\n`, /Line 3/],
    ['a time in Tehran time', `vidops/test\n1\n${b64}\ntime 2026-11-22T13:30:00+03:30\n`, /not ISO-8601 UTC/],
    ['a time that is no date', `vidops/test\n1\n${b64}\ntime 2026-13-45T10:00:00Z\n`, /not ISO-8601 UTC/],
    [
      'a time line after another extension',
      `vidops/test\n1\n${b64}\nx\ntime 2026-11-22T10:00:00Z\n`,
      /time line is line 4/,
    ],
    [
      'two time lines',
      `vidops/test\n1\n${b64}\ntime 2026-11-22T10:00:00Z\ntime 2026-11-22T10:00:00Z\n`,
      /one/,
    ],
  ])('is refused with %s', (_what, text, message) => {
    expect(() => parseCheckpoint(text)).toThrow(CheckpointFormatError);
    expect(() => parseCheckpoint(text)).toThrow(message);
  });
});

describe('the checkpoints file', () => {
  const signer = generateSignerKey(ORIGIN);
  const events = chainOf(3);
  const notes = [1, 2, 3].map((n) => checkpointOf(events, n, `2026-11-22T1${n}:00:00Z`, signer));

  it('holds the notes one after another, each followed by an empty line, and splits back', () => {
    const file = formatCheckpointFile(notes);
    expect(file).toBe(`${notes[0]}\n${notes[1]}\n${notes[2]}\n`);
    expect(splitCheckpointFile(file)).toEqual(notes);
    // The empty line after the last note may be missing; an empty file holds no note.
    expect(splitCheckpointFile(file.slice(0, -1))).toEqual(notes);
    expect(splitCheckpointFile('')).toEqual([]);
  });

  it.each([
    ['no final newline', (f: string) => f.slice(0, -2), /does not end with a newline/],
    [
      'two empty lines between notes',
      (f: string) => f.replace('\n\nvidops/test\n2', '\n\n\nvidops/test\n2'),
      /empty where a note should start/,
    ],
    [
      'no empty line between notes',
      (f: string) => f.replace('\n\nvidops/test\n2', '\nvidops/test\n2'),
      /neither a signature line/,
    ],
    ['a note cut before its signatures', (f: string) => `${f}vidops/test\n4\n`, /ends inside a note/],
    [
      'a note without signature lines',
      (f: string) => `${f}vidops/test\n4\nAAAA\n\n\n`,
      /empty where a signature line should be/,
    ],
  ])('is refused with %s', (_what, edit, message) => {
    expect(() => splitCheckpointFile(edit(formatCheckpointFile(notes)))).toThrow(message);
  });
});

describe('compliance checks signed checkpoints against the audit log', () => {
  const signer = generateSignerKey(ORIGIN);
  const keys = [verifierKeyOf(signer)];
  const options = { origin: ORIGIN };

  it('accepts a log whose checkpoints all hold and names the newest', async () => {
    const events = chainOf(100);
    const notes = [
      checkpointOf(events, 0, '2026-11-21T00:00:00Z', signer),
      checkpointOf(events, 40, '2026-11-21T10:00:00Z', signer),
      checkpointOf(events, 100, '2026-11-22T10:00:00Z', signer),
      checkpointOf(events, 67, '2026-11-21T20:00:00Z', signer),
    ];
    const result = await verifyCheckpoints(events, notes, keys, options);
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({ ok: true, events: 100, lastSeq: 100 });
    expect(result.checkpoints.map((c) => c.size)).toEqual([0, 40, 67, 100]);
    expect(result.newest).toMatchObject({
      size: 100,
      time: '2026-11-22T10:00:00Z',
      signedBy: [`${ORIGIN}+${signer.keyId}`],
    });
  });

  it('reads the events from an async iterable as a store gives them', async () => {
    const events = chainOf(10);
    async function* stored() {
      yield* events;
    }
    const result = await verifyCheckpoints(
      stored(),
      [checkpointOf(events, 10, '2026-11-22T10:00:00Z', signer)],
      keys,
      options,
    );
    expect(result.ok).toBe(true);
  });

  it('names the newest event removed from the log', async () => {
    const events = chainOf(67);
    const note = checkpointOf(events, 67, '2026-11-22T10:00:00Z', signer);
    const result = await verifyCheckpoints(events.slice(0, 66), [note], keys, options);
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      'events #67… are missing: checkpoint of 2026-11-22T10:00:00Z covers 67 events, the log holds 66',
    ]);
    expect(result.problems[0]?.kind).toBe('missing-events');
  });

  it('names where the missing events start when many newest events were removed', async () => {
    const events = chainOf(500);
    const notes = [100, 300, 500].map((n, i) =>
      checkpointOf(events, n, `2026-11-2${i + 1}T10:00:00Z`, signer),
    );
    const result = await verifyCheckpoints(events.slice(0, 250), notes, keys, options);
    expect(messages(result)).toEqual([
      'events #251… are missing: checkpoint of 2026-11-22T10:00:00Z covers 300 events, the log holds 250',
      'events #251… are missing: checkpoint of 2026-11-23T10:00:00Z covers 500 events, the log holds 250',
    ]);
  });

  it('names an event removed from the middle that a checkpoint covered', async () => {
    const events = chainOf(10);
    const note = checkpointOf(events, 5, '2026-11-22T10:00:00Z', signer);
    const withGap = events.filter((e) => e.seq !== 5);
    expect(messages(await verifyCheckpoints(withGap, [note], keys, options))).toEqual([
      'event #5 is missing: checkpoint of 2026-11-22T10:00:00Z covers it, the log has no event #5',
    ]);
  });

  it('catches a log rewritten with fresh hashes: the checkpoint head differs', async () => {
    const events = chainOf(60);
    const note = checkpointOf(events, 40, '2026-11-22T10:00:00Z', signer);
    // Someone with the database edits event #12 and recomputes every hash after it (SHA-256 needs no key).
    const rewritten = chainOf(60, (seq) => (seq === 12 ? { target: '09120000000' } : {}));
    const result = await verifyCheckpoints(rewritten, [note], keys, options);
    expect(messages(result)).toEqual([
      `checkpoint of 2026-11-22T10:00:00Z says event #40 has hash ${shortHash((events[39] as AuditEvent).hash)} but the log's event #40 has hash ${shortHash((rewritten[39] as AuditEvent).hash)}`,
    ]);
    expect(result.problems[0]?.kind).toBe('head-mismatch');
  });

  it('refuses a checkpoint edited after signing', async () => {
    const events = chainOf(70);
    const note = checkpointOf(events, 67, '2026-11-22T10:00:00Z', signer);
    const edited = note.replace('\n67\n', '\n66\n');
    const result = await verifyCheckpoints(events, [edited], keys, options);
    expect(messages(result)).toEqual([
      `checkpoint of 2026-11-22T10:00:00Z was signed by key ${ORIGIN}+${signer.keyId} but the signature does not hold`,
    ]);
    expect(result.checkpoints).toEqual([]);
  });

  it('refuses a checkpoint signed by a key nobody listed', async () => {
    const events = chainOf(5);
    const stranger = generateSignerKey(ORIGIN);
    const note = checkpointOf(events, 5, '2026-11-22T10:00:00Z', stranger);
    expect(messages(await verifyCheckpoints(events, [note], keys, options))).toEqual([
      `checkpoint of 2026-11-22T10:00:00Z is not signed by any known key (it names ${ORIGIN}+${stranger.keyId})`,
    ]);
  });

  it("refuses another deployment's checkpoint", async () => {
    const events = chainOf(5);
    const note = signCheckpoint(
      {
        origin: 'vidops/staging',
        size: 5,
        head: (events[4] as AuditEvent).hash,
        time: '2026-11-22T10:00:00Z',
      },
      [signer],
    );
    expect(messages(await verifyCheckpoints(events, [note], keys, options))).toEqual([
      'checkpoint of 2026-11-22T10:00:00Z is of the log "vidops/staging", not "vidops/test"',
    ]);
  });

  it('names a note that is not a checkpoint by its place in the list', async () => {
    const events = chainOf(5);
    const good = checkpointOf(events, 5, '2026-11-22T10:00:00Z', signer);
    const result = await verifyCheckpoints(events, [good, good.slice(0, -1)], keys, options);
    expect(messages(result)).toEqual([
      'checkpoint of 2026-11-22T10:00:00Z is not a signed note: The note does not end with a newline',
    ]);
    const { signNote } = await import('./signed-note.js');
    const notACheckpoint = signNote('hello\n', [signer]);
    expect(messages(await verifyCheckpoints(events, [good, notACheckpoint], keys, options))).toEqual([
      'checkpoint #2 is not a checkpoint: A checkpoint has at least three lines: origin, size, head hash',
    ]);
  });

  describe('after a key rotation', () => {
    const oldKey = generateSignerKey(ORIGIN);
    const newKey = generateSignerKey(ORIGIN);
    const events = chainOf(30);
    const notes = [
      checkpointOf(events, 10, '2026-11-20T10:00:00Z', oldKey),
      checkpointOf(events, 20, '2026-11-21T10:00:00Z', oldKey),
      checkpointOf(events, 30, '2026-11-22T10:00:00Z', newKey),
    ];

    it('old checkpoints hold with the old key and new ones with the new, both keys listed', async () => {
      const result = await verifyCheckpoints(
        events,
        notes,
        [verifierKeyOf(newKey), verifierKeyOf(oldKey)],
        options,
      );
      expect(result.ok).toBe(true);
      expect(result.checkpoints.map((c) => c.signedBy[0])).toEqual([
        `${ORIGIN}+${oldKey.keyId}`,
        `${ORIGIN}+${oldKey.keyId}`,
        `${ORIGIN}+${newKey.keyId}`,
      ]);
    });

    it('old checkpoints fail when only the new key is listed', async () => {
      const result = await verifyCheckpoints(events, notes, [verifierKeyOf(newKey)], options);
      expect(result.ok).toBe(false);
      expect(messages(result)).toEqual([
        `checkpoint of 2026-11-20T10:00:00Z is not signed by any known key (it names ${ORIGIN}+${oldKey.keyId})`,
        `checkpoint of 2026-11-21T10:00:00Z is not signed by any known key (it names ${ORIGIN}+${oldKey.keyId})`,
      ]);
      expect(result.newest?.size).toBe(30);
    });
  });

  it('with no checkpoint at all says so by an empty list and no newest', async () => {
    const result = await verifyCheckpoints(chainOf(3), [], keys, options);
    expect(result).toMatchObject({ ok: true, events: 3, checkpoints: [], newest: null });
  });

  it('checks a long log against many checkpoints given newest first', async () => {
    // How fast is measured by `npm run bench`, not here; this checks the answer on a log of size.
    const count = 10_000;
    // Hashes that link, cheaply made: the checkpoint check compares stored hashes, it does not recompute them.
    const base = chainOf(1)[0] as AuditEvent;
    const events: AuditEvent[] = [];
    let prevHash = GENESIS_HASH;
    for (let seq = 1; seq <= count; seq += 1) {
      const hash = createHash('sha256').update(`${prevHash}${seq}`).digest('hex');
      events.push({ ...base, seq, prevHash, hash });
      prevHash = hash;
    }
    const notes = Array.from({ length: 100 }, (_, i) =>
      checkpointOf(events, (i + 1) * 100, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), signer),
    );
    const result = await verifyCheckpoints(events, notes.reverse(), keys, options);
    expect(result).toMatchObject({ ok: true, events: count });
    expect(result.newest?.size).toBe(count);
  });
});

describe('what a key signed before', () => {
  const key = generateSignerKey(ORIGIN);
  const head = 'ab'.repeat(32);
  const note = signCheckpoint({ origin: ORIGIN, size: 30, head, time: '2026-11-22T10:00:00Z' }, [key]);

  it('is read back from its note, which its own signature must hold', () => {
    expect(readRememberedCheckpoint(note, verifierKeyOf(key), ORIGIN)).toMatchObject({ size: 30, head });
    const edited = note.replace('\n30\n', '\n31\n');
    expect(() => readRememberedCheckpoint(edited, verifierKeyOf(key), ORIGIN)).toThrow(
      `its signature by vidops/test+${key.keyId} does not hold.`,
    );
    expect(() => readRememberedCheckpoint(note, verifierKeyOf(key), 'vidops/other')).toThrow(
      'it is a checkpoint of "vidops/test", not "vidops/other".',
    );
    expect(() => readRememberedCheckpoint('not a note\n', verifierKeyOf(key), ORIGIN)).toThrow(
      CheckpointFormatError,
    );
  });

  it('a note by the key replaced at the same path is taken as it reads', () => {
    const newer = generateSignerKey(ORIGIN);
    expect(readRememberedCheckpoint(note, verifierKeyOf(newer), ORIGIN)).toMatchObject({ size: 30 });
  });

  it('a log extends it only with as many events or more and the same hash at its size', () => {
    expect(extensionProblem({ size: 30, head }, { size: 30, hashThere: head })).toBeNull();
    expect(extensionProblem({ size: 30, head }, { size: 45, hashThere: head })).toBeNull();
    expect(
      extensionProblem({ size: 0, head: GENESIS_HASH }, { size: 3, hashThere: GENESIS_HASH }),
    ).toBeNull();
    expect(extensionProblem({ size: 30, head }, { size: 29, hashThere: null })).toBe(
      'the log holds 29 events, fewer than the 30 this key signed for',
    );
    expect(extensionProblem({ size: 30, head }, { size: 40, hashThere: 'cd'.repeat(32) })).toBe(
      `the log's event #30 has hash ${shortHash('cd'.repeat(32))}, not ${shortHash(head)} as signed`,
    );
  });
});
