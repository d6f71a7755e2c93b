import { chmod, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHasher, GENESIS_HASH } from '../../src/core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../../src/core/checkpoint.js';
import { canonicalJson } from '../../src/core/json.js';
import { generateSignerKey, parseSignerKey, signNote } from '../../src/core/signed-note.js';
import { openStore } from '../../src/store/index.js';
import { type CliRun, runTool, runVidops, unblockEvent } from './audit-runs.js';

/**
 * The audit log's verification attacked the way an adversary would: someone with write access to
 * the database (not the key) rewriting, cutting or padding it; someone editing the files handed to
 * compliance; hostile signed-note text; a second signer at the same time. Each test is named after
 * what that person does. Tests marked "Was a defect" failed before the fix they name.
 * @see docs/audit.md; docs/audit-checkpoints.md; docs/security.md
 */

const LOG = 'tehran-1';
const KEY = 'keys/audit-signing.key';
const STATE = `${KEY}.last`;

let dir: string;
let now: Date;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-attacks-'));
  now = new Date('2026-11-22T10:00:00.000Z');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DB = () => join(dir, 'x.db');

function env(keyFile: string | null = KEY, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: `sqlite:${DB()}`,
    AUDIT_LOG_NAME: LOG,
    ...(keyFile === null ? {} : { AUDIT_SIGNING_KEY_FILE: keyFile }),
    ...extra,
  };
}

function vidops(args: string[], environment: Record<string, string | undefined> = env()): Promise<CliRun> {
  return runVidops(args, { env: environment, cwd: dir, clock: () => now });
}

/** The standalone verifier, as compliance runs it: a child process on the files. */
function tool(args: string[]): Promise<CliRun> {
  return runTool(args, dir);
}

const newEvent = unblockEvent;

async function append(n: number): Promise<void> {
  const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
  try {
    const head = (await store.auditHead())?.seq ?? 0;
    await store.appendAudit(Array.from({ length: n }, (_, i) => newEvent(head + i + 1)));
  } finally {
    await store.close();
  }
}

/** SQL behind vidops' back, as someone with the database file would run it. */
function sql(text: string, ...params: unknown[]): void {
  const db = new Database(DB());
  try {
    db.prepare(text).run(...params);
  } finally {
    db.close();
  }
}

function rows<T>(text: string): T[] {
  const db = new Database(DB());
  try {
    return db.prepare(text).all() as T[];
  } finally {
    db.close();
  }
}

/** Keys, 30 events with a checkpoint, 30 more with another. */
async function deployment(): Promise<void> {
  expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
  await append(30);
  expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
  now = new Date('2026-11-22T11:00:00.000Z');
  await append(30);
  expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
}

async function exportFiles(): Promise<void> {
  expect((await vidops(['audit', 'export', '--format', 'jsonl', '--out', 'events.jsonl'])).code).toBe(0);
  expect((await vidops(['audit', 'checkpoints', '--out', 'checkpoints.txt'])).code).toBe(0);
}

const OFFLINE = [
  '--events',
  'events.jsonl',
  '--checkpoints',
  'checkpoints.txt',
  '--pubkey',
  'keys/audit-signing.pub',
];

async function eventLines(): Promise<string[]> {
  return (await readFile(join(dir, 'events.jsonl'), 'utf8')).trimEnd().split('\n');
}

async function writeEventLines(lines: readonly string[]): Promise<void> {
  await writeFile(join(dir, 'events.jsonl'), `${lines.join('\n')}\n`);
}

/** Both offline verifiers on the files in the directory. */
async function bothVerifiers(): Promise<{ vidops: CliRun; tool: CliRun }> {
  return { vidops: await vidops(['audit', 'verify', ...OFFLINE], {}), tool: await tool(OFFLINE) };
}

async function signingKey() {
  return parseSignerKey(await readFile(join(dir, KEY), 'utf8'));
}

/** Recomputes every hash of the events file from event #from on, as someone without a key can. */
function rehash(events: Record<string, unknown>[], from: number): void {
  const hash = createHasher();
  let prev = from === 1 ? GENESIS_HASH : (events[from - 2]?.hash as string);
  for (let i = from - 1; i < events.length; i += 1) {
    const e = events[i] as Record<string, unknown>;
    e.seq = i + 1;
    e.prevHash = prev;
    const { hash: _h, ...rest } = e;
    e.hash = hash(rest as never);
    prev = e.hash as string;
  }
}

