import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createHasher, GENESIS_HASH } from '../../src/core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../../src/core/checkpoint.js';
import { canonicalJson } from '../../src/core/json.js';
import { generateSignerKey } from '../../src/core/signed-note.js';
import { openStore } from '../../src/store/index.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { type CliRun, runTool, runVidops, unblockEvent } from './audit-runs.js';

/**
 * Signed checkpoints as a compliance officer uses them: keys made, checkpoints signed, the log
 * verified on the database and offline, after edits, truncations, a foreign key and a rotation;
 * the standalone verifier (tools/verify-audit.mjs) on the same files.
 * @see docs/audit-checkpoints.md; docs/audit.md
 */

const LOG = 'tehran-1';

let dir: string;
let now: Date;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-checkpoints-'));
  now = new Date('2026-11-22T10:00:00.000Z');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const DB = () => join(dir, 'x.db');

/** The deployment's environment: the database, the log name, and the signing key when given. */
function env(keyFile: string | null = 'keys/audit-signing.key', extra: Record<string, string> = {}) {
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

/** Appends `n` events to the database the way the bot does. */
async function append(n: number, hmacKey?: string): Promise<void> {
  const store = await openStore(`sqlite:${DB()}`, { hash: createHasher(hmacKey) });
  try {
    const head = (await store.auditHead())?.seq ?? 0;
    await store.appendAudit(Array.from({ length: n }, (_, i) => newEvent(head + i + 1)));
  } finally {
    await store.close();
  }
}

/** SQL behind vidops' back, as someone with the database file would run it. */
function sql(text: string): void {
  const db = new Database(DB());
  try {
    db.exec(text);
  } finally {
    db.close();
  }
}

/** Keys, 30 events with a checkpoint, 30 more with another: a deployment that has run a while. */
async function deployment(): Promise<void> {
  expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
  await append(30);
  expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
  now = new Date('2026-11-22T11:00:00.000Z');
  await append(30);
  expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
}

/** Exports the events and the checkpoints into the directory, as compliance would. */
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

describe('an operator makes the signing key', () => {
  it('keygen writes a private key only its owner reads and prints the public key and its ID', async () => {
    const made = await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG });
    expect(made.code).toBe(0);
    const pub = (await readFile(join(dir, 'keys/audit-signing.pub'), 'utf8')).trim();
    expect(pub).toMatch(/^vidops\/tehran-1\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    expect(made.stdout).toContain(`public key: ${pub}`);
    expect(made.stdout).toContain(`key ID: ${pub.split('+')[1]}`);
    expect((await stat(join(dir, 'keys/audit-signing.key'))).mode & 0o777).toBe(0o600);
    const secret = await readFile(join(dir, 'keys/audit-signing.key'), 'utf8');
    // PRIVATE+KEY+<name>+<key ID>+<base64 key>: the key is everything after the fourth `+` (its
    // base64 may hold `+` too, and may even end with one).
    const key = secret.trim().split('+').slice(4).join('+');
    expect(key).toMatch(/^[A-Za-z0-9+/]{44}$/);
    expect(made.stdout).not.toContain(key);
  });

  it('keygen never overwrites a key', async () => {
    await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG });
    const before = await readFile(join(dir, 'keys/audit-signing.key'), 'utf8');
    const again = await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already; a key is never overwritten');
    expect(await readFile(join(dir, 'keys/audit-signing.key'), 'utf8')).toBe(before);
  });

  it('a key made for another log name is refused at use, naming both', async () => {
    await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: 'other' });
    await append(3);
    const result = await vidops(['audit', 'checkpoint']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holds the key of vidops/other');
    expect(result.stderr).toContain('checkpoints are of vidops/tehran-1 (AUDIT_LOG_NAME)');
  });

  it('a checkpoint without AUDIT_SIGNING_KEY_FILE is a configuration error', async () => {
    await append(3);
    const result = await vidops(['audit', 'checkpoint'], env(null));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('AUDIT_SIGNING_KEY_FILE is not set');
  });
});

