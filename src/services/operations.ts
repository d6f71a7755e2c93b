import { actorRecord, cancelRefusal, maybeSamePerson } from '../core/actor.js';
import * as approvals from '../core/approvals.js';
import { isPastExpiry, type Step, type StepContext, SYSTEM_ACTOR, stateFacts } from '../core/approvals.js';
import { type ChangeOperation, OPERATION_SPECS, type Spec } from '../core/catalog.js';
import { delegatedLead } from '../core/delegation.js';
import { ConfigError, InputError, PolicyDeniedError, StateConflictError } from '../core/errors.js';
import { AUDIT_MAX } from '../core/grammar.js';
import { newEventId, newRequestId } from '../core/ids.js';
import type { JsonValue } from '../core/json.js';
import type { Actor, AuditEvent, OperationRequest, ResolveWay } from '../core/model.js';
import {
  checkPolicy,
  type Decision,
  decide,
  isApproverOf,
  mayApprove,
  needsConfirmation,
  type Policy,
  type PolicyActor,
} from '../core/policy.js';
import {
  english,
  type Reasoned,
  reasoned,
  reasonOf,
  type Said,
  saidJson,
  say,
  type Wanted,
} from '../core/said.js';
import { createBreakGlassService } from './break-glass.js';
import { prepareRequest } from './catalog.js';
import { createDelegationService } from './delegation.js';
import { recordError, type SendOutcome, sendRequest } from './execute.js';
import { createReads, MAX_CAS_ATTEMPTS, policyActorOf } from './reads.js';
import { createFollowUps } from './reminders.js';
import { checkTarget, settleIdentityRefusal } from './resolve.js';
import type {
  DecisionResult,
  Operations,
  OperationsDeps,
  PrecheckResult,
  Prepared,
  PrepareInput,
  ResolveResult,
  SubmitResult,
} from './types.js';

const DEFAULT_STALE_EXECUTION_MS = 120_000;
const DEFAULT_CHECK_GRACE_MS = 60_000;
const PENDING_SCAN_LIMIT = 500;
/** How many request IDs are drawn before a taken one is given up on (each is 40 random bits). */
const MAX_ID_DRAWS = 3;

/**
 * The operations services: prepare, submit, approve, reject, cancel, execute exactly once, expire,
 * resume, and settle outcomes left unknown. Every change goes through a compare-and-set in the
 * store together with its audit events; execution happens only in the caller that won the
 * transition into `executing`.
 * @see docs/architecture.md, "Approvals", "Audit log" and "Scale"
 */
