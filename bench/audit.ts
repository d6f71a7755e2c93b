import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runCli } from '../src/cli/run.js';
import { createHasher, GENESIS_HASH, verifyChain } from '../src/core/audit-chain.js';
import { formatCheckpointFile, signCheckpoint } from '../src/core/checkpoint.js';
import { canonicalJson } from '../src/core/json.js';
import type { AuditEvent, NewAuditEvent } from '../src/core/model.js';
import {
  formatSignerKey,
  formatVerifierKey,
  generateSignerKey,
  verifierKeyOf,
} from '../src/core/signed-note.js';
import { openStore } from '../src/store/index.js';

/**
 * Signed audit checkpoints: what signing one costs, against one SHA-256 of an event (what every
 * append costs already) in the same run; then verifying 100,000 events with 100 checkpoints
 * (one per 1,000 events, `AUDIT_CHECKPOINT_EVERY`'s default count): offline through the CLI
 * (`vidops audit verify --events … --checkpoints … --pubkey …`), through the standalone
 * tools/verify-audit.mjs (a child process, Node's start included), and on a SQLite database
 * (`vidops audit verify`, chain and checkpoints in one read of the log), next to the chain alone
 * on the same rows (what `verify` did before checkpoints) as its baseline.
 * Goal: each verify of 100,000 events under 2 s, as `verify` without checkpoints.
 */

const EVENTS = 100_000;
const EVERY = 1_000;
const HASHES = 20_000;
const SIGNATURES = 2_000;
const TOOL = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'tools', 'verify-audit.mjs');
const NAME = 'vidops/bench';

function content(i: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: i % 3 === 0 ? 'requested' : i % 3 === 1 ? 'approved' : 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0, i)).toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara (support)' },
    operation: 'viewer.unblock',
    target: 'viewer 09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: `R-${String(i).padStart(8, '0')}`,
    outcome: { status: 200, message: 'viewer unblocked' },
    error: null,
  };
}

const micro = (ms: number, n: number) => (ms * 1000) / n;

function time<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