describe('audit verify on the database checks the checkpoints', () => {
  it('an untouched log verifies, naming the newest checkpoint', async () => {
    await deployment();
    await append(5);
    const result = await vidops(['audit', 'verify']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^chain intact: 65 events, head #65 [0-9a-f]{12}…/);
    expect(result.stdout).toMatch(
      /checkpoints: 2 checkpoints hold, signed by vidops\/tehran-1\+[0-9a-f]{8}; the newest, of 2026-11-22T11:00:00Z, covers 60 of the 65 events; events #61 to #65 came after it: only the chain vouches for them/,
    );
  });

  it('an operator whose shell speaks Persian verifies: each line in Persian, Persian digits, the Solar Hijri date', async () => {
    await deployment();
    await append(5);
    const result = await vidops(['audit', 'verify'], { ...env(), LANG: 'fa_IR.UTF-8' });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [chain, checkpoints] = result.stdout.trimEnd().split('\n');
    expect(chain).toMatch(
      /^زنجیره سالم است: ۶۵ رویداد، سر زنجیره رویداد ۶۵ با هش \u2068[0-9a-f]{12}…\u2069؛/,
    );
    expect(checkpoints).toMatch(
      /^نقطه‌های بازبینی: ۲ نقطه‌ی بازبینی درست است، با امضای \u2068vidops\/tehran-1\+[0-9a-f]{8}\u2069؛ تازه‌ترین، از .*۱۴۰۵.*، ۶۰ رویداد از ۶۵ رویداد را پوشش می‌دهد؛ رویدادهای ۶۱ تا ۶۵ پس از آن آمده‌اند/,
    );
    expect(result.stdout.replace(/\u2068[^\u2069]*\u2069/g, ' ')).not.toMatch(/[0-9A-Za-z]/);
  });

  it('the newest event deleted: the chain still links, the checkpoint says it is missing', async () => {
    await deployment();
    sql('DELETE FROM outbox WHERE seq = 60; DELETE FROM audit_events WHERE seq = 60;');
    const result = await vidops(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('chain intact: 59 events');
    expect(result.stderr).toBe(
      'checkpoint check failed: events #60… are missing: checkpoint of 2026-11-22T11:00:00Z covers 60 events, the log holds 59.\n',
    );
  });

  it('the newest 35 events deleted: both checkpoints say so', async () => {
    await deployment();
    sql('DELETE FROM outbox WHERE seq > 25; DELETE FROM audit_events WHERE seq > 25;');
    const result = await vidops(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'checkpoint check failed: events #26… are missing: checkpoint of 2026-11-22T10:00:00Z covers 30 events, the log holds 25.',
      'checkpoint check failed: events #26… are missing: checkpoint of 2026-11-22T11:00:00Z covers 60 events, the log holds 25.',
    ]);
  });

  it('an edited checkpoint fails its signature', async () => {
    await deployment();
    sql(
      `UPDATE checkpoints SET note = replace(note, char(10) || '30' || char(10), char(10) || '29' || char(10)) WHERE size = 30`,
    );
    const result = await vidops(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^checkpoint check failed: checkpoint of 2026-11-22T10:00:00Z was signed by key vidops\/tehran-1\+[0-9a-f]{8} but the signature does not hold\.$/m,
    );
  });

  it('a checkpoint signed by another key fails, and says how to give old keys', async () => {
    await deployment();
    const impostor = generateSignerKey(checkpointOrigin(LOG));
    const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
    try {
      const [event] = await store.listAudit({ afterSeq: 59, limit: 1 });
      const head = event?.hash ?? '';
      const time = '2026-11-22T12:00:00Z';
      sql('DELETE FROM checkpoints WHERE size = 60');
      await store.addCheckpoint({
        size: 60,
        head,
        time,
        note: signCheckpoint({ origin: impostor.name, size: 60, head, time }, [impostor]),
      });
    } finally {
      await store.close();
    }
    const result = await vidops(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `checkpoint check failed: checkpoint of 2026-11-22T12:00:00Z is not signed by any known key (it names vidops/tehran-1+${impostor.keyId}).`,
    );
    expect(result.stderr).toContain('give the public key of every key ever used with --pubkey');
  });

  it('stored checkpoints and no key to check them with: a configuration error, not a pass', async () => {
    await deployment();
    const result = await vidops(['audit', 'verify'], env(null));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the database holds 2 signed checkpoints but no public key was given');
    // The public key alone does it.
    expect((await vidops(['audit', 'verify', '--pubkey', 'keys/audit-signing.pub'], env(null))).code).toBe(0);
  });

  it('a log without checkpoints verifies as before and says what that leaves unproven', async () => {
    await append(3);
    const result = await vidops(['audit', 'verify'], env(null));
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]).toBe(
      'checkpoints: none stored (AUDIT_SIGNING_KEY_FILE is not set here); only the chain vouches for the log, and it cannot show events cut from its end',
    );
  });

  it('the key rotated: the new key signs from then on, and verify takes both public keys', async () => {
    await deployment();
    expect((await vidops(['audit', 'keygen', '--out', 'keys-2027'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    const rotated = env('keys-2027/audit-signing.key');
    await append(10);
    now = new Date('2026-11-22T12:00:00.000Z');
    const signed = await vidops(['audit', 'checkpoint'], rotated);
    expect(signed.stdout).toContain('Signed the checkpoint of 70 events');
    const newKeyId = (await readFile(join(dir, 'keys-2027/audit-signing.pub'), 'utf8')).split('+')[1];
    expect(signed.stdout).toContain(`with vidops/tehran-1+${newKeyId}`);

    const newOnly = await vidops(['audit', 'verify'], rotated);
    expect(newOnly.code).toBe(1);
    expect(newOnly.stderr.match(/is not signed by any known key/g)).toHaveLength(2);

    const both = await vidops(['audit', 'verify', '--pubkey', 'keys/audit-signing.pub'], rotated);
    expect(both.code).toBe(0);
    expect(both.stdout).toMatch(
      /3 checkpoints hold, signed by vidops\/tehran-1\+[0-9a-f]{8}, vidops\/tehran-1\+/,
    );
  });

  it('checkpoint refuses to sign a log edited since the last checkpoint', async () => {
    await deployment();
    await append(3);
    sql(`UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 0') WHERE seq = 62`);
    const result = await vidops(['audit', 'checkpoint']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No checkpoint signed: event #62 was altered');
  });
});

describe('compliance verifies an export with no database', () => {
  it('the export and its checkpoints verify, with vidops and with the standalone verifier', async () => {
    await deployment();
    await exportFiles();
    await rm(DB());
    const offline = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('events: 60 events, every hash and link holds');
    expect(offline.stdout.trimEnd().split('\n').at(-1)).toBe('ok');
    const standalone = await tool(OFFLINE);
    expect(standalone.code).toBe(0);
    expect(standalone.stdout).toMatch(/^ok: 60 events, every hash and link holds; 2 checkpoints/);
  });

  it('an export whose event was edited fails both verifiers', async () => {
    await deployment();
    await exportFiles();
    const path = join(dir, 'events.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[4] = (lines[4] ?? '').replace('U0AGENT', 'U0OTHER');
    await writeFile(path, lines.join('\n'));

    const offline = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('chain broken at event #5: event #5 was altered');
    expect((await tool(OFFLINE)).stderr).toContain('FAILED: event #5 was altered');
  });

  it('compliance verifies an edited export with --lang fa: the failure in Persian, naming the event', async () => {
    await deployment();
    await exportFiles();
    const path = join(dir, 'events.jsonl');
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[4] = (lines[4] ?? '').replace('U0AGENT', 'U0OTHER');
    await writeFile(path, lines.join('\n'));

    const offline = await vidops(['audit', 'verify', ...OFFLINE, '--lang', 'fa'], {});
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('زنجیره در رویداد ۵ شکسته است: \u2068event #5 was altered');
    expect(offline.stderr).toContain('۴ رویداد پیش از آن درستی‌سنجی شد.');
    expect(offline.stderr.trimEnd().split('\n').at(-1)).toBe('نادرست: خروجی درستی‌سنجی نشد.');
  });

  it('an export cut short fails both verifiers, naming the checkpoint that covers the rest', async () => {
    await deployment();
    await exportFiles();
    const path = join(dir, 'events.jsonl');
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    await writeFile(path, `${lines.slice(0, 58).join('\n')}\n`);
    const words =
      'events #59… are missing: checkpoint of 2026-11-22T11:00:00Z covers 60 events, the log holds 58';

    const offline = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain(`checkpoint check failed: ${words}.`);
    const standalone = await tool(OFFLINE);
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain(words);
  });

  it('an edited checkpoints file fails both verifiers', async () => {
    await deployment();
    await exportFiles();
    const path = join(dir, 'checkpoints.txt');
    await writeFile(
      path,
      (await readFile(path, 'utf8')).replace('time 2026-11-22T11:00:00Z', 'time 2026-11-22T11:00:01Z'),
    );
    const offline = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(
      /checkpoint of 2026-11-22T11:00:01Z was signed by key .* but the signature does not hold/,
    );
    expect((await tool(OFFLINE)).code).toBe(1);
  });

  it('a keyed log verifies offline with --hmac-key-file, and fails at #1 without it, saying why', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await append(12, 'hmac-secret');
    const keyed = env('keys/audit-signing.key', { AUDIT_HMAC_KEY: 'hmac-secret' });
    expect((await vidops(['audit', 'checkpoint'], keyed)).code).toBe(0);
    expect(
      (await vidops(['audit', 'export', '--format', 'jsonl', '--out', 'events.jsonl'], keyed)).code,
    ).toBe(0);
    expect((await vidops(['audit', 'checkpoints', '--out', 'checkpoints.txt'], keyed)).code).toBe(0);
    await writeFile(join(dir, 'hmac.key'), 'hmac-secret\n');

    const withKey = await vidops(['audit', 'verify', ...OFFLINE, '--hmac-key-file', 'hmac.key'], {});
    expect(withKey.code).toBe(0);
    const without = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('give it with --hmac-key-file');
    expect((await tool([...OFFLINE, '--hmac-key-file', 'hmac.key'])).code).toBe(0);
  });

  it('an empty checkpoints file and a partial export are failures, not passes', async () => {
    await deployment();
    await exportFiles();
    await writeFile(join(dir, 'empty.txt'), '');
    const empty = await vidops(
      [
        'audit',
        'verify',
        '--events',
        'events.jsonl',
        '--checkpoints',
        'empty.txt',
        '--pubkey',
        'keys/audit-signing.pub',
      ],
      {},
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('holds no checkpoint: nothing vouches for the log');
    const partial = await vidops([
      'audit',
      'export',
      '--format',
      'jsonl',
      '--since',
      '2026-11-21T10:00:10Z',
      '--out',
      'events.jsonl',
    ]);
    expect(partial.code).toBe(0);
    const result = await vidops(['audit', 'verify', ...OFFLINE], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The export starts at event #10, not #1');
  });

  it.each([
    ['--events without --checkpoints', ['--events', 'events.jsonl', '--pubkey', 'k.pub']],
    ['no public key', ['--events', 'events.jsonl', '--checkpoints', 'checkpoints.txt']],
    ['--hmac-key-file on the database', ['--hmac-key-file', 'hmac.key']],
  ])('%s is a usage error', async (_name, args) => {
    const result = await vidops(['audit', 'verify', ...args], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^vidops: .+\nUsage: vidops audit verify/);
  });

  it('a public key file that is missing or not a key is a usage error naming it', async () => {
    await deployment();
    await exportFiles();
    await writeFile(join(dir, 'bad.pub'), 'not a key\n');
    for (const pub of ['missing.pub', 'bad.pub']) {
      const result = await vidops(
        ['audit', 'verify', '--events', 'events.jsonl', '--checkpoints', 'checkpoints.txt', '--pubkey', pub],
        {},
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`The public key file ${join(dir, pub)}`);
    }
  });

  it('checkpoints on a database without any is a failure, not an empty file', async () => {
    await append(2);
    const result = await vidops(['audit', 'checkpoints', '--out', 'checkpoints.txt'], env(null));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The database holds no signed checkpoint');
  });
});

// ---------------------------------------------------------------------------------------------
// The key remembers what it signed (issue 20, "A signer that remembers what it signed")

/** A database the deployment runs on, and SQL run on it behind vidops' back. */
interface Backend {
  name: string;
  url(): string;
  exec(text: string, params?: readonly unknown[]): Promise<void>;
}

const sqliteBackend: Backend = {
  name: 'SQLite',
  url: () => `sqlite:${DB()}`,
  async exec(text, params = []) {
    const db = new Database(DB());
    try {
      db.prepare(text).run(...params);
    } finally {
      db.close();
    }
  },
};

const pgSchemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'cpcli');
if (pgSchemas === null) noteSkipped('PostgreSQL signer tests');
afterAll(() => pgSchemas?.dropAll());

/** One fresh schema per test on the test database; `?` placeholders become `$1`, `$2`… */
function postgresBackend(schemas: NonNullable<typeof pgSchemas>, base: string): Backend {
  let current: string | null = null;
  beforeEach(() => {
    current = schemas.url();
  });
  return {
    name: 'PostgreSQL',
    url: () => current ?? '',
    async exec(text, params = []) {
      const schema = new URL(current ?? '').searchParams.get('schema');
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`SET search_path = ${schema}`);
        const numbered = text.split('?').reduce((sql, piece, i) => `${sql}$${i}${piece}`);
        await client.query(numbered, [...params]);
      } finally {
        await client.end();
      }
    },
  };
}

const KEY = 'keys/audit-signing.key';
/** Where the key remembers the last checkpoint it signed: a file beside it. */
const STATE = `${KEY}.last`;

describe.each(
  [sqliteBackend].concat(
    pgSchemas === null || TEST_DATABASE_URL === undefined
      ? []
      : [postgresBackend(pgSchemas, TEST_DATABASE_URL)],
  ),
)('the signing key remembers what it signed ($name)', (backend) => {
  const on = (keyFile: string | null = KEY, extra: Record<string, string> = {}) => ({
    ...env(keyFile, extra),
    DATABASE_URL: backend.url(),
  });

  async function appendOn(n: number): Promise<void> {
    const store = await openStore(backend.url(), { hash: createHasher() });
    try {
      const head = (await store.auditHead())?.seq ?? 0;
      await store.appendAudit(Array.from({ length: n }, (_, i) => newEvent(head + i + 1)));
    } finally {
      await store.close();
    }
  }

  async function storedCheckpoints(): Promise<number[]> {
    const store = await openStore(backend.url(), { hash: createHasher() });
    try {
      return (await store.listCheckpoints()).map((c) => c.size);
    } finally {
      await store.close();
    }
  }

  /**
   * What someone with write access to the database but not the key does: edits old event #5,
   * recomputes every hash from there with vidops' own hash function (so the chain links again),
   * and deletes the checkpoint rows that would give it away.
   */
  async function rewriteHistory(): Promise<void> {
    const hash = createHasher();
    const store = await openStore(backend.url(), { hash });
    let events: Awaited<ReturnType<typeof store.listAudit>>;
    try {
      events = await store.listAudit({ afterSeq: 0, limit: 1000 });
    } finally {
      await store.close();
    }
    let prevHash = GENESIS_HASH;
    for (const event of events) {
      const { seq, prevHash: _prev, hash: _hash, ...body } = event;
      const edited = seq === 5 ? { ...body, target: 'viewer 09000000000' } : body;
      const rehashed = hash({ ...edited, seq, prevHash });
      await backend.exec('UPDATE audit_events SET event = ?, prev_hash = ?, hash = ? WHERE seq = ?', [
        canonicalJson(edited),
        prevHash,
        rehashed,
        seq,
      ]);
      prevHash = rehashed;
    }
    await backend.exec('DELETE FROM checkpoints');
  }

  beforeEach(async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
  });

  it('the first checkpoint ever is remembered beside the key, and a later one on the extended log signs', async () => {
    await appendOn(10);
    const first = await vidops(['audit', 'checkpoint'], on());
    expect(first.code).toBe(0);
    expect((await stat(join(dir, STATE))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, STATE), 'utf8')).toMatch(/^vidops\/tehran-1\n10\n/);

    await appendOn(5);
    now = new Date('2026-11-22T11:00:00.000Z');
    const second = await vidops(['audit', 'checkpoint'], on());
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toContain('Signed the checkpoint of 15 events');
    expect(await readFile(join(dir, STATE), 'utf8')).toMatch(/^vidops\/tehran-1\n15\n/);
    expect(await storedCheckpoints()).toEqual([10, 15]);
  });

  it('an old event rewritten, the chain re-hashed and the checkpoints deleted: nothing is signed', async () => {
    await appendOn(30);
    expect((await vidops(['audit', 'checkpoint'], on())).code).toBe(0);
    const remembered = await readFile(join(dir, STATE), 'utf8').catch(() => null);
    await rewriteHistory();
    // The chain alone cannot tell: it links and every hash holds. What the key remembers can.
    const verified = await vidops(['audit', 'verify'], on());
    expect(verified.stdout).toContain('chain intact: 30 events');
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(
      `checkpoints: the signing key remembers a checkpoint the database does not hold (${join(dir, STATE)})`,
    );
    expect(verified.stderr).toMatch(
      /^checkpoint check failed: checkpoint of 2026-11-22T10:00:00Z says event #30 has hash [0-9a-f]{12} but the log's event #30 has hash [0-9a-f]{12}\.$/m,
    );

    now = new Date('2026-11-22T11:00:00.000Z');
    const result = await vidops(['audit', 'checkpoint'], on());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'does not extend the checkpoint this key signed before (30 events, of 2026-11-22T10:00:00Z',
    );
    expect(result.stderr).toMatch(/the log's event #30 has hash [0-9a-f]{12}, not [0-9a-f]{12}/);
    expect(result.stderr).toContain(join(dir, STATE));
    expect(result.stderr).toContain('vidops audit checkpoint --accept-baseline');
    expect(await storedCheckpoints()).toEqual([]);
    expect(await readFile(join(dir, STATE), 'utf8')).toBe(remembered);

    // More events on top do not make it extend either.
    await appendOn(3);
    expect((await vidops(['audit', 'checkpoint'], on())).code).toBe(1);
    expect(await storedCheckpoints()).toEqual([]);
  });

  it('events cut from the end and the checkpoints deleted: nothing is signed', async () => {
    await appendOn(20);
    expect((await vidops(['audit', 'checkpoint'], on())).code).toBe(0);
    await backend.exec('DELETE FROM outbox WHERE seq > 15');
    await backend.exec('DELETE FROM audit_events WHERE seq > 15');
    await backend.exec('DELETE FROM checkpoints');
    const result = await vidops(['audit', 'checkpoint'], on());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the log holds 15 events, fewer than the 20 this key signed for');
    expect(await storedCheckpoints()).toEqual([]);
  });
});

describe('after a deliberate restore, an operator accepts a new baseline', () => {
  /** Copies the database aside, as a backup would. */
  function backup(): void {
    const db = new Database(DB());
    try {
      db.exec(`VACUUM INTO '${join(dir, 'backup.db')}'`);
    } finally {
      db.close();
    }
  }

  async function restore(): Promise<void> {
    for (const suffix of ['', '-wal', '-shm']) await rm(`${DB()}${suffix}`, { force: true });
    await copyFile(join(dir, 'backup.db'), DB());
  }

  it('the restored log is refused, then signed with --accept-baseline and a reason, which the log records', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await append(20);
    expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
    backup();
    await append(20);
    now = new Date('2026-11-22T11:00:00.000Z');
    expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
    await restore();
    await append(5);

    const refused = await vidops(['audit', 'checkpoint']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the log holds 25 events, fewer than the 40 this key signed for');

    const noReason = await vidops(['audit', 'checkpoint', '--accept-baseline']);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--accept-baseline needs --reason');

    now = new Date('2026-11-22T12:00:00.000Z');
    const accepted = await vidops([
      'audit',
      'checkpoint',
      '--accept-baseline',
      '--reason',
      'database restored from the backup of 10:30 after a disk failure',
    ]);
    expect(accepted.stderr).toBe('');
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(
      'Accepted a new baseline: the checkpoint of 40 events this key signed before (of 2026-11-22T11:00:00Z) is no longer required; event #26 records who accepted it and why.',
    );
    expect(accepted.stdout).toContain('Signed the checkpoint of 26 events');
    expect(await readFile(join(dir, STATE), 'utf8')).toMatch(/^vidops\/tehran-1\n26\n/);

    // The acceptance is an audit event of its own, covered by the new checkpoint.
    const tail = await vidops(['audit', 'export', '--format', 'jsonl']);
    const last = JSON.parse(tail.stdout.trimEnd().split('\n').at(-1) ?? '{}');
    expect(last).toMatchObject({
      seq: 26,
      type: 'checkpoint-baseline',
      actor: { id: 'cli:compliance' },
      params: { reason: 'database restored from the backup of 10:30 after a disk failure' },
      outcome: { forgotten: { size: 40 }, accepted: { size: 25 } },
    });
    // From the new baseline on, checkpoints sign as before, and verify holds.
    await append(2);
    expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
    expect((await vidops(['audit', 'verify'])).code).toBe(0);
  });

  it('--accept-baseline on a log that extends what the key signed needs no baseline and records none', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await append(4);
    expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
    await append(2);
    const result = await vidops(['audit', 'checkpoint', '--accept-baseline', '--reason', 'just in case']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no new baseline was needed');
    expect(result.stdout).toContain('Signed the checkpoint of 6 events');
  });

  it('--accept-baseline does not sign a chain that is itself broken', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await append(10);
    expect((await vidops(['audit', 'checkpoint'])).code).toBe(0);
    // The "restored" log is shorter than what the key signed, and its event #3 was edited.
    sql(`UPDATE audit_events SET event = json_set(event, '$.target', 'viewer 0') WHERE seq = 3`);
    sql('DELETE FROM outbox WHERE seq > 8; DELETE FROM audit_events WHERE seq > 8; DELETE FROM checkpoints');
    const result = await vidops(['audit', 'checkpoint', '--accept-baseline', '--reason', 'restore']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'No new baseline accepted: event #3 was altered (its hash does not match); a baseline is accepted only for a log whose chain holds from event #1',
    );
    const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
    try {
      expect(await store.listCheckpoints()).toEqual([]);
      expect((await store.auditHead())?.seq).toBe(8);
    } finally {
      await store.close();
    }
  });
});

