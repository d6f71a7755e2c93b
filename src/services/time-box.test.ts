import { sandboxClient } from '../../test/sandbox-client.js';
import type { VideoClientHandle } from '../client/index.js';
import { createHasher, verifyChain } from '../core/audit-chain.js';
import { InputError, PolicyDeniedError } from '../core/errors.js';
import type { Actor, AuditEvent, OperationRequest } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { sealKeyOf } from '../core/seal.js';
import type { BoxAsked } from '../core/time-box.js';
import { messageOf } from '../i18n/said.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import { openStore, type Store } from '../store/index.js';
import { createOperations } from './operations.js';
import type { Operations, OperationsDeps, PrepareInput } from './types.js';

/** What a refused call says, in English: the refusal's sentence worded. */
const refusalOf = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => '',
    (error: Error) => messageOf(error),
  );

const hash = createHasher();
const START = new Date('2026-11-26T08:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
const bob: Actor = { id: 'U0AGENT2', name: 'Bob' };
const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };

const forMs = (ms: number, text: string): BoxAsked => ({ kind: 'for', ms, text });

interface Harness {
  ops: Operations;
  store: Store;
  client: VideoClientHandle;
  advance(ms: number): void;
  build(overrides?: Partial<OperationsDeps>): Operations;
  events(requestId: string): Promise<string[]>;
}

let sandbox: Sandbox;
let current: Harness | null = null;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, extras: false });
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(async () => {
  if (!current) return;
  const { store, client } = current;
  current = null;
  const verdict = await verifyChain(store.iterateAudit(), hash);
  client.close();
  await store.close();
  expect(verdict).toMatchObject({ ok: true });
});

async function setup(policyFile?: string): Promise<Harness> {
  sandbox.reset();
  const store = await openStore('sqlite::memory:', { hash });
  const client = sandboxClient(sandbox.url);
  let now = START;
  const policy = buildPolicy({ leads: [lee.id], fileText: policyFile, fileName: 'policy.yaml' });
  const base: OperationsDeps = {
    store,
    client,
    policy,
    directory: { groupsOf: async () => [] },
    clock: () => now,
    sealKey: sealKeyOf(DEMO.secretKey),
    timeZone: 'Asia/Tehran',
  };
  current = {
    ops: createOperations(base),
    store,
    client,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    build: (overrides = {}) => createOperations({ ...base, ...overrides }),
    async events(requestId) {
      const all: AuditEvent[] = await store.listAudit();
      return all.filter((e) => e.requestId === requestId).map((e) => e.type);
    },
  };
  return current;
}

/** Asks for a change for a while and has the lead approve it; the approved request. */
async function timeBoxed(
  h: Harness,
  input: PrepareInput,
  asked: BoxAsked,
  by = ava,
): Promise<OperationRequest> {
  const prepared = await h.ops.prepare(by, input);
  const submitted = await h.ops.submit(by, prepared, { timeBox: asked });
  if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
  const decided = await h.ops.approve(submitted.request.id, lee);
  if (decided.kind !== 'executed') throw new Error(`expected executed, got ${decided.kind}`);
  expect(decided.request.state).toBe('succeeded');
  return decided.request;
}

const config = () => sandbox.state().config as unknown as Record<string, unknown>;
const posts = (path: string) =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === path).length;

