import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fstatSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHasher } from '../core/audit-chain.js';
import type { NewAuditEvent } from '../core/model.js';
import { openStore } from './index.js';
import { prepareSqliteFile, SqliteStore } from './sqlite.js';

/**
 * The SQLite database file attacked by a second OS user of the machine (docs/security.md, "The
 * database file"): what they can plant at or beside the path vidops opens before it first starts.
 * Changing a file's owner needs root, as CI runs; elsewhere those tests are skipped.
 */

const THEM = 4242;
const MOBILE = '09123456789';
const asRoot = process.getuid?.() === 0 ? test : test.skip;

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-dbfile-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function unblock(): NewAuditEvent {
  return {
    id: `e-${Math.random().toString(36).slice(2)}`,
    type: 'requested',
    at: new Date('2026-11-21T10:00:00.000Z').toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara' },
    operation: 'viewer.unblock',
    target: `viewer ${MOBILE}`,
    params: { mobileNumber: MOBILE },
    requestId: null,
    outcome: null,
    error: null,
  };
}

/**
 * The database's path in a sticky folder anyone may add files to (`/tmp`), once vidops has looked
 * at it as `openStore` does before SQLite opens it: what a test does next happens in that instant.
 */
async function checkedInStickyFolder(): Promise<string> {
  const shared = join(dir, 'tmp');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const path = join(shared, 'vidops.db');
  await prepareSqliteFile(path, undefined);
  return path;
}

/** An empty file of theirs at `path` that anyone may write. */
function theirFile(path: string): string {
  writeFileSync(path, '');
  chownSync(path, THEM, THEM);
  chmodSync(path, 0o666);
  return path;
}

/** Whether the file open at `handle` holds the mobile number vidops writes. */
function holdsMobile(handle: number): boolean {
  const seen = Buffer.alloc(fstatSync(handle).size);
  readSync(handle, seen, 0, seen.length, 0);
  return seen.includes(MOBILE);
}

/** The refusal naming `path` as another user's. */
const wrong = (path: string) => new RegExp(`${path} belongs to another user \\(uid ${THEM}\\)`);

/**
 * SQLite opens the database checked by {@link checkedInStickyFolder}, as `openStore` goes on to;
 * when that is not refused, one event is written. A function that throws what the open threw.
 */
async function openedAfterTheCheck(path: string): Promise<() => void> {
  let thrown: unknown = null;
  try {
    const store = new SqliteStore(path, { hash: createHasher() });
    await store.migrate();
    await store.appendAudit([unblock()]);
    await store.close();
  } catch (error) {
    thrown = error;
  }
  return () => {
    if (thrown !== null) throw thrown;
  };
}

/** Opens the store at `path` as the bot does, writes one event, closes; what it threw and logged. */
async function startOn(path: string): Promise<{ threw: unknown; warnings: string[] }> {
  const warnings: string[] = [];
  const logger = { warn: (fields: object, msg: string) => warnings.push(`${msg} ${JSON.stringify(fields)}`) };
  try {
    const store = await openStore(`sqlite:${path}`, { hash: createHasher(), logger });
    try {
      await store.appendAudit([unblock()]);
    } finally {
      await store.close();
    }
    return { threw: null, warnings };
  } catch (error) {
    return { threw: error, warnings };
  }
}