export function createOperations(deps: OperationsDeps): Operations {
  const { store, client, policy, directory, clock } = deps;
  // A rule nobody could ever approve would strand requests; refuse it here as well as in main.
  const problems = checkPolicy(policy);
  if (problems.length > 0) throw new ConfigError(problems);
  const ids = deps.ids ?? { request: newRequestId, event: newEventId };
  const staleMs = deps.staleExecutionMs ?? DEFAULT_STALE_EXECUTION_MS;
  const checkGraceMs = deps.checkGraceMs ?? DEFAULT_CHECK_GRACE_MS;
  const log = deps.logger;

  const ctx = (): StepContext => ({ now: clock(), eventId: () => ids.event() });

  const policyActor = (actor: Actor): Promise<PolicyActor> => policyActorOf(directory, actor);

  // Break-glass and delegation (./break-glass.ts, ./delegation.ts): the same apply, execute and
  // audit as every other step.
  const delegation = createDelegationService({
    store,
    policy,
    directory,
    clock,
    ctx,
    newId: ids.request,
    timeZone: deps.timeZone,
  });
  const glass = createBreakGlassService({
    store,
    policy,
    directory,
    clock,
    ctx,
    apply,
    execute: (request) => execute(request),
    auditDenied: (actor, request, action, reason) => auditDenied(actor, about(request), action, reason),
  });

  /**
   * Applies a step with compare-and-set; null when another writer changed the request first. The
   * store records the step's notification job in the same transaction, so this returns as soon as
   * the change committed: Slack is told afterwards, never in the path of the click that made it.
   */
  async function apply(request: OperationRequest, step: Step, at: Date): Promise<OperationRequest | null> {
    const done = await store.transition(
      request.id,
      request.version,
      step.patch,
      at.toISOString(),
      step.events,
    );
    return done?.request ?? null;
  }

  /** Audits a refusal that changes no request: `denied`, with what was attempted. */
  async function auditDenied(
    actor: Actor,
    subject: { operation: string; target: string; params: JsonValue; requestId: string | null },
    action: string,
    reason: string | Reasoned,
  ): Promise<void> {
    const now = clock();
    const words = typeof reason === 'string' ? { reason } : reason;
    // `said` beside the English: the audit channel words it in its language (new events only).
    const outcome =
      words.said === undefined
        ? { action, reason: words.reason }
        : { action, reason: words.reason, said: saidJson(words.said) };
    await store.appendAudit([
      {
        id: ids.event(),
        type: 'denied',
        at: now.toISOString(),
        actor: actorRecord(actor),
        operation: subject.operation,
        target: subject.target,
        params: subject.params,
        requestId: subject.requestId,
        outcome,
        error: null,
      },
    ]);
  }

  /**
   * Runs a request this caller moved into `executing`, then records `succeeded`, `failed` or, when
   * the service may or may not have applied it, `unknown`. Only the winner of that transition
   * calls this, so the upstream sees the change once. `resent`: a lead's "Send again" of a request
   * whose outcome was unknown; its end settles the request (or leaves it unknown).
   */
  async function execute(
    request: OperationRequest,
    resent?: { by: Actor; note: string | null },
  ): Promise<OperationRequest> {
    const outcome = await sendRequest(
      request,
      { client, fetchCover: deps.fetchCover },
      { repeat: resent !== undefined },
    );
    const c = ctx();
    let current = request;
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const done = await apply(current, outcomeStep(current, outcome, c, resent), c.now);
      if (done) {
        log?.info(
          { requestId: done.id, operation: done.operation, state: done.state, error: done.error?.name },
          'request executed',
        );
        return done;
      }
      // Where its approval message is was recorded meanwhile (that keeps `updatedAt`): the request
      // is still this run's, so its outcome is recorded on the version now stored. Anything else
      // (another replica took it for interrupted) is not this process's to record.
      const fresh = await store.getRequest(request.id);
      if (fresh === null || fresh.state !== 'executing' || fresh.updatedAt !== request.updatedAt) break;
      current = fresh;
    }
    // Someone changed it while it ran (e.g. another replica took it for interrupted); say what is there now.
    const now = await store.getRequest(request.id);
    log?.warn(
      { requestId: request.id, operation: request.operation, state: now?.state },
      'request changed while it was executing; outcome not recorded by this process',
    );
    return now ?? request;
  }

  /**
   * Who may settle `request`, checked before anything is looked up or sent: never its requester,
   * only an approver of its operation. A refusal other than a wrong state is audited.
   */
  async function mayResolve(
    request: OperationRequest,
    actor: Actor,
  ): Promise<{ reason: string; said: Said } | null> {
    const reason = resolveRefusal(policy, request, actor, await policyActor(actor));
    if (reason !== null) await auditDenied(actor, about(request), 'resolve', reason);
    return reason;
  }

  /**
   * The checks of `reject` or `resolve` that can be made before a form asks for a note: the
   * request, its state, and who acts. Nothing is changed or audited; the submission checks again.
   */
  async function precheck(id: string, actor: Actor, verb: 'rejected' | 'settled'): Promise<PrecheckResult> {
    const request = await store.getRequest(id);
    if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
    const expected = verb === 'rejected' ? 'pending' : 'unknown';
    if (request.state !== expected) {
      return { kind: 'refused', ...reasoned(say.reqCannot(id, verb, stateFacts(request, clock()))), request };
    }
    const who = await policyActor(actor);
    const refusal =
      verb === 'rejected'
        ? rejectRefusal(policy, request, actor, who)
        : resolveRefusal(policy, request, actor, who);
    return refusal === null
      ? { kind: 'allowed', request }
      : { kind: 'refused', reason: refusal.reason, said: refusal.said, request };
  }

  /** One attempt at settling: null when another writer changed the request first. */
  async function resolveOnce(
    request: OperationRequest,
    actor: Actor,
    way: ResolveWay,
    note: string | null,
  ): Promise<ResolveResult | null> {
    const spec = OPERATION_SPECS[request.operation];
    switch (way) {
      case 'applied':
      case 'not-applied': {
        const c = ctx();
        const state = way === 'applied' ? 'succeeded' : 'failed';
        const words = way === 'applied' ? say.outcomeApplied(actor.name) : say.outcomeNotApplied(actor.name);
        const step = approvals.resolve(request, actor, { way, state, outcome: words, note }, c);
        const done = await apply(request, step, c.now);
        return done ? { kind: 'resolved', request: done } : null;
      }
      case 'check': {
        const finding = await checkTarget(client, request);
        if (finding.kind === 'cannot-tell') return { kind: 'unsettled', request, ...reasoned(finding.said) };
        const c = ctx();
        // "Still there" proves nothing while the service may still be working on a send whose
        // answer was lost moments ago; "gone" is proof at once.
        const settlesAt = Date.parse(request.updatedAt) + checkGraceMs;
        if (finding.kind === 'present' && c.now.getTime() < settlesAt) {
          const after = new Date(settlesAt).toISOString();
          return {
            kind: 'unsettled',
            request,
            ...reasoned(say.svcStillWorking(request.target, after.slice(11, 19))),
          };
        }
        const step = approvals.resolve(
          request,
          actor,
          finding.kind === 'gone'
            ? { way, state: 'succeeded', outcome: say.outcomeDeleted(), note }
            : { way, state: 'failed', outcome: say.outcomeStillThere(request.target, actor.name), note },
          c,
        );
        const done = await apply(request, step, c.now);
        return done ? { kind: 'resolved', request: done } : null;
      }
      case 'send-again': {
        if (spec.repeat !== 'lead') {
          return {
            kind: 'refused',
            ...reasoned(say.svcCannotSendAgain(request.id, request.operation, spec.title)),
            request,
          };
        }
        const c = ctx();
        const claimed = await apply(request, approvals.sendAgain(request, actor, c), c.now);
        if (!claimed) return null;
        log?.warn({ requestId: request.id, operation: request.operation }, 'sending a request again');
        const done = await execute(claimed, { by: actor, note });
        if (done.state === 'unknown') {
          return {
            kind: 'unsettled',
            request: done,
            ...reasoned(say.svcNoClearAnswer()),
          };
        }
        return { kind: 'resolved', request: done };
      }
    }
  }

  function refused(why: Said | Reasoned, request?: OperationRequest): DecisionResult {
    const words = 'key' in why ? reasoned(why) : why;
    return request === undefined ? { kind: 'refused', ...words } : { kind: 'refused', ...words, request };
  }

  /** A pending request found past its expiry is expired on the spot, whoever noticed. */
  async function expireNow(request: OperationRequest): Promise<OperationRequest> {
    const c = ctx();
    const done = await apply(request, approvals.expire(request, c), c.now);
    return done ?? (await store.getRequest(request.id)) ?? request;
  }

  /**
   * The common frame of approve, reject and cancel: load, let `decideStep` check and build the
   * step, compare-and-set, and on a lost race reload and decide again with what is there now.
   */
  async function decideOn(
    id: string,
    verb: Wanted,
    decideStep: (request: OperationRequest) => Promise<Step | DecisionResult>,
  ): Promise<{ request: OperationRequest } | DecisionResult> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
      const request = await store.getRequest(id);
      if (!request) return refused(say.svcNoRequest(id));
      const now = clock();
      if (request.state === 'pending' && isPastExpiry(request, now)) {
        const expired = await expireNow(request);
        return refused(say.reqCannotNow(id, verb, stateFacts(expired, now)), expired);
      }
      if (request.state !== 'pending') {
        return refused(say.reqCannot(id, verb, stateFacts(request, now)), request);
      }
      const outcome = await decideStep(request);
      if ('kind' in outcome) return outcome;
      const done = await apply(request, outcome, now);
      if (done) return { request: done };
    }
    const latest = await store.getRequest(id);
    return refused(say.svcBusy(id), latest ?? undefined);
  }

  /** Turns refusals of the pure state machine into results; anything else propagates. */
  function stepOrRefusal(build: () => Step, request: OperationRequest): Step | DecisionResult {
    try {
      return build();
    } catch (error) {
      if (error instanceof StateConflictError || error instanceof PolicyDeniedError) {
        return refused(reasonOf(error), request);
      }
      throw error;
    }
  }

  /**
   * Stores a new request, drawing another ID when the one drawn is taken: request IDs are 40
   * random bits, short enough to read out, so among tens of thousands of requests two can meet
   * (the store refuses the second, and nothing of it is written).
   */
  async function createWithFreshId<T>(save: (id: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const id = ids.request();
      try {
        return await save(id);
      } catch (error) {
        if (!(error instanceof StateConflictError) || attempt >= MAX_ID_DRAWS) throw error;
        log?.warn({ requestId: id }, 'request ID already taken; drawing another');
      }
    }
  }

  /**
   * Records the request of `prepared` as `decided` says (run at once, or wait for approval). An
   * operation with a rate limit is decided again inside the store's transaction, from the count
   * of the actor's `requested` events taken under the same lock as the insert
   * (`createCountedRequest`): requests sent at once, to any replica, each count the ones before
   * them, so at most the limit run without approval.
   * @see docs/architecture.md, "Approvals"
   */
  async function recordRequest<O extends ChangeOperation>(
    actor: Actor,
    prepared: Prepared<O>,
    reason: string | null,
    when: { now: Date; decided: (recentCount: number) => Going },
  ): Promise<{ request: OperationRequest; decision: Going }> {
    const { operation, params, target, preview } = prepared;
    const { decided } = when;
    const c: StepContext = { now: when.now, eventId: () => ids.event() };
    const make = (id: string, decision: Going) =>
      approvals.newRequest(
        { id, operation, params, target, preview, reason, requester: actor, mode: modeOf(decision) },
        c,
      );
    const limit = policy.rules[operation].rateLimit;
    return createWithFreshId(async (id) => {
      if (limit === null) {
        const decision = decided(0);
        const made = make(id, decision);
        return { request: (await store.createRequest(made.request, made.events)).request, decision };
      }
      let decision = decided(0);
      const since = new Date(c.now.getTime() - limit.perMs).toISOString();
      const count = { actorId: actor.id, operation, types: ['requested'], since };
      const created = await store.createCountedRequest(count, (counted) => {
        decision = decided(counted);
        return make(id, decision);
      });
      return { request: created.request, decision };
    });
  }

  /**
   * Records the request of a prepared change and decides it: denied, pending approval, or run at
   * once. The prepared values are typed (a modal's draft is parsed when it is taken back), so
   * nothing is read again here.
   */
  async function submitPrepared<O extends ChangeOperation>(
    actor: Actor,
    prepared: Prepared<O>,
    reason: string | null,
  ): Promise<SubmitResult> {
    const { operation, params, target } = prepared;
    const who = await policyActor(actor);
    const now = clock();
    const decideWith = (recentCount: number) => decide(policy, { operation, actor: who, recentCount, now });
    // Who may ask does not depend on how often they asked: a refusal counts nothing.
    const refusal = decideWith(0);
    if (refusal.kind === 'deny') {
      await auditDenied(actor, { operation, target, params, requestId: null }, 'request', refusal);
      return { kind: 'denied', reason: refusal.reason, said: refusal.said };
    }
    const { request, decision } = await recordRequest(actor, prepared, reason, {
      now,
      decided: (recentCount) => going(decideWith(recentCount)),
    });
    // A request run at once is logged at info when it has run ("request executed", same ID);
    // its creation is a second line per command, wanted only when debugging.
    const line = { requestId: request.id, operation, state: request.state };
    if (decision.kind === 'allow') log?.debug?.(line, 'request created');
    else log?.info(line, 'request created');
    if (decision.kind === 'allow') return { kind: 'executed', request: await execute(request) };
    const breakGlass = await glass.offered(request, actor);
    return { kind: 'pending', request, why: decision.why, ...(breakGlass ? { breakGlass } : {}) };
  }

  const operations: Operations = {
    ...createReads(deps),
    // Reminders, escalation, the expiry warning and the requester's Remind (issue 13).
    ...createFollowUps({ store, policy, clock, eventId: () => ids.event(), logger: log }),

    async prepare(_actor, input) {
      return prepareRequest({ client, canFetchCover: deps.fetchCover !== undefined }, input);
    },

    submit(actor, prepared, options = {}) {
      return submitPrepared(actor, prepared, options.reason?.trim() || null);
    },

    async approve(id, actor) {
      const who = await policyActor(actor);
      const outcome = await decideOn(id, 'approved', async (request) => {
        const check = mayApprove(policy, request, who);
        if (!check.ok && check.code === 'not-approver') {
          // Not an approver in their own right: maybe in a lead's place, by delegation.
          const standing = delegatedLead(policy, request, actor, await delegation.inForceTo(actor.id));
          if (standing?.ok === true) {
            return stepOrRefusal(() => approvals.approve(request, actor, ctx(), standing.lead), request);
          }
          if (standing?.ok === false) {
            await auditDenied(actor, about(request), 'approve', standing);
            return refused(standing.said, request);
          }
        }
        if (!check.ok) {
          // A second click by the same lead is no attempt to get around the policy; the others are.
          if (check.code !== 'already-approved') await auditDenied(actor, about(request), 'approve', check);
          return refused(check.said, request);
        }
        return stepOrRefusal(() => approvals.approve(request, actor, ctx()), request);
      });
      if ('kind' in outcome) return outcome;
      if (outcome.request.state === 'executing')
        return { kind: 'executed', request: await execute(outcome.request) };
      return { kind: 'pending', request: outcome.request };
    },

    async reject(id, actor, note) {
      if (note.trim() === '') throw new InputError(say.noteToReject());
      const who = await policyActor(actor);
      const outcome = await decideOn(id, 'rejected', async (request) => {
        const refusal = rejectRefusal(policy, request, actor, who);
        if (refusal !== null) {
          // Rejecting one's own request is no attempt to get around the policy; the other refusal is.
          if (refusal.audit) await auditDenied(actor, about(request), 'reject', refusal);
          return refused(refusal.said, request);
        }
        return stepOrRefusal(() => approvals.reject(request, actor, note, ctx()), request);
      });
      if ('kind' in outcome) return outcome;
      return { kind: 'rejected', request: outcome.request };
    },

    async cancel(id, actor, note = null) {
      const outcome = await decideOn(id, 'cancelled', async (request) => {
        // Only the requester, with the same proof as a decision from the CLI (src/core/actor.ts).
        const refusal = cancelRefusal(policy.cli.approve, request, actor);
        if (refusal !== null) {
          const reason = reasoned(refusal);
          await auditDenied(actor, about(request), 'cancel', reason);
          return refused(reason, request);
        }
        return stepOrRefusal(() => approvals.cancel(request, actor, note, ctx()), request);
      });
      if ('kind' in outcome) return outcome;
      return { kind: 'cancelled', request: outcome.request };
    },

    checkReject: (id, actor) => precheck(id, actor, 'rejected'),

    checkResolve: (id, actor) => precheck(id, actor, 'settled'),

    async resolve(id, actor, way, note = null) {
      const text = note?.trim() || null;
      if (text === null && (way === 'applied' || way === 'not-applied')) {
        throw new InputError(say.noteToSettle());
      }
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
        const request = await store.getRequest(id);
        if (!request) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
        if (request.state !== 'unknown') {
          return {
            kind: 'refused',
            ...reasoned(say.reqCannot(id, 'settled', stateFacts(request, clock()))),
            request,
          };
        }
        const denied = await mayResolve(request, actor);
        if (denied !== null) return { kind: 'refused', reason: denied.reason, said: denied.said, request };
        const result = await resolveOnce(request, actor, way, text);
        if (result) return result;
      }
      const latest = await store.getRequest(id);
      return { kind: 'refused', ...reasoned(say.svcBusy(id)), ...(latest ? { request: latest } : {}) };
    },

    confirmationFor(input) {
      return needsConfirmation(policy, input.kind) ? confirmText(input) : null;
    },

    auditRefusal(actor, subject, action, reason) {
      return auditDenied(actor, { ...subject, requestId: null }, action, reason);
    },

    async recentAudit(actor, n): Promise<AuditEvent[]> {
      const who = await policyActor(actor);
      // `audit` is a read: its rule can only say who may run it, so the decision is allow or deny.
      const decision = decide(policy, { operation: 'audit', actor: who, recentCount: 0, now: clock() });
      if (decision.kind === 'deny') {
        await auditDenied(
          actor,
          { operation: 'audit', target: 'audit log', params: { n }, requestId: null },
          'audit',
          decision,
        );
        throw new PolicyDeniedError(decision.said);
      }
      const last = Math.max(1, Math.min(AUDIT_MAX, Math.trunc(n)));
      return store.listAudit({ last });
    },

    async expireDue() {
      const now = clock();
      const due = await store.listExpired(now.toISOString());
      const expired: OperationRequest[] = [];
      for (const request of due) {
        const c = ctx();
        const step = stepOrNull(() => approvals.expire(request, c));
        if (!step) continue;
        const done = await apply(request, step, c.now);
        if (done) expired.push(done);
      }
      if (expired.length > 0) log?.info({ count: expired.length }, 'requests expired');
      return expired;
    },

    breakGlassOffered: (request, actor) => glass.offered(request, actor),
    checkBreakGlass: (id, actor) => glass.check(id, actor),
    breakGlass: (id, actor, input) => glass.run(id, actor, input),
    checkBreakGlassReview: (id, actor) => glass.checkReview(id, actor),
    reviewBreakGlass: (id, actor, verdict, note = null) => glass.review(id, actor, verdict, note),
    remindBreakGlass: () => glass.remindDue(),
    delegate: (lead, words) => delegation.delegate(lead, words),
    cancelDelegation: (lead) => delegation.cancel(lead),
    expireDelegations: () => delegation.expireDue(),

    async resumeInterrupted() {
      const cutoff = clock().getTime() - staleMs;
      const executing = await store.listRequests({ states: ['executing'], limit: PENDING_SCAN_LIMIT });
      const resumed: OperationRequest[] = [];
      const unknown: OperationRequest[] = [];
      for (const request of executing) {
        if (Date.parse(request.updatedAt) > cutoff) continue;
        const c = ctx();
        // Only what gives the same end state and the same answer when sent twice is resumed; a
        // delete or a create may already have happened, so it waits for a lead as `unknown`.
        if (OPERATION_SPECS[request.operation].repeat === 'resume') {
          // The claim bumps the version and updatedAt, so another replica sweeping now skips it.
          const step = stepOrNull(() => approvals.startExecution(request, SYSTEM_ACTOR, c, { resume: true }));
          const claimed = step ? await apply(request, step, c.now) : null;
          if (!claimed) continue;
          log?.warn(
            { requestId: request.id, operation: request.operation },
            'resuming an interrupted request',
          );
          resumed.push(await execute(claimed));
        } else {
          const step = stepOrNull(() => approvals.markUnknown(request, c));
          const done = step ? await apply(request, step, c.now) : null;
          if (!done) continue;
          log?.warn(
            { requestId: request.id, operation: request.operation },
            'interrupted request: outcome unknown',
          );
          unknown.push(done);
        }
      }
      return { resumed, unknown };
    },

    startSweeper(intervalMs) {
      let running: Promise<void> | null = null;
      let stopped = false;
      const sweep = (): void => {
        if (running || stopped) return;
        running = (async () => {
          try {
            await operations.expireDue();
            await operations.resumeInterrupted();
            await operations.remindBreakGlass();
            await operations.expireDelegations();
          } catch (error) {
            log?.error({ err: recordError(error) }, 'sweep failed');
          } finally {
            running = null;
          }
        })();
      };
      const timer = setInterval(sweep, intervalMs);
      timer.unref();
      sweep();
      return async () => {
        stopped = true;
        clearInterval(timer);
        if (running) await running;
      };
    },
  };
  return operations;
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