// ---------------------------------------------------------------------------------------------

describe('someone edits the exported events file before compliance reads it', () => {
  it('wraps each real event in a line whose own fields are forged: vidops says the forgery verifies', async () => {
    await deployment();
    await exportFiles();
    const lines = await eventLines();
    // Event #5, as exported. The forger keeps it inside the line, under "event", with the columns
    // the database would hold, and writes what they want a reader to see at the top of the line.
    const real = JSON.parse(lines[4] ?? '') as Record<string, unknown> & { actor: { id: string } };
    const forged = {
      ...real,
      type: 'approved',
      actor: { id: 'U0LEAD1', name: 'lena' },
      target: 'folder 6710a0000000000000000103',
      event: real,
      columns: {
        id: real.id,
        at: real.at,
        type: real.type,
        actor_id: real.actor.id,
        operation: real.operation,
        request_id: real.requestId ?? null,
      },
    };
    lines[4] = JSON.stringify(forged);
    await writeEventLines(lines);

    const { vidops: offline, tool: standalone } = await bothVerifiers();
    // The standalone verifier hashes the line as it reads and fails it.
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain('event #5 was altered');
    // Was a defect: `vidops audit verify --events` took any line with "event" and "columns" members for
    // a database row (src/core/audit-chain.ts:76-78 isStored, src/core/checkpoint.ts:432) and hashes
    // only the inner "event"; src/cli/audit.ts:255-288 (readEventsFile) yields the parsed line
    // unchecked. The line's own type, actor and target are covered by no hash, yet it says "ok".
    // Breaks docs/audit.md: "Both exit 0 only when every event links …" and
    // docs/audit-checkpoints.md: "[the two verifiers] must reach the same verdict".
    expect(offline.code).toBe(1);
    expect(offline.stdout).not.toContain('ok');
  });

  it('writes a second actor member into an exported line: a JSON reader that keeps the first sees a forgery that verifies', async () => {
    await deployment();
    await exportFiles();
    const lines = await eventLines();
    // The first "actor" is what a person (or a first-wins parser) reads; JSON.parse keeps the last.
    lines[4] = (lines[4] ?? '').replace('{', '{"actor":{"id":"U0LEAD1","name":"lena"},');
    expect(lines[4]?.match(/"actor":/g)).toHaveLength(2);
    await writeEventLines(lines);

    const { vidops: offline, tool: standalone } = await bothVerifiers();
    // Was a defect: neither verifier refused a line with a duplicated member; each hashes what
    // JSON.parse keeps (the last), so the added member is covered by no hash
    // (src/cli/audit.ts:264, tools/verify-audit.mjs:375). Breaks docs/audit.md ("Both exit 0 only
    // when every event links") for a file that is no longer the export ("The JSONL export is
    // written exactly as stored").
    expect([offline.code, standalone.code]).toEqual([1, 1]);
  });

  it('rewrites event #5 and recomputes every hash after it: the checkpoints expose it in both verifiers', async () => {
    await deployment();
    await exportFiles();
    const events = (await eventLines()).map((l) => JSON.parse(l) as Record<string, unknown>);
    (events[4] as Record<string, unknown>).target = 'viewer 0';
    rehash(events, 5);
    await writeEventLines(events.map((e) => canonicalJson(e)));

    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain('events: 60 events, every hash and link holds');
    expect(offline.stderr).toMatch(/checkpoint of 2026-11-22T10:00:00Z says event #30 has hash/);
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toMatch(/checkpoint of 2026-11-22T10:00:00Z says event #30 has hash/);
  });

  it('deletes event #12 and renumbers the rest with recomputed hashes: both verifiers fail', async () => {
    await deployment();
    await exportFiles();
    const events = (await eventLines()).map((l) => JSON.parse(l) as Record<string, unknown>);
    events.splice(11, 1);
    rehash(events, 12);
    await writeEventLines(events.map((e) => canonicalJson(e)));
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(offline.code).toBe(1);
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain('FAILED');
  });

  it('swaps two lines, repeats a line, or drops one in the middle: both verifiers fail, naming it', async () => {
    await deployment();
    await exportFiles();
    const original = await eventLines();
    const cases: [string, string[], RegExp][] = [
      [
        'swapped',
        [...original.slice(0, 6), original[7] ?? '', original[6] ?? '', ...original.slice(8)],
        /event #8 follows #6/,
      ],
      ['repeated', [...original.slice(0, 7), original[6] ?? '', ...original.slice(7)], /follows #7/],
      ['dropped', [...original.slice(0, 6), ...original.slice(7)], /event #8 follows #6: events are missing/],
    ];
    for (const [name, lines, words] of cases) {
      await writeEventLines(lines);
      const { vidops: offline, tool: standalone } = await bothVerifiers();
      expect([name, offline.code, standalone.code]).toEqual([name, 1, 1]);
      expect(offline.stderr).toMatch(words);
      expect(standalone.stderr).toMatch(words);
    }
  });

  it('cuts the export after the newest checkpoint: both pass and both say what only the chain vouches for', async () => {
    await deployment();
    await append(5);
    await exportFiles();
    const lines = await eventLines();
    await writeEventLines(lines.slice(0, 62));
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('events #61 to #62 came after it: only the chain vouches for them');
    expect(standalone.code).toBe(0);
    expect(standalone.stdout).toContain('events #61 to #62 came after the newest checkpoint');
  });

  it('adds a member to an event without rehashing it: both verifiers name the event', async () => {
    await deployment();
    await exportFiles();
    const lines = await eventLines();
    lines[9] = (lines[9] ?? '').replace('{', '{"approvedBy":"U0LEAD1",');
    await writeEventLines(lines);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('event #10 was altered');
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain('event #10 was altered');
  });

  it('writes the events file with CRLF line ends or a byte-order mark: a clear failure or the same verdict', async () => {
    await deployment();
    await exportFiles();
    const lines = await eventLines();
    await writeFile(join(dir, 'events.jsonl'), `${lines.join('\r\n')}\r\n`);
    const crlf = await bothVerifiers();
    // The line ends are not part of any event: both read the same events.
    expect([crlf.vidops.code, crlf.tool.code]).toEqual([0, 0]);
    await writeFile(join(dir, 'events.jsonl'), `\uFEFF${lines.join('\n')}\n`);
    const bom = await bothVerifiers();
    expect([bom.vidops.code, bom.tool.code]).toEqual([1, 1]);
    expect(bom.vidops.stderr).toContain('Line 1 of the events file is not JSON');
  });
});

// ---------------------------------------------------------------------------------------------

/** The checkpoint notes of the checkpoints file in the directory. */
async function checkpointNotes(): Promise<string[]> {
  const file = await readFile(join(dir, 'checkpoints.txt'), 'utf8');
  return file.split(/\n\n(?=vidops)/).map((n) => (n.endsWith('\n') ? n : `${n}\n`).replace(/\n\n$/, '\n'));
}

async function writeCheckpointNotes(notes: readonly string[]): Promise<void> {
  await writeFile(join(dir, 'checkpoints.txt'), notes.map((n) => `${n}\n`).join(''));
}

/** The hash of event #seq in the exported file. */
async function exportedHash(seq: number): Promise<string> {
  const line = (await eventLines())[seq - 1] ?? '';
  return (JSON.parse(line) as { hash: string }).hash;
}

describe('someone edits the checkpoints file or slips a checkpoint in', () => {
  it('adds a checkpoint signed by their own key under the deployment name: both verifiers fail it', async () => {
    await deployment();
    await exportFiles();
    const impostor = generateSignerKey(checkpointOrigin(LOG));
    const forged = signCheckpoint(
      { origin: impostor.name, size: 60, head: await exportedHash(60), time: '2026-11-22T12:00:00Z' },
      [impostor],
    );
    await writeCheckpointNotes([...(await checkpointNotes()), forged]);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
    expect(offline.stderr).toContain(
      `is not signed by any known key (it names vidops/tehran-1+${impostor.keyId})`,
    );
    expect(standalone.stderr).toContain(
      `is not signed by any known key (it names vidops/tehran-1+${impostor.keyId})`,
    );
  });

  it('adds a signature line that names the real key and key ID to a note of their own: both verifiers fail it', async () => {
    await deployment();
    await exportFiles();
    const real = await signingKey();
    const impostor = generateSignerKey(checkpointOrigin(LOG));
    // A note of 25 events (a log cut there), signed by the impostor; then a line claiming the real
    // key (its name and ID, as a key-ID collision would) with the impostor's signature bytes.
    const text = `vidops/tehran-1\n25\n${Buffer.from(await exportedHash(25), 'hex').toString('base64')}\ntime 2026-11-22T12:00:00Z\n`;
    const own = signCheckpoint(
      { origin: impostor.name, size: 25, head: await exportedHash(25), time: '2026-11-22T12:00:00Z' },
      [impostor],
    );
    const sigBytes = Buffer.from((own.trimEnd().split(' ').at(-1) ?? '') as string, 'base64').subarray(4);
    const claimed = Buffer.concat([Buffer.from(real.keyId, 'hex'), sigBytes]).toString('base64');
    const note = `${text}\n\u2014 ${real.name} ${claimed}\n`;
    await writeCheckpointNotes([...(await checkpointNotes()), note]);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
    expect(offline.stderr).toContain('but the signature does not hold');
    expect(standalone.stderr).toContain('but the signature does not hold');
  });

  it('appends a bad signature by the real key to a real note: the note fails, it is not skipped', async () => {
    await deployment();
    await exportFiles();
    const real = await signingKey();
    const notes = await checkpointNotes();
    const bogus = Buffer.concat([Buffer.from(real.keyId, 'hex'), Buffer.alloc(64, 7)]).toString('base64');
    notes[1] = `${notes[1]}\u2014 ${real.name} ${bogus}\n`;
    await writeCheckpointNotes(notes);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
  });

  it('gives two checkpoints of the same size with different heads (a fork): both verifiers fail', async () => {
    await deployment();
    await exportFiles();
    const real = await signingKey();
    const fork = signCheckpoint(
      { origin: real.name, size: 30, head: 'ab'.repeat(32), time: '2026-11-22T10:30:00Z' },
      [real],
    );
    await writeCheckpointNotes([fork, ...(await checkpointNotes())]);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
    expect(offline.stderr).toContain(
      'checkpoint of 2026-11-22T10:30:00Z says event #30 has hash abababababab',
    );
    expect(standalone.stderr).toContain(
      'checkpoint of 2026-11-22T10:30:00Z says event #30 has hash abababababab',
    );
  });

  it('drops the newest checkpoint from the file and cuts the export to the older one: both pass, as documented', async () => {
    // docs/audit.md: "What they cannot catch: events after the newest checkpoint". An old copy of the
    // checkpoints file is what exposes this; it is asserted in the next test.
    await deployment();
    await exportFiles();
    const notes = await checkpointNotes();
    await writeCheckpointNotes(notes.slice(0, 1));
    await writeEventLines((await eventLines()).slice(0, 30));
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([0, 0]);
    await writeCheckpointNotes(notes);
    const kept = await bothVerifiers();
    expect([kept.vidops.code, kept.tool.code]).toEqual([1, 1]);
  });

  it('saves the checkpoints file with CRLF line ends: both verifiers fail with a clear message', async () => {
    await deployment();
    await exportFiles();
    const file = await readFile(join(dir, 'checkpoints.txt'), 'utf8');
    await writeFile(join(dir, 'checkpoints.txt'), file.replace(/\n/g, '\r\n'));
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
    expect(offline.stderr).toMatch(/control character|not a signed note|not one/);
    // The tool names another symptom ("ends inside a note"), but fails all the same.
    expect(standalone.stderr).toMatch(/^verify-audit: FAILED: /);
  });

  it.each([
    [
      'a size beyond 2^53',
      (h: string) => `vidops/tehran-1\n9007199254740993\n${h}\ntime 2026-11-22T12:00:00Z\n`,
    ],
    ['a size with a leading zero', (h: string) => `vidops/tehran-1\n060\n${h}\ntime 2026-11-22T12:00:00Z\n`],
    ['a negative size', (h: string) => `vidops/tehran-1\n-60\n${h}\ntime 2026-11-22T12:00:00Z\n`],
    ['a size with a plus sign', (h: string) => `vidops/tehran-1\n+60\n${h}\ntime 2026-11-22T12:00:00Z\n`],
    [
      'a size in Arabic-Indic digits',
      (h: string) => `vidops/tehran-1\n\u0666\u0660\n${h}\ntime 2026-11-22T12:00:00Z\n`,
    ],
    ['a size as 6e1', (h: string) => `vidops/tehran-1\n6e1\n${h}\ntime 2026-11-22T12:00:00Z\n`],
    [
      'two time lines',
      (h: string) => `vidops/tehran-1\n60\n${h}\ntime 2026-11-22T12:00:00Z\ntime 2026-11-22T13:00:00Z\n`,
    ],
    [
      'an origin with a lookalike letter',
      (h: string) => `vidops/t\u0435hran-1\n60\n${h}\ntime 2026-11-22T12:00:00Z\n`,
    ],
    [
      'an origin with a trailing space',
      (h: string) => `vidops/tehran-1 \n60\n${h}\ntime 2026-11-22T12:00:00Z\n`,
    ],
    [
      'a head in unpadded base64',
      (h: string) => `vidops/tehran-1\n60\n${h.replace(/=$/, '')}\ntime 2026-11-22T12:00:00Z\n`,
    ],
  ])('gets the real key to sign a text with %s: both verifiers refuse it', async (_name, text) => {
    await deployment();
    await exportFiles();
    const real = await signingKey();
    const head = Buffer.from(await exportedHash(60), 'hex').toString('base64');
    // The real key's signature over the hostile text itself (the note format does not stop it).
    const note = signNote(text(head), [real]);
    await writeCheckpointNotes([...(await checkpointNotes()), note]);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
  });

  it.each([
    ['a key name with a space', (sig: string) => `\u2014 vidops/tehran 1 ${sig}`],
    ['a signature line with a hyphen for the em dash', (sig: string) => `- vidops/tehran-1 ${sig}`],
    ['a signature with a trailing space', (sig: string) => `\u2014 vidops/tehran-1 ${sig} `],
    [
      'a signature in base64url',
      (sig: string) => `\u2014 vidops/tehran-1 ${sig.replace(/\+/g, '-').replace(/\//g, '_')}x`,
    ],
  ])('edits the signature line of a real note into %s: both verifiers fail', async (_name, edit) => {
    await deployment();
    await exportFiles();
    const notes = await checkpointNotes();
    const lines = (notes[1] ?? '').trimEnd().split('\n');
    const sig = (lines.at(-1) ?? '').split(' ').at(-1) ?? '';
    lines[lines.length - 1] = edit(sig);
    notes[1] = `${lines.join('\n')}\n`;
    await writeCheckpointNotes(notes);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect([offline.code, standalone.code]).toEqual([1, 1]);
  });

  it('checks a checkpoint of the empty log that the real key signed: both verifiers reach the same verdict', async () => {
    await deployment();
    await exportFiles();
    const real = await signingKey();
    // docs/audit-checkpoints.md: "Size … `0` for an empty log"; "Head … For an empty log it is 32
    // zero bytes". Such a checkpoint holds for every log.
    const empty = signCheckpoint(
      { origin: real.name, size: 0, head: GENESIS_HASH, time: '2026-11-20T00:00:00Z' },
      [real],
    );
    await writeCheckpointNotes([empty, ...(await checkpointNotes())]);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(offline.code).toBe(0);
    // Was a defect: tools/verify-audit.mjs settled checkpoints only when one's size equals an event's seq
    // (tools/verify-audit.mjs:418), so a checkpoint of size 0 is never settled, blocks every
    // checkpoint after it, and the tool fails with "events #61… are missing: checkpoint of
    // 2026-11-20T00:00:00Z covers 0 events, the log holds 60" where src/core/checkpoint.ts:421
    // accepts it. Breaks docs/audit-checkpoints.md: "must reach the same verdict".
    expect(standalone.stderr).toBe('');
    expect(standalone.code).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------

describe('someone with write access to the database, not the key', () => {
  it('copies a real checkpoint note into a row of a far larger size: the signer must not fall silent', async () => {
    await deployment();
    // The real note of 60 events, stored again under the size 1,000,000. Its note is genuine, so
    // audit verify checks it and finds it holds; only the row's size column is a lie.
    const [row] = rows<{ head: string; made_at: string; note: string }>(
      'SELECT head, made_at, note FROM checkpoints WHERE size = 60',
    );
    sql(
      'INSERT INTO checkpoints (size, head, made_at, note) VALUES (?, ?, ?, ?)',
      1_000_000,
      row?.head,
      '2099-01-01T00:00:00Z',
      row?.note,
    );
    await append(10);
    now = new Date('2026-11-22T12:00:00.000Z');
    const signed = await vidops(['audit', 'checkpoint']);
    // Was a defect: the signer took the database's largest `size` column as what is covered
    // (src/services/checkpoints.ts, `decide` and `checkIfDue`, which also read the row's time)
    // without checking that the row's note says so, and answered "covers all 70 events already:
    // there is nothing new to sign" (exit 0); the bot's loop then never signed again. A row that is
    // not its note is now refused, loudly (docs/audit.md: the bot signs a checkpoint after every
    // AUDIT_CHECKPOINT_EVERY events; docs/security.md: a key never vouches for what it cannot check).
    expect(signed.stdout).not.toContain('there is nothing new to sign');
    expect(signed.code).toBe(1);
    expect(signed.stderr).toContain(
      'No checkpoint signed: the stored checkpoint of 1000000 events says something else in its note',
    );
  });

  it('rewrites event #5, recomputes the chain and deletes every checkpoint row: nothing is signed and verify fails', async () => {
    await deployment();
    const hash = createHasher();
    const events = rows<{ seq: number; event: string }>('SELECT seq, event FROM audit_events ORDER BY seq');
    let prev = GENESIS_HASH;
    const db = new Database(DB());
    try {
      for (const { seq, event } of events) {
        const body = JSON.parse(event) as Record<string, unknown>;
        if (seq === 5) body.target = 'viewer 0';
        const h = hash({ ...body, seq, prevHash: prev } as never);
        db.prepare('UPDATE audit_events SET event = ?, prev_hash = ?, hash = ? WHERE seq = ?').run(
          canonicalJson(body),
          prev,
          h,
          seq,
        );
        prev = h;
      }
      db.prepare('DELETE FROM checkpoints').run();
    } finally {
      db.close();
    }
    await append(3);
    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^vidops: No checkpoint signed: the log does not extend the checkpoint this key signed before \(60 events, of 2026-11-22T11:00:00Z, remembered in .*audit-signing\.key\.last\): the log's event #60 has hash [0-9a-f]{12}, not [0-9a-f]{12} as signed/,
    );
    expect(rows('SELECT size FROM checkpoints')).toEqual([]);
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain('chain intact: 63 events');
    expect(verified.stderr).toMatch(
      /checkpoint check failed: checkpoint of 2026-11-22T11:00:00Z says event #60 has hash/,
    );
  });

  it('cuts the newest 20 events and the checkpoint rows that cover them: nothing is signed and verify fails', async () => {
    await deployment();
    sql('DELETE FROM outbox WHERE seq > 40');
    sql('DELETE FROM audit_events WHERE seq > 40');
    sql('DELETE FROM checkpoints WHERE size > 40');
    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the log holds 40 events, fewer than the 60 this key signed for');
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain('events #41… are missing');
  });

  it('stores a checkpoint of the rewritten log signed by their own key: the signer does not start from it', async () => {
    await deployment();
    await append(5);
    sql(`UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 0') WHERE seq = 62`);
    const impostor = generateSignerKey(checkpointOrigin(LOG));
    const [head] = rows<{ hash: string }>('SELECT hash FROM audit_events WHERE seq = 65');
    const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
    try {
      const time = '2026-11-22T11:30:00Z';
      await store.addCheckpoint({
        size: 65,
        head: head?.hash ?? '',
        time,
        note: signCheckpoint({ origin: impostor.name, size: 65, head: head?.hash ?? '', time }, [impostor]),
      });
    } finally {
      await store.close();
    }
    await append(2);
    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No checkpoint signed: event #62 was altered');
  });

  it('edits only the actor_id column beside the hashed JSON: verify names the column', async () => {
    await deployment();
    sql(`UPDATE audit_events SET actor_id = 'U0EVIL' WHERE seq = 7`);
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain(
      'event #7: column actor_id says U0EVIL but the hashed event says U0AGENT',
    );
  });

  it('deletes event #1 and relinks #2 to the start of the chain: verify fails on the checkpoints', async () => {
    await deployment();
    const hash = createHasher();
    const events = rows<{ seq: number; event: string }>('SELECT seq, event FROM audit_events ORDER BY seq');
    const db = new Database(DB());
    try {
      db.prepare('DELETE FROM outbox WHERE seq = 1').run();
      db.prepare('DELETE FROM audit_events WHERE seq = 1').run();
      let prev = GENESIS_HASH;
      for (const { seq, event } of events.slice(1)) {
        const h = hash({ ...(JSON.parse(event) as object), seq, prevHash: prev } as never);
        db.prepare('UPDATE audit_events SET prev_hash = ?, hash = ? WHERE seq = ?').run(prev, h, seq);
        prev = h;
      }
    } finally {
      db.close();
    }
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain('checkpoint check failed');
  });
});

describe('a second OS user, or a second signer, at the key directory', () => {
  it('makes the state file group-writable: checkpoint refuses and verify fails, each with the chmod to run', async () => {
    await deployment();
    await append(2);
    await chmod(join(dir, STATE), 0o664);
    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `may be written by other users (mode 664): run \`chmod 600 ${join(dir, STATE)}\``,
    );
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).not.toBe(0);
    expect(verified.stderr).toContain('chmod 600');
  });

  it('replaces the state file with garbage: checkpoint refuses and verify fails', async () => {
    await deployment();
    await append(2);
    await writeFile(join(dir, STATE), 'vidops/tehran-1\n0\n', { mode: 0o600 });
    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be used: it is not a signed note');
    const verified = await vidops(['audit', 'verify']);
    expect(verified.code).toBe(1);
  });

  it('runs two audit checkpoint commands at once: one signs, the other signs nothing, and the memory is the stored note', async () => {
    await deployment();
    await append(7);
    const [a, b] = await Promise.all([vidops(['audit', 'checkpoint']), vidops(['audit', 'checkpoint'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const said = [a.stdout, b.stdout].join('\n');
    expect(said.match(/Signed the checkpoint of 67 events/g)).toHaveLength(1);
    const stored = rows<{ size: number; note: string }>('SELECT size, note FROM checkpoints ORDER BY size');
    expect(stored.map((r) => r.size)).toEqual([30, 60, 67]);
    expect(await readFile(join(dir, STATE), 'utf8')).toBe(stored.at(-1)?.note);
    expect((await stat(join(dir, STATE))).mode & 0o777).toBe(0o600);
  });
});

describe('every failure is a clear message with a non-zero exit', () => {
  it('an exported line with a "columns" member but no "event": a failure naming the line, not a crash', async () => {
    await deployment();
    await exportFiles();
    const lines = await eventLines();
    lines[2] = (lines[2] ?? '').replace('{', '{"columns":{},');
    await writeEventLines(lines);
    const { vidops: offline, tool: standalone } = await bothVerifiers();
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain('event #3 was altered');
    expect(offline.code).toBe(1);
    // Was a defect: src/core/checkpoint.ts:432 took any entry with a "columns" member for a database
    // row and reads `entry.event.seq` of undefined: `vidops audit verify --events` ends with
    // "vidops: unexpected error: TypeError: Cannot read properties of undefined (reading 'seq')"
    // instead of naming the line or event (src/cli/audit.ts:254 "a line that is not an event stops
    // the check"; docs/audit-checkpoints.md: "1 with the first problem named").
    expect(offline.stderr).toMatch(/#3/);
    expect(offline.stderr).not.toMatch(/TypeError|Cannot read properties/);
  });
});

describe('a lock file placed by someone else', () => {
  it('a symlink left where the lock goes, pointing at a file of theirs: taken over as stale, their file untouched', async () => {
    await deployment();
    await append(3);
    const theirs = join(dir, 'theirs.txt');
    await writeFile(theirs, 'keep me\n');
    const old = new Date('2026-01-01T00:00:00Z');
    await utimes(theirs, old, old);
    await symlink(theirs, join(dir, `${STATE}.lock`));
    const signed = await vidops(['audit', 'checkpoint']);
    expect(signed.code).toBe(0);
    expect(signed.stderr).toContain('took over the lock file');
    expect(await readFile(theirs, 'utf8')).toBe('keep me\n');
  });
});
