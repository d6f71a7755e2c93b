import { createHash } from 'node:crypto';
import { actorLabel, actorRecord, isSameRequester, maybeSamePerson } from './actor.js';
import type { OperationParams, Preview } from './catalog.js';
import { InputError, PolicyDeniedError, StateConflictError } from './errors.js';
import { canonicalJson, type JsonValue } from './json.js';
import {
  type Actor,
  type Approval,
  type AuditEventType,
  followUpOf,
  type NewAuditEvent,
  type OperationRequest,
  type RecordedError,
  type RequestState,
  type ResolveWay,
} from './model.js';
import type { ChangeOperation } from './operations.js';
import { type Said, type StateFacts, saidJson, say, type Wanted } from './said.js';
import { holds, type Sealed, type Sealer, type SealStage, sealHolds } from './seal.js';
import type { RevertOf, TimeBox } from './time-box.js';

/** Who acts when nobody does: expiry, resumption after a crash, outcomes of execution. */
export const SYSTEM_ACTOR: Actor = { id: 'system', name: 'vidops' };

/** The injected clock reading and event ID generator every step uses. */
export interface StepContext {
  now: Date;
  eventId: () => string;
  /**
   * Seals what the steps decide, and checks the seals they rely on (./seal.ts). Without it
   * nothing is sealed or checked here, and `execute` sends nothing: a context made without the
   * key fails closed.
   */
  seal?: Sealer | undefined;
}

/** Fields a transition changes; the store applies them as its `RequestPatch`. */
export type StepPatch = Partial<
  Pick<
    OperationRequest,
    | 'state'
    | 'approvals'
    | 'decidedBy'
    | 'decisionNote'
    | 'result'
    | 'error'
    | 'slack'
    | 'expiresAt'
    | 'followUp'
    | 'breakGlass'
    | 'timeBox'
    | 'undo'
    | 'seal'
    | 'undoSeal'
  >
>;

/** A transition: the patch to compare-and-set and the audit events that go with it. */
export interface Step {
  patch: StepPatch;
  events: NewAuditEvent[];
}

/**
 * SHA-256 hex of the canonical JSON of `{operation, params}`: approvals bind to exactly these
 * parameters.
 * @see docs/architecture.md, "Approvals"
 */
export function paramsHash(operation: string, params: unknown): string {
  return createHash('sha256').update(canonicalJson({ operation, params }), 'utf8').digest('hex');
}

/**
 * The seal a step gives the request: `asked` when it is made to wait for approvals, `send` when
 * this step judged it fit to run (a direct request, the approval completing the quorum,
 * break-glass). A resume or a Send again keeps the seal the request had, so a state edited in the
 * database stays unsealed.
 */
export function sealPatch(request: Sealed, stage: SealStage, ctx: StepContext): { seal?: string } {
  return ctx.seal === undefined ? {} : { seal: ctx.seal.request(request, stage) };
}

/**
 * Refuses a step on a waiting request whose `asked` seal does not hold: its parameters, window,
 * quorum or requester were changed in the database since it was made.
 */
export function requireAsked(request: OperationRequest, ctx: StepContext): void {
  if (ctx.seal !== undefined && !sealHolds(ctx.seal, request, 'asked')) {
    throw new StateConflictError(say.reqUnsealed(request.id));
  }
}

/** An audit event about `request` (also for the steps of ./break-glass.ts). */
export function requestEvent(
  request: Pick<OperationRequest, 'id' | 'operation' | 'target' | 'params'>,
  type: AuditEventType,
  actor: Actor,
  ctx: StepContext,
  outcome: JsonValue = null,
  error: RecordedError | null = null,
): NewAuditEvent {
  return {
    id: ctx.eventId(),
    type,
    at: ctx.now.toISOString(),
    actor: actorRecord(actor),
    operation: request.operation,
    target: request.target,
    params: request.params,
    requestId: request.id,
    outcome,
    error,
  };
}

function formatTime(iso: string, now: Date): string {
  const hhmm = iso.slice(11, 16);
  return iso.slice(0, 10) === now.toISOString().slice(0, 10)
    ? `${hhmm} UTC`
    : `${iso.slice(0, 10)} ${hhmm} UTC`;
}

/** Where a request stands, as data, for a sentence (`say.reqCannot`) worded in the reader's language. */
export function stateFacts(request: OperationRequest, now: Date): StateFacts {
  const at = formatTime(request.updatedAt, now);
  return {
    state: request.state,
    approvals: request.approvals.length,
    quorum: request.quorum,
    approvers: request.approvals.map((a) => a.by.name),
    at,
    by: request.decidedBy ? request.decidedBy.name : null,
    expiredAt: request.expiresAt ? formatTime(request.expiresAt, now) : at,
    error: request.state === 'failed' && request.error ? request.error.message : null,
  };
}

