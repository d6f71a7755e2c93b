import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../src/sandbox/server.js';
import type { CrashPoint } from './crash-delete-worker.js';

const WORKER = fileURLToPath(new URL('./crash-delete-worker.ts', import.meta.url));
/** A worker that has not reached its point by then is stuck, not slow. */
const WORKER_DEADLINE_MS = 20_000;

/** The line the worker prints when it stands at `point`. */
const ANNOUNCED: Record<CrashPoint, string> = {
  'before-send': 'executing',
  'at-service': 'sending',
  'after-answer': 'answered',
};

/** Resolves once `probe` is true, checking every few milliseconds; rejects when `signal` aborts. */
async function whenTrue(probe: () => boolean, signal: AbortSignal): Promise<void> {
  while (!probe()) {
    signal.throwIfAborted();
    await delay(5);
  }
}

/**
 * Runs a worker process that approves `requestId` with the real services, and SIGKILLs it at
 * `point`: right after it says so, or (`at-service`) once the sandbox has received the DELETE on
 * `path`. Resolves when the worker died of that SIGKILL; rejects when it exited any other way.
 */
export function killDuringDelete(options: {
  databaseUrl: string;
  sandbox: Sandbox;
  requestId: string;
  point: CrashPoint;
  path: string;
}): Promise<void> {
  const { databaseUrl, sandbox, requestId, point, path } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WORKER, databaseUrl, sandbox.url, requestId, point],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const stop = new AbortController();
    let killed = false;
    let stdout = '';
    let stderr = '';
    const kill = () => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    };
    const deadline = setTimeout(() => {
      stop.abort();
      kill();
      reject(new Error(`worker did not reach ${point} in ${WORKER_DEADLINE_MS} ms: ${stdout} ${stderr}`));
    }, WORKER_DEADLINE_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.split('\n').includes(ANNOUNCED[point])) return;
      if (point !== 'at-service') {
        kill();
        return;
      }
      const arrived = () => sandbox.requests().some((r) => r.method === 'DELETE' && r.path === path);
      whenTrue(arrived, stop.signal).then(kill, () => {});
    });
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      stop.abort();
      if (killed && signal === 'SIGKILL') resolve();
      else
        reject(
          new Error(
            `worker exited by itself at ${point} (code ${code}, signal ${signal}): ${stdout} ${stderr}`,
          ),
        );
    });
  });
}
