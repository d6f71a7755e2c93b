import type { Actor } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { say } from '../../src/core/said.js';
import { parseNumberList } from '../../src/core/validate/phone-list.js';
import type { Operations, PrepareInput, SubmitResult } from '../../src/services/types.js';
import { ava, bob, lee, useTwoReplicas, type World } from './replicas.js';

/**
 * A batch of unblocks and each viewer's history (docs/approvals.md, "Many numbers at once"):
 * each number's step shows in that viewer's history and counts toward its repeat guard, a repeat
 * viewer holds the whole batch for a lead, and a batch and a single unblock of one viewer asked
 * at once, on two replicas, count each other. On both stores.
 */

const { kinds, setup } = useTwoReplicas('batchviewers', 2_000);
const X = '09127000001';
const Y = '09127000002';
const Z = '09127000003';

const withRepeat = (w: World, max: number): [Operations, Operations] => {
  const policy = buildPolicy({
    leads: [lee.id],
    fileText: `viewer.unblock: { repeat: { within: 30d, max: ${max} } }\n`,
    fileName: 'policy.yaml',
  });
  return [w.build(0, { policy }), w.build(1, { policy })];
};

async function asked(ops: Operations, by: Actor, input: PrepareInput): Promise<SubmitResult> {
  return ops.submit(by, await ops.prepare(by, input));
}

describe.each(kinds)('a batch and the viewer history (%s)', (kind) => {
  test('an agent unblocks a batch: each number shows in its viewer’s history and counts toward its repeat guard', async () => {
    const w = await setup(kind);
    const [ops] = withRepeat(w, 2);
    expect((await asked(ops, ava, { kind: 'viewer.unblock', mobileNumber: X })).kind).toBe('executed');
    const batch = await asked(ops, bob, { kind: 'viewer.unblock-many', mobileNumbers: [X, Y] });
    expect(batch.kind).toBe('executed');
    if (batch.kind !== 'executed') return;

    const history = await ops.viewerHistory(X);
    expect(history.unblocks.map((u) => [u.requestId, u.requester.id, u.outcome])).toEqual([
      [batch.request.id, bob.id, 'succeeded'],
      [expect.any(String), ava.id, 'succeeded'],
    ]);
    expect(history.inWindow).toBe(2);
    expect((await ops.viewerHistory(Y)).unblocks.map((u) => u.outcome)).toEqual(['succeeded']);
    // The batch was X's 2nd unblock: the next is the 3rd, beyond max, and waits for a lead.
    const third = await asked(ops, ava, { kind: 'viewer.unblock', mobileNumber: X });
    expect(third).toMatchObject({ kind: 'pending', why: say.whyRepeat(3, '0912***0001', 30 * 86_400_000) });
  });

  test('a batch with a repeat viewer inside waits for a lead, the viewer marked before asking', async () => {
    const w = await setup(kind);
    const [ops] = withRepeat(w, 1);
    await asked(ops, ava, { kind: 'viewer.unblock', mobileNumber: X });

    const preview = await ops.previewBatch(
      parseNumberList(`${Y}\n۰۹۱۲۷۰۰۰۰۰۱\nhello 12\n+98 912 700 0002`, 'IR'),
    );
    expect(preview.numbers.map((n) => [n.param, n.repeat?.nth ?? null])).toEqual([
      [Y, null],
      [X, 2],
    ]);
    expect(preview).toMatchObject({ repeats: 1, duplicates: 1, lead: { kind: 'repeats', count: 1 } });
    expect(preview.refused.map((r) => r.line)).toEqual([3]);

    const batch = await asked(ops, bob, { kind: 'viewer.unblock-many', mobileNumbers: [Y, X] });
    expect(batch).toMatchObject({ kind: 'pending', why: say.whyBatchRepeats(1) });
    if (batch.kind === 'pending') expect(batch.request.preview).toMatchObject({ repeats: [X] });
  });

  test('two agents at once, one a batch and one a single unblock of the same viewer: only one passes as its 1st', async () => {
    const w = await setup(kind);
    const [first, second] = withRepeat(w, 1);
    const single = await first.prepare(ava, { kind: 'viewer.unblock', mobileNumber: X });
    const batch = await second.prepare(bob, { kind: 'viewer.unblock-many', mobileNumbers: [Z, X] });
    const results = await Promise.all([first.submit(ava, single), second.submit(bob, batch)]);
    expect(results.map((r) => r.kind).sort()).toEqual(['executed', 'pending']);
  });
});
