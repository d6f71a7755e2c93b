import { ava, bob, HOUR, lee, pending, useTwoReplicas, type World } from '../../test/services/replicas.js';
import type { DelegateWords } from '../core/delegation.js';
import type { Actor, AuditEvent, OperationRequest } from '../core/model.js';
import { buildPolicy } from '../core/policy.js';
import { say } from '../core/said.js';
import { english } from '../i18n/said.js';
import type { Store } from '../store/store.js';
import type { Directory, Operations, PrepareInput } from './types.js';

/**
 * Attacks on delegation at the service/store level, on two replicas sharing one database: a
 * delegation ended while its delegate's Approve is in flight, a lead and her delegate both
 * approving, what the Home tab offers each of them, and what the audit log says happened.
 * Tests that fail name a defect; the others guard what held.
 * @see docs/approvals.md, "Break-glass and delegation"
 */

const { kinds, setup } = useTwoReplicas('dla', 5000);

const leo: Actor = { id: 'U0LEAD2', name: 'Leo' };
const lia: Actor = { id: 'U0LEAD3', name: 'Lia' };
const LEADS = [lee.id, leo.id, lia.id];
const QUORUM2 = 'whitelist.set: { quorum: 2 }';
const QUORUM1 = 'whitelist.set: { quorum: 1 }';

const directory: Directory = { groupsOf: async () => [], kindOf: async () => 'person' };

function policyOf(text: string) {
  return buildPolicy({ leads: LEADS, fileText: text, fileName: 'policy.yaml' });
}

function replicas(w: World, policyText: string): [Operations, Operations] {
  const policy = policyOf(policyText);
  return [w.build(0, { policy, directory }), w.build(1, { policy, directory })];
}

const whitelist = (ip: string): PrepareInput => ({ kind: 'whitelist.set', change: 'add', ips: [ip] });

function delegateTo(who: Actor, ms = 4 * HOUR): DelegateWords {
  return {
    delegate: { id: who.id, name: who.name },
    until: { kind: 'duration', ms, text: `${ms / HOUR}h` },
    reason: null,
  };
}

async function stored(w: World, id: string): Promise<OperationRequest> {
  const r = await w.stores[0].getRequest(id);
  if (r === null) throw new Error(`no request ${id}`);
  return r;
}

async function auditOf(w: World): Promise<AuditEvent[]> {
  return w.stores[0].listAudit();
}

/**
 * Replica 0's store, where `before` runs (once) just before the first compare-and-set of a
 * request commits: what another replica does between a click's checks and its commit.
 */
