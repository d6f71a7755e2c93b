import { isSameRequester } from '../core/actor.js';
import { isPastExpiry, type Step, SYSTEM_ACTOR, stateFacts } from '../core/approvals.js';
import {
  breakGlass as breakGlassStep,
  isBreakGlassWords,
  markReviewOverdue,
  reviewBreakGlass as reviewStep,
} from '../core/break-glass.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { InputError, PolicyDeniedError, StateConflictError } from '../core/errors.js';
import type { Actor, BreakGlassReview, OperationRequest } from '../core/model.js';
import { type BreakGlassRule, isLead, mayBreakGlass } from '../core/policy.js';
import { say } from '../core/said.js';
import { type Reasoned, reasoned, reasonOf } from '../i18n/said.js';
import type { LimitedTransition } from '../store/store.js';
import {
  about,
  apply,
  auditDenied,
  dueNow,
  policyActor,
  precheckWith,
  type ServiceContext,
  stepContext,
} from './context.js';
import { execute } from './execute.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import type { PrecheckResult } from './types.js';

/**
 * The break-glass use cases: whether a person may break the glass on their pending request, doing
 * it (reason and typed words, then the usual exactly-once execution), a lead's review, and the
 * sweep that reminds the leads of a change left unreviewed past `reviewWithin`.
 * @see docs/architecture.md, "Break-glass and delegation"
 */

export type BreakGlassResult =
  | { kind: 'executed'; request: OperationRequest }
  /** Nothing changed. `field`: the form field the problem belongs under, when there is one. */
  | ({ kind: 'refused'; request?: OperationRequest; field?: 'words' | 'reason' } & Reasoned);

export type ReviewResult =
  | { kind: 'reviewed'; request: OperationRequest }
  | ({ kind: 'refused'; request?: OperationRequest } & Reasoned);

/** Whether the break-glass button is offered to `actor` on `request`: their own, pending, the policy lists them. */
export async function breakGlassOffered(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
): Promise<boolean> {
  if (svc.policy.rules[request.operation].breakGlass === null) return false;
  // Offered whatever the rate limit: a click past it is told why, plainly.
  return (await refusal(svc, request, actor, { rateLimit: false })) === null;
}

/** Whether `actor` may break the glass on request `id` now (asked before the form); changes nothing. */
export function checkBreakGlass(svc: ServiceContext, id: string, actor: Actor): Promise<PrecheckResult> {
  return precheckWith(svc, id, (request) => refusal(svc, request, actor));
}

/** Runs the requester's pending request now, after the reason and the typed words. */
export async function breakGlass(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  input: { reason: string; words: string },
): Promise<BreakGlassResult> {
  // The form's own problems first: they change nothing and are shown under their field.
  if (!isBreakGlassWords(input.words))
    return { kind: 'refused', ...reasoned(say.bgWrongWords()), field: 'words' };
  if (input.reason.trim() === '')
    return { kind: 'refused', ...reasoned(say.bgReasonRequired()), field: 'reason' };
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const request = await svc.store.getRequest(id);
    if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
    // The rate limit is counted by the claim below, in the same step as the change.
    const no = await refusal(svc, request, actor, { rateLimit: false });
    const rule = svc.policy.rules[request.operation].breakGlass;
    if (no !== null || rule === null) {
      // refusal() says so when the rule is off; `rule` is looked at again only for its type.
      const off = say.glassNotOn(request.operation, OPERATION_SPECS[request.operation].title);
      const why = no ?? { ...reasoned(off), audit: true };
      if (why.audit) await auditDenied(svc, actor, about(request), 'break-glass', why);
      return { kind: 'refused', reason: why.reason, said: why.said, request };
    }
    const c = stepContext(svc);
    const step = stepOrRefused(() =>
      breakGlassStep(request, actor, { ...input, reviewWithinMs: rule.reviewWithinMs }, c),
    );
    if (!('patch' in step)) return { kind: 'refused', ...step, request };
    const claimed = await claim(svc, request, actor, rule, step, c.now);
    if (claimed.kind === 'done') return { kind: 'executed', request: await execute(svc, claimed.request) };
    if (claimed.kind === 'limited') {
      const limited = reasoned(say.glassRateLimited(rule.max, rule.per));
      await auditDenied(svc, actor, about(request), 'break-glass', limited);
      return { kind: 'refused', ...limited, request };
    }
  }
  return { kind: 'refused', ...reasoned(say.svcBusy(id)) };
}

export function checkBreakGlassReview(
  svc: ServiceContext,
  id: string,
  actor: Actor,
): Promise<PrecheckResult> {
  return precheckWith(svc, id, (request) => reviewRefusal(svc, request, actor));
}

