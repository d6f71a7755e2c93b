import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { type CliIo, runCli } from '../../src/cli/run.js';
import { createHasher } from '../../src/core/audit-chain.js';
import { checkpointOrigin, signCheckpoint } from '../../src/core/checkpoint.js';
import type { NewAuditEvent } from '../../src/core/model.js';
import { generateSignerKey } from '../../src/core/signed-note.js';
import { openStore } from '../../src/store/index.js';

/**
 * Signed checkpoints as a compliance officer uses them: keys made, checkpoints signed, the log
 * verified on the database and offline, after edits, truncations, a foreign key and a rotation;
 * the standalone verifier (tools/verify-audit.mjs) on the same files.
 * @see docs/audit-checkpoints.md; README, "Audit log"
 */

const TOOL = resolve(dirname(fileURLToPath(import.meta.url)), '../../tools/verify-audit.mjs');
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

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

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

async function vidops(
  args: string[],
  environment: Record<string, string | undefined> = env(),
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: environment,
    cwd: dir,
    clock: () => now,
    osUser: 'compliance',
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** The standalone verifier, as compliance runs it: a child process on the files. */
async function tool(args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TOOL, ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function newEvent(i: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: i % 2 === 0 ? 'requested' : 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: null,
    outcome: null,
    error: null,
  };
}

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
