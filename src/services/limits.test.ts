import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxClient } from '../../test/sandbox-client.js';
import { schemaPool, TEST_DATABASE_URL } from '../../test/store/pg-schema.js';
import type { VideoClientHandle } from '../client/index.js';
import { createHasher, verifyChain } from '../core/audit-chain.js';
import type { Actor } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { say } from '../core/said.js';
import { sealKeyOf } from '../core/seal.js';
import { english } from '../i18n/said.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { openStore, type Store } from '../store/index.js';
import { createOperations } from './operations.js';
import type { Directory, Operations } from './types.js';

/**
 * Limits under concurrency, at the services: two replicas (two `Operations`, each with its own
 * store connection to one database) take one agent's requests at the same moment. The directory
 * holds every caller until all have asked it, so all of them reach the limit's count together:
 * the worst interleaving, every time. At most the limit runs; the rest get the documented answer.
 * @see docs/architecture.md, "Approvals" and "Break-glass and delegation"
 */

const hash = createHasher();
const NOW = new Date('2026-11-21T10:00:00.000Z');
const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
const LEADS = ['U0LEAD1', 'U0LEAD2'];

/**
 * A directory that holds the first `n` look-ups until all `n` have come (then answers at once):
 * the replicas' requests then go on from the same moment.
 */
function gatedDirectory(): Directory & { holdNext(n: number): void } {
  let waiting = 0;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  return {
    holdNext(n) {
      waiting = n;
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    async groupsOf() {
      if (waiting > 0) {
        waiting -= 1;
        if (waiting === 0) open();
        await gate;
      }
      return [];
    },
  };
}

interface Replicas {
  ops: [Operations, Operations];
  stores: [Store, Store];
  directory: ReturnType<typeof gatedDirectory>;
  close(): Promise<void>;
}

let sandbox: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'vidops-limits-'));
const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'svclimits');
let files = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, conversionDelayMs: 50 });
});

afterAll(async () => {
  await sandbox.close();
  await schemas?.dropAll();
  rmSync(dir, { recursive: true, force: true });
});

async function replicas(url: string, policyFile: string): Promise<Replicas> {
  sandbox.reset();
  const policy = buildPolicy({
    leads: LEADS,
    agents: [ava.id],
    fileText: policyFile,
    fileName: 'policy.yaml',
  });
  const directory = gatedDirectory();
  const stores = await Promise.all([openStore(url, { hash }), openStore(url, { hash })]);
  // Connections opened before the race (a pool opens one per query at once), as a busy replica has them.
  await Promise.all(stores.flatMap((store) => Array.from({ length: 8 }, () => store.ping())));
  const clients: VideoClientHandle[] = [];
  const ops = stores.map((store) => {
    const client = sandboxClient(sandbox.url);
    clients.push(client);
    return createOperations({
      store,
      client,
      policy,
      directory,
      clock: () => NOW,
      sealKey: sealKeyOf(DEMO.secretKey),
    });
  });
  const [a, b] = ops;
  const [s, t] = stores;
  if (a === undefined || b === undefined || s === undefined || t === undefined)
    throw new Error('two replicas');
  return {
    ops: [a, b],
    stores: [s, t],
    directory,
    async close() {
      for (const client of clients) client.close();
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

function unblocks(): number {
  return sandbox.requests().filter((r) => r.method === 'POST' && r.path === UNBLOCK_PATH).length;
}

const databases: [string, () => string][] = [
  [
    'an SQLite file',
    () => {
      files += 1;
      return `sqlite:${join(dir, `limits-${files}.db`)}`;
    },
  ],
];
if (schemas !== null) databases.push(['PostgreSQL', () => schemas.url()]);

describe.each(databases)('two replicas on %s', (_name, databaseUrl) => {
  let r: Replicas;

  afterEach(async () => {
    const verdict = await verifyChain(r.stores[0].iterateAudit(), hash);
    await r.close();
    expect(verdict).toMatchObject({ ok: true });
  });

  it('an agent asks for eight unblocks at once with a limit of 2 per hour: two run, six wait for a lead as over the rate limit', async () => {
    r = await replicas(databaseUrl(), 'viewer.unblock: { rateLimit: { max: 2, per: 1h } }\n');
    const prepared = await r.ops[0].prepare(ava, { kind: 'viewer.unblock', mobileNumber: '09351234500' });

    r.directory.holdNext(8);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => r.ops[i % 2 === 0 ? 0 : 1].submit(ava, prepared)),
    );

    expect(results.filter((x) => x.kind === 'executed')).toHaveLength(2);
    const waiting = results.filter((x) => x.kind === 'pending');
    expect(waiting).toHaveLength(6);
    for (const result of waiting) expect(result).toMatchObject({ why: say.whyRateLimit(2, '1h') });
    expect(unblocks()).toBe(2);
    const events = await r.stores[1].listAudit();
    expect(events.filter((e) => e.type === 'requested')).toHaveLength(8);
    expect(events.filter((e) => e.type === 'executing')).toHaveLength(2);
  });

  it('an agent breaks the glass on four pending requests at once with a limit of 1 per 24 hours: one runs, three are refused with the limit and stay pending', async () => {
    r = await replicas(
      databaseUrl(),
      `viewer.unblock: { approval: true, breakGlass: { allowed: [${ava.id}], reviewWithin: 1h, max: 1, per: 24h } }\n`,
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const prepared = await r.ops[0].prepare(ava, {
        kind: 'viewer.unblock',
        mobileNumber: `0935123450${i}`,
      });
      const result = await r.ops[0].submit(ava, prepared, { reason: 'locked out before an exam' });
      if (result.kind !== 'pending') throw new Error(`expected pending, got ${result.kind}`);
      ids.push(result.request.id);
    }

    r.directory.holdNext(4);
    const results = await Promise.all(
      ids.map((id, i) =>
        r.ops[i % 2 === 0 ? 0 : 1].breakGlass(id, ava, { reason: 'exam starts now', words: 'break glass' }),
      ),
    );

    expect(results.filter((x) => x.kind === 'executed')).toHaveLength(1);
    const refused = results.filter((x) => x.kind === 'refused');
    expect(refused).toHaveLength(3);
    for (const result of refused)
      expect(result).toMatchObject({ reason: english(say.glassRateLimited(1, '24h')) });
    expect(unblocks()).toBe(1);
    const states = await Promise.all(ids.map(async (id) => (await r.stores[1].getRequest(id))?.state));
    expect(states.sort()).toEqual(['pending', 'pending', 'pending', 'succeeded']);
    const events = await r.stores[1].listAudit();
    expect(events.filter((e) => e.type === 'break-glass')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'executing')).toHaveLength(1);
    const denied = events.filter((e) => e.type === 'denied');
    expect(denied).toHaveLength(3);
    for (const event of denied) expect(event.outcome).toMatchObject({ action: 'break-glass' });
  });
});