describe('a time-boxed protection change', () => {
  it('an agent turns preventZoom on for 2 hours; at the end vidops turns it back off, once', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(2 * HOUR, '2h'),
    );
    expect(config().preventZoom).toBe(true);
    expect(change.undo).toEqual({
      kind: 'protection',
      rows: [{ field: 'preventZoom', before: false, after: true }],
    });
    expect(change.timeBox).toMatchObject({
      state: 'waiting',
      endsAt: new Date(START.getTime() + 2 * HOUR).toISOString(),
    });

    h.advance(HOUR);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(true);

    h.advance(HOUR);
    sandbox.clearRequests();
    const swept = await h.ops.sweepTimeBoxes();
    expect(swept.putBack.map((r) => r.id)).toEqual([change.id]);
    expect(config().preventZoom).toBe(false);
    const after = await h.store.getRequest(change.id);
    expect(after?.timeBox).toMatchObject({ state: 'done', conflicts: [] });
    const putBack = await h.store.getRequest(after?.timeBox?.requestId ?? '');
    expect(putBack).toMatchObject({
      state: 'succeeded',
      quorum: 0,
      revertOf: { id: change.id, kind: 'put-back' },
      requester: { id: 'system' },
    });
    expect(await h.events(change.id)).toEqual(expect.arrayContaining(['reverting', 'reverted']));
    expect(await h.events(change.id)).not.toContain('revert-conflict');

    await h.ops.sweepTimeBoxes();
    expect(posts('/v1/storage/protect/config')).toBe(1);
    expect(await h.ops.timeBoxesInForce()).toEqual([]);
  });

  it('a lead approves a time-boxed change: what it will put back is in the audit log before it is sent', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true, opacity: 0.2 } },
      forMs(2 * HOUR, '2h'),
    );
    expect(await h.events(change.id)).toEqual([
      'requested',
      'approved',
      'executing',
      'window-changed',
      'succeeded',
    ]);
    const recorded = (await h.store.listAudit()).find((e) => e.type === 'window-changed');
    expect(recorded?.actor.id).toBe('system');
    expect(recorded?.outcome).toMatchObject({
      recorded: ['opacity', 'preventZoom'],
      undo: {
        kind: 'protection',
        rows: [
          { field: 'opacity', before: 0.6, after: 0.2 },
          { field: 'preventZoom', before: false, after: true },
        ],
      },
    });
  });

  it('a field someone else changed meanwhile is left as they set it, and the put-back says so', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true, opacity: 0.3 } },
      forMs(30 * MINUTE, '30m'),
    );
    // Bob's change of opacity, approved meanwhile (0.45 is read back by the service as it is).
    const other = await h.ops.submit(
      bob,
      await h.ops.prepare(bob, { kind: 'protect.set', changes: { opacity: 0.45 } }),
    );
    if (other.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(other.request.id, lee);

    h.advance(31 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(false);
    expect(config().opacity).toBe(0.45);
    const after = await h.store.getRequest(change.id);
    expect(after?.timeBox).toMatchObject({
      state: 'done',
      conflicts: [{ item: 'opacity', now: 0.45, heldBy: null }],
    });
    expect(await h.events(change.id)).toEqual(
      expect.arrayContaining(['reverting', 'reverted', 'revert-conflict']),
    );
  });

  it('everything changed since: nothing is sent, the change is left and says so', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { opacity: 0.3 } },
      forMs(30 * MINUTE, '30m'),
    );
    const other = await h.ops.submit(
      bob,
      await h.ops.prepare(bob, { kind: 'protect.set', changes: { opacity: 0.9 } }),
    );
    if (other.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(other.request.id, lee);
    sandbox.clearRequests();
    h.advance(31 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(posts('/v1/storage/protect/config')).toBe(0);
    expect((await h.store.getRequest(change.id))?.timeBox).toMatchObject({ state: 'left', requestId: null });
    expect(await h.events(change.id)).toContain('revert-conflict');
  });

  it('a second window on a held field is refused, naming the holder; once the first went back it can be asked', async () => {
    const h = await setup();
    const first = await timeBoxed(h, { kind: 'protect.set', changes: { opacity: 0.4 } }, forMs(HOUR, '1h'));
    h.advance(10 * MINUTE);
    const prepared = await h.ops.prepare(bob, { kind: 'protect.set', changes: { opacity: 0.3 } });
    expect(await refusalOf(h.ops.submit(bob, prepared, { timeBox: forMs(3 * HOUR, '3h') }))).toContain(
      `opacity is held by ${first.id}`,
    );
    h.advance(HOUR);
    await h.ops.sweepTimeBoxes();
    expect(config().opacity).toBe(0.6);
    const second = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { opacity: 0.3 } },
      forMs(3 * HOUR, '3h'),
      bob,
    );
    h.advance(3 * HOUR);
    await h.ops.sweepTimeBoxes();
    expect(config().opacity).toBe(0.6);
    expect((await h.store.getRequest(second.id))?.timeBox?.state).toBe('done');
  });

  it('the service is down at the end: retried with backoff, a lead told after an hour, put back once it answers', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(HOUR, '1h'),
    );
    sandbox.setFaults([{ status: 503 }]);
    h.advance(HOUR);
    await h.ops.sweepTimeBoxes();
    let box = (await h.store.getRequest(change.id))?.timeBox;
    expect(box).toMatchObject({
      state: 'retrying',
      attempts: 1,
      failingSince: new Date(START.getTime() + HOUR).toISOString(),
    });
    expect(box?.nextAt).toBe(new Date(START.getTime() + HOUR + MINUTE).toISOString());
    for (let i = 0; i < 12; i += 1) {
      h.advance(15 * MINUTE);
      const swept = await h.ops.sweepTimeBoxes();
      if (swept.escalated.length > 0) break;
    }
    box = (await h.store.getRequest(change.id))?.timeBox;
    expect(box).toMatchObject({ state: 'retrying', leadTold: true });
    expect(await h.events(change.id)).toEqual(
      expect.arrayContaining(['put-back-retrying', 'put-back-escalated']),
    );
    sandbox.clearFaults();
    h.advance(15 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(false);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
  });
  it('the requester is reminded ten minutes before the end, once', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(HOUR, '1h'),
    );
    h.advance(45 * MINUTE);
    expect((await h.ops.sweepTimeBoxes()).reminded).toEqual([]);
    h.advance(6 * MINUTE);
    expect((await h.ops.sweepTimeBoxes()).reminded.map((r) => r.id)).toEqual([change.id]);
    h.advance(MINUTE);
    expect((await h.ops.sweepTimeBoxes()).reminded).toEqual([]);
    expect((await h.events(change.id)).filter((t) => t === 'put-back-reminded')).toHaveLength(1);
  });

  it('vidops stopped after claiming a put-back but before sending it: it is planned again once stale', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(HOUR, '1h'),
    );
    h.advance(HOUR);
    const claimed = await h.store.getRequest(change.id);
    if (!claimed?.timeBox) throw new Error('expected a time box');
    const box = { ...claimed.timeBox, state: 'running' as const, requestId: 'R-neverwas01', attempts: 1 };
    await h.store.transition(
      change.id,
      claimed.version,
      { timeBox: box },
      new Date(START.getTime() + HOUR).toISOString(),
      [],
    );
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(true);
    h.advance(5 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('retrying');
    h.advance(5 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(false);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
  });
});

