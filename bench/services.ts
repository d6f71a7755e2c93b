import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Transport } from '../src/client/http.js';
import type { VideoClient } from '../src/client/types.js';
import { buildDist, fromDist, median, roundsOf } from './shared.js';
import { durableWrites } from './slack-target.js';

/**
 * vidops' own code on an unblock's path, apart from HTTP and Bolt: a direct unblock through the
 * services and the SQLite store (the replay key, `prepare` with its look-up, `submit`), the
 * video service answering in memory, against the same writes made by hand (the durable got
 * floor's, bench/slack-target.ts) on a file of their own, in the same process, round by round.
 * What it prices is what vidops' code adds to the durability: seals, policy, the request and
 * events built and read as objects, canonical JSON, the client's checks. Without sockets or a
 * second process its CPU figures spread less than the flood's (still about ±20% run to run), and
 * the KB allocated per unblock repeat to within 1 KB, so a trim of allocation shows at once.
 * `npm run bench -- services [--rounds=N]`.
 */

const WARM = 2_000;
const PER_ROUND = 3_000;
/** A round alternates the two sides in chunks this long, so that drift of the machine hits both. */
const CHUNK = 250;
/** Unblocks whose allocations are sampled, per side. */
const SAMPLED = 1_000;
const ROUNDS = roundsOf(process.argv, 3);

type Side = { name: string; one: (n: number) => Promise<void> };

/** The in-memory video service: the look-up finds the viewer blocked, the unblock answers 200. */
const transport: Transport = {
  async request(spec) {
    if (spec.method === 'GET') {
      return {
        items: [{ mobileNumber: String(spec.query?.search ?? ''), blocked: true, actionType: 'block' }],
      };
    }
    return { status: 'ok' };
  },
  close() {},
};

const mobileOf = (n: number) => `0912${String(n % 10_000_000).padStart(7, '0')}`;

async function vidops(dir: string): Promise<Side & { close: () => Promise<void> }> {
  const { openStore } = await fromDist<typeof import('../src/store/index.js')>('store/index.js');
  const { createHasher } = await fromDist<typeof import('../src/core/audit-chain.js')>('core/audit-chain.js');
  const { createOperations } =
    await fromDist<typeof import('../src/services/operations.js')>('services/operations.js');
  const { createViewersResource } =
    await fromDist<typeof import('../src/client/viewers.js')>('client/viewers.js');
  const { IDEMPOTENT_RETRY } = await fromDist<typeof import('../src/client/http.js')>('client/http.js');
  const { inProcessSupportMemory } =
    await fromDist<typeof import('../src/client/support.js')>('client/support.js');
  const { buildPolicy } = await fromDist<typeof import('../src/core/policy.js')>('core/policy.js');
  const { sealKeyOf } = await fromDist<typeof import('../src/core/seal.js')>('core/seal.js');
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
  // Only the viewers are called on this path; the other resources are never reached.
  const client = {
    viewers: createViewersResource(transport, IDEMPOTENT_RETRY, inProcessSupportMemory()),
  } as VideoClient;
  const ops = createOperations({
    store,
    client,
    // As the slack benchmark runs the app: unblocks run at once, with no rate limit.
    policy: buildPolicy({
      leads: ['U0LEAD'],
      fileText: 'viewer.unblock: { rateLimit: null }\n',
      fileName: 'policy.yml',
    }),
    directory: { groupsOf: async () => [], kindOf: async () => 'person' },
    clock: () => new Date(),
    sealKey: sealKeyOf('bench-secret-key'),
  });
  const actor = { id: 'U0BENCHAGENT', name: 'bench' };
  return {
    name: 'vidops: services and store',
    async one(n) {
      if (
        !(await store.markDelivered(`sig:${n}:${randomBytes(8).toString('hex')}`, new Date().toISOString()))
      ) {
        throw new Error('a fresh replay key was taken');
      }
      const prepared = await ops.prepare(actor, { kind: 'viewer.unblock', mobileNumber: mobileOf(n) });
      const done = await ops.submit(actor, prepared);
      if (done.kind !== 'executed' || done.request.state !== 'succeeded') {
        throw new Error(`unblock ${n} ended ${done.kind}`);
      }
    },
    close: () => store.close(),
  };
}

