import type { BatchCounts } from '../../src/core/batch.js';
import { buildPolicy } from '../../src/core/policy.js';
import { ava, lee, MINUTE, posts, sandbox, useTwoReplicas } from './replicas.js';

/**
 * A long batch against a slow service (docs/approvals.md, "Many numbers at once"): its run
 * renews its claim as it goes, so the other replica's sweep does not take it for interrupted
 * while it is alive, however long it takes. On both stores.
 */

const { kinds, setup } = useTwoReplicas('batchclaim', 2_000);
const UNBLOCK = '/v1/analysis/user/video/anomaly';
const numbers = Array.from({ length: 24 }, (_, i) => `0912${String(7_100_000 + i)}`);

describe.each(kinds)('a long batch keeps its claim (%s)', (kind) => {
  test('an agent’s batch outlasts the stale-execution time against a slow service: the other replica’s sweep leaves it alone', async () => {
    const w = await setup(kind);
    const policy = buildPolicy({ leads: [lee.id], fileText: 'bulk: { maxWithoutApproval: 1000 }\n' });
    // Each number's end is told; `ended(n)` resolves once n numbers have ended.
    let done = 0;
    const waiting: { n: number; resolve: () => void }[] = [];
    const ended = (n: number) => new Promise<void>((resolve) => waiting.push({ n, resolve }));
    const onBatchProgress = (_r: unknown, counts: BatchCounts) => {
      done = counts.done;
      for (const w of waiting) if (done >= w.n) w.resolve();
    };
    const ops = w.build(0, { policy, onBatchProgress });
    sandbox.setFaults([{ method: 'POST', path: UNBLOCK, latencyMs: 60 }]);

    const run = ops.submit(
      ava,
      await ops.prepare(ava, { kind: 'viewer.unblock-many', mobileNumbers: numbers }),
    );
    await ended(1);
    // Ten minutes pass, as a slow service would make them, while the run is still going; by the
    // time 5 more numbers have ended, one was begun after that (4 go at once).
    w.advance(10 * MINUTE);
    await ended(done + 5);
    const [executing] = await w.stores[0].listRequests({ states: ['executing'], limit: 1 });
    const swept = await w.build(1, { policy }).resumeInterrupted();
    expect(swept).toEqual({ resumed: [], unknown: [] });

    const result = await run;
    expect(result).toMatchObject({ kind: 'executed', request: { state: 'succeeded' } });
    expect(posts(UNBLOCK)).toHaveLength(numbers.length);
    expect((await w.stores[1].listSteps(executing?.id ?? '')).map((s) => s.state)).toEqual(
      numbers.map(() => 'done'),
    );
  });
});
