import { actorRecord, maybeSamePerson } from './actor.js';
import { countsToward, type StepContext } from './approvals.js';
import type { JsonValue } from './json.js';
import type { Actor, NewAuditEvent, OperationRequest } from './model.js';
import { isApproverOf, type Policy } from './policy.js';
import { type Said, saidJson, say } from './said.js';
import { momentMs, parseUntil, type UntilSpec } from './when.js';

// How `until` is read is shared with time-boxed changes (./when.ts).
export { parseUntil, type UntilSpec, zonedToUtc } from './when.js';

/**
 * Delegation: a lead on leave lets someone approve in their place until a set time
 * (`/vidops delegate <@user> until 4h [reason]`). The delegate approves only what the lead could
 * approve, never their own requests nor those of the lead, and one person counts once toward a
 * quorum, whether as themselves or for the lead. Delegated approval is not passed on: only a lead
 * delegates, and only their own approval. Every step is an audit event.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

/** The longest a delegation may run. */
export const DELEGATION_MAX_MS = 30 * 86_400_000;

/** One delegation, as the store keeps it. `endedAt` is set when it was cancelled or found expired. */
export interface Delegation {
  id: string;
  lead: Actor;
  delegate: Actor;
  reason: string | null;
  createdAt: string;
  until: string;
  endedAt: string | null;
  endedBy: Actor | null;
  ending: 'cancelled' | 'expired' | null;
  /** Its seal (./seal.ts): only a sealed delegation lets its delegate approve. */
  seal?: string;
}

/** What `/vidops delegate` reads. */
export interface DelegateWords {
  delegate: { id: string; name: string | null };
  until: UntilSpec;
  reason: string | null;
}

const MENTION = /^<@([UW][A-Z0-9]{2,})(?:\|([^>]*))?>(.*)$/s;

/** Reads `<@U123|name>` or `<@U123>` at the start of `text`; the rest follows. */
export function parseMention(
  text: string,
): { ok: true; id: string; name: string | null; rest: string } | { ok: false } {
  const match = MENTION.exec(text.trim());
  if (!match) return { ok: false };
  const name = match[2]?.trim() || null;
  return { ok: true, id: match[1] ?? '', name, rest: (match[3] ?? '').trim() };
}

/** A refusal of what was typed: the sentence to say in the reader's language. */
export type DelegationRefusal = { ok: false; said: Said };

function refused(said: Said): DelegationRefusal {
  return { ok: false, said };
}

/**
 * When the delegation ends, checked: in the future, and at most 30 days away. A time without `Z`
 * is read in `timeZone` (the display time zone, `DISPLAY_TIME_ZONE`), as the lead's clock shows it.
 */
export function resolveUntil(
  spec: UntilSpec,
  now: Date,
  timeZone = 'UTC',
): { ok: true; at: string } | DelegationRefusal {
  const at = spec.kind === 'duration' ? now.getTime() + spec.ms : momentMs(spec, timeZone);
  const iso = new Date(at).toISOString();
  if (at <= now.getTime()) return refused(say.delegPast(utcMinutes(iso)));
  if (at - now.getTime() > DELEGATION_MAX_MS) return refused(say.delegTooLong());
  return { ok: true, at: iso };
}

/** The words after `delegate`: `<@U…|name> until <when> [reason]`. */
export function parseDelegateWords(
  args: readonly string[],
): { ok: true; value: DelegateWords } | DelegationRefusal {
  const text = args.join(' ').trim();
  if (text === '') return refused(say.delegSayWho());
  const mention = parseMention(text);
  if (!mention.ok) return refused(say.delegNotMention(text.split(/\s+/)[0] ?? ''));
  const [word, when, ...reason] = mention.rest === '' ? [] : mention.rest.split(/\s+/);
  if (word?.toLowerCase() !== 'until' || when === undefined) return refused(say.delegMissingUntil());
  const until = parseUntil(when);
  if (!until.ok) return until;
  const because = reason.join(' ').trim();
  return {
    ok: true,
    value: {
      delegate: { id: mention.id, name: mention.name },
      until: until.until,
      reason: because === '' ? null : because,
    },
  };
}