function storeWithInterleaving(store: Store, before: () => Promise<void>): Store {
  let fired = false;
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'transition') {
        const transition: Store['transition'] = async (...args) => {
          if (!fired) {
            fired = true;
            await before();
          }
          return target.transition(...args);
        };
        return transition;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(kinds)('%s', (kind) => {
  it('the lead cancels her delegation while her delegate’s Approve is in flight: no approval is recorded for her after the cancel, and nothing runs', async () => {
    const w = await setup(kind);
    const policy = policyOf(QUORUM1);
    const [a, b] = replicas(w, QUORUM1);
    expect(await a.delegate(lee, delegateTo(bob))).toMatchObject({ kind: 'delegated' });
    const r = await pending(w, whitelist('7.7.7.1'), null, ava, a);

    // bob's replica found the delegation in force; lee's cancel commits on the other replica
    // before bob's approval does.
    const racing = w.build(0, {
      policy,
      directory,
      store: storeWithInterleaving(w.stores[0], async () => {
        expect(await b.cancelDelegation(lee)).toMatchObject({ kind: 'cancelled' });
      }),
    });
    const result = await racing.approve(r.id, bob);

    const events = await auditOf(w);
    const cancelled = events.findIndex((e) => e.type === 'delegation-cancelled');
    const approvedAfter = events
      .slice(cancelled + 1)
      .filter((e) => e.type === 'approved' && e.requestId === r.id);
    expect(cancelled).toBeGreaterThanOrEqual(0);
    expect(approvedAfter).toEqual([]);
    expect(result).toMatchObject({ kind: 'refused' });
    expect((await stored(w, r.id)).state).toBe('pending');
    expect((await stored(w, r.id)).approvals).toEqual([]);
  });

  it('a lead whose delegate already approved in her place opens her Home tab and presses Approve: nothing should await her, and the refusal should name her delegate, not say she approved', async () => {
    const w = await setup(kind);
    const [a] = replicas(w, QUORUM2);
    await a.delegate(lee, delegateTo(bob));
    const r = await pending(w, whitelist('7.7.7.2'), null, ava, a);
    expect(await a.approve(r.id, bob)).toMatchObject({ kind: 'pending' });

    // lee counts already (through bob): nothing awaits her on this request.
    const home = await a.listRequests(lee);
    expect(home.awaitingMe.map((x) => x.id)).not.toContain(r.id);
    // leo has not decided: it awaits him.
    expect((await a.listRequests(leo)).awaitingMe.map((x) => x.id)).toContain(r.id);

    const again = await a.approve(r.id, lee);
    expect(again).toMatchObject({ kind: 'refused' });
    if (again.kind !== 'refused') throw new Error('expected a refusal');
    // She never approved; bob did, in her place. The refusal must say so.
    expect(again.reason).not.toBe(english(say.reqYouApproved(r.id)));
    expect(again.reason).toContain(bob.name);
    expect((await stored(w, r.id)).approvals).toHaveLength(1);
  });

  it('the lead and her delegate press Approve at the same moment on two replicas: she counts once and it does not run on a quorum of 2', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w, QUORUM2);
    await a.delegate(lee, delegateTo(bob));
    const r = await pending(w, whitelist('7.7.7.3'), null, ava, a);

    const results = await Promise.all([a.approve(r.id, lee), b.approve(r.id, bob)]);

    expect(results.map((x) => x.kind).sort()).toEqual(['pending', 'refused']);
    const now = await stored(w, r.id);
    expect(now.state).toBe('pending');
    expect(now.approvals).toHaveLength(1);
    const approved = (await auditOf(w)).filter((e) => e.type === 'approved' && e.requestId === r.id);
    expect(approved).toHaveLength(1);
  });

  it('a lead and a second lead each hand their approvals to one agent, who clicks on both replicas at once for a quorum of 1: it runs once', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w, QUORUM1);
    await a.delegate(lee, delegateTo(bob));
    await b.delegate(leo, delegateTo(bob));
    const r = await pending(w, whitelist('7.7.7.4'), null, ava, a);

    const results = await Promise.all([a.approve(r.id, bob), b.approve(r.id, bob)]);

    expect(results.map((x) => x.kind).sort()).toEqual(['executed', 'refused']);
    const events = (await auditOf(w)).filter((e) => e.requestId === r.id).map((e) => e.type);
    expect(events.filter((t) => t === 'executing')).toHaveLength(1);
    expect(events.filter((t) => t === 'approved')).toHaveLength(1);
  });

  it('a delegate whose delegation was cancelled clicks an old Approve: refused, audited as denied, nothing recorded for the lead', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w, QUORUM1);
    await a.delegate(lee, delegateTo(bob));
    const r = await pending(w, whitelist('7.7.7.5'), null, ava, a);
    // While it is in force, the request awaits bob in lee's place (Approve, not Reject, is his).
    expect(await a.listRequests(bob)).toMatchObject({ awaitingMe: [{ id: r.id }], inPlace: [r.id] });
    expect((await a.listRequests(lee)).inPlace).toEqual([]);
    expect(await b.cancelDelegation(lee)).toMatchObject({ kind: 'cancelled' });

    expect(await a.approve(r.id, bob)).toMatchObject({ kind: 'refused' });

    expect((await stored(w, r.id)).approvals).toEqual([]);
    const denied = (await auditOf(w)).filter((e) => e.type === 'denied' && e.requestId === r.id);
    expect(denied).toEqual([expect.objectContaining({ actor: { id: bob.id, name: bob.name } })]);
    expect((await a.listRequests(bob)).awaitingMe).toEqual([]);
  });

  it('a lead delegates to an agent and cancels on two replicas at once: one cancel is recorded', async () => {
    const w = await setup(kind);
    const [a, b] = replicas(w, QUORUM1);
    await a.delegate(lee, delegateTo(bob));

    const results = await Promise.all([a.cancelDelegation(lee), b.cancelDelegation(lee)]);

    expect(results.map((x) => x.kind).sort()).toEqual(['cancelled', 'refused']);
    expect((await auditOf(w)).filter((e) => e.type === 'delegation-cancelled')).toHaveLength(1);
  });

  it('the clock is moved back after a delegation expired: the delegate still cannot approve', async () => {
    const w = await setup(kind);
    const [a] = replicas(w, QUORUM1);
    await a.delegate(lee, delegateTo(bob, HOUR));
    const r = await pending(w, whitelist('7.7.7.6'), null, ava, a);
    w.advance(2 * HOUR);
    expect(await a.expireDelegations()).toHaveLength(1);
    w.advance(-2 * HOUR);

    expect(await a.approve(r.id, bob)).toMatchObject({ kind: 'refused' });
    expect((await stored(w, r.id)).approvals).toEqual([]);
  });
});
