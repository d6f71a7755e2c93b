import type { StepContext } from '../core/approvals.js';
import { SYSTEM_ACTOR } from '../core/approvals.js';
import {
  type DelegateWords,
  type Delegation,
  delegationRefused,
  endDelegation,
  endedUnnoticed,
  inForce,
  newDelegation,
  resolveUntil,
  utcMinutes,
} from '../core/delegation.js';
import { StateConflictError } from '../core/errors.js';
import type { Actor } from '../core/model.js';
import { isAgent, isLead, type Policy } from '../core/policy.js';
import { type Said, say } from '../core/said.js';
import { holds } from '../core/seal.js';
import { type Reasoned, reasoned } from '../i18n/said.js';
import type { Store } from '../store/store.js';
import { policyActorOf } from './reads.js';
import type { Directory } from './types.js';

/**
 * The delegation use cases: a lead delegates their approvals until a time, cancels, and who
 * approves for whom now. Every step is audited in the transaction that records it; a delegation
 * found past its `until` is recorded as expired by whoever notices it first (the sweep, a click).
 * @see docs/architecture.md, "Break-glass and delegation"
 */

export type DelegateResult =
  | { kind: 'delegated'; delegation: Delegation }
  | { kind: 'cancelled'; delegation: Delegation }
  | ({ kind: 'refused' } & Reasoned);

/** What a person's Home tab shows of delegations. */
export interface DelegationsOverview {
  /** The delegation this person gave, while it is in force. */
  given: Delegation | null;
  /** Delegations in force to this person. */
  received: Delegation[];
}

export interface DelegationServiceDeps {
  store: Store;
  policy: Policy;
  directory: Directory;
  clock: () => Date;
  ctx: () => StepContext;
  newId: () => string;
  /** Where a written `until` time (without `Z`) is read: `DISPLAY_TIME_ZONE`; UTC when not given. */
  timeZone?: string | undefined;
}

export interface DelegationService {
  delegate(lead: Actor, words: DelegateWords): Promise<DelegateResult>;
  cancel(lead: Actor): Promise<DelegateResult>;
  /**
   * The delegations in force now, of a lead or to a delegate: only those a lead gave through
   * vidops (sealed) and that the audit log has not ended; a row written, or opened again, in the
   * database is not one.
   */
  inForce(filter: { leadId?: string; delegateId?: string }): Promise<Delegation[]>;
  /** The leads `delegateId` approves for now, each with their user groups (for the policy). */
  inForceTo(delegateId: string): Promise<{ id: string; lead: Actor; groups: string[] }[]>;
  /** Records every delegation found past its `until`; returns those this call ended. */
  expireDue(): Promise<Delegation[]>;
}

const SCAN = 200;

export function createDelegationService(deps: DelegationServiceDeps): DelegationService {
  async function inForce(filter: { leadId?: string; delegateId?: string }): Promise<Delegation[]> {
    const { seal } = deps.ctx();
    const ended = await endedInLog(deps.store);
    return (await openNow(deps, filter)).filter(
      (d) => seal !== undefined && holds(d.seal, seal.delegation(d)) && !ended.has(d.id),
    );
  }
  return {
    delegate: (lead, words) => delegate(deps, lead, words),
    cancel: (lead) => cancel(deps, lead),
    inForce,
    async inForceTo(delegateId) {
      const received = await inForce({ delegateId });
      return Promise.all(
        received.map(async (d) => ({
          id: d.id,
          lead: d.lead,
          groups: await deps.directory.groupsOf(d.lead.id),
        })),
      );
    },
    expireDue: () => expireDue(deps),
  };
}

/** The delegations whose end (cancelled or expired) the log records, whatever their rows say. */
async function endedInLog(store: Store): Promise<Set<unknown>> {
  // Not bounded by time: `at` is compared as text, and a column rewritten with another offset
  // would sort before it. Delegation events are few, and this runs only for a delegate's click.
  const events = await store.listAudit({ operation: 'delegation' });
  const ends = events.filter((e) => e.type === 'delegation-cancelled' || e.type === 'delegation-expired');
  return new Set(ends.map((e) => (e.params as { delegation?: unknown } | null)?.delegation));
}