function conflict(request: OperationRequest, now: Date, wanted: Wanted): StateConflictError {
  return new StateConflictError(say.reqCannot(request.id, wanted, stateFacts(request, now)));
}

function requireState(
  request: OperationRequest,
  allowed: readonly RequestState[],
  now: Date,
  wanted: Wanted,
): void {
  if (!allowed.includes(request.state)) throw conflict(request, now, wanted);
}

/** True when a pending request has passed its expiry. */
export function isPastExpiry(request: Pick<OperationRequest, 'expiresAt'>, now: Date): boolean {
  return request.expiresAt !== null && Date.parse(request.expiresAt) <= now.getTime();
}

function requireOpen(request: OperationRequest, now: Date, wanted: Wanted): void {
  requireState(request, ['pending'], now, wanted);
  if (isPastExpiry(request, now)) {
    throw new StateConflictError(
      say.reqExpiredAt(request.id, wanted, formatTime(request.expiresAt ?? '', now)),
    );
  }
}

export interface NewRequestInput<O extends ChangeOperation = ChangeOperation> {
  id: string;
  operation: O;
  params: OperationParams[O];
  target: string;
  preview: Preview<O> | null;
  reason: string | null;
  requester: Actor;
  /** `direct`: runs now (no approval); `approval`: waits for `quorum` approvals until `expiresAt`. */
  mode: { kind: 'direct' } | { kind: 'approval'; quorum: number; expiresAt: string; why: string };
  /** Put back at the end of this window (docs/time-boxed.md). */
  timeBox?: TimeBox | undefined;
  /** The request this one undoes: a put-back or a Revert. */
  revertOf?: RevertOf | undefined;
}

/**
 * A new request: `pending` with [requested], or for an operation that runs directly `executing`
 * with [requested, executing].
 */
export function newRequest<O extends ChangeOperation>(
  input: NewRequestInput<O>,
  ctx: StepContext,
): { request: OperationRequest; events: NewAuditEvent[] } {
  const at = ctx.now.toISOString();
  const direct = input.mode.kind === 'direct';
  const typed: OperationRequest<O> = {
    id: input.id,
    operation: input.operation,
    params: input.params,
    paramsHash: paramsHash(input.operation, input.params),
    target: input.target,
    preview: input.preview,
    reason: input.reason,
    requester: actorRecord(input.requester),
    state: direct ? 'executing' : 'pending',
    quorum: input.mode.kind === 'approval' ? input.mode.quorum : 0,
    approvals: [],
    decidedBy: null,
    decisionNote: null,
    createdAt: at,
    expiresAt: input.mode.kind === 'approval' ? input.mode.expiresAt : null,
    updatedAt: at,
    result: null,
    error: null,
    slack: null,
    version: 1,
    ...(input.timeBox === undefined ? {} : { timeBox: input.timeBox }),
    ...(input.revertOf === undefined ? {} : { revertOf: input.revertOf }),
  };
  // One operation's request is a request: the union cannot be written from a generic `O`.
  const unsealed = typed as OperationRequest;
  const request = { ...unsealed, ...sealPatch(unsealed, direct ? 'send' : 'asked', ctx) };
  const requested = requestEvent(request, 'requested', request.requester, ctx, {
    state: request.state,
    reason: request.reason,
    quorum: request.quorum,
    expiresAt: request.expiresAt,
    why: input.mode.kind === 'approval' ? input.mode.why : null,
    paramsHash: request.paramsHash,
    preview: request.preview,
    ...(input.timeBox === undefined ? {} : { timeBox: input.timeBox.asked }),
    ...(input.timeBox?.extends === undefined ? {} : { extends: input.timeBox.extends }),
    ...(input.revertOf === undefined ? {} : { revertOf: input.revertOf }),
  });
  const events = direct
    ? [requested, requestEvent(request, 'executing', request.requester, ctx)]
    : [requested];
  return { request, events };
}

/** The approval a delegate gave in `person`'s place, if any: they count through it. */
export function approvalInPlaceOf(
  request: Pick<OperationRequest, 'approvals'>,
  person: Pick<Actor, 'id' | 'via'>,
): Approval | undefined {
  return request.approvals.find((a) => a.for !== undefined && maybeSamePerson(a.for, person));
}