function verifyLine(label: string, ms: number): void {
  console.log(
    `${label.padEnd(46)} ${(ms / 1000).toFixed(2)} s   ${Math.round((EVENTS / ms) * 1000)
      .toLocaleString('en-US')
      .padStart(7)} events/s   (goal < 2 s: ${ms < 2000 ? 'met' : 'NOT met'})`,
  );
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-audit-'));
  try {
    const hash = createHasher();
    const key = generateSignerKey(NAME);

    // The chain, in memory, and its checkpoints every 1,000 events.
    const events: AuditEvent[] = [];
    let prevHash = GENESIS_HASH;
    for (let seq = 1; seq <= EVENTS; seq += 1) {
      const unhashed = { ...content(seq), seq, prevHash };
      const event = { ...unhashed, hash: hash(unhashed) };
      events.push(event);
      prevHash = event.hash;
    }
    const time0 = Date.parse('2026-11-21T10:00:00Z');
    const notes: string[] = [];
    for (let size = EVERY; size <= EVENTS; size += EVERY) {
      const head = (events[size - 1] as AuditEvent).hash;
      const at = new Date(time0 + size * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      notes.push(signCheckpoint({ origin: NAME, size, head, time: at }, [key]));
    }

    // Signing one checkpoint against hashing one event, same run.
    const sample = events[0] as AuditEvent;
    for (let i = 0; i < 2000; i += 1) hash(sample);
    const hashed = time(() => {
      for (let i = 0; i < HASHES; i += 1) hash(sample);
    });
    const head = (events[EVENTS - 1] as AuditEvent).hash;
    const signed = time(() => {
      for (let i = 0; i < SIGNATURES; i += 1) {
        signCheckpoint({ origin: NAME, size: EVENTS, head, time: '2026-11-22T10:00:00Z' }, [key]);
      }
    });
    const perHash = micro(hashed.ms, HASHES);
    const perSign = micro(signed.ms, SIGNATURES);
    console.log(
      `${'sign one checkpoint'.padEnd(46)} ${perSign.toFixed(1).padStart(7)} µs   SHA-256 of one event ${perHash.toFixed(1)} µs   ratio ${(perSign / perHash).toFixed(1)}`,
    );
    console.log(
      `${''.padEnd(46)} (the bot also rehashes the ${EVERY.toLocaleString('en-US')} events since the last one before signing: about ${((EVERY * perHash) / 1000).toFixed(1)} ms)`,
    );

    // The files compliance gets.
    const eventsPath = join(dir, 'events.jsonl');
    const checkpointsPath = join(dir, 'checkpoints.txt');
    const pubPath = join(dir, 'audit-signing.pub');
    writeFileSync(eventsPath, events.map((e) => `${canonicalJson(e)}\n`).join(''));
    writeFileSync(checkpointsPath, formatCheckpointFile(notes));
    writeFileSync(pubPath, `${formatVerifierKey(verifierKeyOf(key))}\n`);
    const offline = [
      'audit',
      'verify',
      '--events',
      eventsPath,
      '--checkpoints',
      checkpointsPath,
      '--pubkey',
      pubPath,
    ];
    const sink = { write: () => true };
    const quiet = { stdout: sink, stderr: sink, env: {}, cwd: dir, osUser: 'bench' };
    await runCli(offline, quiet);
    const cli = await timeAsync(() => runCli(offline, quiet));
    if (cli.value !== 0) throw new Error('offline verify failed');
    verifyLine('CLI verify of files, 100,000 events + 100 cps', cli.ms);

    const tool = await timeAsync(() =>
      promisify(execFile)(process.execPath, [
        TOOL,
        '--events',
        eventsPath,
        '--checkpoints',
        checkpointsPath,
        '--pubkey',
        pubPath,
      ]),
    );
    verifyLine('tools/verify-audit.mjs (with Node start)', tool.ms);

    // The same log in SQLite, verified where it lives.
    const dbPath = join(dir, 'audit.db');
    const store = await openStore(`sqlite:${dbPath}`, { hash });
    try {
      for (let i = 0; i < EVENTS; i += EVERY) {
        await store.appendAudit(
          events.slice(i, i + EVERY).map(({ seq: _s, prevHash: _p, hash: _h, ...rest }) => rest),
        );
        const last = (await store.auditHead()) as { seq: number; hash: string };
        const at = new Date(time0 + last.seq * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        const note = signCheckpoint({ origin: NAME, size: last.seq, head: last.hash, time: at }, [key]);
        await store.addCheckpoint({ size: last.seq, head: last.hash, time: at, note });
      }
    } finally {
      await store.close();
    }
    const keyPath = join(dir, 'audit-signing.key');
    writeFileSync(keyPath, `${formatSignerKey(key)}\n`, { mode: 0o600 });
    const onDb = {
      ...quiet,
      env: { DATABASE_URL: `sqlite:${dbPath}`, AUDIT_LOG_NAME: 'bench', AUDIT_SIGNING_KEY_FILE: keyPath },
    };
    await runCli(['audit', 'verify'], onDb);
    const db = await timeAsync(() => runCli(['audit', 'verify'], onDb));
    if (db.value !== 0) throw new Error('database verify failed');
    verifyLine('CLI verify of SQLite, 100,000 events + 100 cps', db.ms);
    // The baseline: the chain alone over the same rows, as `verify` ran before checkpoints.
    const again = await openStore(`sqlite:${dbPath}`, { hash });
    try {
      const chain = await timeAsync(() => verifyChain(again.iterateStoredAudit(), hash));
      if (!chain.value.ok) throw new Error('chain does not verify');
      console.log(
        `${'  the chain alone on the same rows'.padEnd(46)} ${(chain.ms / 1000).toFixed(2)} s   checkpoints add ${(((db.ms - chain.ms) / chain.ms) * 100).toFixed(0)} %`,
      );
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
