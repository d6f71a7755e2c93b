import { isSameRequester } from '../core/actor.js';
import { isPastExpiry, type Step, type StepContext, SYSTEM_ACTOR, stateFacts } from '../core/approvals.js';
import { breakGlass, isBreakGlassWords, markReviewOverdue, reviewBreakGlass } from '../core/break-glass.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { InputError, PolicyDeniedError, StateConflictError } from '../core/errors.js';
import type { Actor, BreakGlassReview, OperationRequest } from '../core/model.js';
import { type BreakGlassRule, isLead, mayBreakGlass, type Policy } from '../core/policy.js';
import { type Reasoned, reasoned, reasonOf, say } from '../core/said.js';
import type { LimitedTransition, Store } from '../store/store.js';
import { MAX_CAS_ATTEMPTS, policyActorOf } from './reads.js';
import type { Directory, PrecheckResult } from './types.js';

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

export interface BreakGlassDeps {
  store: Store;
  policy: Policy;
  directory: Directory;
  clock: () => Date;
  ctx: () => StepContext;
  apply(request: OperationRequest, step: Step, at: Date): Promise<OperationRequest | null>;
  execute(request: OperationRequest): Promise<OperationRequest>;
  auditDenied(actor: Actor, request: OperationRequest, action: string, reason: Reasoned): Promise<void>;
}

export interface BreakGlassService {
  /** Whether `actor` may break the glass on `request` now (to offer the button). */
  offered(request: OperationRequest, actor: Actor): Promise<boolean>;
  check(id: string, actor: Actor): Promise<PrecheckResult>;
  run(id: string, actor: Actor, input: { reason: string; words: string }): Promise<BreakGlassResult>;
  checkReview(id: string, actor: Actor): Promise<PrecheckResult>;
  review(
    id: string,
    actor: Actor,
    verdict: BreakGlassReview['verdict'],
    note: string | null,
  ): Promise<ReviewResult>;
  remindDue(): Promise<OperationRequest[]>;
}

const UNREVIEWED_LIMIT = 200;

