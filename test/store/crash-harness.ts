import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { AuditEvent } from '../../src/core/model.js';
import { openStore } from '../../src/store/index.js';
import { collect } from './fixtures.js';

const WORKER = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
/** A worker that has not committed its quota by then is stuck, not slow. */
const WORKER_DEADLINE_MS = 15_000;

function startWorker(url: string, dir: string, name: string, recoverOnly: boolean): ChildProcess {
  const args = ['--import', 'tsx', WORKER, url, dir, name, ...(recoverOnly ? ['recover-only'] : [])];
  return spawn(process.execPath, args, { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Runs worker `name` until it has committed `commits` times, then SIGKILLs it (it keeps
 * committing while the signal is on its way, so the moment is effectively random).
 */
function runUntilKilled(url: string, dir: string, name: string, commits: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = startWorker(url, dir, name, false);
    let seen = 0;
    let killed = false;
    let stderr = '';
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker ${name} made only ${seen} commits in ${WORKER_DEADLINE_MS} ms: ${stderr}`));
    }, WORKER_DEADLINE_MS);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString().split('\n').length - 1;
      if (!killed && seen >= commits) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      if (killed && signal === 'SIGKILL') resolve(seen);
      else reject(new Error(`worker ${name} exited by itself (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

/** Runs worker `name` in recovery mode to completion. */
function recover(url: string, dir: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = startWorker(url, dir, name, true);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`recovery of ${name} failed (code ${code}): ${stderr}`));
    });
  });
}

function lines(path: string): string[] {
  if (!existsSync(path)) return [];
  // A line is complete only with its newline; a kill can never split one write, but be strict.
  const text = readFileSync(path, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((l) => l !== '');
}

export interface CrashReport {
  kills: number;
  requests: number;
  succeeded: number;
  unknown: number;
  events: number;
  /** Problems found; empty when every invariant holds. */
  problems: string[];
}

/**
 * The crash scenario: `workers` run at once against one database, each SIGKILLed after a random
 * number of commits, `rounds` times, then each recovers once. Returns what the store looks like
 * and every invariant that does not hold.
 */
export async function crashAndRecover(
  url: string,
  dir: string,
  options: { rounds: number; workers: readonly string[] },
): Promise<CrashReport> {
  let kills = 0;
  for (let round = 0; round < options.rounds; round += 1) {
    await Promise.all(options.workers.map((name) => runUntilKilled(url, dir, name, randomInt(1, 120))));
    kills += options.workers.length;
  }
  await Promise.all(options.workers.map((name) => recover(url, dir, name)));

  const hash = createHasher();
  const store = await openStore(url, { hash });
  try {
    const problems: string[] = [];
    const verified = await verifyChain(store.iterateAudit(), hash);
    if (!verified.ok) problems.push(`chain broken at #${verified.brokenAt}: ${verified.reason}`);

    const events: AuditEvent[] = await collect(store.iterateAudit());
    const typesOf = new Map<string, string[]>();
    for (const e of events) {
      if (e.requestId === null) continue;
      typesOf.set(e.requestId, [...(typesOf.get(e.requestId) ?? []), e.type]);
    }
    const requests = await store.listRequests({ limit: 1_000_000 });
    const stateOf = new Map(requests.map((r) => [r.id, r.state]));

    const executions = new Map<string, number>();
    for (const name of options.workers) {
      for (const line of lines(join(dir, `journal-${name}`))) {
        const [type, id] = line.split(' ');
        if (type === undefined || id === undefined || !typesOf.get(id)?.includes(type)) {
          problems.push(`journaled "${line}" is not in the store`);
        }
      }
      for (const id of lines(join(dir, `executions-${name}`))) {
        executions.set(id, (executions.get(id) ?? 0) + 1);
      }
    }

    for (const [id, count] of executions) {
      if (count > 1) problems.push(`${id} was executed ${count} times`);
      if (!typesOf.get(id)?.includes('executing'))
        problems.push(`${id} was executed without winning executing`);
    }
    for (const r of requests) {
      const types = typesOf.get(r.id) ?? [];
      for (const once of ['requested', 'approved', 'executing', 'succeeded', 'unknown']) {
        const n = types.filter((t) => t === once).length;
        if (n > 1) problems.push(`${r.id} reached ${once} ${n} times`);
      }
      if (r.state === 'succeeded' && executions.get(r.id) !== 1) {
        problems.push(`${r.id} succeeded with ${executions.get(r.id) ?? 0} executions recorded`);
      }
      if (r.state === 'pending' || r.state === 'approved' || r.state === 'executing') {
        problems.push(`${r.id} is still ${r.state} after recovery`);
      }
    }

    return {
      kills,
      requests: requests.length,
      succeeded: [...stateOf.values()].filter((s) => s === 'succeeded').length,
      unknown: [...stateOf.values()].filter((s) => s === 'unknown').length,
      events: events.length,
      problems,
    };
  } finally {
    await store.close();
  }
}
