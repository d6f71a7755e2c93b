import { actorRecord } from '../core/actor.js';
import type { Step, StepContext, StepPatch } from '../core/approvals.js';
import { ConfigError, PolicyDeniedError, StateConflictError } from '../core/errors.js';
import { newEventId, newRequestId } from '../core/ids.js';
import type { JsonValue } from '../core/json.js';
import type { Actor, OperationRequest } from '../core/model.js';
import { checkPolicy, type PolicyActor } from '../core/policy.js';
import { type Said, saidJson, say } from '../core/said.js';
import { type Sealer, sealerOf, type UndoSealed, undoHolds } from '../core/seal.js';
import { type Undo, undoNow } from '../core/time-box.js';
import { type Reasoned, reasoned, reasonOf } from '../i18n/said.js';
import type { PrepareIo } from '../operations/services.js';
import type { DueCursor, DueKind, Store } from '../store/store.js';
import { createDelegationService, type DelegationService } from './delegation.js';
import { policyActorOf } from './reads.js';
import type { DecisionResult, OperationsDeps, PrecheckResult } from './types.js';
import { repeatViewers } from './viewers.js';

/**
 * What every use case of the operations services is given, once: the store, the video client,
 * the policy, the directory, the clock and the settings; and the few steps they all take (apply a
 * step by compare-and-set, audit a refusal). The use cases are top-level functions of it, one file
 * each (./submit.ts, ./decide.ts, ./resolve.ts, ./execute.ts, ./break-glass.ts, ./sweeps.ts).
 * @see docs/architecture.md, "Architecture"
 */
export interface ServiceContext extends OperationsDeps {
  readonly requestId: () => string;
  readonly eventId: () => string;
  readonly staleExecutionMs: number;
  readonly checkGraceMs: number;
  readonly delegation: DelegationService;
  /** Seals what the steps decide, with {@link OperationsDeps.sealKey}. */
  readonly sealer: Sealer;
}

/** Events after which a request's outcome is known: it is never sent again. */
export const SETTLED: ReadonlySet<string> = new Set([
  'succeeded',
  'failed',
  'resolved',
  'rejected',
  'cancelled',
  'expired',
]);

/**
 * The first of `types` among the request's own audit events, or null. A seal proves what was
 * decided, not that it has not happened yet; the log does, for what appending cannot take away:
 * a request whose log holds `succeeded` was sent, whatever its row says now.
 */
export async function foundInLog(
  svc: Pick<ServiceContext, 'store'>,
  requestId: string,
  types: ReadonlySet<string>,
): Promise<string | null> {
  const events = await svc.store.listAudit({ requestId });
  return events.find((e) => types.has(e.type))?.type ?? null;
}

/** The patch that records `undo` on `request` with its seal. */
export function undoPatch(svc: Pick<ServiceContext, 'sealer'>, request: UndoSealed, undo: Undo): StepPatch {
  return { undo, undoSeal: svc.sealer.undo(request, undo) };
}

/**
 * The values `request` replaced, when vidops sealed them; undefined when none were recorded, or
 * when what is recorded is not what vidops read (changed in the database, or a window grafted
 * onto the change): then, as for values never known, nothing is put back or reverted to them.
 */
/** What a prepare reads the service through: the client, whether a cover can be fetched, the viewer history. */
export function prepareIo(
  svc: Pick<ServiceContext, 'client' | 'fetchCover' | 'store' | 'policy' | 'clock'>,
): PrepareIo {
  return {
    client: svc.client,
    canFetchCover: svc.fetchCover !== undefined,
    repeatViewers: (numbers) => repeatViewers(svc, numbers),
  };
}

export function sealedUndo(
  svc: Pick<ServiceContext, 'sealer' | 'logger'>,
  request: OperationRequest,
): Undo | undefined {
  if (request.undo === undefined) return undefined;
  if (undoHolds(svc.sealer, request)) return undoNow(request.undo);
  svc.logger?.error(
    { requestId: request.id, operation: request.operation },
    'recorded old values not used: their seal does not hold (changed in the database, or another VIDEO_SECRET_KEY)',
  );
  return undefined;
}

/** The context of `deps`; a rule nobody could ever approve would strand requests, so it is refused. */
export function serviceContext(deps: OperationsDeps): ServiceContext {
  const problems = checkPolicy(deps.policy);
  if (problems.length > 0) throw new ConfigError(problems);
  const ids = deps.ids ?? { request: newRequestId, event: newEventId };
  const eventId = () => ids.event();
  const requestId = () => ids.request();
  const { store, policy, directory, clock } = deps;
  const sealer = sealerOf(deps.sealKey);
  return {
    ...deps,
    requestId,
    eventId,
    sealer,
    staleExecutionMs: deps.staleExecutionMs ?? 120_000,
    checkGraceMs: deps.checkGraceMs ?? 60_000,
    delegation: createDelegationService({
      store,
      policy,
      directory,
      clock,
      ctx: () => ({ now: clock(), eventId, seal: sealer }),
      newId: requestId,
      timeZone: deps.timeZone,
    }),
  };
}

