import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoints, off the event loop. By default the connection that commits past 1,000
 * WAL pages copies them into the database file itself, with an fsync of the WAL and of the file,
 * inside the commit: the event loop then stands still for as long as the disk takes (measured:
 * about 1.4 ms per unblock on average, in stalls of tens of milliseconds, more than all the CPU
 * of its three commits). Here a worker thread with its own connection runs PASSIVE checkpoints
 * instead, woken by the writes (a shared counter, no message per commit) and at most every
 * {@link CHECKPOINT_PAUSE_MS}; a PASSIVE checkpoint never waits for a lock and never blocks a
 * writer. The writing connection keeps an automatic checkpoint as a backstop, at
 * {@link BACKSTOP_PAGES} pages, for when the worker cannot keep up or is gone.
 * Durability is unchanged: a commit is in the WAL before it returns, as before; the worker only
 * decides when the WAL is copied into the database file.
 * @see docs/architecture.md, "Scale"
 */

/** How long the worker waits after being woken, so that one checkpoint covers a burst of commits. */
export const CHECKPOINT_PAUSE_MS = 200;
/** The writing connection's own automatic checkpoint, in pages (SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 20_000;

// Runs in the worker as plain CommonJS (eval), so it needs no build step under Jest or from dist/.
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = new Int32Array(workerData.shared);
const db = new Database(workerData.path, { timeout: 0 });
let seen = 0;
let stopping = false;
parentPort.on('message', () => { stopping = true; });
function step() {
  if (stopping || Atomics.load(state, 1) === 1) {
    db.close();
    parentPort.postMessage('closed');
    return;
  }
  const now = Atomics.load(state, 0);
  if (now !== seen) {
    seen = now;
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }
  // Sleeps until the next write (or the stop), without spinning, then pauses to batch a burst.
  Atomics.wait(state, 0, seen, 60000);
  setTimeout(step, workerData.pauseMs);
}
step();
`;

export interface WalCheckpointer {
  /** Called after each committed write: one atomic increment. */
  wrote(): void;
  /** Stops the worker; its connection is closed before this resolves. */
  close(): Promise<void>;
}

/**
 * Starts the worker for the database file at `path`; the caller then sets the writing
 * connection's `wal_autocheckpoint` to {@link BACKSTOP_PAGES}.
 */
export function startWalCheckpointer(path: string): WalCheckpointer {
  // [0]: writes so far (wraps), [1]: 1 once stopping.
  const shared = new SharedArrayBuffer(8);
  const state = new Int32Array(shared);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path,
      shared,
      pauseMs: CHECKPOINT_PAUSE_MS,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
    // Its own small heap: it holds one connection and runs one pragma.
    resourceLimits: {
      maxOldGenerationSizeMb: 4,
      maxYoungGenerationSizeMb: 1,
      codeRangeSizeMb: 2,
      stackSizeMb: 1,
    },
    stdout: false,
    stderr: false,
  });
  // Never keeps the process alive, and a failed worker only means the backstop checkpoints.
  worker.unref();
  let failed = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => resolve());
    worker.once('error', () => {
      failed = true;
    });
  });
  let closing: Promise<void> | null = null;
  return {
    wrote() {
      Atomics.add(state, 0, 1);
      Atomics.notify(state, 0);
    },
    close() {
      closing ??= (async () => {
        // Held while it stops: an unref'd worker would let the process end with close() pending.
        worker.ref();
        Atomics.store(state, 1, 1);
        Atomics.notify(state, 0);
        if (!failed) {
          const closed = new Promise<void>((resolve) => worker.once('message', () => resolve()));
          worker.postMessage('stop');
          await Promise.race([closed, exited]);
        }
        await worker.terminate();
        await exited;
      })();
      return closing;
    },
  };
}
