import {
  approved,
  ava,
  bob,
  CONFIG,
  forMs,
  type Gate,
  gate,
  HOUR,
  holdingProxy,
  lee,
  MINUTE,
  pending,
  posts,
  sandbox,
  urlOf,
  useTwoReplicas,
  WHITELIST,
  type World,
} from '../../test/services/replicas.js';
import type { VideoClientHandle } from '../client/index.js';
import type { OperationRequest } from '../core/model.js';
import { messageOf } from '../i18n/said.js';
import type { Store } from '../store/index.js';
import type { PrepareInput } from './types.js';

/** What a refused call says, in English: the refusal's sentence worded. */
const refusalOf = (call: Promise<unknown>): Promise<string> =>
  call.then(
    () => '',
    (error: Error) => messageOf(error),
  );

/**
 * Attacks on time-boxed changes under concurrency and crashes, at the service/store level: two
 * replicas (two store connections on one database, SQLite file or PostgreSQL), a crash between
 * two writes (an exception thrown by a store wrapper: the "process" is gone and never used again),
 * a paused process that comes back, and people clicking at the same moment as the sweep.
 * A test whose comment starts "Was a defect" failed before the change it names.
 * @see docs/time-boxed.md
 */

const { kinds, setup } = useTwoReplicas('tbr', 5000);

// --- Harness ----------------------------------------------------------------------------------

const config = () => sandbox.state().config as unknown as Record<string, unknown>;
const count = (types: string[], type: string) => types.filter((t) => t === type).length;

async function putBacksOf(w: World, id: string): Promise<OperationRequest[]> {
  return (await w.stores[0].listRequests()).filter(
    (r) => r.revertOf?.kind === 'put-back' && r.revertOf.id === id,
  );
}

/** A "process" whose store dies at a chosen write: `crash` says when, and whether the write lands first. */
function crashing(
  store: Store,
  crash: (method: 'transition' | 'createRequest', args: unknown[]) => Promise<'before' | 'after' | null>,
): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'transition' && prop !== 'createRequest') return fn;
      return async (...args: unknown[]) => {
        const when = await crash(prop, args);
        if (when === 'before') throw new Error('process gone (before the write)');
        const result = await fn(...args);
        if (when === 'after') throw new Error('process gone (after the write)');
        return result;
      };
    },
  });
}

/** A store whose `createRequest` of a put-back request waits at `g` first (a paused process). */
function pausingBeforePutBackCreate(store: Store, g: Gate): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'createRequest') return fn;
      return async (...args: unknown[]) => {
        const request = args[0] as OperationRequest;
        if (request.revertOf?.kind === 'put-back') await g.wait();
        return fn(...args);
      };
    },
  });
}

/** The client with its protection read or write held at a gate, once. */
function holdingProtection(
  client: VideoClientHandle,
  at: { afterGet?: Gate; beforeUpdate?: Gate },
): VideoClientHandle {
  let got = false;
  let updated = false;
  return {
    ...client,
    protection: {
      ...client.protection,
      async get() {
        const read = await client.protection.get();
        if (at.afterGet && !got) {
          got = true;
          await at.afterGet.wait();
        }
        return read;
      },
      async update(changes) {
        if (at.beforeUpdate && !updated) {
          updated = true;
          await at.beforeUpdate.wait();
        }
        return client.protection.update(changes);
      },
    },
  };
}

// --- The attacks ------------------------------------------------------------------------------

