import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { VidopsError } from '../core/errors.js';
import { distrustWords, readTrustedFile, type TrustedRead } from '../trusted-file.js';

/**
 * Where a signing key remembers the last checkpoint it signed, so that it never vouches for a log
 * that does not extend it: a file beside the key (`<AUDIT_SIGNING_KEY_FILE>.last`, mode 600),
 * out of reach of whoever can only write to the database. It is replaced atomically (a temporary
 * file written, synced and renamed over it), under a lock file (`<…>.last.lock`, made with
 * O_EXCL) so that two signers using one key file on one host take turns, and only when it still
 * holds what the signer read (compare and write): the remembered checkpoint only moves forward.
 * @see docs/audit-checkpoints.md, "What the key remembers"
 */

/** The memory cannot be read, written or locked; the message names the file and what to do. */
export class CheckpointMemoryError extends VidopsError {}

export interface CheckpointMemory {
  /** Where it is kept, as messages name it. */
  readonly where: string;
  /** Runs `work` while no other signer of this memory runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** The note of the last checkpoint remembered, or null when none ever was. */
  read(): Promise<string | null>;
  /**
   * Remembers `note` durably in place of `expected` (what `read` gave); refuses, changing nothing,
   * when the memory no longer holds `expected`.
   */
  write(note: string, expected: string | null): Promise<void>;
}

/**
 * The file in which `keyFile`'s checkpoints are remembered: `AUDIT_CHECKPOINT_STATE_FILE` when set
 * (a key on a read-only mount), else beside the key. Its lock and temporary files go beside it.
 */
export function memoryPathFor(keyFile: string, stateFile?: string): string {
  return stateFile === undefined ? `${resolve(keyFile)}.last` : resolve(stateFile);
}

/** The `code` of a Node system error, checked by shape. */
function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return error instanceof Error ? error.name : 'unknown error';
}

export interface FileMemoryOptions {
  /** A lock file not touched for this long is left over from a signer that died (default 60 s). */
  staleLockMs?: number;
  /** How long to wait for another signer's lock before giving up (default 15 s). */
  lockWaitMs?: number;
  /** Told when a stale lock is taken over. */
  onStaleLock?: ((lockPath: string) => void) | undefined;
}

interface LockSettings {
  staleLockMs: number;
  lockWaitMs: number;
  onStaleLock?: ((lockPath: string) => void) | undefined;
}

/** Reads the file, or null when there is none; refuses a file others may write. */
async function readState(path: string): Promise<string | null> {
  let read: TrustedRead;
  try {
    // Only this user or root may own it, and nobody else write it: rewriting it makes the key forget.
    read = await readTrustedFile(path, { folderOwner: false, refusedBits: 0o022 });
  } catch (error) {
    throw new CheckpointMemoryError(`${path} cannot be read (${codeOf(error)}).`);
  }
  if (read.kind === 'missing') return null;
  if (read.kind === 'refused') {
    const fix = read.why.kind === 'mode' ? `: run \`chmod 600 ${path}\`` : '';
    throw new CheckpointMemoryError(`${path} ${distrustWords(read.why)}${fix}.`);
  }
  return read.text;
}

/** Makes the rename of a file in `dir` durable; a file system that cannot sync a directory is let be. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse to sync a directory (EINVAL, EISDIR); the rename itself is atomic.
  } finally {
    await handle?.close();
  }
}

/** Writes `text` to a new temporary file beside `path`, synced, mode 600; returns its path. */
async function writeTemporary(path: string, text: string): Promise<string> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(temporary, 'wx', 0o600);
  } catch (error) {
    throw new CheckpointMemoryError(
      `${path} cannot be written (${codeOf(error)}): vidops must be able to write in the directory of AUDIT_SIGNING_KEY_FILE.`,
    );
  }
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temporary;
}

async function writeState(path: string, note: string, expected: string | null): Promise<void> {
  const temporary = await writeTemporary(path, note);
  try {
    // Compare and write: under the lock nobody else writes, but a lock taken over as stale must not
    // let two signers each put their own checkpoint in place of the other's.
    if ((await readState(path)) !== expected) {
      throw new CheckpointMemoryError(
        `${path} changed while this checkpoint was being signed (another signer with the same key?); nothing was remembered or stored, try again.`,
      );
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    if (error instanceof CheckpointMemoryError) throw error;
    throw new CheckpointMemoryError(`${path} cannot be written (${codeOf(error)}).`);
  }
  await syncDirectory(dirname(path));
}

/** Milliseconds since the lock file was last touched, or null when it is gone. */
async function lockAge(lockPath: string): Promise<number | null> {
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs;
  } catch {
    return null;
  }
}

/** Takes the lock file (O_EXCL), waiting for another holder and taking over a stale one. */
async function takeLock(lockPath: string, options: LockSettings): Promise<void> {
  const deadline = Date.now() + options.lockWaitMs;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid} ${hostname()} ${new Date().toISOString()}\n`, 'utf8');
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') {
        throw new CheckpointMemoryError(
          `the lock file ${lockPath} cannot be made (${codeOf(error)}): vidops must be able to write in the directory of AUDIT_SIGNING_KEY_FILE.`,
        );
      }
    }
    const age = await lockAge(lockPath);
    if (age !== null && age > options.staleLockMs) {
      await unlink(lockPath).catch(() => undefined);
      options.onStaleLock?.(lockPath);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new CheckpointMemoryError(
        `another signer holds the lock file ${lockPath}; if no vidops signs with this key now, remove the file.`,
      );
    }
    await new Promise((done) => setTimeout(done, 20 + Math.floor(Math.random() * 30)));
  }
}

/** The memory in a file (see the module comment). */
export function fileMemory(path: string, options: FileMemoryOptions = {}): CheckpointMemory {
  const settings: LockSettings = {
    staleLockMs: options.staleLockMs ?? 60_000,
    lockWaitMs: options.lockWaitMs ?? 15_000,
    onStaleLock: options.onStaleLock,
  };
  const lockPath = `${path}.lock`;
  return {
    where: path,
    async exclusive(work) {
      await takeLock(lockPath, settings);
      // Touched while held, so that a long check is not taken for a dead signer's lock.
      const keepAlive = setInterval(
        () => {
          const now = new Date();
          utimes(lockPath, now, now).catch(() => undefined);
        },
        Math.max(10, Math.floor(settings.staleLockMs / 3)),
      );
      keepAlive.unref();
      try {
        return await work();
      } finally {
        clearInterval(keepAlive);
        await unlink(lockPath).catch(() => undefined);
      }
    },
    read: () => readState(path),
    write: (note, expected) => writeState(path, note, expected),
  };
}

/** A memory held by this process only (tests; a signer whose memory lives elsewhere). */
export function processMemory(where = 'this process'): CheckpointMemory {
  let note: string | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  return {
    where,
    exclusive(work) {
      const run = turn.then(work);
      turn = run.catch(() => undefined);
      return run;
    },
    async read() {
      return note;
    },
    async write(next, expected) {
      if (note !== expected)
        throw new CheckpointMemoryError(`${where} changed while this checkpoint was being signed.`);
      note = next;
    },
  };
}
