import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createHasher } from '../../src/core/audit-chain.js';
import type { OperationRequest } from '../../src/core/model.js';
import { openStore } from '../../src/store/index.js';
import type { DueKind, Store } from '../../src/store/store.js';
import { at, newRequest } from './fixtures.js';
import { schemaPool, TEST_DATABASE_URL } from './pg-schema.js';

/**
 * Sweeps read only what is due (docs/benchmarks.md, "Aging"): with thousands of requests waiting
 * for approval, not yet due for anything, and a history of finished ones, every sweep's read of
 * what it owes finds nothing through its own index: one indexed look-up, no row read.
 */

const hash = createHasher();
const NOW = at(60);
const INDEX: Record<DueKind, string> = {
  expiry: 'requests_pending_expiry',
  followUp: 'requests_follow_up_due',
  unannounced: 'requests_unannounced',
  executing: 'requests_executing_since',
  review: 'requests_review_due',
};
const KINDS = Object.keys(INDEX) as DueKind[];
const LATER = at(10 * 24 * 60);

/**
 * `open` requests waiting for approval and announced, their follow-ups next due in ten days, a
 * break-glass change whose review is due then too, a request executing now, and `done` finished.
 */
async function age(store: Store, open: number, done: number): Promise<void> {
  const slack = { channel: 'C0APPROVALS', ts: '1.000' };
  for (let i = 0; i < open; i += 1) {
    const request = newRequest({ id: `R-OPEN-${i}`, expiresAt: LATER, slack });
    await store.createRequest(request, []);
    await store.setFollowUpAt(request.id, LATER);
  }
  for (let i = 0; i < done; i += 1) {
    await store.createRequest(newRequest({ id: `R-DONE-${i}`, state: 'succeeded', slack }), []);
  }
  const breakGlass = { by: { id: 'U0A', name: 'A' }, at: NOW, reason: 'r', reviewDueAt: LATER };
  const glass: Partial<OperationRequest> = { breakGlass: { ...breakGlass, overdueAt: null, review: null } };
  await store.createRequest(newRequest({ id: 'R-GLASS', state: 'succeeded', ...glass }), []);
  await store.createRequest(newRequest({ id: 'R-RUNNING', state: 'executing', updatedAt: NOW }), []);
}

async function nothingDue(store: Store): Promise<void> {
  for (const kind of KINDS) {
    const by = kind === 'executing' ? at(50) : NOW;
    expect({ kind, due: await store.listDue({ kind, by, limit: 100 }) }).toEqual({ kind, due: [] });
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vidops-due-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a sweep with nothing due reads one index entry, however much waits', () => {
  test('on SQLite, with 3,000 requests waiting and 2,000 finished, each sweep searches its own index by due time', async () => {
    const file = join(dir, 'due.db');
    const store = await openStore(`sqlite:${file}`, { hash });
    const seen: string[] = [];
    try {
      await age(store, 3_000, 2_000);
      const prepare = Database.prototype.prepare;
      const spy = jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (
        this: Database.Database,
        sql: string,
      ) {
        seen.push(sql);
        return prepare.call(this, sql);
      });
      try {
        await nothingDue(store);
      } finally {
        spy.mockRestore();
      }
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const plans = seen
        .filter((sql) => sql.includes('due_at'))
        .map((sql) =>
          db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(NOW, '', '', 100)
            .map((row) => (row as { detail: string }).detail)
            .join('; '),
        );
      expect(plans).toEqual(
        KINDS.map((kind) =>
          expect.stringMatching(new RegExp(`^SEARCH requests USING INDEX ${INDEX[kind]} \\(`)),
        ),
      );
    } finally {
      db.close();
    }
  });

  const onPostgres = TEST_DATABASE_URL === undefined ? test.skip : test;
  onPostgres(
    'on PostgreSQL, with 3,000 requests waiting and 3,000 finished, each sweep reads its own index: no row, a few buffers',
    async () => {
      const schemas = schemaPool(TEST_DATABASE_URL ?? '', 'due');
      const url = schemas.url();
      const schema = new URL(url).searchParams.get('schema');
      const store = await openStore(url, { hash });
      const db = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await db.connect();
      const seen: { text: string; values: unknown[] }[] = [];
      try {
        await age(store, 1, 1);
        // Copies of the two, as the store wrote them: thousands of round trips would take minutes.
        await db.query(`SET search_path = ${schema}`);
        await db.query(
          `INSERT INTO requests (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data, follow_up_at)
           SELECT r.id || '-' || g, operation, state, requester_id, created_at, expires_at, updated_at, version, data, follow_up_at
           FROM requests r, generate_series(1, 3000) g WHERE r.id IN ('R-OPEN-0', 'R-DONE-0')`,
        );
        const query = pg.Pool.prototype.query;
        const spy = jest.spyOn(pg.Pool.prototype, 'query').mockImplementation(function (
          this: pg.Pool,
          ...args: unknown[]
        ) {
          const [text, values] = args;
          if (typeof text === 'string' && text.includes('due_at')) {
            seen.push({ text, values: Array.isArray(values) ? values : [] });
          }
          return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof query);
        try {
          await nothingDue(store);
        } finally {
          spy.mockRestore();
        }
      } finally {
        await store.close();
      }
      try {
        await db.query('ANALYZE requests');
        const read: unknown[] = [];
        for (const { text, values } of seen) {
          const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PgNode }] }>(
            `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
            values,
          );
          const scan = scanOf(rows[0]?.['QUERY PLAN'][0].Plan);
          read.push({
            index: scan?.['Index Name'],
            rows: scan?.['Actual Rows'],
            buffers: (scan?.['Shared Hit Blocks'] ?? 0) + (scan?.['Shared Read Blocks'] ?? 0) <= 4,
          });
        }
        expect(read).toEqual(KINDS.map((kind) => ({ index: INDEX[kind], rows: 0, buffers: true })));
      } finally {
        await db.end();
        await schemas.dropAll();
      }
    },
  );
});

interface PgNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PgNode[];
}

/** The plan's scan of `requests`. */
function scanOf(node: PgNode | undefined): PgNode | undefined {
  if (node === undefined || node['Relation Name'] === 'requests') return node;
  for (const child of node.Plans ?? []) {
    const found = scanOf(child);
    if (found !== undefined) return found;
  }
  return undefined;
}