/**
 * True when `person` counts toward the request's quorum already: they approved, or a delegate
 * approved in their place. One person counts once, whichever way.
 */
export function countsToward(
  request: Pick<OperationRequest, 'approvals'>,
  person: Pick<Actor, 'id' | 'via'>,
): boolean {
  return request.approvals.some(
    (a) => maybeSamePerson(a.by, person) || (a.for !== undefined && maybeSamePerson(a.for, person)),
  );
}

/**
 * One approval. When it completes the quorum the request goes straight to `executing` with
 * [approved, executing]; otherwise it stays `pending` with [approved]. The caller has checked the
 * approver against the policy (`mayApprove`), or found the delegation `onBehalfOf` (a lead who
 * delegated to the approver); the rules that hold whatever the policy are checked again here:
 * never the requester (neither as approver nor as the lead approved for), and one person counts
 * once, whether they approved themselves or through a delegate.
 */
export function approve(
  request: OperationRequest,
  approver: Actor,
  ctx: StepContext,
  onBehalfOf?: Actor,
): Step {
  requireOpen(request, ctx.now, 'approved');
  // Both identities count: the same OS user on the CLI is the same person whatever --as says.
  if (maybeSamePerson(approver, request.requester)) {
    throw new PolicyDeniedError(say.polOwnRequest());
  }
  if (countsToward(request, approver)) {
    // Counted already: by their own approval, or by a delegate's in their place.
    const own = request.approvals.some((a) => maybeSamePerson(a.by, approver));
    const inTheirPlace = own ? undefined : approvalInPlaceOf(request, approver);
    throw new StateConflictError(
      inTheirPlace === undefined
        ? say.reqYouApproved(request.id)
        : say.polApprovedInYourPlace(inTheirPlace.by.name),
    );
  }
  if (onBehalfOf !== undefined) {
    if (maybeSamePerson(onBehalfOf, request.requester)) {
      throw new PolicyDeniedError(say.reqTheirOwn(onBehalfOf.name));
    }
    if (countsToward(request, onBehalfOf)) {
      throw new StateConflictError(say.reqCountsAlready(onBehalfOf.name, request.id));
    }
  }
  requireAsked(request, ctx);
  const given: Approval = {
    by: actorRecord(approver),
    at: ctx.now.toISOString(),
    ...(onBehalfOf === undefined ? {} : { for: actorRecord(onBehalfOf) }),
  };
  const approval = ctx.seal === undefined ? given : { ...given, seal: ctx.seal.approval(request.id, given) };
  const approvals = [...request.approvals, approval];
  // Only sealed approvals count, each person once (in their own right or through a delegate):
  // one written, or copied, into the database by hand does not.
  const { seal } = ctx;
  const sealed =
    seal === undefined ? approvals : approvals.filter((a) => holds(a.seal, seal.approval(request.id, a)));
  const counted = new Set(sealed.map((a) => (a.for ?? a.by).id)).size;
  const outcome = {
    approvals: counted,
    quorum: request.quorum,
    ...(onBehalfOf === undefined
      ? {}
      : { for: { id: onBehalfOf.id, name: onBehalfOf.name }, delegated: true }),
  };
  if (counted >= request.quorum) {
    return {
      patch: { state: 'executing', approvals, ...sealPatch(request, 'send', ctx) },
      events: [
        requestEvent(request, 'approved', approver, ctx, outcome),
        requestEvent(request, 'executing', approver, ctx),
      ],
    };
  }
  return { patch: { approvals }, events: [requestEvent(request, 'approved', approver, ctx, outcome)] };
}

/** A lead turns the request down; the note (why) is required. */
export function reject(request: OperationRequest, by: Actor, note: string, ctx: StepContext): Step {
  const text = note.trim();
  if (text === '') throw new InputError(say.noteToReject());
  requireOpen(request, ctx.now, 'rejected');
  return {
    patch: { state: 'rejected', decidedBy: actorRecord(by), decisionNote: text },
    events: [requestEvent(request, 'rejected', by, ctx, { note: text })],
  };
}

/** The requester withdraws a pending request. */
export function cancel(request: OperationRequest, by: Actor, note: string | null, ctx: StepContext): Step {
  if (!isSameRequester(request.requester, by)) {
    throw new PolicyDeniedError(say.reqOnlyRequesterCancels(actorLabel(request.requester), request.id));
  }
  requireState(request, ['pending'], ctx.now, 'cancelled');
  const text = note?.trim() || null;
  return {
    patch: { state: 'cancelled', decidedBy: actorRecord(by), decisionNote: text },
    events: [requestEvent(request, 'cancelled', by, ctx, { note: text })],
  };
}