/** `2026-12-01T18:00:00.000Z` → `2026-12-01 18:00 UTC`. */
export function utcMinutes(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** True while the delegation is in force at `now`. */
export function inForce(d: Pick<Delegation, 'endedAt' | 'until'>, now: Date): boolean {
  return d.endedAt === null && Date.parse(d.until) > now.getTime();
}

/** A delegation noticed past its `until` but not yet recorded as ended. */
export function endedUnnoticed(d: Pick<Delegation, 'endedAt' | 'until'>, now: Date): boolean {
  return d.endedAt === null && Date.parse(d.until) <= now.getTime();
}

/**
 * Whether `delegate` may approve `request` in a lead's place, given the delegations in force to
 * them and the user groups of each lead: the first lead who may approve this request (an approver
 * of its operation, or a backup it was escalated to), is not the requester and does not count
 * toward it already, with the delegation that lets them (its approval holds only while that
 * delegation is open: the store checks it again in the approval's commit). Null when no
 * delegation applies.
 */
export function delegatedLead(
  policy: Policy,
  request: Pick<OperationRequest, 'operation' | 'requester' | 'approvals' | 'followUp'>,
  delegate: Pick<Actor, 'id' | 'via'>,
  delegations: readonly { id: string; lead: Actor; groups: readonly string[] }[],
): { ok: true; lead: Actor; delegation: string } | DelegationRefusal | null {
  const theirs = delegations.filter((d) =>
    isApproverOf(policy, request, { id: d.lead.id, groups: d.groups }),
  );
  if (theirs.length === 0) return null;
  if (maybeSamePerson(delegate, request.requester)) {
    return refused(say.polOwnRequest());
  }
  const open = theirs.filter(
    (d) => !maybeSamePerson(d.lead, request.requester) && !countsToward(request, d.lead),
  );
  const first = open[0];
  if (first !== undefined) return { ok: true, lead: first.lead, delegation: first.id };
  return refused(say.delegCountsOnce(theirs.map((d) => d.lead.name)));
}

function delegationEvent(
  d: Delegation,
  type: 'delegated' | 'delegation-cancelled' | 'delegation-expired',
  actor: Actor,
  ctx: StepContext,
  outcome: JsonValue,
): NewAuditEvent {
  return {
    id: ctx.eventId(),
    type,
    at: ctx.now.toISOString(),
    actor: actorRecord(actor),
    operation: 'delegation',
    target: d.delegate.id,
    params: {
      delegation: d.id,
      lead: { id: d.lead.id, name: d.lead.name },
      delegate: { id: d.delegate.id, name: d.delegate.name },
      until: d.until,
    },
    requestId: null,
    outcome,
    error: null,
  };
}

/** A new delegation and its `delegated` event. The caller has checked that `lead` is a lead. */
export function newDelegation(
  input: { id: string; lead: Actor; delegate: Actor; until: string; reason: string | null },
  ctx: StepContext,
): { delegation: Delegation; events: NewAuditEvent[] } {
  const delegation: Delegation = {
    id: input.id,
    lead: actorRecord(input.lead),
    delegate: actorRecord(input.delegate),
    reason: input.reason,
    createdAt: ctx.now.toISOString(),
    until: input.until,
    endedAt: null,
    endedBy: null,
    ending: null,
  };
  if (ctx.seal !== undefined) delegation.seal = ctx.seal.delegation(delegation);
  const event = delegationEvent(delegation, 'delegated', input.lead, ctx, {
    until: input.until,
    reason: input.reason,
  });
  return { delegation, events: [event] };
}

/**
 * The `denied` event of a delegation refused for who it would go to (a bot, someone outside the
 * team, a user Slack does not know): like a refused approval, an attempt to hand a lead's
 * approvals where the policy does not allow them is audited. Nothing else is recorded. `reason`
 * is the refusal's English, worded by the caller.
 */
export function delegationRefused(
  input: { lead: Actor; delegate: Actor; until: string; refusal: Said; reason: string },
  ctx: StepContext,
): NewAuditEvent {
  return {
    id: ctx.eventId(),
    type: 'denied',
    at: ctx.now.toISOString(),
    actor: actorRecord(input.lead),
    operation: 'delegation',
    target: input.delegate.id,
    params: {
      lead: { id: input.lead.id, name: input.lead.name },
      delegate: { id: input.delegate.id, name: input.delegate.name },
      until: input.until,
    },
    requestId: null,
    outcome: { action: 'delegate', reason: input.reason, said: saidJson(input.refusal) },
    error: null,
  };
}

/** Ends a delegation: cancelled by its lead, or found expired (by the system). */
export function endDelegation(
  d: Delegation,
  how: 'cancelled' | 'expired',
  by: Actor,
  ctx: StepContext,
): { patch: Pick<Delegation, 'endedAt' | 'endedBy' | 'ending'>; events: NewAuditEvent[] } {
  const endedAt = how === 'expired' ? d.until : ctx.now.toISOString();
  return {
    patch: { endedAt, endedBy: actorRecord(by), ending: how },
    events: [
      delegationEvent(d, how === 'cancelled' ? 'delegation-cancelled' : 'delegation-expired', by, ctx, {
        until: d.until,
        endedAt,
      }),
    ],
  };
}
