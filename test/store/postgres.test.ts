import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import pg from 'pg';
import { verifyChain } from '../../src/core/audit-chain.js';
import { openStore } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import type { Store } from '../../src/store/store.js';
import {
  contractHash,
  describeAuditTampering,
  describeLimitContract,
  describeStoreContract,
  describeUpgrades,
  type TamperableStore,
} from './contract.js';
import { crashAndRecover } from './crash-harness.js';
import { at, collect, dueBy, eventFor, LEAD, newEvent, newRequest } from './fixtures.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from './pg-schema.js';
import { describeViewerContract } from './viewer-contract.js';

if (TEST_DATABASE_URL === undefined) {
  noteSkipped('PostgreSQL store tests');
  describe.skip('PostgreSQL store (needs TEST_DATABASE_URL)', () => {
    it('runs the store contract and the concurrency tests', () => undefined);
  });
} else {
  const schemas = schemaPool(TEST_DATABASE_URL, 'pg');
  afterAll(() => schemas.dropAll());

  describeStoreContract('PostgreSQL', () => openStore(schemas.url(), { hash: contractHash }));

  describeLimitContract('PostgreSQL with two replicas (two pools on one database)', async () => {
    const url = schemas.url();
    const first = await openStore(url, { hash: contractHash });
    return [first, await openStore(url, { hash: contractHash })];
  });

  describeViewerContract(
    'PostgreSQL with two replicas',
    async () => {
      const url = schemas.url();
      const first = await openStore(url, { hash: contractHash });
      return [first, await openStore(url, { hash: contractHash })];
    },
    () => {
      // Every pool's connections are `pg.Client`s: each statement is one `query` call.
      const spy = jest.spyOn(pg.Client.prototype, 'query');
      return {
        stop() {
          const count = spy.mock.calls.length;
          spy.mockRestore();
          return count;
        },
      };
    },
  );

  describeAuditTampering('PostgreSQL', () => tamperable(schemas.url()));

  describeUpgrades('PostgreSQL', async () => {
    const url = schemas.url();
    return { ...(await tamperable(url)), reopen: () => openStore(url, { hash: contractHash }) };
  });

  /** A store on `url` and a way to run SQL on its database behind its back. */
  async function tamperable(url: string): Promise<TamperableStore> {
    const store = await openStore(url, { hash: contractHash });
    const schema = new URL(url).searchParams.get('schema');
    return {
      store,
      // A second connection, as someone with database access would open it.
      async sql(text, params = []) {
        const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await client.connect();
        try {
          await client.query(`SET search_path = ${schema}`);
          // `?` placeholders, as the contract writes them, become `$1`, `$2`…
          const pieces = text.split('?');
          const numbered = pieces.reduce((sql, piece, i) => `${sql}$${i}${piece}`);
          await client.query(numbered, [...params]);
        } finally {
          await client.end();
        }
      },
    };
  }

  it('two replicas start together on a new database: each migration is applied once', async () => {
    const url = schemas.url();
    const replicas = await Promise.all([
      openStore(url, { hash: contractHash }),
      openStore(url, { hash: contractHash }),
    ]);
    await Promise.all(replicas.map((r) => r.close()));
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const schema = new URL(url).searchParams.get('schema');
      const { rows } = await client.query<{ version: number }>(
        `SELECT version FROM ${schema}.schema_migrations ORDER BY version`,
      );
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.postgres.map((m) => m.version));
    } finally {
      await client.end();
    }
  });

  describe('PostgreSQL with two replicas (two pools on one database)', () => {
    let a: Store;
    let b: Store;

    beforeEach(async () => {
      const url = schemas.url();
      // Both replicas start at once: migrations must serialise, not fail.
      [a, b] = await Promise.all([
        openStore(url, { hash: contractHash }),
        openStore(url, { hash: contractHash }),
      ]);
    });

    afterEach(async () => {
      await Promise.all([a.close(), b.close()]);
    });

    it('20 leads approve one request at once: exactly one wins and one executing event is written', async () => {
      const request = newRequest();
      await a.createRequest(request, [eventFor(request, 'requested')]);
      const replicas = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b));

      // Every lead reads the request first (all see version 1), then all race to approve it.
      const seen = await Promise.all(replicas.map((s) => s.getRequest(request.id)));
      const outcomes = await Promise.all(
        replicas.map(async (s, i) => {
          const version = seen[i]?.version ?? -1;
          const lead = { id: `U0LEAD${i}`, name: `Lead ${i}` };
          const approved = await s.transition(
            request.id,
            version,
            { state: 'approved', approvals: [{ by: lead, at: at(1) }] },
            at(1),
            [eventFor(request, 'approved', { actor: lead })],
          );
          if (approved === null) return null;
          return s.transition(request.id, approved.request.version, { state: 'executing' }, at(1), [
            eventFor(request, 'executing', { actor: lead }),
          ]);
        }),
      );

      const winners = outcomes.filter((o) => o !== null);
      expect(winners).toHaveLength(1);
      expect(winners[0]?.request).toMatchObject({ state: 'executing', version: 3 });
      const events = await b.listAudit();
      expect(events.map((e) => e.type)).toEqual(['requested', 'approved', 'executing']);
      expect(await verifyChain(a.iterateAudit(), contractHash)).toMatchObject({ ok: true, count: 3 });
    });

    it('1,000 audit appends from two replicas at once form one unbroken chain', async () => {
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          (i % 2 === 0 ? a : b).appendAudit([newEvent({ id: `ev-${i}`, outcome: { i } })]),
        ),
      );

      const events = await collect(a.iterateAudit(250));
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(new Set(events.map((e) => e.id)).size).toBe(1000);
      const result = await verifyChain(b.iterateAudit(), contractHash);
      expect(result).toEqual({ ok: true, count: 1000, head: await a.auditHead() });
    });

    it('two publishers claim the outbox at once and never post the same event', async () => {
      await a.appendAudit(Array.from({ length: 200 }, (_, i) => newEvent({ outcome: { i } })));
      const claimedBy = new Map<number, string>();
      const publisher = async (store: Store, name: string) => {
        for (;;) {
          const batch = await store.claimOutbox(name, 9, 60_000, at(0));
          if (batch.length === 0) return;
          for (const e of batch) {
            expect(claimedBy.get(e.seq)).toBeUndefined();
            claimedBy.set(e.seq, name);
          }
          await store.ackOutbox(batch.map((e) => e.seq));
        }
      };

      await Promise.all([publisher(a, 'a1'), publisher(a, 'a2'), publisher(b, 'b1'), publisher(b, 'b2')]);

      expect(claimedBy.size).toBe(200);
      expect(await b.outboxDepth()).toBe(0);
    });

    it('two notification workers on each replica while leads keep deciding: each job done once, each request by one worker at a time', async () => {
      const requests = Array.from({ length: 30 }, (_, i) =>
        newRequest({ id: `R-PG${String(i).padStart(3, '0')}` }),
      );
      for (const request of requests) await a.createRequest(request, [eventFor(request, 'requested')]);
      const done = new Map<number, string>();
      const holding = new Map<string, string>();
      const overlaps: string[] = [];
      let deciding = true;
      // Every request changes twice more while the workers drain, from either replica.
      const leads = (async () => {
        await Promise.all(
          requests.map(async (request, i) => {
            const s = i % 2 === 0 ? a : b;
            const approved = await s.transition(request.id, 1, { state: 'approved' }, at(1), [
              eventFor(request, 'approved', { actor: LEAD }),
            ]);
            await s.transition(request.id, approved?.request.version ?? -1, { state: 'executing' }, at(1), [
              eventFor(request, 'executing', { actor: LEAD }),
            ]);
          }),
        );
        deciding = false;
      })();
      const worker = async (store: Store, name: string) => {
        for (;;) {
          const jobs = await store.claimNotifications({
            worker: name,
            requests: 4,
            leaseMs: 60_000,
            now: at(2),
            settledAt: at(2),
          });
          if (jobs.length === 0) {
            if (!deciding && (await store.notificationDepth()) === 0) return;
            continue;
          }
          const mine = new Set(jobs.map((j) => j.requestId));
          for (const id of mine) {
            if (holding.has(id)) overlaps.push(`${id}: ${holding.get(id)} and ${name}`);
            holding.set(id, name);
          }
          for (const job of jobs) {
            if (done.has(job.id)) overlaps.push(`job ${job.id}: ${done.get(job.id)} and ${name}`);
            done.set(job.id, name);
          }
          await new Promise((resolve) => setImmediate(resolve));
          for (const id of mine) holding.delete(id);
          await store.ackNotifications(jobs.map((j) => j.id));
        }
      };

      await Promise.all([leads, worker(a, 'a1'), worker(a, 'a2'), worker(b, 'b1'), worker(b, 'b2')]);

      expect(overlaps).toEqual([]);
      expect(done.size).toBe(90);
      expect(new Set(done.values()).size).toBeGreaterThan(1);
      expect(await b.notificationDepth()).toBe(0);
    });

    it('a Slack retry reaching both replicas is handled once', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).markDelivered('Ev-dup', at(0))),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('a lead decision and an expiry sweep on two replicas: one wins', async () => {
      const request = newRequest({ expiresAt: at(10) });
      await a.createRequest(request, []);
      const [due] = await dueBy(b, at(10));
      expect(due?.id).toBe(request.id);

      const [approve, expire] = await Promise.all([
        a.transition(request.id, 1, { state: 'approved' }, at(10), [
          eventFor(request, 'approved', { actor: LEAD }),
        ]),
        b.transition(request.id, due?.version ?? -1, { state: 'expired' }, at(10), [
          eventFor(request, 'expired'),
        ]),
      ]);

      expect([approve, expire].filter((r) => r !== null)).toHaveLength(1);
      expect((await a.listAudit()).map((e) => e.type)).toHaveLength(1);
    });
  });

  describe('PostgreSQL shared by two processes that are killed at random moments', () => {
    it('keeps the chain, every journaled commit, and exactly-once execution', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'vidops-pg-crash-'));
      try {
        const report = await crashAndRecover(schemas.url(), dir, { rounds: 5, workers: ['a', 'b'] });

        expect(report.problems).toEqual([]);
        expect(report.kills).toBe(10);
        expect(report.succeeded).toBeGreaterThan(0);
        expect(report.events).toBeGreaterThanOrEqual(report.requests * 2);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  });
}