// ---------------------------------------------------------------------------------------------
// Follow-ups of a waiting request (issue 13): each a compare-and-set of `followUp` with its event,
// so a reminder, an escalation or a warning happens once whichever replica notices it first.

/**
 * The approvers who have not decided are reminded: by vidops when `remindAfter` passed (`auto`),
 * or by the requester's Remind button (the caller checks who and how often).
 */
export function remind(request: OperationRequest, by: Actor, ctx: StepContext, auto: boolean): Step {
  requireOpen(request, ctx.now, 'reminded about');
  const at = ctx.now.toISOString();
  const done = followUpOf(request);
  return {
    patch: {
      followUp: {
        ...done,
        remindedAt: at,
        remindedBy: actorRecord(by),
        autoReminded: done.autoReminded || auto,
      },
    },
    events: [
      requestEvent(request, 'reminded', by, ctx, {
        auto,
        approvals: request.approvals.length,
        quorum: request.quorum,
      }),
    ],
  };
}

/** The request is offered to the backup approvers `to` (user and user-group IDs) as well; once. */
export function escalate(request: OperationRequest, to: readonly string[], ctx: StepContext): Step {
  requireOpen(request, ctx.now, 'escalated');
  const done = followUpOf(request);
  if (done.escalatedAt !== null) {
    throw new StateConflictError(say.reqEscalatedAlready(request.id));
  }
  const escalatedTo = [...new Set(to)];
  return {
    patch: { followUp: { ...done, escalatedAt: ctx.now.toISOString(), escalatedTo } },
    events: [
      requestEvent(request, 'escalated', SYSTEM_ACTOR, ctx, {
        to: escalatedTo,
        approvals: request.approvals.length,
        quorum: request.quorum,
      }),
    ],
  };
}

/** The requester and the approvers are told the request expires soon; once. */
export function warnExpiry(request: OperationRequest, ctx: StepContext): Step {
  requireOpen(request, ctx.now, 'warned about');
  const done = followUpOf(request);
  if (done.expiryWarnedAt !== null) {
    throw new StateConflictError(say.reqWarnedAlready(request.id));
  }
  return {
    patch: { followUp: { ...done, expiryWarnedAt: ctx.now.toISOString() } },
    events: [
      requestEvent(request, 'expiry-warned', SYSTEM_ACTOR, ctx, {
        expiresAt: request.expiresAt,
        approvals: request.approvals.length,
        quorum: request.quorum,
      }),
    ],
  };
}

/** A pending request whose expiry has passed; done by the system. */
export function expire(request: OperationRequest, ctx: StepContext): Step {
  requireState(request, ['pending'], ctx.now, 'expired');
  if (!isPastExpiry(request, ctx.now)) {
    throw new StateConflictError(say.reqOpenUntil(request.id, formatTime(request.expiresAt ?? '', ctx.now)));
  }
  return {
    patch: { state: 'expired', decidedBy: null },
    events: [
      requestEvent(request, 'expired', SYSTEM_ACTOR, ctx, {
        expiresAt: request.expiresAt,
        approvals: request.approvals.length,
        quorum: request.quorum,
      }),
    ],
  };
}

/**
 * Claims the request for execution: from `approved`, or, with `resume`, again from `executing`
 * after the process that ran it stopped (operations whose `repeat` is `resume` only; the caller
 * checks that).
 */
export function startExecution(
  request: OperationRequest,
  by: Actor,
  ctx: StepContext,
  options: { resume?: boolean } = {},
): Step {
  requireState(request, options.resume ? ['executing'] : ['approved'], ctx.now, 'started');
  return {
    patch: { state: 'executing' },
    events: [requestEvent(request, 'executing', by, ctx, options.resume ? { resumed: true } : null)],
  };
}

/** The upstream did it; `result` is what it answered. */
export function succeed(request: OperationRequest, result: JsonValue, ctx: StepContext): Step {
  requireState(request, ['executing'], ctx.now, 'marked as succeeded');
  return {
    patch: { state: 'succeeded', result, error: null },
    events: [requestEvent(request, 'succeeded', SYSTEM_ACTOR, ctx, result)],
  };
}

/** The upstream refused or could not be reached; `error` carries no secrets. */
export function fail(request: OperationRequest, error: RecordedError, ctx: StepContext): Step {
  requireState(request, ['executing'], ctx.now, 'marked as failed');
  const recorded = recordedError(error);
  return {
    patch: { state: 'failed', error: recorded },
    events: [requestEvent(request, 'failed', SYSTEM_ACTOR, ctx, null, recorded)],
  };
}

