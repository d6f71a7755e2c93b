import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createHasher } from '../../src/core/audit-chain.js';
import type { Actor } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createOperations } from '../../src/services/operations.js';
import { announce, appSweeps } from '../../src/services/sweeps.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { schemaPool, TEST_DATABASE_URL } from './pg-schema.js';

/**
 * Cost that stays flat as the history grows (docs/benchmarks.md, "Aging"): every statement the
 * store runs on a hot path (an unblock, an approval-needing change, App Home, `requests`,
 * `audit`, every sweep, the outbox and notification workers' claims, the metrics gauges) is
 * asked for its plan, on both stores, and none may read a history table whole: it reads through
 * an index, a partial index of open work, or the table's own order up to a LIMIT.
 */

/** The tables that grow with the history. */
const HISTORY = ['requests', 'audit_events', 'outbox', 'deliveries'];
const hash = createHasher();
const agent: Actor = { id: 'U0PLANAGENT', name: 'Ava' };
const lead: Actor = { id: 'U0PLANLEAD', name: 'Lee' };

interface Statement {
  text: string;
  values: unknown[];
}

/** Runs the hot paths on `store`: what they ran is what the spies saw. */
async function hotPaths(store: Store, sandbox: Sandbox): Promise<void> {
  const client = sandboxClient(sandbox.url);
  let now = Date.parse('2026-03-01T10:00:00Z');
  const clock = () => new Date(now);
  const ops = createOperations({
    store,
    client,
    policy: buildPolicy({ leads: [lead.id] }),
    directory: { groupsOf: async () => [], kindOf: async () => 'person' },
    clock,
    sealKey: sealKeyOf(DEMO.secretKey),
  });
  try {
    for (let i = 0; i < 3; i += 1) {
      await store.markDelivered(`plan:${i}`, clock().toISOString());
      const unblock = await ops.prepare(agent, { kind: 'viewer.unblock', mobileNumber: `0912345678${i}` });
      await ops.submit(agent, unblock);
      now += 60_000;
    }
    const change = await ops.prepare(agent, { kind: 'protect.set', changes: { opacity: 0.3 } });
    await ops.submit(agent, change, { reason: 'plans' });
    for (const who of [agent, lead]) {
      await ops.homeRecords(who, 10);
      await ops.listRequests(who);
    }
    await ops.recentAudit(lead, 10);
    const log = { info() {}, debug() {}, error() {} };
    for (const task of appSweeps({ ops, store, clock, log, intervalMs: 30_000, queued() {} })) {
      await task.run();
    }
    await announce({ store, clock, queued() {} });
    const claim = { worker: 'w', requests: 10, leaseMs: 1_000, now: clock().toISOString() };
    await store.ackNotifications(
      (await store.claimNotifications({ ...claim, settledAt: claim.now })).map((j) => j.id),
    );
    await store.ackOutbox((await store.claimOutbox('w', 10, 1_000, claim.now)).map((e) => e.seq));
    await Promise.all([
      store.outboxDepth(),
      store.notificationDepth(),
      store.unpostedCheckpoints(),
      store.oldestPendingAt(),
      store.countPutBacksEscalated(),
    ]);
  } finally {
    client.close();
  }
}

/** Why a SQLite plan line reads a history table whole, or null. */
function sqliteScan(detail: string, sql: string, partial: ReadonlySet<string>): string | null {
  const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(detail);
  if (scan === null || !HISTORY.includes(scan[1] ?? '')) return null;
  if (scan[2] !== undefined && partial.has(scan[2])) return null;
  // The table's (or index's) own order, stopped by a LIMIT: the head, `audit` last N.
  if (!/\bWHERE\b/i.test(sql) && /ORDER BY[^()]*LIMIT/i.test(sql)) return null;
  return detail;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, extras: false });
});
afterAll(() => sandbox.close());