describe('the signing key file', () => {
  it('readable by its group is refused, naming the file and the fix, and nothing is signed', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    await append(3);
    await chmod(join(dir, KEY), 0o640);
    const result = await vidops(['audit', 'checkpoint']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `AUDIT_SIGNING_KEY_FILE ${join(dir, KEY)} may be read by other users (mode 640): run \`chmod 600 ${join(dir, KEY)}\``,
    );
    const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
    try {
      expect(await store.listCheckpoints()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('a key on a read-only mount', () => {
  it('remembers its checkpoints in AUDIT_CHECKPOINT_STATE_FILE, and nothing is written beside the key', async () => {
    expect((await vidops(['audit', 'keygen', '--out', 'keys'], { AUDIT_LOG_NAME: LOG })).code).toBe(0);
    const before = (await readdir(join(dir, 'keys'))).sort();
    const state = env(KEY, { AUDIT_CHECKPOINT_STATE_FILE: 'state/vidops-checkpoint.last' });
    await mkdir(join(dir, 'state'));
    await append(3);
    expect((await vidops(['audit', 'checkpoint'], state)).code).toBe(0);
    expect((await readFile(join(dir, 'state/vidops-checkpoint.last'), 'utf8')).split('\n')[1]).toBe('3');
    expect((await readdir(join(dir, 'keys'))).sort()).toEqual(before);

    // What it remembers there is what it checks: a log cut back to 2 events is not signed.
    sql('DELETE FROM outbox WHERE seq = 3; DELETE FROM audit_events WHERE seq = 3; DELETE FROM checkpoints;');
    const refused = await vidops(['audit', 'checkpoint'], state);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No checkpoint signed');
  });
});

describe('verify and keys vidops does not know', () => {
  it('a checkpoint by an unknown key is an error even when what it states is true', async () => {
    await deployment();
    const impostor = generateSignerKey(checkpointOrigin(LOG));
    const store = await openStore(`sqlite:${DB()}`, { hash: createHasher() });
    try {
      await append(5);
      const [event] = await store.listAudit({ afterSeq: 64, limit: 1 });
      const head = event?.hash ?? '';
      const time = '2026-11-22T12:00:00Z';
      await store.addCheckpoint({
        size: 65,
        head,
        time,
        note: signCheckpoint({ origin: impostor.name, size: 65, head, time }, [impostor]),
      });
    } finally {
      await store.close();
    }
    const result = await vidops(['audit', 'verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `checkpoint of 2026-11-22T12:00:00Z is not signed by any known key (it names vidops/tehran-1+${impostor.keyId})`,
    );
  });
});