describe('a time-boxed whitelist change', () => {
  it('an address added for 30 minutes leaves the list at the end; one added by someone else meanwhile stays', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
      forMs(30 * MINUTE, '30m'),
    );
    const other = await h.ops.submit(
      bob,
      await h.ops.prepare(bob, { kind: 'whitelist.set', change: 'add', ips: ['9.9.9.9'] }),
    );
    if (other.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(other.request.id, lee);
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8', '9.9.9.9']);
    h.advance(30 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(sandbox.state().whitelist).toEqual(['9.9.9.9']);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
  });

  it('vidops stopped during the window: a new instance after the end puts it back once; two sweeping at once, once', async () => {
    const h = await setup();
    await timeBoxed(h, { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] }, forMs(30 * MINUTE, '30m'));
    h.advance(2 * HOUR);
    sandbox.clearRequests();
    const [one, two] = [h.build(), h.build()];
    await Promise.all([one.sweepTimeBoxes(), two.sweepTimeBoxes(), one.sweepTimeBoxes()]);
    expect(sandbox.state().whitelist).toEqual([]);
    expect(posts('/v1/storage/dns/whitelist')).toBe(1);
    const putBacks = (await h.store.listRequests()).filter((r) => r.revertOf?.kind === 'put-back');
    expect(putBacks).toHaveLength(1);
  });
});