describe('a second OS user and the database file vidops makes', () => {
  test('with a umask of 0, the database, its WAL and its index are still closed to other users', async () => {
    const old = process.umask(0);
    try {
      const folder = join(dir, 'data');
      const path = join(folder, 'vidops.db');
      const store = await openStore(`sqlite:${path}`, { hash: createHasher() });
      try {
        await store.appendAudit([unblock()]);
        const files = [folder, path, `${path}-wal`, `${path}-shm`];
        expect(files.map((p) => [p, statSync(p).mode & 0o007])).toEqual(files.map((p) => [p, 0]));
      } finally {
        await store.close();
      }
    } finally {
      process.umask(old);
    }
  });

  asRoot(
    'another user plants a dangling symlink where the database goes: nothing is made where it points',
    async () => {
      const shared = join(dir, 'shared');
      mkdirSync(shared, { mode: 0o777 });
      chmodSync(shared, 0o777);
      const target = join(dir, 'root-only', 'cron-job');
      mkdirSync(join(dir, 'root-only'), { mode: 0o700 });
      const path = join(shared, 'vidops.db');
      symlinkSync(target, path);
      lchownSync(path, THEM, THEM);
      const { threw } = await startOn(path);
      expect(threw).not.toBeNull();
      expect(existsSync(target)).toBe(false);
    },
  );

  asRoot(
    'another user plants a symlink where the database goes, pointing at an empty file of root: vidops does not write into it',
    async () => {
      // Was a defect: createPrivately (src/store/sqlite.ts) meets the link with EEXIST, stats what it points to
      // (root's, mode 600: no warning) and SQLite then writes the whole database into root's file. A database
      // path that is a symlink another user made should be refused (lstat it, or open with O_NOFOLLOW) before SQLite opens it.
      const shared = join(dir, 'shared');
      mkdirSync(shared, { mode: 0o777 });
      chmodSync(shared, 0o777);
      mkdirSync(join(dir, 'etc'), { mode: 0o755 });
      const rootFile = join(dir, 'etc', 'empty.conf');
      writeFileSync(rootFile, '', { mode: 0o600 });
      const path = join(shared, 'vidops.db');
      symlinkSync(rootFile, path);
      lchownSync(path, THEM, THEM);
      await startOn(path);
      expect(statSync(rootFile).size).toBe(0);
    },
  );

  asRoot(
    'another user makes the database file first, with rows of their own: vidops does not take it silently',
    async () => {
      // Was a defect: createPrivately (src/store/sqlite.ts) accepts any file already at the path; only a file others may
      // *read* is warned about. A database another user owns (they can rewrite approvals at will) should be refused
      // at start, naming its owner, as .env files and the signer's state file of others are.
      const shared = join(dir, 'shared');
      mkdirSync(shared, { mode: 0o777 });
      chmodSync(shared, 0o777);
      const path = join(shared, 'vidops.db');
      const theirs = new Database(path);
      theirs.exec("CREATE TABLE planted (note TEXT); INSERT INTO planted VALUES ('theirs')");
      theirs.close();
      chownSync(path, THEM, THEM);
      chmodSync(path, 0o600);
      const { threw, warnings } = await startOn(path);
      expect(threw !== null || warnings.length > 0).toBe(true);
    },
  );

  asRoot(
    'another user who may write the data folder holds open a vidops.db-wal of their own: they read no mobile number vidops writes',
    async () => {
      // Was a defect: the data folder already exists and anyone may write it; createPrivately (src/store/sqlite.ts)
      // neither refuses nor warns, and SQLite writes the WAL into the file they made (chown/chmod to root's
      // does not close their open handle). A data folder that others may write, or that another user owns,
      // should stop the start before anything is written.
      const shared = join(dir, 'data');
      mkdirSync(shared, { mode: 0o777 });
      chmodSync(shared, 0o777);
      const path = join(shared, 'vidops.db');
      const theirHandle = openSync(theirFile(`${path}-wal`), 'r');
      try {
        await startOn(path);
        expect(holdsMobile(theirHandle)).toBe(false);
      } finally {
        closeSync(theirHandle);
      }
    },
  );

  asRoot(
    'another user makes the WAL in a sticky folder between vidops checking the folder and SQLite opening it: vidops stops, writing nothing into it',
    async () => {
      // Was a defect: prepareSqliteFile looks at the WAL, its index and the journal before SQLite opens them,
      // and SQLite opens a file already there, so a WAL made in that instant took every write, read by its maker.
      const path = await checkedInStickyFolder();
      const theirHandle = openSync(theirFile(`${path}-wal`), 'r');
      try {
        expect(await openedAfterTheCheck(path)).toThrow(wrong(`${path}-wal`));
        expect(holdsMobile(theirHandle)).toBe(false);
      } finally {
        closeSync(theirHandle);
      }
    },
  );

  asRoot(
    'another user puts a link where the WAL goes, to a file of theirs, between the check and the open: vidops stops, writing nothing there',
    async () => {
      const path = await checkedInStickyFolder();
      const theirs = theirFile(join(dir, 'tmp', 'their-notes'));
      symlinkSync(theirs, `${path}-wal`);
      lchownSync(`${path}-wal`, THEM, THEM);
      expect(await openedAfterTheCheck(path)).toThrow(wrong(`${path}-wal`));
      expect(readFileSync(theirs).includes(MOBILE)).toBe(false);
    },
  );

  test('in a sticky folder anyone may add files to, the database, WAL and index vidops made open again', async () => {
    const shared = join(dir, 'tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const path = join(shared, 'vidops.db');
    expect(await startOn(path)).toEqual({ threw: null, warnings: [] });
    // A second process on the file holds the WAL and its index open while this one starts.
    const other = new Database(path);
    other.pragma('journal_mode = WAL');
    try {
      expect(await startOn(path)).toEqual({ threw: null, warnings: [] });
    } finally {
      other.close();
    }
  });

  test('a database file vidops made itself keeps its rows private and is read back on the next start', async () => {
    const path = join(dir, 'data', 'vidops.db');
    expect((await startOn(path)).threw).toBeNull();
    const again = await startOn(path);
    expect(again).toEqual({ threw: null, warnings: [] });
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});
