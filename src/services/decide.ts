import { cancelRefusal, maybeSamePerson } from '../core/actor.js';
import * as approvals from '../core/approvals.js';
import { isPastExpiry, stateFacts } from '../core/approvals.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { delegatedLead } from '../core/delegation.js';
import { InputError } from '../core/errors.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { isApproverOf, mayApprove, type Policy, type PolicyActor } from '../core/policy.js';
import { type Said, say, type Wanted } from '../core/said.js';
import { english, reasoned } from '../i18n/said.js';
import {
  about,
  apply,
  auditDenied,
  type GuardedStep,
  policyActor,
  precheckWith,
  refused,
  type ServiceContext,
  stepContext,
  stepOrRefusal,
} from './context.js';
import { execute } from './execute.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import { resolveRefusal } from './resolve.js';
import type { DecisionResult, PrecheckResult } from './types.js';

/**
 * A person's decision on a pending request: approve (in their own right or in a lead's place, by
 * delegation), reject with a reason, or cancel their own; and the checks made before a form asks
 * for a note. Each is a compare-and-set of the request with its audit events; the approval that
 * completes the quorum runs the request.
 * @see docs/architecture.md, "Approvals"
 */

export async function approve(svc: ServiceContext, id: string, actor: Actor): Promise<DecisionResult> {
  const who = await policyActor(svc, actor);
  const outcome = await decideOn(svc, id, 'approved', async (request) => {
    const check = mayApprove(svc.policy, request, who);
    if (!check.ok && check.code === 'not-approver') {
      // Not an approver in their own right: maybe in a lead's place, by delegation.
      const standing = delegatedLead(svc.policy, request, actor, await svc.delegation.inForceTo(actor.id));
      if (standing?.ok === true) {
        const step = stepOrRefusal(
          () => approvals.approve(request, actor, stepContext(svc), standing.lead),
          request,
        );
        // Committed only while the delegation is still open: a cancel that lands between this
        // check and the commit makes the commit stale, and the click is decided again.
        return 'kind' in step ? step : { ...step, whileDelegated: standing.delegation };
      }
      if (standing?.ok === false) {
        await auditDenied(svc, actor, about(request), 'approve', standing);
        return refused(standing.said, request);
      }
    }
    if (!check.ok) {
      // A second click by the same lead is no attempt to get around the policy; the others are.
      if (check.code !== 'already-approved') await auditDenied(svc, actor, about(request), 'approve', check);
      return refused(check.said, request);
    }
    return stepOrRefusal(() => approvals.approve(request, actor, stepContext(svc)), request);
  });
  if ('kind' in outcome) return outcome;
  if (outcome.request.state === 'executing') {
    return { kind: 'executed', request: await execute(svc, outcome.request) };
  }
  return { kind: 'pending', request: outcome.request };
}

export async function reject(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  note: string,
): Promise<DecisionResult> {
  if (note.trim() === '') throw new InputError(say.noteToReject());
  const who = await policyActor(svc, actor);
  const outcome = await decideOn(svc, id, 'rejected', async (request) => {
    const refusal = rejectRefusal(svc.policy, request, actor, who);
    if (refusal !== null) {
      // Rejecting one's own request is no attempt to get around the policy; the other refusal is.
      if (refusal.audit) await auditDenied(svc, actor, about(request), 'reject', refusal);
      return refused(refusal.said, request);
    }
    return stepOrRefusal(() => approvals.reject(request, actor, note, stepContext(svc)), request);
  });
  if ('kind' in outcome) return outcome;
  return { kind: 'rejected', request: outcome.request };
}

export async function cancel(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  note: string | null,
): Promise<DecisionResult> {
  const outcome = await decideOn(svc, id, 'cancelled', async (request) => {
    // Only the requester, with the same proof as a decision from the CLI (src/core/actor.ts).
    const refusal = cancelRefusal(svc.policy.cli.approve, request, actor);
    if (refusal !== null) {
      const reason = reasoned(refusal);
      await auditDenied(svc, actor, about(request), 'cancel', reason);
      return refused(reason, request);
    }
    return stepOrRefusal(() => approvals.cancel(request, actor, note, stepContext(svc)), request);
  });
  if ('kind' in outcome) return outcome;
  return { kind: 'cancelled', request: outcome.request };
}

/** The checks of `reject` or `resolve` that can be made before a form asks for a note. */
export function precheck(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  verb: 'rejected' | 'settled',
): Promise<PrecheckResult> {
  return precheckWith(svc, id, async (request) => {
    const expected = verb === 'rejected' ? 'pending' : 'unknown';
    if (request.state !== expected)
      return reasoned(say.reqCannot(id, verb, stateFacts(request, svc.clock())));
    const who = await policyActor(svc, actor);
    return verb === 'rejected'
      ? rejectRefusal(svc.policy, request, actor, who)
      : resolveRefusal(svc.policy, request, actor, who);
  });
}

/**
 * The common frame of approve, reject and cancel: load, let `decideStep` check and build the
 * step, compare-and-set, and on a lost race reload and decide again with what is there now. A
 * pending request found past its expiry is expired on the spot, whoever noticed.
 */
async function decideOn(
  svc: ServiceContext,
  id: string,
  verb: Wanted,
  decideStep: (request: OperationRequest) => Promise<GuardedStep | DecisionResult>,
): Promise<{ request: OperationRequest } | DecisionResult> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const request = await svc.store.getRequest(id);
    if (!request) return refused(say.svcNoRequest(id));
    const now = svc.clock();
    if (request.state === 'pending' && isPastExpiry(request, now)) {
      const expired = await expireNow(svc, request);
      return refused(say.reqCannotNow(id, verb, stateFacts(expired, now)), expired);
    }
    if (request.state !== 'pending') {
      return refused(say.reqCannot(id, verb, stateFacts(request, now)), request);
    }
    const outcome = await decideStep(request);
    if ('kind' in outcome) return outcome;
    const done = await apply(svc.store, request, outcome, now);
    if (done) return { request: done };
  }
  const latest = await svc.store.getRequest(id);
  return refused(say.svcBusy(id), latest ?? undefined);
}

async function expireNow(svc: ServiceContext, request: OperationRequest): Promise<OperationRequest> {
  const c = stepContext(svc);
  const done = await apply(svc.store, request, approvals.expire(request, c), c.now);
  return done ?? (await svc.store.getRequest(request.id)) ?? request;
}

/** Why `actor` may not reject `request`, and whether that refusal is audited; null when they may. */
function rejectRefusal(
  policy: Policy,
  request: OperationRequest,
  actor: Actor,
  who: PolicyActor,
): { reason: string; said: Said; audit: boolean } | null {
  if (maybeSamePerson(request.requester, actor)) {
    return { ...reasoned(say.svcOwnReject()), said: say.svcOwnReject(), audit: false };
  }
  if (!isApproverOf(policy, request, who)) {
    const said = say.svcOnlyApproversReject(request.operation, OPERATION_SPECS[request.operation].title);
    return { reason: english(said), said, audit: true };
  }
  return null;
}
