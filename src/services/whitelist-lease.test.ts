import {
  approved,
  ava,
  bob,
  CONFIG,
  forMs,
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
import { OPERATION_SPECS } from '../core/catalog.js';
import type { OperationRequest } from '../core/model.js';
import type { Store } from '../store/index.js';
import type { PrepareInput } from './types.js';

/**
 * Attacks on the whitelist send lease (`sendAlone` in ./execute.ts, `takeLease`/`giveLease` in the
 * stores) and on the whitelist client's "already as asked" answer, at the service/store level:
 * two replicas (two store connections on one database), crashed holders (a lease taken directly
 * and never given back), clocks that differ or move, and resumed sends.
 * The 20 s wait for a busy lease is real time (`Date.now`); tests that need it to run out move
 * `Date.now` forward when a lease is found taken, instead of sleeping.
 * A test whose comment starts "Was a defect" failed before the change it names; the one
 * `test.failing` shows a known limit, named in its "KNOWN LIMIT:" comment.
 */

const LEASE = 'send:whitelist.set';
const { kinds, setup } = useTwoReplicas('wll', 20_000);

// --- Real time, moved on demand --------------------------------------------------------------

const realDateNow = Date.now;
let realOffset = 0;
/** Moves `Date.now` (what the 20 s wait for a lease reads) forward, as if that time had passed. */
function passRealTime(ms: number): void {
  realOffset += ms;
  Date.now = () => realDateNow.call(Date) + realOffset;
}
afterEach(() => {
  Date.now = realDateNow;
  realOffset = 0;
});

// --- Harness ----------------------------------------------------------------------------------

const requestOf = (d: unknown) => (d as { request?: OperationRequest }).request;
const add = (ip: string): PrepareInput => ({ kind: 'whitelist.set', change: 'add', ips: [ip] });

/** Whether nobody holds the whitelist lease now (by the world's clock): probed, then given back. */
async function leaseFree(w: World): Promise<boolean> {
  const now = w.now();
  const taken = await w.stores[0].takeLease(
    LEASE,
    'probe',
    new Date(now.getTime() + 1000).toISOString(),
    now.toISOString(),
  );
  if (taken) await w.stores[0].giveLease(LEASE, 'probe');
  return taken;
}

/** A holder that crashed holding the lease: taken at the world's clock, never given back. */
async function crashedHolder(w: World, store = w.stores[1]): Promise<void> {
  const now = w.now();
  const taken = await store.takeLease(
    LEASE,
    'R-CRASHED1',
    new Date(now.getTime() + 2 * MINUTE).toISOString(),
    now.toISOString(),
  );
  expect(taken).toBe(true);
}

/** The store, with every `takeLease` call counted by name; a refusal makes 21 s of real time pass. */
function leaseWatch(store: Store, fastForward = false) {
  const names: string[] = [];
  let refused = 0;
  const watched = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'takeLease') return fn;
      return async (...args: unknown[]) => {
        names.push(String(args[0]));
        const taken = (await fn(...args)) as boolean;
        if (!taken) {
          refused += 1;
          if (fastForward) passRealTime(21_000);
        }
        return taken;
      };
    },
  });
  return { store: watched, names, refused: () => refused };
}

/** A store whose `transition` to `succeeded` of `id` throws before writing (the process is gone). */
function crashingBeforeSucceeded(store: Store, id: () => string | null): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'transition') return fn;
      return async (...args: unknown[]) => {
        const patch = args[2] as { state?: string };
        if (args[0] === id() && patch.state === 'succeeded') throw new Error('process gone');
        return fn(...args);
      };
    },
  });
}

const isWhitelistPost = (m: string, p: string) => m === 'POST' && p === WHITELIST;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- The attacks ------------------------------------------------------------------------------