/**
 * Why nobody can say whether a request was applied: vidops stopped while it ran, or a send got
 * no clear answer (`error`: what the client saw; `resentBy`: the lead whose "Send again" it was).
 */
export type UnknownCause =
  | { kind: 'interrupted' }
  | { kind: 'no-answer'; error: RecordedError; resentBy?: Actor | undefined };

/** The request may or may not have been applied; it is not sent again by itself. */
export function markUnknown(
  request: OperationRequest,
  ctx: StepContext,
  cause: UnknownCause = { kind: 'interrupted' },
): Step {
  requireState(request, ['executing'], ctx.now, 'marked as unknown');
  if (cause.kind === 'interrupted') {
    return {
      patch: { state: 'unknown' },
      events: [
        requestEvent(request, 'unknown', SYSTEM_ACTOR, ctx, {
          note: 'vidops stopped while this ran and does not send it again by itself; it may or may not have been applied',
          since: request.updatedAt,
        }),
      ],
    };
  }
  const error = recordedError(cause.error);
  const again = cause.resentBy ? ` to the repeat sent by ${cause.resentBy.name}` : '';
  return {
    patch: { state: 'unknown', error },
    events: [
      requestEvent(
        request,
        'unknown',
        SYSTEM_ACTOR,
        ctx,
        {
          note: `the service gave no clear answer${again}; it may or may not have been applied`,
          since: request.updatedAt,
        },
        error,
      ),
    ],
  };
}

function recordedError(error: RecordedError): RecordedError {
  return {
    name: error.name,
    message: error.message,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.said === undefined ? {} : { said: error.said }),
  };
}

/** Only someone other than the requester settles an unknown outcome (who may approve: the caller checks). */
function requireSettler(request: OperationRequest, by: Actor): void {
  if (by.id === request.requester.id) {
    throw new PolicyDeniedError(say.reqOwnSettle());
  }
}

/**
 * A lead sends a request whose outcome is unknown once more (deletes only: the caller checks the
 * catalog). It is `executing` again, and its answer is read as that of a repeat.
 */
export function sendAgain(request: OperationRequest, by: Actor, ctx: StepContext): Step {
  requireState(request, ['unknown'], ctx.now, 'sent again');
  requireSettler(request, by);
  return {
    patch: { state: 'executing' },
    events: [requestEvent(request, 'executing', by, ctx, { sentAgain: true })],
  };
}

/** How an unknown outcome was settled. */
export interface Settlement {
  way: ResolveWay;
  state: 'succeeded' | 'failed';
  /** In English words, as people read it: `already deleted`, `not applied: folder … is still there`. */
  outcome: string;
  /** The sentence `outcome` words, when vidops made it: stored beside it for other languages. */
  outcomeSaid?: Said | undefined;
  /** Required when the lead says what they found by hand. */
  note: string | null;
  /** What the service answered to a repeat that it carried out. */
  answer?: JsonValue | undefined;
}

/**
 * A lead settles an unknown outcome: from `unknown`, or (`send-again`) from the `executing` that
 * the repeat claimed. One `resolved` event says who, how, what and why.
 */
export function resolve(
  request: OperationRequest,
  by: Actor,
  settlement: Settlement,
  ctx: StepContext,
): Step {
  const from: RequestState = settlement.way === 'send-again' ? 'executing' : 'unknown';
  requireState(request, [from], ctx.now, 'settled');
  requireSettler(request, by);
  const note = settlement.note?.trim() || null;
  if (note === null && (settlement.way === 'applied' || settlement.way === 'not-applied')) {
    throw new InputError(say.noteToSettle());
  }
  const decided = { decidedBy: { id: by.id, name: by.name }, decisionNote: note };
  const words = settlement.outcome;
  const said = settlement.outcomeSaid === undefined ? {} : { outcomeSaid: saidJson(settlement.outcomeSaid) };
  const events = [
    requestEvent(request, 'resolved', by, ctx, {
      way: settlement.way,
      state: settlement.state,
      outcome: words,
      ...said,
      note,
    }),
  ];
  // `result` says how it was settled (and what a repeat was answered), whichever way it went.
  const result = {
    resolved: settlement.way,
    outcome: words,
    ...said,
    answer: settlement.answer ?? null,
  };
  if (settlement.state === 'succeeded') {
    return { patch: { state: 'succeeded', result, error: null, ...decided }, events };
  }
  const error: RecordedError = { name: 'NotApplied', message: words };
  return { patch: { state: 'failed', result, error, ...decided }, events };
}