/** A lead (never the one who broke the glass) acknowledges or flags (note required) a break-glass change. */
export async function reviewBreakGlass(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  verdict: BreakGlassReview['verdict'],
  note: string | null,
): Promise<ReviewResult> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const request = await svc.store.getRequest(id);
    if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
    const no = await reviewRefusal(svc, request, actor);
    if (no !== null) {
      if (request.breakGlass !== undefined && request.breakGlass.review === null) {
        await auditDenied(svc, actor, about(request), 'review', no);
      }
      return { kind: 'refused', ...no, request };
    }
    const c = stepContext(svc);
    const step = stepOrRefused(() => reviewStep(request, actor, { verdict, note }, c));
    if (!('patch' in step)) return { kind: 'refused', ...step, request };
    const done = await apply(svc.store, request, step, c.now);
    if (done) return { kind: 'reviewed', request: done };
  }
  return { kind: 'refused', ...reasoned(say.svcBusy(id)) };
}

/** Records (once) each break-glass change unreviewed past its review time, which reminds the leads. */
export async function remindBreakGlass(svc: ServiceContext): Promise<OperationRequest[]> {
  const reminded: OperationRequest[] = [];
  for await (const request of dueNow(svc.store, 'review', svc.clock().toISOString())) {
    // Still executing: its outcome comes first; the reminder follows at a later sweep.
    if (request.state === 'executing') continue;
    const c = stepContext(svc);
    const step = markReviewOverdue(request, SYSTEM_ACTOR, c);
    if (step === null) continue;
    const done = await apply(svc.store, request, step, c.now);
    if (done) reminded.push(done);
  }
  return reminded;
}

/** Why `actor` may not break the glass on `request` (policy, requester, state, rate limit); null when they may. */
async function refusal(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
  options: { rateLimit: boolean } = { rateLimit: true },
): Promise<(Reasoned & { audit: boolean }) | null> {
  const now = svc.clock();
  if (request.state !== 'pending' || isPastExpiry(request, now)) {
    return {
      ...reasoned(say.reqCannot(request.id, 'run by break-glass', stateFacts(request, now))),
      audit: false,
    };
  }
  if (!isSameRequester(request.requester, actor))
    return { ...reasoned(say.glassNotRequester()), audit: true };
  const who = await policyActor(svc, actor);
  const rule = svc.policy.rules[request.operation].breakGlass;
  if (rule === null || !mayBreakGlass(svc.policy, request.operation, who)) {
    return {
      ...reasoned(say.glassNotOn(request.operation, OPERATION_SPECS[request.operation].title)),
      audit: true,
    };
  }
  if (!options.rateLimit) return null;
  const since = new Date(now.getTime() - rule.perMs).toISOString();
  const used = await svc.store.countEvents(actor.id, request.operation, ['break-glass'], since);
  if (used >= rule.max) return { ...reasoned(say.glassRateLimited(rule.max, rule.per)), audit: true };
  return null;
}

/**
 * Applies the break-glass step only while `actor` broke the glass fewer than `rule.max` times on
 * the operation within `rule.per`: the store counts and changes in one step, under one lock for
 * every replica, so clicks sent at once cannot pass the limit (`limited`, nothing changed).
 */
function claim(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
  rule: BreakGlassRule,
  step: Step,
  at: Date,
): Promise<LimitedTransition> {
  const since = new Date(at.getTime() - rule.perMs).toISOString();
  return svc.store.transitionWithin(
    { actorId: actor.id, operation: request.operation, types: ['break-glass'], since, max: rule.max },
    request.id,
    request.version,
    step.patch,
    at.toISOString(),
    step.events,
  );
}

async function reviewRefusal(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
): Promise<Reasoned | null> {
  if (request.breakGlass === undefined) return reasoned(say.glassNotBroken(request.id));
  const who = await policyActor(svc, actor);
  if (!isLead(svc.policy, who)) return reasoned(say.glassNotLead());
  const review = request.breakGlass.review;
  if (review !== null) return reasoned(say.glassReviewed(request.id, review.by.name, review.verdict));
  if (request.breakGlass.by.id === actor.id) return reasoned(say.glassOwnReview());
  return null;
}

/** The step `build` makes, or the refusal of the state machine (a wrong state, input or policy). */
function stepOrRefused(build: () => Step): Step | Reasoned {
  try {
    return build();
  } catch (error) {
    if (
      error instanceof InputError ||
      error instanceof PolicyDeniedError ||
      error instanceof StateConflictError
    ) {
      return reasonOf(error);
    }
    throw error;
  }
}
