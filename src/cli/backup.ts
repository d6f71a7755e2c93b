import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type CliStoreConfig, loadCliConfig } from '../config.js';
import { createHasher } from '../core/audit-chain.js';
import { InputError } from '../core/errors.js';
import type { Lang } from '../i18n/lang.js';
import { openStore, parseStoreUrl } from '../store/index.js';
import { type AuditRun, verifyStore } from './audit.js';
import { resolveDatabaseUrl } from './context.js';

/**
 * `vidops backup <file>`: a consistent copy of the SQLite database, taken with SQLite's online
 * backup while the bot runs, verified like `audit verify` before it takes the file's name. It
 * speaks the CLI's language (`--lang`, else `LANG`).
 * @see docs/operations.md, "Backup and restore"
 */

/**
 * Copies the database to a temporary file (mode 600) beside `target`, checks the copy's chain and
 * checkpoints, then renames it to `target`: a failed or refused backup leaves no file and any
 * earlier backup of that name whole.
 */
export async function backup(run: AuditRun, target: string, lang: Lang): Promise<number> {
  const t = lang.t.operator;
  const config = loadCliConfig(run.env, 'store');
  const location = parseStoreUrl(resolveDatabaseUrl(config.databaseUrl, run.cwd));
  // The operator of PostgreSQL is sent to pg_dump and what to keep beside it.
  if (location.kind === 'postgres') throw new InputError(t.bakPostgres);
  const source = location.path;
  const dest = resolve(run.cwd, target);
  if (source === ':memory:') throw new InputError(t.bakInMemory);
  if (!(await isFile(source))) throw new InputError(t.bakNoDatabase(source));
  if (dest === source) throw new InputError(t.bakSameFile(dest));
  const temp = resolve(dirname(dest), `.${basename(dest)}.${randomBytes(6).toString('hex')}.tmp`);
  await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
  // Made first, mode 600 and exclusive, so the copy is never readable by others, not even briefly.
  await (await open(temp, 'wx', 0o600)).close();
  try {
    const db = new Database(source, { fileMustExist: true });
    try {
      await db.backup(temp);
    } finally {
      db.close();
    }
    await chmod(temp, 0o600);
    if ((await verifyCopy(run, config, temp)) !== 0) {
      run.err(`vidops: ${t.bakNotVerified(source, dest)}`);
      return 1;
    }
    await syncFile(temp);
    await rename(temp, dest);
    await syncFile(dirname(dest));
  } finally {
    await rm(temp, { force: true });
  }
  run.out(t.bakWritten(dest, source));
  return 0;
}

/** `audit verify` on the copy, opened as it is: never migrated, so it stays what was copied. */
async function verifyCopy(run: AuditRun, config: CliStoreConfig, path: string): Promise<number> {
  const store = await openStore(`sqlite:${path}`, {
    hash: createHasher(config.auditHmacKey),
    migrate: false,
  });
  try {
    return await verifyStore(run, { config, store, policy: null, close: () => store.close() });
  } finally {
    await store.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Flushes a file (or a folder's entries) to the disk, so a rename survives a power cut. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