describe('no hot query reads the history whole', () => {
  test('on SQLite, every statement of an unblock, a change, Home, requests, audit, the sweeps and the gauges uses an index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidops-plans-'));
    const seen = new Set<string>();
    const prepare = Database.prototype.prepare;
    const spy = jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      sql: string,
    ) {
      seen.add(sql);
      return prepare.call(this, sql);
    });
    const store = await openStore(`sqlite:${join(dir, 'plans.db')}`, { hash });
    try {
      seen.clear(); // Not the migrations.
      await hotPaths(store, sandbox);
    } finally {
      spy.mockRestore();
      await store.close();
    }
    const db = new Database(join(dir, 'plans.db'), { readonly: true });
    try {
      const partial = new Set(
        db
          .prepare<[], { name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'",
          )
          .all()
          .map((r) => r.name),
      );
      const scans: string[] = [];
      const plans = new Map<string, string>();
      for (const sql of seen) {
        if (!/^\s*(SELECT|UPDATE|DELETE|INSERT)/i.test(sql)) continue;
        const nulls = (sql.match(/\?/g) ?? []).map(() => null);
        const lines = db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all(...nulls)
          .map((row) => (row as { detail: string }).detail);
        plans.set(sql.replace(/\s+/g, ' '), lines.join('; '));
        for (const detail of lines) {
          const why = sqliteScan(detail, sql, partial);
          if (why !== null) scans.push(`${why}: ${sql.replace(/\s+/g, ' ')}`);
        }
      }
      expect(seen.size).toBeGreaterThan(20);
      expect(scans).toEqual([]);
      // Open work through indexes of it alone: a person's open requests, escalated put-backs, and
      // the oldest pending request as the first row of the pending range.
      const planOf = (fragment: string) =>
        [...plans].filter(([sql]) => sql.includes(fragment)).map(([, p]) => p);
      expect(planOf("requester_id = ? AND state IN ('pending'")).toEqual([
        expect.stringContaining('USING INDEX requests_open (requester_id=?)'),
        expect.stringContaining('USING INDEX requests_open (requester_id=?)'),
      ]);
      // Windows in force: `requests_state`'s 'succeeded' range would be the whole history.
      const windows = planOf("WHERE state = 'succeeded' AND json_extract(data, '$.timeBox.state')");
      expect(windows.length).toBeGreaterThan(0);
      for (const plan of windows) expect(plan).toContain('USING INDEX requests_time_box_due');
      expect(planOf("leadTold') = 1")).toEqual([expect.stringContaining('requests_put_back_escalated')]);
      expect(planOf("min(created_at) AS at FROM requests WHERE state = 'pending'")).toEqual([
        expect.stringMatching(/SEARCH requests USING COVERING INDEX requests_(state|pending_expiry)/),
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const onPostgres = TEST_DATABASE_URL === undefined ? test.skip : test;
  onPostgres(
    'on PostgreSQL, the same statements plan no sequential scan of a history table, even when one would be cheap',
    async () => {
      const schemas = schemaPool(TEST_DATABASE_URL ?? '', 'plans');
      const url = schemas.url();
      const seen: Statement[] = [];
      const query = pg.Client.prototype.query;
      const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const [first, second] = args;
        const config = typeof first === 'string' ? { text: first, values: second } : (first as Statement);
        if (typeof config?.text === 'string') {
          seen.push({ text: config.text, values: Array.isArray(config.values) ? config.values : [] });
        }
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query);
      const store = await openStore(url, { hash });
      try {
        seen.length = 0;
        await hotPaths(store, sandbox);
      } finally {
        spy.mockRestore();
        await store.close();
      }
      const schema = new URL(url).searchParams.get('schema') ?? '';
      const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await db.connect();
      try {
        // With sequential scans priced out, a scan that is left is one no index can replace.
        await db.query(`SET search_path = ${schema}; SET enable_seqscan = off`);
        const { rows: indexes } = await db.query<{ indexname: string }>(
          "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '% WHERE %'",
          [schema],
        );
        const partial = new Set(indexes.map((r) => r.indexname));
        const scans: string[] = [];
        for (const { text, values } of seen) {
          if (
            !/^\s*(WITH|SELECT|UPDATE|DELETE|INSERT)/i.test(text) ||
            /pg_advisory|^\s*SELECT 1\b/.test(text)
          ) {
            continue;
          }
          const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
            `EXPLAIN (FORMAT JSON) ${text}`,
            values,
          );
          for (const node of nodesOf(rows[0]?.['QUERY PLAN'][0].Plan)) {
            const scanned = pgScan(node, partial);
            if (scanned !== null) scans.push(`${scanned}: ${text.replace(/\s+/g, ' ')}`);
          }
        }
        expect(seen.length).toBeGreaterThan(20);
        expect(scans).toEqual([]);
      } finally {
        await db.end();
        await schemas.dropAll();
      }
    },
  );
});

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PgNode[];
}

function* nodesOf(node: PgNode | undefined): Generator<PgNode> {
  if (node === undefined) return;
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/** Why a PostgreSQL plan node reads a history table whole, or null. */
function pgScan(node: PgNode, partial: ReadonlySet<string>): string | null {
  const table = node['Relation Name'];
  if (table === undefined || !HISTORY.includes(table)) return null;
  if (node['Node Type'] === 'Seq Scan') return `Seq Scan on ${table}`;
  // An index walked end to end, filtering as it goes (a partial index has its filter built in).
  const walked = /Index/.test(node['Node Type']) && node['Index Cond'] === undefined;
  if (walked && node.Filter !== undefined && !partial.has(node['Index Name'] ?? '')) {
    return `${node['Node Type']} on ${table} filtered by ${node.Filter}`;
  }
  return null;
}