/** Why `actor` may not settle `request`'s unknown outcome: never its requester, only an approver. */
function resolveRefusal(
  policy: Policy,
  request: OperationRequest,
  actor: Actor,
  who: PolicyActor,
): { reason: string; said: Said } | null {
  const refusal = (said: Said) => ({ reason: english(said), said });
  // The same identity rule as an approval (src/core/actor.ts), in a settlement's words.
  const identity = settleIdentityRefusal(policy, request, actor);
  if (identity !== null) return refusal(identity);
  if (!isApproverOf(policy, request, who)) return refusal(say.svcOnlyApproversSettle(request.operation));
  return null;
}

/** What a typed confirmation of `input` repeats (the catalog says: its ID, else its title). */
function confirmText<O extends ChangeOperation>(input: PrepareInput<O>): string {
  const spec: Spec<O> = OPERATION_SPECS[input.kind];
  return spec.confirm(input);
}

/** What a refusal about an existing request records. */
function about(request: OperationRequest) {
  return {
    operation: request.operation,
    target: request.target,
    params: request.params,
    requestId: request.id,
  };
}

/** A decision that records the request: run at once, or wait for approval. */
type Going = Exclude<Decision, { kind: 'deny' }>;

/**
 * The decision of an actor `decide` did not refuse, counted again: whether someone may ask does
 * not depend on the count, so a refusal here is a defect, not a person's mistake.
 */