describe.each(kinds)('%s', (kind) => {
  describe('clicks racing the sweep', () => {
    test('the requester and a lead click Put back now twice each while two replicas sweep the due change', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      sandbox.clearRequests();
      const results = await Promise.all([
        w.ops.putBackNow(change.id, ava),
        w.other.putBackNow(change.id, lee),
        w.ops.sweepTimeBoxes(),
        w.other.sweepTimeBoxes(),
        w.other.putBackNow(change.id, ava),
        w.ops.putBackNow(change.id, lee),
      ]);
      await w.ops.sweepTimeBoxes();
      await w.other.sweepTimeBoxes();
      expect(posts(CONFIG)).toHaveLength(1);
      expect(config().preventZoom).toBe(false);
      expect(await putBacksOf(w, change.id)).toHaveLength(1);
      const types = await w.events(change.id);
      expect(count(types, 'reverting')).toBe(1);
      expect(count(types, 'reverted')).toBe(1);
      expect((await w.stores[1].getRequest(change.id))?.timeBox?.state).toBe('done');
      // No click is told something false: each was either refused (already put back) or "putting back".
      for (const r of results.slice(0, 2))
        expect(['putting-back', 'refused']).toContain((r as { kind: string }).kind);
    });

    test('two replicas sweep twelve due changes at once: each goes back once, one POST each, all audited once', async () => {
      const w = await setup(kind);
      const sets: Record<string, unknown>[] = [
        { preventZoom: true },
        { ipValidation: true },
        { opacity: 0.3 },
        { speed: 7 },
        { fontSize: 20 },
        { beepVolume: 0.9 },
        { fixWatermark: true },
        { enableBeep: true },
        { faultTolerance: 9 },
        { beepInterval: 42 },
        { displayTextOnScreen: !config().displayTextOnScreen },
        { sendProtectionAlert: !config().sendProtectionAlert },
      ];
      const before = { ...config() };
      const changes: OperationRequest[] = [];
      for (const [i, set] of sets.entries()) {
        changes.push(
          await approved(
            w,
            { kind: 'protect.set', changes: set } as PrepareInput,
            forMs(30 * MINUTE, '30m'),
            i % 2 ? ava : bob,
          ),
        );
      }
      w.advance(2 * HOUR);
      sandbox.clearRequests();
      const third = w.build(1);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes(), third.sweepTimeBoxes()]);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(posts(CONFIG)).toHaveLength(sets.length);
      expect(config()).toEqual(before);
      for (const change of changes) {
        const types = await w.events(change.id);
        expect([change.id, count(types, 'reverting'), count(types, 'reverted')]).toEqual([change.id, 1, 1]);
        expect(await putBacksOf(w, change.id)).toHaveLength(1);
      }
      expect(await w.ops.timeBoxesInForce()).toEqual([]);
    });

    // Was a defect (a lost Extend): the Extend was sent while the sweep's put-back was in flight,
    // and whichever POST landed last won. An Extend now checks, just before it is sent, that the
    // change it extends is still in force and not being put back; otherwise it is not sent.
    test('a lead approves an Extend at the moment the sweep puts the first change back', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(30 * MINUTE, '30m'),
      );
      const extended = await w.ops.extend(change.id, ava, forMs(2 * HOUR, '2h'));
      if (extended.kind !== 'pending') throw new Error('expected pending');
      w.advance(30 * MINUTE);
      const hold = gate();
      const sweeper = w.build(0, { client: holdingProtection(w.client(), { beforeUpdate: hold }) });
      const sweeping = sweeper.sweepTimeBoxes();
      await hold.arrived; // the put-back is claimed and about to be sent
      sandbox.clearRequests();
      const decided = await w.other.approve(extended.request.id, lee);
      expect(decided.kind).toBe('executed');
      hold.open();
      await sweeping;
      await w.other.sweepTimeBoxes();
      // One POST, the put-back's: the Extend was not sent, and says why.
      expect(posts(CONFIG)).toHaveLength(1);
      expect(config().preventZoom).toBe(false);
      const extension = await w.stores[0].getRequest(extended.request.id);
      expect(extension?.state).toBe('failed');
      expect(extension?.error?.message).toContain(`${change.id} is no longer in force`);
      expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('done');
      w.advance(2 * HOUR + MINUTE);
      await w.ops.sweepTimeBoxes();
      expect(config().preventZoom).toBe(false);
    });

    // Ava clicks Extend on two devices with two windows; Lee approves both at once, or one and then
    // the other a minute later (the change is then left to the first, which extends it still).
    test.each([
      ['at once', true],
      ['one after the other', false],
    ])(
      'two Extends of one change are approved %s: the setting stays until the later end, then goes back once',
      async (_, atOnce) => {
        const w = await setup(kind);
        const change = await approved(
          w,
          { kind: 'protect.set', changes: { preventZoom: true } },
          forMs(30 * MINUTE, '30m'),
        );
        const [one, two] = await Promise.all([
          w.ops.extend(change.id, ava, forMs(HOUR, '1h')),
          w.other.extend(change.id, ava, forMs(3 * HOUR, '3h')),
        ]);
        if (one.kind !== 'pending' || two.kind !== 'pending') throw new Error('expected pending');
        if (atOnce) {
          await Promise.all([w.ops.approve(one.request.id, lee), w.other.approve(two.request.id, lee)]);
        } else {
          await w.ops.approve(one.request.id, lee);
          w.advance(MINUTE);
          await w.other.approve(two.request.id, lee);
        }
        // Each Extend moved the one window's end, never earlier: the change holds until the later end.
        expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('waiting');
        expect((await w.stores[0].getRequest(one.request.id))?.state).toBe('succeeded');
        expect((await w.stores[0].getRequest(two.request.id))?.state).toBe('succeeded');
        sandbox.clearRequests();
        for (let t = 0; t < 4 * HOUR; t += 20 * MINUTE) {
          w.advance(20 * MINUTE);
          await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
          const elapsed = t + 20 * MINUTE;
          // In force until the later end (3h after it applied).
          if (elapsed < 3 * HOUR) expect([elapsed, config().preventZoom]).toEqual([elapsed, true]);
        }
        expect(config().preventZoom).toBe(false);
        expect(posts(CONFIG)).toHaveLength(1);
      },
    );
  });

  describe('replicas that crash or stop', () => {
    test('a replica crashes between the claim and creating the put-back; both replicas restart and sweep: put back once', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const doomed = w.build(0, {
        store: crashing(w.stores[0], async (m, args) =>
          m === 'createRequest' && (args[0] as OperationRequest).revertOf?.kind === 'put-back'
            ? 'before'
            : null,
        ),
      });
      await doomed.sweepTimeBoxes(); // the error is logged, the process is gone
      expect((await w.stores[1].getRequest(change.id))?.timeBox?.state).toBe('running');
      expect(config().preventZoom).toBe(true);
      sandbox.clearRequests();
      for (let i = 0; i < 6; i += 1) {
        w.advance(MINUTE);
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes(), w.ops.resumeInterrupted()]);
      }
      expect(config().preventZoom).toBe(false);
      expect(posts(CONFIG)).toHaveLength(1);
      expect(await putBacksOf(w, change.id)).toHaveLength(1);
      const types = await w.events(change.id);
      expect(count(types, 'reverted')).toBe(1);
      expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('done');
    });

    test('a replica crashes after creating the put-back request, before sending it; the restart sends it once', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { opacity: 0.25 } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const doomed = w.build(0, {
        store: crashing(w.stores[0], async (m, args) =>
          m === 'createRequest' && (args[0] as OperationRequest).revertOf?.kind === 'put-back'
            ? 'after'
            : null,
        ),
      });
      await doomed.sweepTimeBoxes();
      const [stuck] = await putBacksOf(w, change.id);
      expect(stuck?.state).toBe('executing');
      sandbox.clearRequests();
      for (let i = 0; i < 5; i += 1) {
        w.advance(MINUTE);
        await Promise.all([
          w.ops.resumeInterrupted(),
          w.other.resumeInterrupted(),
          w.ops.sweepTimeBoxes(),
          w.other.sweepTimeBoxes(),
        ]);
      }
      expect(config().opacity).toBe(0.6);
      expect(posts(CONFIG)).toHaveLength(1);
      expect(await putBacksOf(w, change.id)).toHaveLength(1);
      expect(count(await w.events(change.id), 'reverted')).toBe(1);
      expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('done');
    });

    test('a replica crashes after a protection put-back was sent, before recording it; the restart resends and records it reverted', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const store = w.stores[0];
      const doomed = w.build(0, {
        store: crashing(store, async (m, args) => {
          if (m !== 'transition' || (args[2] as { state?: string }).state !== 'succeeded') return null;
          const r = await store.getRequest(args[0] as string);
          return r?.revertOf?.kind === 'put-back' ? 'before' : null;
        }),
      });
      await doomed.sweepTimeBoxes();
      expect(config().preventZoom).toBe(false);
      for (let i = 0; i < 6; i += 1) {
        w.advance(MINUTE);
        await Promise.all([w.ops.resumeInterrupted(), w.other.resumeInterrupted()]);
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      }
      expect(config().preventZoom).toBe(false);
      const types = await w.events(change.id);
      expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('done');
      expect(count(types, 'reverted')).toBe(1);
      expect(types).not.toContain('revert-conflict');
    });

    // Was a defect: resumed after its POST had landed, a whitelist put-back was refused as
    // "changed since" (the list was no longer expectBefore) and recorded `revert-conflict` with no
    // `reverted`. The client now answers "already as asked" without posting.
    test('a replica crashes after a whitelist put-back was sent, before recording it; the restart records it reverted', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const store = w.stores[0];
      const doomed = w.build(0, {
        store: crashing(store, async (m, args) => {
          if (m !== 'transition' || (args[2] as { state?: string }).state !== 'succeeded') return null;
          const r = await store.getRequest(args[0] as string);
          return r?.revertOf?.kind === 'put-back' ? 'before' : null;
        }),
      });
      await doomed.sweepTimeBoxes();
      expect(sandbox.state().whitelist).toEqual([]);
      for (let i = 0; i < 6; i += 1) {
        w.advance(MINUTE);
        await Promise.all([w.ops.resumeInterrupted(), w.other.resumeInterrupted()]);
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      }
      expect(sandbox.state().whitelist).toEqual([]);
      const types = await w.events(change.id);
      expect(types).not.toContain('revert-conflict');
      expect(count(types, 'reverted')).toBe(1);
      expect((await w.stores[0].getRequest(change.id))?.timeBox?.state).toBe('done');
    });

    // Was a defect: a paused claimant sent a second put-back. The claim was not a fence: another
    // replica took it over as interrupted, and the first, resumed, created and sent its own
    // put-back from its stale plan, undoing Bob's change. It now checks, once its put-back request
    // is created, that the claim still names it; otherwise that request is recorded as not sent.
    test('a replica pauses after claiming a put-back; another takes over; the first wakes up', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const pause = gate();
      const sleepy = w.build(0, { store: pausingBeforePutBackCreate(w.stores[0], pause) });
      const sleeping = sleepy.sweepTimeBoxes();
      await pause.arrived;
      for (let i = 0; i < 5; i += 1) {
        w.advance(MINUTE);
        await w.other.sweepTimeBoxes();
      }
      expect(config().preventZoom).toBe(false);
      expect((await w.stores[1].getRequest(change.id))?.timeBox?.state).toBe('done');
      // Bob turns it on again, for good.
      await approved(w, { kind: 'protect.set', changes: { preventZoom: true } }, null, bob, w.other);
      sandbox.clearRequests();
      pause.open();
      await sleeping;
      await w.ops.sweepTimeBoxes();
      expect(posts(CONFIG)).toHaveLength(0);
      expect(config().preventZoom).toBe(true);
      // One put-back went through; the stalled one is recorded as not sent.
      const putBacks = await putBacksOf(w, change.id);
      expect(putBacks.map((r) => r.state).sort()).toEqual(['failed', 'succeeded']);
      expect(putBacks.find((r) => r.state === 'failed')?.error?.name).toBe('Superseded');
    });

    test('the clock moves back an hour after a crashed claim: nothing is sent twice, and it goes back once the clock passes', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      w.advance(HOUR);
      const claimedAt = w.now();
      const doomed = w.build(0, {
        store: crashing(w.stores[0], async (m, args) =>
          m === 'createRequest' && (args[0] as OperationRequest).revertOf?.kind === 'put-back'
            ? 'before'
            : null,
        ),
      });
      await doomed.sweepTimeBoxes();
      sandbox.clearRequests();
      w.set(new Date(claimedAt.getTime() - HOUR));
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes(), w.ops.resumeInterrupted()]);
      expect(await w.ops.putBackNow(change.id, ava)).toMatchObject({ kind: 'refused' });
      expect(posts(CONFIG)).toHaveLength(0);
      w.set(new Date(claimedAt.getTime() + 3 * MINUTE));
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      w.advance(2 * MINUTE);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(posts(CONFIG)).toHaveLength(1);
      expect(config().preventZoom).toBe(false);
      expect(count(await w.events(change.id), 'reverted')).toBe(1);
    });
  });

  describe('overlapping windows', () => {
    // One window holds a field: a change for good in between wins, whichever replica starts first.
    test('a change and a change for good of one field both pass the end while vidops is stopped; two replicas start: the value set for good stays', async () => {
      const w = await setup(kind);
      const first = await approved(w, { kind: 'protect.set', changes: { opacity: 0.4 } }, forMs(HOUR, '1h'));
      w.advance(10 * MINUTE);
      await approved(w, { kind: 'protect.set', changes: { opacity: 0.3 } }, null, bob);
      w.advance(3 * HOUR);
      for (let i = 0; i < 3; i += 1) {
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
        w.advance(2 * MINUTE);
      }
      expect(config().opacity).toBe(0.3);
      expect(posts(CONFIG).length).toBe(2);
      // One when its old values were recorded, one when the change for good took opacity over.
      expect((await w.events(first.id)).filter((t) => t === 'window-changed')).toHaveLength(2);
      expect((await w.stores[1].getRequest(first.id))?.timeBox?.state).toBe('left');
    });

    test("Bob's window on the field Ava holds, asked before hers applied, is approved on another replica as hers goes back", async () => {
      const w = await setup(kind);
      const asked = await pending(
        w,
        { kind: 'protect.set', changes: { opacity: 0.3 } },
        forMs(HOUR, '1h'),
        bob,
      );
      const first = await approved(w, { kind: 'protect.set', changes: { opacity: 0.4 } }, forMs(HOUR, '1h'));
      w.advance(HOUR);
      const [, decided] = await Promise.all([w.ops.sweepTimeBoxes(), w.other.approve(asked.id, lee)]);
      if (decided.kind !== 'executed') throw new Error(`expected executed, got ${decided.kind}`);
      // Refused while Ava's window held the field, or applied once it had gone back: never both in force.
      if (decided.request.state === 'failed') {
        expect(decided.request.error?.message).toContain(`opacity is held by ${first.id}`);
      } else {
        expect((await w.stores[0].getRequest(first.id))?.timeBox?.state).toMatch(/done|left/);
      }
      for (let i = 0; i < 4; i += 1) {
        w.advance(20 * MINUTE);
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      }
      expect(config().opacity).toBe(0.6);
      expect(await w.stores[0].listWindows()).toEqual([]);
    });

    test('two replicas put back two whitelist changes at the same moment', async () => {
      const w = await setup(kind);
      const a = await approved(
        w,
        { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
        forMs(HOUR, '1h'),
      );
      const b = await approved(
        w,
        { kind: 'whitelist.set', change: 'add', ips: ['9.9.9.9'] },
        forMs(HOUR, '1h'),
        bob,
      );
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8', '9.9.9.9']);
      w.advance(HOUR);
      const hold = gate();
      const proxy = await holdingProxy((m, p) => m === 'POST' && p === WHITELIST, hold);
      try {
        const slow = w.build(0, { client: w.client(urlOf(proxy)) });
        const first = slow.putBackNow(a.id, ava);
        await hold.arrived; // A's POST (list without 5.6.7.8) is on its way
        await w.other.putBackNow(b.id, bob); // B reads [both], POSTs [5.6.7.8], checks, done
        hold.open();
        await first;
      } finally {
        await new Promise((r) => proxy.close(r));
      }
      for (let i = 0; i < 3; i += 1) {
        w.advance(2 * MINUTE);
        await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      }
      expect(sandbox.state().whitelist).toEqual([]);
    });

    test('Bob asks to remove for 30 minutes the address Ava added for 2 hours: refused, naming her change; at her end it leaves the list once', async () => {
      const w = await setup(kind);
      const ava2h = await approved(
        w,
        { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
        forMs(2 * HOUR, '2h'),
      );
      const prepared = await w.other.prepare(bob, {
        kind: 'whitelist.set',
        change: 'remove',
        ips: ['5.6.7.8'],
      });
      expect(
        await refusalOf(w.other.submit(bob, prepared, { timeBox: forMs(30 * MINUTE, '30m') })),
      ).toContain(`5.6.7.8 is held by ${ava2h.id}`);
      w.advance(2 * HOUR);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(sandbox.state().whitelist).toEqual([]);
      expect(posts(WHITELIST)).toHaveLength(2);
    });
  });

  describe('Revert', () => {
    // Was a defect (a second Revert applied, over a change made since): a Revert was planned once,
    // when asked, and sent as planned. It is now planned again just before it is sent, and not
    // sent when that no longer gives what was approved (staleRevert).
    test("Ava asks twice to revert one change; both are approved, with Bob's change in between", async () => {
      const w = await setup(kind);
      const change = await approved(w, { kind: 'protect.set', changes: { opacity: 0.3 } }, null);
      // Ava asks twice (two clicks, two replicas); both wait for Lee.
      const [one, two] = await Promise.all([
        w.ops.prepareRevert(change.id, ava),
        w.other.prepareRevert(change.id, ava),
      ]);
      const [s1, s2] = await Promise.all([w.ops.submit(ava, one), w.other.submit(ava, two)]);
      if (s1.kind !== 'pending' || s2.kind !== 'pending') throw new Error('expected pending');
      await w.other.approve(s1.request.id, lee);
      expect(config().opacity).toBe(0.6);
      await approved(w, { kind: 'protect.set', changes: { opacity: 0.9 } }, null, bob);
      sandbox.clearRequests();
      await w.ops.approve(s2.request.id, lee);
      expect(posts(CONFIG)).toHaveLength(0);
      expect(config().opacity).toBe(0.9);
    });

    // Was a defect: both whitelist Reverts applied. The check of expectBefore is a read before the
    // POST, so two approvals at once both passed it and both posted. Whitelist sends now take a
    // lease in the store, one at a time across processes: the second waits for the first, then
    // finds the list changed since it was asked and sends nothing.
    test('Ava asks twice to revert a whitelist change; Lee approves both at the same moment: one applies', async () => {
      const w = await setup(kind);
      const change = await approved(w, { kind: 'whitelist.set', change: 'add', ips: ['1.2.3.4'] }, null);
      const [one, two] = await Promise.all([
        w.ops.prepareRevert(change.id, ava),
        w.other.prepareRevert(change.id, ava),
      ]);
      const [s1, s2] = await Promise.all([w.ops.submit(ava, one), w.other.submit(ava, two)]);
      if (s1.kind !== 'pending' || s2.kind !== 'pending') throw new Error('expected pending');
      sandbox.clearRequests();
      const hold = gate();
      const proxy = await holdingProxy((m, p) => m === 'POST' && p === WHITELIST, hold);
      let decided: unknown[];
      try {
        const slow = w.build(0, { client: w.client(urlOf(proxy)) });
        const first = slow.approve(s1.request.id, lee);
        await hold.arrived;
        // The second is approved while the first's POST is on its way; it waits for the lease.
        const second = w.other.approve(s2.request.id, lee);
        await new Promise((r) => setTimeout(r, 300));
        expect(posts(WHITELIST)).toHaveLength(0);
        hold.open();
        decided = await Promise.all([first, second]);
      } finally {
        await new Promise((r) => proxy.close(r));
      }
      expect(sandbox.state().whitelist).toEqual([]);
      expect(posts(WHITELIST)).toHaveLength(1);
      const results = decided.map((d) => (d as { request?: OperationRequest }).request);
      expect(results.map((r) => r?.state)).toEqual(['succeeded', 'failed']);
      // The second finds the first being sent (or, were it later, done) and is not sent at all.
      expect(results[1]?.error?.name).toBe('NotSent');
      expect(results[1]?.error?.message).toBe(
        `${s2.request.id} was not sent: ${s1.request.id}, another Revert of ${change.id}, was sent first and its outcome is not known yet. Nothing was changed.`,
      );
    });

    // Was a defect (same cause as two Reverts): a Revert approved after the sweep put the change
    // back sent the old values again, over Bob's change made since.
    test('a Revert is approved after the sweep put the change back and Bob changed the field', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { opacity: 0.3 } },
        forMs(30 * MINUTE, '30m'),
      );
      const revert = await w.ops.submit(ava, await w.ops.prepareRevert(change.id, ava));
      if (revert.kind !== 'pending') throw new Error('expected pending');
      w.advance(30 * MINUTE);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(config().opacity).toBe(0.6);
      await approved(w, { kind: 'protect.set', changes: { opacity: 0.9 } }, null, bob);
      sandbox.clearRequests();
      await w.other.approve(revert.request.id, lee);
      expect(posts(CONFIG)).toHaveLength(0);
      expect(config().opacity).toBe(0.9);
      // Recorded as not sent, with a sentence that says why and what to do.
      const after = await w.stores[0].getRequest(revert.request.id);
      expect(after?.state).toBe('failed');
      expect(after?.error?.message).toContain(`${revert.request.id} was not sent`);
    });

    test('a Revert applied before the end: the sweep sends nothing and says nothing was left to put back, once', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { opacity: 0.3 } },
        forMs(30 * MINUTE, '30m'),
      );
      const revert = await w.ops.submit(ava, await w.ops.prepareRevert(change.id, ava));
      if (revert.kind !== 'pending') throw new Error('expected pending');
      w.advance(30 * MINUTE);
      const [decided] = await Promise.all([
        w.other.approve(revert.request.id, lee),
        w.ops.sweepTimeBoxes(),
        w.other.sweepTimeBoxes(),
      ]);
      expect(decided.kind).toBe('executed');
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(config().opacity).toBe(0.6);
      const types = await w.events(change.id);
      expect(count(types, 'reverted') + count(types, 'revert-conflict')).toBeGreaterThanOrEqual(1);
      expect(count(types, 'reverting')).toBeLessThanOrEqual(1);
      expect(await w.ops.timeBoxesInForce()).toEqual([]);
    });
  });

  describe('the edge of the window', () => {
    test('a window ends exactly at the sweep instant: put back then, not a millisecond before', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'protect.set', changes: { preventZoom: true } },
        forMs(HOUR, '1h'),
      );
      const end = Date.parse(change.timeBox?.endsAt ?? '');
      w.set(new Date(end - 1));
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(config().preventZoom).toBe(true);
      w.set(new Date(end));
      sandbox.clearRequests();
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      expect(config().preventZoom).toBe(false);
      expect(posts(CONFIG)).toHaveLength(1);
    });
  });
});
