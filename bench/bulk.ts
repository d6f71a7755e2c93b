import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, fromDist, sandboxClientOptions } from './shared.js';

/**
 * A batch of 500 unblocks (`viewer.unblock-many`) against the documented-only sandbox answering
 * each unblock after 50 ms, against single unblocks of as many other numbers in the same run
 * and process, four at a time as the batch sends them: wall time and CPU per number. The sandbox
 * runs in this process, so its CPU counts on both sides alike. Goal: per-number CPU of the batch
 * at most that of a single unblock. `npm run bench -- bulk`.
 */

const SIZE = 500;
const LATENCY_MS = 50;
const AT_ONCE = 4;
const UNBLOCK = '/v1/analysis/user/video/anomaly';

const mobileOf = (n: number) => `0912${String(n).padStart(7, '0')}`;

export async function run(): Promise<void> {
  buildDist();
  const { openStore } = await fromDist<typeof import('../src/store/index.js')>('store/index.js');
  const { createHasher } = await fromDist<typeof import('../src/core/audit-chain.js')>('core/audit-chain.js');
  const { createOperations } =
    await fromDist<typeof import('../src/services/operations.js')>('services/operations.js');
  const { createVideoClient } = await fromDist<typeof import('../src/client/index.js')>('client/index.js');
  const { startSandbox } = await fromDist<typeof import('../src/sandbox/server.js')>('sandbox/server.js');
  const { buildPolicy } = await fromDist<typeof import('../src/core/policy.js')>('core/policy.js');
  const { sealKeyOf } = await fromDist<typeof import('../src/core/seal.js')>('core/seal.js');

  const dir = mkdtempSync(join(tmpdir(), 'vidops-bulk-'));
  const sandbox = await startSandbox({ port: 0, extras: false });
  sandbox.setFaults([{ method: 'POST', path: UNBLOCK, latencyMs: LATENCY_MS }]);
  const store = await openStore(`sqlite:${join(dir, 'vidops.db')}`, { hash: createHasher() });
  const client = createVideoClient(sandboxClientOptions(sandbox.url));
  const ops = createOperations({
    store,
    client,
    // Both sides run at once: no rate limit, no lead for the batch's size.
    policy: buildPolicy({
      leads: ['U0LEAD'],
      fileText: 'viewer.unblock: { rateLimit: null }\nbulk: { maxWithoutApproval: 1000 }\n',
      fileName: 'policy.yml',
    }),
    directory: { groupsOf: async () => [], kindOf: async () => 'person' },
    clock: () => new Date(),
    sealKey: sealKeyOf('bench-secret-key'),
  });
  const actor = { id: 'U0BENCHAGENT', name: 'bench' };
  const measure = async (work: () => Promise<void>) => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work();
    const used = process.cpuUsage(cpu);
    return { ms: (performance.now() - started) / SIZE, cpuUs: (used.user + used.system) / SIZE };
  };
  try {
    const singles = async (from: number) => {
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < SIZE; i = next++) {
          const input = { kind: 'viewer.unblock' as const, mobileNumber: mobileOf(from + i) };
          const done = await ops.submit(actor, await ops.prepare(actor, input));
          if (done.kind !== 'executed' || done.request.state !== 'succeeded')
            throw new Error('single failed');
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
    };
    const batch = async (from: number) => {
      const mobileNumbers = Array.from({ length: SIZE }, (_, i) => mobileOf(from + i));
      const input = { kind: 'viewer.unblock-many' as const, mobileNumbers };
      const done = await ops.submit(actor, await ops.prepare(actor, input));
      if (done.kind !== 'executed' || done.request.state !== 'succeeded') throw new Error('batch failed');
    };
    // Warm up both paths, then measure each once on numbers not used before.
    await singles(1_000_000);
    await batch(2_000_000);
    const single = await measure(() => singles(3_000_000));
    const bulk = await measure(() => batch(4_000_000));
    const line = (name: string, r: { ms: number; cpuUs: number }) =>
      `  ${name}: ${r.ms.toFixed(1)} ms and ${r.cpuUs.toFixed(0)} µs of CPU per number`;
    console.log(
      `${SIZE} numbers, the sandbox answering each unblock after ${LATENCY_MS} ms, ${AT_ONCE} at a time, SQLite file:`,
    );
    console.log(line(`single unblocks (${SIZE} requests)`, single));
    console.log(line(`one batch of ${SIZE} (one request)`, bulk));
    console.log(
      `per number, batch / single unblocks: time ${(bulk.ms / single.ms).toFixed(2)}×, CPU ${(bulk.cpuUs / single.cpuUs).toFixed(2)}× (goal: CPU at most 1×)`,
    );
  } finally {
    client.close();
    await store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