describe('what people do with a change in force', () => {
  it('the requester puts it back now; another agent may not', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(4 * HOUR, '4h'),
    );
    const refused = await h.ops.putBackNow(change.id, bob);
    expect(refused).toMatchObject({ kind: 'refused' });
    expect(config().preventZoom).toBe(true);
    const done = await h.ops.putBackNow(change.id, ava);
    expect(done.kind).toBe('putting-back');
    expect(config().preventZoom).toBe(false);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
    expect(await h.ops.putBackNow(change.id, ava)).toMatchObject({ kind: 'refused' });
  });

  it('Extend needs the approval the change did; once applied, the change goes back at the new end', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(30 * MINUTE, '30m'),
    );
    const extended = await h.ops.extend(change.id, ava, forMs(2 * HOUR, '2h'));
    expect(extended.kind).toBe('pending');
    if (extended.kind !== 'pending') return;
    expect(extended.request.timeBox?.extends).toBe(change.id);
    await h.ops.approve(extended.request.id, lee);
    expect((await h.store.getRequest(change.id))?.timeBox).toMatchObject({
      state: 'waiting',
      endsAt: new Date(START.getTime() + 2 * HOUR).toISOString(),
    });
    // The Extend holds nothing of its own: the window it extends carries the new end.
    expect((await h.store.getRequest(extended.request.id))?.timeBox?.state).toBe('cancelled');
    h.advance(31 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(true);
    h.advance(2 * HOUR);
    await h.ops.sweepTimeBoxes();
    expect(config().preventZoom).toBe(false);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
  });

  it('an Extend approved after the first went back is not sent: nothing is left to extend, and it says so', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { opacity: 0.2 } },
      forMs(30 * MINUTE, '30m'),
    );
    const extended = await h.ops.extend(change.id, ava, forMs(HOUR, '1h'));
    if (extended.kind !== 'pending') throw new Error('expected pending');
    h.advance(31 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(config().opacity).toBe(0.6);
    sandbox.clearRequests();
    await h.ops.approve(extended.request.id, lee);
    // The setting stays as it went back: the Extend would have changed the service, not kept it.
    expect(config().opacity).toBe(0.6);
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);
    const extension = await h.store.getRequest(extended.request.id);
    expect(extension?.state).toBe('failed');
    expect(extension?.error?.message).toContain(`${change.id} is no longer in force`);
    expect((await h.store.getRequest(change.id))?.timeBox?.state).toBe('done');
    h.advance(HOUR);
    await h.ops.sweepTimeBoxes();
    expect(config().opacity).toBe(0.6);
  });

  it('a window out of bounds, or one on an operation that cannot go back, is refused and nothing is recorded', async () => {
    const h = await setup();
    const prepared = await h.ops.prepare(ava, { kind: 'protect.set', changes: { preventZoom: true } });
    await expect(h.ops.submit(ava, prepared, { timeBox: forMs(8 * 24 * HOUR, '8d') })).rejects.toThrow(
      InputError,
    );
    await expect(h.ops.submit(ava, prepared, { timeBox: forMs(0, '0m') })).rejects.toThrow(InputError);
    const retry = await h.ops.prepare(ava, { kind: 'folder.create', title: 'Demo' });
    await expect(h.ops.submit(ava, retry, { timeBox: forMs(HOUR, '1h') })).rejects.toThrow(InputError);
    expect(await h.store.listRequests()).toEqual([]);
  });

  it('a policy that requires a window refuses a protection change without one', async () => {
    const h = await setup('protect.set:\n  requireDuration: true\n  maxDuration: 1d\n');
    const prepared = await h.ops.prepare(ava, { kind: 'protect.set', changes: { preventZoom: true } });
    await expect(h.ops.submit(ava, prepared)).rejects.toThrow(InputError);
    await expect(h.ops.submit(ava, prepared, { timeBox: forMs(2 * 24 * HOUR, '2d') })).rejects.toThrow(
      InputError,
    );
    expect((await h.ops.submit(ava, prepared, { timeBox: forMs(HOUR, '1h') })).kind).toBe('pending');
  });
});

