import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createHasher, verifyChain } from '../src/core/audit-chain.js';
import { canonicalJson } from '../src/core/json.js';
import type { NewAuditEvent } from '../src/core/model.js';
import { openStore } from '../src/store/index.js';
import type { Store } from '../src/store/store.js';

/**
 * Audit appends per second, each one event in its own transaction (what an approval click costs),
 * against a baseline of raw single-row INSERTs (autocommit) of the same JSON into a plain table in
 * the same database, same run. The ratio is the price of the chain: lock, head read, hash, outbox.
 * Then `verifyChain` over `iterateAudit` for 100,000 events generated through the store.
 * Goals: ≥ 2,000 appends/s on SQLite (file, WAL); verify of 100k < 2 s.
 */

const SQLITE_APPENDS = 5_000;
const PG_APPENDS = 1_000;
const PG_WRITERS = 8;
const VERIFY_EVENTS = 100_000;
const GENERATE_BATCH = 1_000;

const hash = createHasher();

function event(i: number): NewAuditEvent {
  return {
    id: randomUUID(),
    type: i % 3 === 0 ? 'requested' : i % 3 === 1 ? 'approved' : 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, 0, i)).toISOString(),
    actor: { id: 'U0AGENT', name: 'Sara (support)' },
    operation: 'viewer.unblock',
    target: '09123456789',
    params: { mobileNumber: '09123456789' },
    requestId: `R-${String(i).padStart(8, '0')}`,
    outcome: { status: 200, message: 'viewer unblocked' },
    error: null,
  };
}

const perSecond = (n: number, ms: number) => (n / ms) * 1000;
const fmt = (rate: number) => `${Math.round(rate).toLocaleString('en-US').padStart(7)}/s`;

function line(label: string, rate: number, baseline: number): void {
  console.log(
    `${label.padEnd(34)} appends ${fmt(rate)}   raw INSERT ${fmt(baseline)}   ratio ${(rate / baseline).toFixed(2)}`,
  );
}

async function timeAppends(store: Store, n: number, writers = 1): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < n) {
        next += 1;
        await store.appendAudit([event(next)]);
      }
    }),
  );
  return perSecond(n, performance.now() - start);
}

async function timeVerify(store: Store, label: string): Promise<void> {
  const head = await store.auditHead();
  let have = head?.seq ?? 0;
  while (have < VERIFY_EVENTS) {
    const batch = Array.from({ length: Math.min(GENERATE_BATCH, VERIFY_EVENTS - have) }, (_, i) =>
      event(have + i),
    );
    have += (await store.appendAudit(batch)).length;
  }
  const start = performance.now();
  const result = await verifyChain(store.iterateAudit(), hash);
  const ms = performance.now() - start;
  if (!result.ok) throw new Error(`${label}: chain does not verify: ${result.reason}`);
  console.log(
    `${`${label} verify ${result.count.toLocaleString('en-US')} events`.padEnd(34)} ${(ms / 1000).toFixed(2)} s` +
      `   ${fmt(perSecond(result.count, ms))}   (goal < 2 s)`,
  );
}

async function sqlite(dir: string, synchronous: 'normal' | 'full'): Promise<void> {
  const path = join(dir, `bench-${synchronous}.db`);
  const store = await openStore(`sqlite:${path}?synchronous=${synchronous}`, { hash });
  const raw = new Database(path);
  raw.pragma(`synchronous = ${synchronous}`);
  raw.exec('CREATE TABLE bench_raw (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = raw.prepare('INSERT INTO bench_raw (v) VALUES (?)');
  try {
    // Warm both paths (statement caches, file growth) before timing.
    for (let i = 0; i < 200; i += 1) {
      await store.appendAudit([event(i)]);
      insert.run(canonicalJson(event(i)));
    }
    const start = performance.now();
    for (let i = 0; i < SQLITE_APPENDS; i += 1) insert.run(canonicalJson(event(i)));
    const baseline = perSecond(SQLITE_APPENDS, performance.now() - start);
    const rate = await timeAppends(store, SQLITE_APPENDS);
    line(`SQLite WAL synchronous=${synchronous}`, rate, baseline);
    if (synchronous === 'normal') {
      console.log(`${''.padEnd(34)} goal ≥ 2,000/s: ${rate >= 2_000 ? 'met' : 'NOT met'}`);
      await timeVerify(store, 'SQLite');
    }
  } finally {
    raw.close();
    await store.close();
  }
}

async function postgres(base: string): Promise<void> {
  const schema = `vidops_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  const store = await openStore(url.toString(), { hash });
  const raw = new pg.Pool({ connectionString: base, options: `-c search_path=${schema}`, max: PG_WRITERS });
  try {
    await raw.query('CREATE TABLE bench_raw (id BIGSERIAL PRIMARY KEY, v TEXT NOT NULL)');
    const rawInserts = async (n: number, writers: number): Promise<number> => {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async () => {
          while (next < n) {
            next += 1;
            await raw.query('INSERT INTO bench_raw (v) VALUES ($1)', [canonicalJson(event(next))]);
          }
        }),
      );
      return perSecond(n, performance.now() - start);
    };
    await rawInserts(100, 1);
    await timeAppends(store, 100);
    line('PostgreSQL, 1 writer', await timeAppends(store, PG_APPENDS), await rawInserts(PG_APPENDS, 1));
    line(
      `PostgreSQL, ${PG_WRITERS} writers`,
      await timeAppends(store, PG_APPENDS, PG_WRITERS),
      await rawInserts(PG_APPENDS, PG_WRITERS),
    );
    await timeVerify(store, 'PostgreSQL');
  } finally {
    await raw.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await raw.end();
    await store.close();
  }
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-store-'));
  try {
    await sqlite(dir, 'normal');
    await sqlite(dir, 'full');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pgUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
  if (pgUrl) await postgres(pgUrl);
  else console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
}