async function byHand(dir: string): Promise<Side & { close: () => void }> {
  const { MIGRATIONS } = await fromDist<typeof import('../src/store/migrations.js')>('store/migrations.js');
  const db = new Database(join(dir, 'by-hand.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const writes = durableWrites(db, MIGRATIONS.sqlite);
  return {
    name: 'the same writes by hand',
    async one(n) {
      if (!writes.firstTime(`sig:${n}:${randomBytes(8).toString('hex')}`)) {
        throw new Error('a fresh replay key was taken');
      }
      const mobile = mobileOf(n);
      const request = writes.intent(
        'U0BENCHAGENT',
        mobile,
        `${mobile.slice(0, 4)}***${mobile.slice(-4)}`,
        true,
      );
      writes.outcome(request, true, { status: '200' });
    },
    close: () => db.close(),
  };
}

let counter = 0;

/** `n` unblocks of `side`, each of a number not used before. */
async function unblocks(side: Side, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    counter += 1;
    await side.one(counter);
  }
}

/** CPU µs per unblock, helper threads included, over `n` unblocks. */
async function cpuPerUnblock(side: Side, n: number): Promise<number> {
  const before = process.cpuUsage();
  await unblocks(side, n);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

/** KB allocated per unblock, from V8's sampling heap profiler, counting what the collectors freed. */
async function allocatedKb(side: Side, n: number): Promise<number> {
  const session = new Session();
  session.connect();
  const post = <R>(method: string, params: object = {}) =>
    new Promise<R>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as R))),
    );
  type Node = { selfSize: number; children: Node[] };
  try {
    await post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await unblocks(side, n);
    const { profile } = await post<{ profile: { head: Node } }>('HeapProfiler.stopSampling');
    const total = (node: Node): number => node.children.reduce((sum, c) => sum + total(c), node.selfSize);
    return total(profile.head) / n / 1024;
  } finally {
    session.disconnect();
  }
}

export async function run(): Promise<void> {
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'vidops-services-'));
  const ours = await vidops(dir);
  const floor = await byHand(dir);
  try {
    for (const side of [ours, floor]) await cpuPerUnblock(side, WARM);
    const rounds: { ours: number; floor: number }[] = [];
    for (let r = 0; r < ROUNDS; r += 1) {
      let ourCpu = 0;
      let floorCpu = 0;
      for (let done = 0; done < PER_ROUND; done += CHUNK) {
        ourCpu += await cpuPerUnblock(ours, CHUNK);
        floorCpu += await cpuPerUnblock(floor, CHUNK);
      }
      const chunks = PER_ROUND / CHUNK;
      rounds.push({ ours: ourCpu / chunks, floor: floorCpu / chunks });
    }
    const ourKb = await allocatedKb(ours, SAMPLED);
    const floorKb = await allocatedKb(floor, SAMPLED);
    const us = (cpu: number) => `${cpu.toFixed(0)} µs`;
    console.log(
      `direct unblocks, ${PER_ROUND} a side a round, alternating ${CHUNK} at a time, after ${WARM} to warm up, in one process on SQLite files (WAL, synchronous=NORMAL):`,
    );
    for (const [i, r] of rounds.entries()) {
      console.log(
        `  round ${i + 1}: ${ours.name} ${us(r.ours)}, ${floor.name} ${us(r.floor)} of CPU per unblock: ` +
          `${(r.ours / r.floor).toFixed(2)}×`,
      );
    }
    const ratios = rounds.map((r) => r.ours / r.floor);
    const extra = median(rounds.map((r) => r.ours - r.floor));
    console.log(
      `CPU per unblock, vidops' services and store / the same writes by hand: ${median(ratios).toFixed(2)}× ` +
        `(median of ${ROUNDS}; ${extra.toFixed(0)} µs more per unblock); allocated per unblock ` +
        `${ourKb.toFixed(0)} KB against ${floorKb.toFixed(0)} KB (${(ourKb / floorKb).toFixed(1)}×)`,
    );
  } finally {
    await ours.close();
    floor.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