describe('Revert', () => {
  it('a lead reverts a done whitelist change: a new request with the inverse, through the same approval', async () => {
    const h = await setup();
    const first = await h.ops.submit(
      ava,
      await h.ops.prepare(ava, { kind: 'whitelist.set', change: 'add', ips: ['1.2.3.4'] }),
    );
    if (first.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(first.request.id, lee);
    const inverse = await h.ops.prepareRevert(first.request.id, ava);
    expect(inverse).toMatchObject({
      operation: 'whitelist.set',
      revertOf: { id: first.request.id, kind: 'revert' },
      preview: { removed: ['1.2.3.4'], after: [] },
    });
    const reverted = await h.ops.submit(ava, inverse);
    expect(reverted.kind).toBe('pending');
    if (reverted.kind !== 'pending') return;
    expect(reverted.request.revertOf).toEqual({ id: first.request.id, kind: 'revert' });
    await h.ops.approve(reverted.request.id, lee);
    expect(sandbox.state().whitelist).toEqual([]);
  });

  it('a Revert approved while the service cannot be read is not sent, and says it could not check', async () => {
    const h = await setup();
    const change = await timeBoxed(h, { kind: 'protect.set', changes: { opacity: 0.2 } }, forMs(HOUR, '1h'));
    const revert = await h.ops.submit(ava, await h.ops.prepareRevert(change.id, ava));
    if (revert.kind !== 'pending') throw new Error('expected pending');
    sandbox.clearRequests();
    sandbox.setFaults([{ status: 503 }]);
    await h.ops.approve(revert.request.id, lee);
    sandbox.clearFaults();
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);
    expect(config().opacity).toBe(0.2);
    const after = await h.store.getRequest(revert.request.id);
    expect(after?.state).toBe('failed');
    expect(after?.error?.name).toBe('NotSent');
    expect(after?.error?.message).toContain('could not be read to check that it still undoes');
  });

  it('an agent asks to revert an Extend: refused, pointing to the Revert of the change, which ends the whole window', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'protect.set', changes: { preventZoom: true } },
      forMs(30 * MINUTE, '30m'),
    );
    const extended = await h.ops.extend(change.id, ava, forMs(2 * HOUR, '2h'));
    if (extended.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(extended.request.id, lee);
    const asked = h.ops.prepareRevert(extended.request.id, ava);
    await expect(asked).rejects.toThrow(InputError);
    expect(await refusalOf(asked)).toBe(
      `${extended.request.id} extends ${change.id}: it changed only when that goes back, so it has no Revert of its own. To undo the change, revert ${change.id}: a Revert ends the whole window, this Extend included.`,
    );
    expect((await h.ops.prepareRevert(change.id, ava)).params).toEqual({ changes: { preventZoom: false } });
  });

  it('a Revert approved after the window went back is not sent, though the address was added again by hand', async () => {
    const h = await setup();
    const change = await timeBoxed(
      h,
      { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
      forMs(30 * MINUTE, '30m'),
    );
    const revert = await h.ops.submit(ava, await h.ops.prepareRevert(change.id, ava));
    if (revert.kind !== 'pending') throw new Error('expected pending');
    h.advance(31 * MINUTE);
    await h.ops.sweepTimeBoxes();
    expect(sandbox.state().whitelist).toEqual([]);
    await h.client.whitelist.replace(['5.6.7.8']);
    await h.ops.approve(revert.request.id, lee);
    expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    const after = await h.store.getRequest(revert.request.id);
    expect(after?.state).toBe('failed');
    expect(after?.error?.message).toBe(
      `${revert.request.id} was not sent: nothing of ${change.id} is left to revert, as its window has ended already (it was put back, or reverted). Nothing was changed.`,
    );
    expect(await refusalOf(h.ops.prepareRevert(change.id, ava))).toBe(
      `Nothing of ${change.id} is left to revert, as its window has ended already (it was put back, or reverted).`,
    );
  });

  it('two Reverts of a change made without a window: once one is asked, a second is refused; one approved late is not sent', async () => {
    const h = await setup();
    const asked = await h.ops.submit(
      ava,
      await h.ops.prepare(ava, { kind: 'protect.set', changes: { preventZoom: true } }),
    );
    if (asked.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(asked.request.id, lee);
    const change = asked.request.id;
    // Both prepared before either is asked, as two people looking at one change at once.
    const [one, two] = [await h.ops.prepareRevert(change, ava), await h.ops.prepareRevert(change, ava)];
    const first = await h.ops.submit(ava, one);
    if (first.kind !== 'pending') throw new Error('expected pending');
    expect(await refusalOf(h.ops.prepareRevert(change, ava))).toBe(
      `${change} has a Revert already: ${first.request.id}, not done yet or of unknown outcome. A second could undo a change made after the first; nothing was recorded.`,
    );
    const second = await h.ops.submit(ava, two);
    if (second.kind !== 'pending') throw new Error('expected pending');
    await h.ops.approve(first.request.id, lee);
    expect(config().preventZoom).toBe(false);
    await h.client.protection.update({ preventZoom: true });
    await h.ops.approve(second.request.id, lee);
    expect(config().preventZoom).toBe(true);
    const after = await h.store.getRequest(second.request.id);
    expect(after?.state).toBe('failed');
    expect(after?.error?.name).toBe('NotSent');
    expect(after?.error?.message).toBe(
      `${second.request.id} was not sent: ${change} was reverted already by ${first.request.id}. Nothing was changed.`,
    );
    expect(await refusalOf(h.ops.prepareRevert(change, ava))).toBe(
      `${change} was reverted already by ${first.request.id}.`,
    );
  });

  it('deletes, creates and undone changes cannot be reverted, and say why; nor by another agent', async () => {
    const h = await setup();
    const created = await h.ops.submit(
      ava,
      await h.ops.prepare(ava, { kind: 'folder.create', title: 'Demo' }),
    );
    expect(
      await refusalOf(h.ops.prepareRevert(created.kind === 'denied' ? '' : created.request.id, ava)),
    ).toMatch(/cannot be reverted/);
    const pending = await h.ops.submit(
      ava,
      await h.ops.prepare(ava, { kind: 'protect.set', changes: { opacity: 0.2 } }),
    );
    if (pending.kind !== 'pending') throw new Error('expected pending');
    expect(await refusalOf(h.ops.prepareRevert(pending.request.id, ava))).toMatch(/has not been applied/);
    await h.ops.approve(pending.request.id, lee);
    await expect(h.ops.prepareRevert(pending.request.id, bob)).rejects.toThrow(PolicyDeniedError);
    expect((await h.ops.prepareRevert(pending.request.id, lee)).params).toEqual({
      changes: { opacity: 0.6 },
    });
  });
});