test('only the whitelist change sends alone', () => {
  const alone = Object.entries(OPERATION_SPECS)
    .filter(([, spec]) => (spec as { sendsAlone?: boolean }).sendsAlone === true)
    .map(([name]) => name);
  expect(alone).toEqual(['whitelist.set']);
});

describe.each(kinds)('%s', (kind) => {
  describe('two changes at the same moment', () => {
    test('Ava and Bob each add an address; Lee approves both at once on two replicas: one applies, the other is refused as changed since', async () => {
      const w = await setup(kind);
      const a = await pending(w, add('5.6.7.8'), null, ava);
      const b = await pending(w, add('9.9.9.9'), null, bob, w.other);
      sandbox.clearRequests();
      const hold = gate();
      const proxy = await holdingProxy(isWhitelistPost, hold);
      const slow = w.build(0, { client: w.client(urlOf(proxy)) });
      const first = slow.approve(a.id, lee);
      await hold.arrived; // Ava's POST is on its way, under the lease
      const second = w.other.approve(b.id, lee);
      await pause(400);
      expect(posts(WHITELIST)).toHaveLength(0); // Bob's waits for the lease: nothing sent
      hold.open();
      const [one, two] = (await Promise.all([first, second])).map(requestOf);
      expect(posts(WHITELIST)).toHaveLength(1);
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      expect(one?.state).toBe('succeeded');
      expect(two?.state).toBe('failed');
      expect(two?.error?.name).toBe('WhitelistConflictError');
      expect(two?.error?.message).toContain('nothing was changed');
      expect(await leaseFree(w)).toBe(true);
    });

    test('Ava and Bob add the same address; approved at once: one POST, the second is refused as changed since', async () => {
      const w = await setup(kind);
      const a = await pending(w, add('5.6.7.8'), null, ava);
      const b = await pending(w, add('5.6.7.8'), null, bob, w.other);
      sandbox.clearRequests();
      const decided = (await Promise.all([w.ops.approve(a.id, lee), w.other.approve(b.id, lee)])).map(
        requestOf,
      );
      expect(posts(WHITELIST)).toHaveLength(1);
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      // The list is as both asked, but only one of them made it so: the other says it changed since.
      expect(decided.map((r) => r?.state).sort()).toEqual(['failed', 'succeeded']);
      expect(decided.find((r) => r?.state === 'failed')?.error?.name).toBe('WhitelistConflictError');
      expect(await leaseFree(w)).toBe(true);
    });
  });

  describe('a holder that crashed holding the lease', () => {
    test('Ava adds an address and a put-back falls due: both give up Busy with nothing sent; after the lapse both go through', async () => {
      const w = await setup(kind);
      const boxed = await approved(w, add('1.1.1.1'), forMs(HOUR, '1h'), bob);
      const asked = await pending(w, add('5.6.7.8'), null, ava);
      w.advance(HOUR);
      await crashedHolder(w);
      const watch = leaseWatch(w.stores[0], true);
      const ops = w.build(0, { store: watch.store });
      sandbox.clearRequests();
      const decided = requestOf(await ops.approve(asked.id, lee));
      await ops.sweepTimeBoxes();
      expect(watch.refused()).toBeGreaterThanOrEqual(2);
      expect(posts(WHITELIST)).toHaveLength(0);
      expect(decided?.state).toBe('failed');
      expect(decided?.error?.name).toBe('Busy');
      expect(decided?.error?.message).toMatch(/was being sent for 20 s/);
      expect(decided?.error?.message).toMatch(/not sent/i);
      const change = await w.stores[0].getRequest(boxed.id);
      expect(change?.timeBox?.state).toBe('retrying');
      expect(change?.timeBox?.lastError?.name).toBe('Busy');
      expect(change?.timeBox?.nextAt).toBe(new Date(w.now().getTime() + MINUTE).toISOString());
      expect(sandbox.state().whitelist).toEqual(['1.1.1.1']);

      // The crashed holder's lease lapses two minutes after it was taken.
      w.advance(2 * MINUTE);
      await approved(w, add('5.6.7.8'), null, ava, ops);
      await ops.sweepTimeBoxes();
      expect(posts(WHITELIST)).toHaveLength(2);
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      expect((await w.stores[0].getRequest(boxed.id))?.timeBox?.state).toBe('done');
      expect(await leaseFree(w)).toBe(true);
    });

    test('one second before the lapse it is still held; at the lapse it is taken', async () => {
      const w = await setup(kind);
      await crashedHolder(w);
      const asked = await pending(w, add('5.6.7.8'), null, ava);
      w.advance(2 * MINUTE - 1000);
      const watch = leaseWatch(w.stores[0], true);
      const ops = w.build(0, { store: watch.store });
      expect(requestOf(await ops.approve(asked.id, lee))?.error?.name).toBe('Busy');
      w.advance(1000);
      await approved(w, add('5.6.7.8'), null, ava, ops);
      expect(posts(WHITELIST)).toHaveLength(1);
    });
  });

  describe('changes other than the whitelist', () => {
    test('with the whitelist lease held by a crashed holder, a protection change is sent at once and takes no lease', async () => {
      const w = await setup(kind);
      await crashedHolder(w);
      const watch = leaseWatch(w.stores[0]);
      const ops = w.build(0, { store: watch.store });
      const started = realDateNow.call(Date);
      const done = await approved(w, { kind: 'protect.set', changes: { preventZoom: true } }, null, ava, ops);
      expect(realDateNow.call(Date) - started).toBeLessThan(3000);
      expect(done.state).toBe('succeeded');
      expect(posts(CONFIG)).toHaveLength(1);
      expect(watch.names).toEqual([]);
    });
  });

  describe('clocks', () => {
    test('the clock moves back an hour while Ava’s send holds the lease: Bob’s waits, then is refused as changed since', async () => {
      const w = await setup(kind);
      const a = await pending(w, add('5.6.7.8'), null, ava);
      const b = await pending(w, add('9.9.9.9'), null, bob, w.other);
      sandbox.clearRequests();
      const hold = gate();
      const proxy = await holdingProxy(isWhitelistPost, hold);
      const first = w.build(0, { client: w.client(urlOf(proxy)) }).approve(a.id, lee);
      await hold.arrived;
      w.advance(-HOUR);
      const second = w.other.approve(b.id, lee);
      await pause(400);
      expect(posts(WHITELIST)).toHaveLength(0);
      hold.open();
      const [one, two] = (await Promise.all([first, second])).map(requestOf);
      expect([one?.state, two?.state]).toEqual(['succeeded', 'failed']);
      expect(two?.error?.name).toBe('WhitelistConflictError');
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    });

    // KNOWN LIMIT (docs/operations.md: replicas' clocks must agree, as for every takeover): a
    // lease's end is computed from the taking process's own clock
    // (src/services/execute.ts:109-112) and compared with the next taker's clock
    // (src/store/sqlite.ts takeLease, src/store/postgres.ts takeLease). A replica whose clock is
    // three minutes behind takes a lease that, to a replica on time, lapsed a minute ago: both
    // send at once and Bob's address is lost, both recorded succeeded.
    test.failing('a replica whose clock is three minutes behind holds the lease: the other still waits for it', async () => {
      const w = await setup(kind);
      const a = await pending(w, add('5.6.7.8'), null, ava);
      const b = await pending(w, add('9.9.9.9'), null, bob, w.other);
      sandbox.clearRequests();
      const hold = gate();
      const proxy = await holdingProxy(isWhitelistPost, hold);
      const behind = () => new Date(w.now().getTime() - 3 * MINUTE);
      const first = w.build(0, { client: w.client(urlOf(proxy)), clock: behind }).approve(a.id, lee);
      await hold.arrived;
      const second = w.other.approve(b.id, lee);
      await pause(400);
      const sentMeanwhile = posts(WHITELIST).length;
      hold.open();
      const [one, two] = (await Promise.all([first, second])).map(requestOf);
      expect(sentMeanwhile).toBe(0);
      expect([one?.state, two?.state].sort()).toEqual(['failed', 'succeeded']);
      expect(sandbox.state().whitelist).toHaveLength(1);
    });

    // Was a defect (the lease is now three minutes, renewed while the send runs, under a token per
    // send): the lease was fixed at two minutes and never
    // renewed while the send runs, though the send is up to three calls of up to three attempts
    // each at VIDEO_API_TIMEOUT_MS (10 s by default, configurable without bound) plus Retry-After
    // waits of up to 10 s. A live send slower than two minutes loses its lease mid-POST; another
    // replica then reads, checks and posts at the same time, and one update is lost.
    test('Ava’s send is slow (the service answers after two minutes): Bob’s still waits for it', async () => {
      const w = await setup(kind);
      const a = await pending(w, add('5.6.7.8'), null, ava);
      const b = await pending(w, add('9.9.9.9'), null, bob, w.other);
      sandbox.clearRequests();
      const hold = gate();
      const proxy = await holdingProxy(isWhitelistPost, hold);
      const first = w.build(0, { client: w.client(urlOf(proxy)) }).approve(a.id, lee);
      await hold.arrived;
      w.advance(2 * MINUTE + 1000); // the service is slow; Ava's process is alive and waiting
      const second = w.other.approve(b.id, lee);
      await pause(400);
      const sentMeanwhile = posts(WHITELIST).length;
      hold.open();
      const [one, two] = (await Promise.all([first, second])).map(requestOf);
      expect(sentMeanwhile).toBe(0);
      expect([one?.state, two?.state].sort()).toEqual(['failed', 'succeeded']);
      expect(sandbox.state().whitelist).toHaveLength(1);
    });
  });

  describe('a whitelist change resumed after a crash', () => {
    test('the process stops after its POST landed: resumed, recorded succeeded, no second POST, lease free', async () => {
      const w = await setup(kind);
      const asked = await pending(w, add('5.6.7.8'), forMs(HOUR, '1h'), ava);
      sandbox.clearRequests();
      const doomed = w.build(0, { store: crashingBeforeSucceeded(w.stores[0], () => asked.id) });
      await expect(doomed.approve(asked.id, lee)).rejects.toThrow('process gone');
      expect(posts(WHITELIST)).toHaveLength(1);
      expect((await w.stores[0].getRequest(asked.id))?.state).toBe('executing');
      expect(await leaseFree(w)).toBe(true);
      w.advance(2 * MINUTE);
      const { resumed } = await w.other.resumeInterrupted();
      expect(resumed.map((r) => r.state)).toEqual(['succeeded']);
      expect(resumed[0]?.result).toMatchObject({ alreadyAsAsked: true });
      expect(posts(WHITELIST)).toHaveLength(1);
      expect(await leaseFree(w)).toBe(true);
      // Its window runs from the resumption, and it goes back at its end.
      w.advance(HOUR);
      await w.other.sweepTimeBoxes();
      expect(sandbox.state().whitelist).toEqual([]);
    });

    test('the process dies while its POST is on the way (the lease never given back): resumed once the lease lapses, one POST', async () => {
      const w = await setup(kind);
      const asked = await pending(w, add('5.6.7.8'), null, ava);
      sandbox.clearRequests();
      const hold = gate(); // never opened: the POST never reaches the service
      const proxy = await holdingProxy(isWhitelistPost, hold);
      void w
        .build(0, { client: w.client(urlOf(proxy)) })
        .approve(asked.id, lee)
        .catch(() => undefined);
      await hold.arrived;
      expect(await leaseFree(w)).toBe(false);
      // Stale after two minutes, but its lease holds for three: taken over once that lapses.
      w.advance(3 * MINUTE);
      const { resumed } = await w.other.resumeInterrupted();
      expect(resumed.map((r) => r.state)).toEqual(['succeeded']);
      expect(posts(WHITELIST)).toHaveLength(1);
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      expect(await leaseFree(w)).toBe(true);
    });

    // Was a defect (a resumed send that finds the lease busy now stays executing for the next
    // sweep): a resumed send (its POST may have landed before the crash) that finds the lease
    // busy for 20 s is recorded `failed`, "this one was not sent" (src/services/execute.ts:114-118,
    // recorded by outcomeStep as approvals.fail). The address it added stays, the request says it
    // failed, and a time-boxed one is never put back (a failed change has no window).
    test('Ava’s change is resumed while another send holds the lease: it is not recorded failed though it applied', async () => {
      const w = await setup(kind);
      const asked = await pending(w, add('5.6.7.8'), forMs(HOUR, '1h'), ava);
      const doomed = w.build(0, { store: crashingBeforeSucceeded(w.stores[0], () => asked.id) });
      await expect(doomed.approve(asked.id, lee)).rejects.toThrow('process gone');
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      w.advance(2 * MINUTE);
      await crashedHolder(w); // another send holds the lease when the sweep resumes it
      const watch = leaseWatch(w.stores[1], true);
      const { resumed } = await w.build(1, { store: watch.store }).resumeInterrupted();
      expect(watch.refused()).toBeGreaterThan(0);
      expect(resumed[0]?.state).not.toBe('failed');
      // Whatever it says now, once the lease is free it ends succeeded and goes back at its end.
      w.advance(2 * MINUTE);
      await w.other.resumeInterrupted();
      expect((await w.stores[0].getRequest(asked.id))?.state).toBe('succeeded');
    });
  });

  describe('already as asked', () => {
    // Was a defect ("already as asked" is now accepted on a resumed send only): the whitelist
    // client answered "already as asked" before it checked expectBefore
    // (src/client/whitelist.ts:97-99), while the undo of the change is computed from its params
    // (src/operations/whitelist-set/service.ts `undo`: added = allowedDNS minus expectBefore).
    // Bob added 5.6.7.8 for good while Ava's time-boxed add of the same address waited for its
    // approval; Ava's is then recorded succeeded without sending anything, and at its end the
    // put-back removes Bob's address. Before, her change was refused as changed since.
    test('Bob adds for good the address Ava asked to add for an hour; Lee approves hers after his: it stays after her hour', async () => {
      const w = await setup(kind);
      const hers = await pending(w, add('5.6.7.8'), forMs(HOUR, '1h'), ava);
      await approved(w, add('5.6.7.8'), null, bob, w.other);
      sandbox.clearRequests();
      const decided = requestOf(await w.ops.approve(hers.id, lee));
      expect(posts(WHITELIST)).toHaveLength(0);
      w.advance(HOUR);
      await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
      // Bob's address is Bob's: nothing of Ava's may take it away.
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      expect(posts(WHITELIST)).toHaveLength(0);
      expect(
        decided?.state === 'failed' || decided?.undo?.kind !== 'whitelist' || decided.undo.added.length === 0,
      ).toBe(true);
    });

    // The same race without a window: Ava's first send finds the list as Bob left it, not as it
    // was when she asked: changed since, nothing sent (only a resumed send takes "as asked").
    test('Bob adds the address Ava asked to add; Lee approves hers after his: nothing sent, refused as changed since', async () => {
      const w = await setup(kind);
      const hers = await pending(w, add('5.6.7.8'), null, ava);
      await approved(w, add('5.6.7.8'), null, bob, w.other);
      sandbox.clearRequests();
      const decided = requestOf(await w.ops.approve(hers.id, lee));
      expect(posts(WHITELIST)).toHaveLength(0);
      expect(decided?.state).toBe('failed');
      expect(decided?.error?.name).toBe('WhitelistConflictError');
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
    });
  });
});