/** The time, event IDs and seal of one step. */
export function stepContext(
  svc: Pick<ServiceContext, 'clock' | 'eventId'> & Partial<Pick<ServiceContext, 'sealer'>>,
): StepContext {
  return { now: svc.clock(), eventId: svc.eventId, seal: svc.sealer };
}

export function policyActor(svc: ServiceContext, actor: Actor): Promise<PolicyActor> {
  return policyActorOf(svc.directory, actor);
}

/** A step, and the delegation (its ID) it holds only while open: a delegate's approval. */
export type GuardedStep = Step & { whileDelegated?: string };

/**
 * Applies a step with compare-and-set; null when another writer changed the request first. The
 * store records the step's notification job in the same transaction, so this returns as soon as
 * the change committed: Slack is told afterwards, never in the path of the click that made it.
 */
export async function apply(
  store: Pick<Store, 'transition'>,
  request: OperationRequest,
  step: GuardedStep,
  at: Date,
): Promise<OperationRequest | null> {
  const done = await store.transition(
    request.id,
    request.version,
    step.patch,
    at.toISOString(),
    step.events,
    step.whileDelegated,
  );
  return done?.request ?? null;
}

/** What a refusal records of what was attempted. */
export interface Subject {
  operation: string;
  target: string;
  params: JsonValue;
  requestId: string | null;
}

/** Audits a refusal that changes no request: `denied`, with what was attempted. */
export async function auditDenied(
  svc: { store: Pick<Store, 'appendAudit'>; clock: () => Date; eventId: () => string },
  actor: Actor,
  subject: Subject,
  action: string,
  reason: string | Reasoned | { said: Said },
): Promise<void> {
  const words = typeof reason === 'string' ? { reason } : 'reason' in reason ? reason : reasoned(reason.said);
  // `said` beside the English: the audit channel words it in its language (new events only).
  const outcome =
    words.said === undefined
      ? { action, reason: words.reason }
      : { action, reason: words.reason, said: saidJson(words.said) };
  await svc.store.appendAudit([
    {
      id: svc.eventId(),
      type: 'denied',
      at: svc.clock().toISOString(),
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

/** What a refusal about an existing request records. */
export function about(request: OperationRequest): Subject {
  return {
    operation: request.operation,
    target: request.target,
    params: request.params,
    requestId: request.id,
  };
}

export function refused(
  why: Said | Reasoned,
  request?: OperationRequest,
): Extract<DecisionResult, { kind: 'refused' }> {
  const words = 'key' in why ? reasoned(why) : why;
  return request === undefined ? { kind: 'refused', ...words } : { kind: 'refused', ...words, request };
}

/** Turns refusals of the pure state machine into results; anything else propagates. */
export function stepOrRefusal(build: () => Step, request: OperationRequest): Step | DecisionResult {
  try {
    return build();
  } catch (error) {
    if (error instanceof StateConflictError || error instanceof PolicyDeniedError) {
      return refused(reasonOf(error), request);
    }
    throw error;
  }
}

/** A step a sweep can skip: the request moved on since it was listed. */
export function stepOrNull(build: () => Step): Step | null {
  try {
    return build();
  } catch (error) {
    if (error instanceof StateConflictError) return null;
    throw error;
  }
}

/**
 * Whether a person may act on request `id` now, asked before a form wants their words:
 * `refusalOf` says why not, or null. Nothing is changed or audited; the submission checks again.
 */
export async function precheckWith(
  svc: ServiceContext,
  id: string,
  refusalOf: (request: OperationRequest) => Promise<Reasoned | null>,
): Promise<PrecheckResult> {
  const request = await svc.store.getRequest(id);
  if (request === null) return { kind: 'refused', ...reasoned(say.svcNoRequest(id)) };
  const no = await refusalOf(request);
  return no === null
    ? { kind: 'allowed', request }
    : { kind: 'refused', reason: no.reason, said: no.said, request };
}

/** How many due requests a sweep reads at a time. */
export const SWEEP_PAGE = 100;

/**
 * What a sweep owes, soonest due first, page by page through the kind's own index until none due
 * by `by` is left: a sweep reads what is due, never what waits, and a backlog is done in one pass.
 */
export async function* dueNow(
  store: Pick<Store, 'listDue'>,
  kind: DueKind,
  by: string,
): AsyncGenerator<OperationRequest> {
  let after: DueCursor | undefined;
  for (;;) {
    const page = await store.listDue({ kind, by, after, limit: SWEEP_PAGE });
    for (const due of page) yield due.request;
    const last = page.at(-1);
    if (last === undefined || page.length < SWEEP_PAGE) return;
    after = { at: last.at, id: last.request.id };
  }
}