export function createBreakGlassService(deps: BreakGlassDeps): BreakGlassService {
  const { store, policy, directory, clock } = deps;

  /** Why `actor` may not break the glass on `request` (policy, requester, state, rate limit); null when they may. */
  async function refusal(
    request: OperationRequest,
    actor: Actor,
    options: { rateLimit: boolean } = { rateLimit: true },
  ): Promise<(Reasoned & { audit: boolean }) | null> {
    const now = clock();
    if (request.state !== 'pending' || isPastExpiry(request, now)) {
      return {
        ...reasoned(say.reqCannot(request.id, 'run by break-glass', stateFacts(request, now))),
        audit: false,
      };
    }
    if (!isSameRequester(request.requester, actor))
      return { ...reasoned(say.glassNotRequester()), audit: true };
    const who = await policyActorOf(directory, actor);
    const rule = policy.rules[request.operation].breakGlass;
    if (rule === null || !mayBreakGlass(policy, request.operation, who)) {
      return {
        ...reasoned(say.glassNotOn(request.operation, OPERATION_SPECS[request.operation].title)),
        audit: true,
      };
    }
    if (!options.rateLimit) return null;
    const since = new Date(now.getTime() - rule.perMs).toISOString();
    const used = await store.countEvents(actor.id, request.operation, ['break-glass'], since);
    if (used >= rule.max) return { ...reasoned(say.glassRateLimited(rule.max, rule.per)), audit: true };
    return null;
  }

  /**
   * Applies the break-glass step only while `actor` broke the glass fewer than `rule.max` times on
   * the operation within `rule.per`: the store counts and changes in one step, under one lock for
   * every replica, so clicks sent at once cannot pass the limit (`limited`, nothing changed).
   */
  function claim(
    request: OperationRequest,
    actor: Actor,
    rule: BreakGlassRule,
    step: Step,
    at: Date,
  ): Promise<LimitedTransition> {
    const since = new Date(at.getTime() - rule.perMs).toISOString();
    return store.transitionWithin(
      { actorId: actor.id, operation: request.operation, types: ['break-glass'], since, max: rule.max },
      request.id,
      request.version,
      step.patch,
      at.toISOString(),
      step.events,
    );
  }

  async function reviewRefusal(request: OperationRequest, actor: Actor): Promise<Reasoned | null> {
    if (request.breakGlass === undefined) return reasoned(say.glassNotBroken(request.id));
    const who = await policyActorOf(directory, actor);
    if (!isLead(policy, who)) return reasoned(say.glassNotLead());
    const review = request.breakGlass.review;
    if (review !== null) return reasoned(say.glassReviewed(request.id, review.by.name, review.verdict));
    if (request.breakGlass.by.id === actor.id) return reasoned(say.glassOwnReview());
    return null;
  }

  return {
    async offered(request, actor) {
      if (policy.rules[request.operation].breakGlass === null) return false;
      // Offered whatever the rate limit: a click past it is told why, plainly.
      return (await refusal(request, actor, { rateLimit: false })) === null;
    },

    async check(id, actor) {
      const request = await store.getRequest(id);
      if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
      const no = await refusal(request, actor);
      return no === null
        ? { kind: 'allowed', request }
        : { kind: 'refused', reason: no.reason, said: no.said, request };
    },

    async run(id, actor, input) {
      // The form's own problems first: they change nothing and are shown under their field.
      if (!isBreakGlassWords(input.words))
        return { kind: 'refused', ...reasoned(say.bgWrongWords()), field: 'words' };
      if (input.reason.trim() === '')
        return { kind: 'refused', ...reasoned(say.bgReasonRequired()), field: 'reason' };
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
        const request = await store.getRequest(id);
        if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
        // The rate limit is counted by the claim below, in the same step as the change.
        const no = await refusal(request, actor, { rateLimit: false });
        const rule = policy.rules[request.operation].breakGlass;
        if (no !== null || rule === null) {
          // refusal() says so when the rule is off; `rule` is looked at again only for its type.
          const off = say.glassNotOn(request.operation, OPERATION_SPECS[request.operation].title);
          const why = no ?? { ...reasoned(off), audit: true };
          if (why.audit) await deps.auditDenied(actor, request, 'break-glass', why);
          return { kind: 'refused', reason: why.reason, said: why.said, request };
        }
        const c = deps.ctx();
        let step: Step;
        try {
          step = breakGlass(request, actor, { ...input, reviewWithinMs: rule.reviewWithinMs }, c);
        } catch (error) {
          if (
            error instanceof InputError ||
            error instanceof PolicyDeniedError ||
            error instanceof StateConflictError
          ) {
            return { kind: 'refused', ...reasonOf(error), request };
          }
          throw error;
        }
        const claimed = await claim(request, actor, rule, step, c.now);
        if (claimed.kind === 'done')
          return { kind: 'executed', request: await deps.execute(claimed.request) };
        if (claimed.kind === 'limited') {
          const limited = reasoned(say.glassRateLimited(rule.max, rule.per));
          await deps.auditDenied(actor, request, 'break-glass', limited);
          return { kind: 'refused', ...limited, request };
        }
      }
      return { kind: 'refused', ...reasoned(say.svcBusy(id)) };
    },

    async checkReview(id, actor) {
      const request = await store.getRequest(id);
      if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
      const no = await reviewRefusal(request, actor);
      return no === null ? { kind: 'allowed', request } : { kind: 'refused', ...no, request };
    },

    async review(id, actor, verdict, note) {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
        const request = await store.getRequest(id);
        if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
        const no = await reviewRefusal(request, actor);
        if (no !== null) {
          if (request.breakGlass !== undefined && request.breakGlass.review === null) {
            await deps.auditDenied(actor, request, 'review', no);
          }
          return { kind: 'refused', ...no, request };
        }
        const c = deps.ctx();
        let step: Step;
        try {
          step = reviewBreakGlass(request, actor, { verdict, note }, c);
        } catch (error) {
          if (
            error instanceof InputError ||
            error instanceof PolicyDeniedError ||
            error instanceof StateConflictError
          ) {
            return { kind: 'refused', ...reasonOf(error), request };
          }
          throw error;
        }
        const done = await deps.apply(request, step, c.now);
        if (done) return { kind: 'reviewed', request: done };
      }
      return { kind: 'refused', ...reasoned(say.svcBusy(id)) };
    },

    async remindDue() {
      const list = await store.listRequests({ breakGlassUnreviewed: true, limit: UNREVIEWED_LIMIT });
      const reminded: OperationRequest[] = [];
      for (const request of list) {
        // Still executing: its outcome comes first; the reminder follows at a later sweep.
        if (request.state === 'executing') continue;
        const c = deps.ctx();
        const step = markReviewOverdue(request, SYSTEM_ACTOR, c);
        if (step === null) continue;
        const done = await deps.apply(request, step, c.now);
        if (done) reminded.push(done);
      }
      return reminded;
    },
  };
}