async function delegate(
  d: DelegationServiceDeps,
  lead: Actor,
  words: DelegateWords,
): Promise<DelegateResult> {
  const who = await policyActorOf(d.directory, lead);
  if (!isLead(d.policy, who)) return { kind: 'refused', ...reasoned(say.delegOnlyLeads()) };
  if (words.delegate.id === lead.id) return { kind: 'refused', ...reasoned(say.delegSelf()) };
  const until = resolveUntil(words.until, d.clock(), d.timeZone);
  if (!until.ok) return { kind: 'refused', ...reasoned(until.said) };
  // The Slack edge names the delegate (a mention's name, else Slack's); the CLI gives the ID.
  const delegate: Actor = { id: words.delegate.id, name: words.delegate.name ?? words.delegate.id };
  const refusal = await delegateRefusal(d, delegate);
  if (refusal !== null) {
    const words = reasoned(refusal);
    await d.store.appendAudit([
      delegationRefused({ lead, delegate, until: until.at, refusal, reason: words.reason }, d.ctx()),
    ]);
    return { kind: 'refused', ...words };
  }
  const [existing] = await openNow(d, { leadId: lead.id });
  if (existing !== undefined) {
    return {
      kind: 'refused',
      ...reasoned(say.delegAlready(existing.delegate.name, utcMinutes(existing.until))),
    };
  }
  const made = newDelegation(
    { id: d.newId(), lead, delegate, until: until.at, reason: words.reason },
    d.ctx(),
  );
  try {
    return { kind: 'delegated', delegation: await d.store.addDelegation(made.delegation, made.events) };
  } catch (error) {
    if (!(error instanceof StateConflictError)) throw error;
    const [now] = await openNow(d, { leadId: lead.id });
    return {
      kind: 'refused',
      ...reasoned(now ? say.delegAlready(now.delegate.name, utcMinutes(now.until)) : say.delegRace()),
    };
  }
}

async function cancel(d: DelegationServiceDeps, lead: Actor): Promise<DelegateResult> {
  const [existing] = await openNow(d, { leadId: lead.id });
  if (existing === undefined) return { kind: 'refused', ...reasoned(say.delegNothingToCancel()) };
  const step = endDelegation(existing, 'cancelled', lead, d.ctx());
  const ended = await d.store.endDelegation(existing.id, step.patch, step.events);
  if (ended === null) return { kind: 'refused', ...reasoned(say.delegNothingToCancel()) };
  return { kind: 'cancelled', delegation: ended };
}

async function expireDue(d: DelegationServiceDeps): Promise<Delegation[]> {
  const now = d.clock();
  const open = await d.store.listDelegations({ open: true, limit: SCAN });
  const ended: Delegation[] = [];
  for (const one of open) {
    if (!endedUnnoticed(one, now)) continue;
    const done = await recordExpiry(d, one);
    if (done) ended.push(done);
  }
  return ended;
}

/** Records the expiry of a delegation found past its `until`; null when another got there first. */
async function recordExpiry(d: DelegationServiceDeps, one: Delegation): Promise<Delegation | null> {
  const step = endDelegation(one, 'expired', SYSTEM_ACTOR, d.ctx());
  return d.store.endDelegation(one.id, step.patch, step.events);
}

/**
 * Why `delegate` may not be handed a lead's approvals, or null: a bot, someone Slack does not
 * know as an active member, or someone outside the team (AGENTS or LEADS). When Slack cannot say
 * who it is (or this directory cannot ask), nothing is guessed: refused too.
 */
async function delegateRefusal(d: DelegationServiceDeps, delegate: Actor): Promise<Said | null> {
  const kind = d.directory.kindOf === undefined ? 'cannot-tell' : await d.directory.kindOf(delegate.id);
  switch (kind) {
    case 'bot':
      return say.delegBot();
    case 'unknown':
      return say.delegUnknown(delegate.id);
    case 'cannot-tell':
      return say.delegCannotCheck(delegate.id);
    case 'person':
      return isAgent(d.policy, await policyActorOf(d.directory, delegate))
        ? null
        : say.delegOutsider(delegate.name);
  }
}

/** The open delegations of a filter, the expired ones recorded as such on the way. */
async function openNow(
  d: DelegationServiceDeps,
  filter: { leadId?: string; delegateId?: string },
): Promise<Delegation[]> {
  const now = d.clock();
  const open = await d.store.listDelegations({ ...filter, open: true, limit: SCAN });
  const live: Delegation[] = [];
  for (const one of open) {
    if (endedUnnoticed(one, now)) await recordExpiry(d, one);
    else if (inForce(one, now)) live.push(one);
  }
  return live;
}
