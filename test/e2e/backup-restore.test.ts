import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { writeKeyPair } from '../../src/services/audit-keys.js';
import { runVidops } from '../cli/audit-runs.js';
import { type Harness, startHarness } from './app-harness.js';

/**
 * From a backup to a running bot, as the operator's page tells it: the bot runs and unblocks, the
 * operator backs up, more happens and is signed, the disk dies, the backup is put back, the bot
 * says plainly that its log is older than what the key signed and which command accepts it, the
 * operator accepts it, and the next start is quiet.
 * @see docs/operations.md, "Backup and restore"
 */

let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vidops-restore-'));
  const { privatePath } = await writeKeyPair(join(dir, 'keys'), 'restore');
  env = {
    DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
    AUDIT_SIGNING_KEY_FILE: privatePath,
    AUDIT_LOG_NAME: 'restore',
  };
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function vidops(args: string[]) {
  return runVidops(args, { env, cwd: dir, clock: () => new Date() });
}

async function unblock(h: Harness, number: string): Promise<void> {
  const slash = await h.slash(`unblock ${number}`);
  expect(JSON.stringify((await slash.reply()).body)).toContain(':white_check_mark:');
}

/** Log lines that raise the checkpoint alert. */
function alerts(h: Harness): string[] {
  return h.logs.filter((line) => line.includes('"alert":"audit_checkpoint_refused"'));
}

it('an operator backs up the running bot, restores after a disk failure, accepts the baseline and starts cleanly', async () => {
  let h = await startHarness({ env });
  try {
    await unblock(h, '0912 123 4567');
    const backedUp = await vidops(['backup', 'backups/vidops-1.db']);
    expect(backedUp).toMatchObject({ code: 0, stderr: '' });
    expect(backedUp.stdout).toContain('chain intact: 3 events');
    expect(backedUp.stdout).toContain(`backup written: ${join(dir, 'backups/vidops-1.db')} (mode 600)`);
    expect((await stat(join(dir, 'backups/vidops-1.db'))).mode & 0o777).toBe(0o600);
    // An operator whose shell speaks Persian reads the same outcome in Persian, the paths kept Latin.
    const persian = await vidops(['backup', 'backups/vidops-fa.db', '--lang', 'fa']);
    expect(persian).toMatchObject({ code: 0, stderr: '' });
    expect(persian.stdout).toContain(
      `پشتیبان نوشته شد: \u2068${join(dir, 'backups/vidops-fa.db')}\u2069 (مجوز \u2068600\u2069)`,
    );

    await unblock(h, '0912 765 4321');
    expect(await vidops(['audit', 'checkpoint'])).toMatchObject({ code: 0 });
  } finally {
    await h.stop();
  }

  // The disk is lost; the backup is put back (without the old WAL beside it).
  await rm(join(dir, 'vidops.db-wal'), { force: true });
  await rm(join(dir, 'vidops.db-shm'), { force: true });
  await copyFile(join(dir, 'backups/vidops-1.db'), join(dir, 'vidops.db'));

  h = await startHarness({ env });
  try {
    const said = alerts(h).join('\n');
    expect(said).toContain('the log does not extend the checkpoint this key signed before');
    expect(said).toContain('the log holds 3 events, fewer than the');
    expect(said).toContain('vidops audit checkpoint --accept-baseline --reason');
    expect((await h.get('/metrics')).text).toMatch(/^vidops_audit_checkpoint_refused_total 1$/m);
  } finally {
    await h.stop();
  }

  expect((await vidops(['audit', 'verify'])).code).toBe(1);
  const accepted = await vidops([
    'audit',
    'checkpoint',
    '--accept-baseline',
    '--reason',
    'restored after a disk failure',
  ]);
  expect(accepted.stdout).toContain('Accepted a new baseline');
  expect(accepted.code).toBe(0);

  h = await startHarness({ env });
  try {
    expect(alerts(h)).toEqual([]);
    expect((await h.get('/metrics')).text).toMatch(/^vidops_audit_checkpoint_refused_total 0$/m);
    await unblock(h, '0912 123 4567');
  } finally {
    await h.stop();
  }
  expect((await vidops(['audit', 'verify'])).code).toBe(0);
});

it('a backup on PostgreSQL is refused, pointing at pg_dump and what to keep beside it', async () => {
  const run = await runVidops(['backup', 'x.db'], {
    env: { DATABASE_URL: 'postgres://vidops@127.0.0.1:1/vidops' },
    cwd: dir,
    clock: () => new Date(),
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('back it up with pg_dump');
  expect(run.stderr).toContain('the signing key, its state file, AUDIT_HMAC_KEY and VIDEO_SECRET_KEY');
  await expect(stat(join(dir, 'x.db'))).rejects.toThrow();
});

it('a backup on PostgreSQL asked in Persian is refused in Persian, pointing at pg_dump', async () => {
  const run = await runVidops(['backup', 'x.db'], {
    env: { DATABASE_URL: 'postgres://vidops@127.0.0.1:1/vidops', LANG: 'fa_IR.UTF-8' },
    cwd: dir,
    clock: () => new Date(),
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('با \u2068pg_dump\u2069 از آن پشتیبان بگیرید');
  expect(run.stderr).not.toContain('back it up with');
  await expect(stat(join(dir, 'x.db'))).rejects.toThrow();
});

it('a backup whose copy does not verify is not kept, and an earlier backup of that name stays whole', async () => {
  const broken = join(dir, 'broken');
  await rm(broken, { recursive: true, force: true });
  const brokenEnv = { DATABASE_URL: `sqlite:${join(broken, 'vidops.db')}` };
  const h = await startHarness({ env: brokenEnv });
  try {
    await unblock(h, '0912 123 4567');
  } finally {
    await h.stop();
  }
  const db = new Database(join(broken, 'vidops.db'));
  // Someone edits the first event behind vidops' back.
  db.prepare('UPDATE audit_events SET event = replace(event, \'"ana"\', \'"mallory"\') WHERE seq = 1').run();
  db.close();
  await writeFile(join(broken, 'old.db'), 'an earlier backup');

  const run = await runVidops(['backup', 'old.db'], { env: brokenEnv, cwd: broken, clock: () => new Date() });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('no backup written');
  expect(await readFile(join(broken, 'old.db'), 'utf8')).toBe('an earlier backup');
});
