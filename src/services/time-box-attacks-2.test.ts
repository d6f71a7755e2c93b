import {
  approved,
  ava,
  bob,
  CONFIG,
  forMs,
  HOUR,
  lee,
  MINUTE,
  pending,
  posts,
  sandbox,
  useTwoReplicas,
  type World,
} from '../../test/services/replicas.js';
import type { VideoClientHandle } from '../client/index.js';
import type { OperationRequest } from '../core/model.js';
import type { Store } from '../store/index.js';

/**
 * Second round of attacks on time-boxed changes (docs/time-boxed.md): the same setting or address
 * changed for a while by two people, an Extend over someone else's change, a Revert before the end,
 * and the service changed by hand while a put-back plans.
 */

const { kinds, setup } = useTwoReplicas('tba2', 5000);

const config = () => sandbox.state().config as unknown as Record<string, unknown>;

async function sweepBoth(w: World): Promise<void> {
  await Promise.all([w.ops.sweepTimeBoxes(), w.other.sweepTimeBoxes()]);
}

/** The client whose first whitelist read, once armed, is followed by a person's edit on the service. */
function editedAfterRead(client: VideoClientHandle, edit: () => Promise<void>) {
  const armed = { on: false };
  const wrapped: VideoClientHandle = {
    ...client,
    whitelist: {
      ...client.whitelist,
      async get() {
        const read = await client.whitelist.get();
        if (armed.on) {
          armed.on = false;
          await edit();
        }
        return read;
      },
    },
  };
  return { client: wrapped, armed };
}

/** A store that, when a put-back request is created, first lets `meanwhile` happen on the service. */
function somethingBeforePutBackCreate(store: Store, meanwhile: () => Promise<void>): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop !== 'createRequest') return fn;
      return async (...args: unknown[]) => {
        const request = args[0] as OperationRequest;
        if (request.revertOf?.kind === 'put-back') await meanwhile();
        return fn(...args);
      };
    },
  });
}

async function approveExtend(w: World, id: string, by = ava, hours = 2): Promise<OperationRequest> {
  const asked = await w.ops.extend(id, by, forMs(hours * HOUR, `${hours}h`));
  if (asked.kind !== 'pending') throw new Error(`expected pending, got ${asked.kind}`);
  const decided = await w.ops.approve(asked.request.id, lee);
  if (decided.kind !== 'executed') throw new Error(`expected executed, got ${decided.kind}`);
  return decided.request;
}

describe.each(kinds)('%s', (kind) => {
  describe('two people ask for the same value for a while', () => {
    it('Ava asks opacity 0.4 for 2 hours and Bob the same for 30 minutes; Lee approves both: after both ends opacity is back to 0.6', async () => {
      const w = await setup(kind);
      expect(config().opacity).toBe(0.6);
      const avas = await pending(
        w,
        { kind: 'protect.set', changes: { opacity: 0.4 } },
        forMs(2 * HOUR, '2h'),
      );
      const bobs = await pending(
        w,
        { kind: 'protect.set', changes: { opacity: 0.4 } },
        forMs(30 * MINUTE, '30m'),
        bob,
      );
      expect((await w.ops.approve(avas.id, lee)).kind).toBe('executed');
      expect((await w.ops.approve(bobs.id, lee)).kind).toBe('executed');
      w.advance(30 * MINUTE);
      await sweepBoth(w);
      expect(config().opacity).toBe(0.4); // Ava's window still runs
      w.advance(90 * MINUTE);
      for (let i = 0; i < 3; i += 1) {
        await sweepBoth(w);
        w.advance(MINUTE);
      }
      expect(config().opacity).toBe(0.6);
      expect(await w.ops.timeBoxesInForce()).toEqual([]);
    });
  });

  describe('Extend… over someone else’s change', () => {
    it('Bob sets opacity 0.3 for good while Ava’s 0.4 runs; Ava extends hers: Bob’s 0.3 stays', async () => {
      const w = await setup(kind);
      const avas = await approved(w, { kind: 'protect.set', changes: { opacity: 0.4 } }, forMs(HOUR, '1h'));
      await approved(w, { kind: 'protect.set', changes: { opacity: 0.3 } }, null, bob);
      sandbox.clearRequests();
      await approveExtend(w, avas.id);
      // "sets the same values again for the new window (nothing changes on the service)"
      expect(config().opacity).toBe(0.3);
      expect(posts(CONFIG)).toHaveLength(0);
    });
  });

  describe('Revert… of a change still in its window', () => {
    it('Ava reverts her time-boxed change, then Bob sets the same value for good: at Ava’s end Bob’s value stays', async () => {
      const w = await setup(kind);
      const change = await approved(w, { kind: 'protect.set', changes: { opacity: 0.3 } }, forMs(HOUR, '1h'));
      const revert = await w.ops.submit(ava, await w.ops.prepareRevert(change.id, ava));
      if (revert.kind !== 'pending') throw new Error('expected pending');
      expect((await w.ops.approve(revert.request.id, lee)).kind).toBe('executed');
      expect(config().opacity).toBe(0.6);
      await approved(w, { kind: 'protect.set', changes: { opacity: 0.3 } }, null, bob);
      sandbox.clearRequests();
      w.advance(HOUR);
      await sweepBoth(w);
      expect(config().opacity).toBe(0.3);
      expect(posts(CONFIG)).toHaveLength(0);
    });
  });

  describe('the whitelist edited by hand on the service', () => {
    // KNOWN LIMIT (docs/time-boxed.md, "Revert"): the put-back plans from one read of the list and
    // checks what it sends against a second; an address added between the two is removed.
    it.failing('a partner adds 9.9.9.9 on the service while Ava’s put-back is planning: 9.9.9.9 stays listed', async () => {
      const w = await setup(kind);
      const change = await approved(
        w,
        { kind: 'whitelist.set', change: 'add', ips: ['5.6.7.8'] },
        forMs(HOUR, '1h'),
      );
      expect(sandbox.state().whitelist).toEqual(['5.6.7.8']);
      const byHand = w.client();
      const { client, armed } = editedAfterRead(w.client(), async () => {
        await byHand.whitelist.replace(['5.6.7.8', '9.9.9.9']);
      });
      const putting = w.build(0, { client });
      w.advance(HOUR);
      armed.on = true;
      await putting.putBackNow(change.id, ava);
      await sweepBoth(w);
      expect(sandbox.state().whitelist).toEqual(['9.9.9.9']);
    });
  });

  describe('a change to the same setting lands while the put-back is being sent', () => {
    // KNOWN LIMIT (docs/time-boxed.md, "Revert"): protection settings have no conditional update,
    // so a setting changed between the put-back's read and its send is overwritten.
    it.failing('Bob sets opacity 0.3 on the service just after Ava’s put-back read it: Bob’s 0.3 stays', async () => {
      const w = await setup(kind);
      const change = await approved(w, { kind: 'protect.set', changes: { opacity: 0.4 } }, forMs(HOUR, '1h'));
      const bobsClient = w.client();
      const store = somethingBeforePutBackCreate(w.stores[0], async () => {
        await bobsClient.protection.update({ opacity: 0.3 });
      });
      w.advance(HOUR);
      await w.build(0, { store }).putBackNow(change.id, ava);
      await sweepBoth(w);
      expect(config().opacity).toBe(0.3);
    });
  });
});