function going(decision: Decision): Going {
  if (decision.kind === 'deny') throw new Error(`a count changed who may ask: ${decision.reason}`);
  return decision;
}

/** How a request is created under `decision`. */
function modeOf(decision: Going): approvals.NewRequestInput<ChangeOperation>['mode'] {
  return decision.kind === 'allow'
    ? { kind: 'direct' }
    : { kind: 'approval', quorum: decision.quorum, expiresAt: decision.expiresAt, why: decision.why };
}

/** A step the sweeper can skip: the request moved on since it was listed. */
function stepOrNull(build: () => Step): Step | null {
  try {
    return build();
  } catch (error) {
    if (error instanceof StateConflictError) return null;
    throw error;
  }
}

/** The step that records how a send ended (`resent`: a lead's Send again of an unknown outcome). */
function outcomeStep(
  request: OperationRequest,
  outcome: SendOutcome,
  c: StepContext,
  resent: { by: Actor; note: string | null } | undefined,
): Step {
  if (resent) {
    const settled = (words: Said, answer: JsonValue) =>
      approvals.resolve(
        request,
        resent.by,
        { way: 'send-again', state: 'succeeded', outcome: words, note: resent.note, answer },
        c,
      );
    if (outcome.kind === 'applied') return settled(say.outcomeDeletedAgain(), outcome.result);
    if (outcome.kind === 'already-deleted') return settled(say.outcomeDeleted(), null);
    return approvals.markUnknown(request, c, {
      kind: 'no-answer',
      error: outcome.error,
      resentBy: resent.by,
    });
  }
  switch (outcome.kind) {
    case 'applied':
      return approvals.succeed(request, outcome.result, c);
    case 'unknown':
      return approvals.markUnknown(request, c, { kind: 'no-answer', error: outcome.error });
    default:
      return approvals.fail(request, outcome.error, c);
  }
}
