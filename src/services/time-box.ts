import * as approvals from '../core/approvals.js';
import { type Step, type StepContext, SYSTEM_ACTOR } from '../core/approvals.js';
import type { ChangeOperation } from '../core/catalog.js';
import { InputError, recordedSaid, StateConflictError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { Actor, OperationRequest, RecordedError } from '../core/model.js';
import { windowRule } from '../core/policy.js';
import { type HandOver, type Holder, handedOver } from '../core/put-back.js';
import { say } from '../core/said.js';
import { undoHolds } from '../core/seal.js';
import {
  awaitsPutBack,
  type BoxAsked,
  checkWindow,
  endsAtFrom,
  newTimeBox,
  type PutBackConflict,
  type TimeBox,
  type Undo,
} from '../core/time-box.js';
import { type ExecuteIo, SERVICES } from '../operations/services.js';
import { prepareRequest } from './catalog.js';
import {
  apply,
  foundInLog,
  prepareIo,
  refused,
  type ServiceContext,
  sealedUndo,
  stepContext,
  undoPatch,
} from './context.js';
import { execute, recordError } from './execute.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import { extensionOf, inverseNow, undoRefusal } from './revert.js';
import { submit } from './submit.js';
import type { PrecheckResult, Prepared, PutBackResult, SubmitResult, TimeBoxSweep } from './types.js';

/**
 * Changes that undo themselves: what a time-boxed change records when it runs (the values it
 * replaces, when it goes back), and the sweep that puts it back at its end, exactly once, only
 * where nobody changed it since. Every step on the change is a compare-and-set with its audit
 * event, so replicas sweeping at once, and a restart at any point, put it back once.
 * @see docs/time-boxed.md
 */

/** The requester is reminded this long before the end (when the window is longer than twice it). */
const REMIND_BEFORE_MS = 10 * 60_000;
/** A put-back failing this long is told to a lead. */
const ESCALATE_AFTER_MS = 60 * 60_000;
/** Waits between attempts: 1, 2, 4, 8 minutes, then every 15. */
const BACKOFF_MS = [60_000, 120_000, 240_000, 480_000, 900_000] as const;
const OPEN_SCAN_LIMIT = 500;

/**
 * The window `asked` checked for `operation` now (src/core/time-box.ts `checkWindow`): only
 * time-box operations take one, within the policy's bounds, and an operation whose policy
 * requires one refuses none. The box to store, or none; throws InputError.
 */
export function checkedBox(
  svc: ServiceContext,
  operation: ChangeOperation,
  asked: BoxAsked | null | undefined,
  extendsId?: string,
): TimeBox | undefined {
  const at = { now: svc.clock(), timeZone: svc.timeZone ?? 'UTC' };
  const checked = checkWindow(windowRule(svc.policy, operation), asked, at);
  if (!checked.ok) throw new InputError(checked.said);
  return checked.window === null ? undefined : newTimeBox(checked.window.asked, extendsId);
}

// --- When it runs ----------------------------------------------------------------------------

/**
 * Before a reversible change is sent: reads what it replaces and keeps it on the request (a
 * patch without events), so a resumed run still knows the values from before the first send. A
 * time-boxed change whose old values cannot be read is not sent: it fails, saying why; any
 * other change goes on without them (its Revert will say the values are not known).
 */
export async function noteUndo(
  svc: ServiceContext,
  request: OperationRequest,
): Promise<{ kind: 'ok' | 'refused'; request: OperationRequest }> {
  const service = SERVICES[request.operation];
  const undoOf = service.undo;
  if (undoOf === undefined || undoHolds(svc.sealer, request) || request.revertOf?.kind === 'put-back') {
    return { kind: 'ok', request };
  }
  const c = stepContext(svc);
  const refuse = async (error: RecordedError) => {
    const failed = await apply(svc.store, request, approvals.fail(request, error, c), c.now);
    return { kind: 'refused' as const, request: failed ?? request };
  };
  try {
    // An Extend sets again what the change it extends set: it goes back to what that one replaced.
    const extended = request.timeBox?.extends;
    const first = extended === undefined ? null : await svc.store.getRequest(extended);
    const kept = first === null ? undefined : sealedUndo(svc, first);
    if (first?.undo !== undefined && kept === undefined) {
      return refuse(recordedSaid('Unsealed', say.extendUnsealed(first.id)));
    }
    // One operation's request carries its own params and preview: the union cannot be named here.
    const read = undoOf as (params: unknown, preview: unknown, io: ExecuteIo) => Promise<Undo>;
    const io = { client: svc.client, fetchCover: svc.fetchCover };
    const undo = kept ?? (await read(request.params, request.preview, io));
    const patch = undoPatch(svc, request, undo);
    const noted = await svc.store.transition(request.id, request.version, patch, c.now.toISOString(), []);
    return { kind: 'ok', request: noted?.request ?? request };
  } catch (error) {
    if (request.timeBox === undefined) return { kind: 'ok', request };
    svc.logger?.warn({ requestId: request.id }, 'could not read the values a time-boxed change replaces');
    return refuse(recordError(error));
  }
}

/**
 * Just before an Extend is first sent, the change it extends must still be in force: not put
 * back, and not being put back (`running`). Otherwise it must not be sent, or it would turn the
 * setting on again after the put-back: the error says why. Null when it may be sent, and for any
 * other request (a resumed Extend has its undo noted already, before its first send).
 */
export async function staleExtension(
  svc: ServiceContext,
  request: OperationRequest,
): Promise<RecordedError | null> {
  const firstId = request.timeBox?.extends;
  if (firstId === undefined || undoHolds(svc.sealer, request)) return null;
  const first = await svc.store.getRequest(firstId);
  if (first === null || !(await inForceThrough(svc, first))) {
    return recordedSaid('NotSent', say.extendStale(request.id, firstId));
  }
  return (await movedSince(svc, first))
    ? recordedSaid('NotSent', say.extendOverOthers(request.id, firstId))
    : null;
}

/**
 * Whether something `change` set is no longer as it left it on the service (someone changed it
 * since): an Extend would send its values again over that. Unknown (no undo, no inverse, the
 * service unreadable): not said to have changed; the put-back checks again at its end.
 */
async function movedSince(svc: ServiceContext, change: OperationRequest): Promise<boolean> {
  try {
    const plan = await inverseNow(svc, change);
    return plan !== null && (plan.conflicts.length > 0 || plan.input === null);
  } catch (error) {
    if (error instanceof InputError) return true;
    svc.logger?.warn(
      { requestId: change.id, err: recordError(error) },
      'could not check an Extend before sending it',
    );
    return false;
  }
}

/**
 * Whether `change` is still in force: waiting to go back (or retrying), or left to an Extend of
 * it that is (another Extend asked beside that one extends it still). A change left to someone
 * else's later change is not: extending it would set its values over theirs.
 */
async function inForceThrough(
  svc: ServiceContext,
  change: OperationRequest | null,
  depth = 0,
): Promise<boolean> {
  const box = change?.state === 'succeeded' ? change.timeBox : undefined;
  if (change === null || box === undefined) return false;
  if (awaitsPutBack(box.state)) return true;
  if (box.state !== 'left' || depth >= MAX_EXTENDS_FOLLOWED) return false;
  const holders = new Set(box.conflicts.flatMap((c) => (c.heldBy === null ? [] : [c.heldBy])));
  for (const id of holders) {
    const holder = await svc.store.getRequest(id);
    if (holder?.timeBox?.extends === change.id && (await inForceThrough(svc, holder, depth + 1))) return true;
  }
  return false;
}

/** Extends of Extends followed to find a change still in force (each is one more approval). */
const MAX_EXTENDS_FOLLOWED = 10;

/** A succeeding step of a time-boxed change also sets when it goes back. */
export function withUndo(svc: ServiceContext, request: OperationRequest, step: Step, now: Date): Step {
  const box = request.timeBox;
  if (step.patch.state !== 'succeeded' || box === undefined || box.endsAt !== null) return step;
  const endsAt = endsAtFrom(box.asked, now, svc.timeZone ?? 'UTC');
  return { ...step, patch: { ...step.patch, timeBox: { ...box, endsAt, appliedAt: now.toISOString() } } };
}

/**
 * After an Extend applied: the change it extends, still waiting (or retrying a put-back that has
 * not gone through), hands its put-back over (it is
 * `left`, held by the extension). The extension goes back to what the first replaced (its undo
 * is the first's, see {@link noteUndo}), so it does not matter which of the two moved first.
 */
export async function afterApplied(svc: ServiceContext, extension: OperationRequest): Promise<void> {
  if (extension.revertOf?.kind === 'revert') {
    await afterRevert(svc, extension, extension.revertOf.id);
    return;
  }
  const firstId = extension.timeBox?.extends;
  if (firstId === undefined) return;
  const first = await svc.store.getRequest(firstId);
  if (!first || !awaitsPutBack(first.timeBox?.state) || first.undo === undefined) return;
  const c = stepContext(svc);
  const held: PutBackConflict[] = itemsOf(first.undo).map((item) => ({
    item,
    now: null,
    heldBy: extension.id,
  }));
  const left = boxStep(first, { state: 'left', conflicts: held }, 'revert-conflict', SYSTEM_ACTOR, c, {
    handedTo: extension.id,
  });
  await apply(svc.store, first, left, c.now);
}

/**
 * After a Revert of a time-boxed change applied: the change is back already, so its window ends
 * (`left`, with `revertedBy`). Its put-back would otherwise run at its end and send its old values
 * over whatever was set since, and Put back now and Extend… would still offer it.
 */
async function afterRevert(svc: ServiceContext, revert: OperationRequest, changeId: string): Promise<void> {
  const change = await svc.store.getRequest(changeId);
  if (!change || !awaitsPutBack(change.timeBox?.state)) return;
  const c = stepContext(svc);
  const left = boxStep(change, { state: 'left', conflicts: [] }, 'revert-conflict', SYSTEM_ACTOR, c, {
    revertedBy: revert.id,
  });
  await apply(svc.store, change, left, c.now);
}

/** The settings or addresses a change touched (its undo), or a put-back sends back (its preview). */
function itemsOf(change: Undo | Prepared['preview'] | undefined): string[] {
  if (change?.kind === 'protection') return change.rows.map((row) => row.field);
  if (change?.kind === 'whitelist') return [...change.added, ...change.removed];
  return [];
}

type BoxEvent =
  | 'reverting'
  | 'reverted'
  | 'revert-conflict'
  | 'put-back-retrying'
  | 'put-back-reminded'
  | 'put-back-escalated';

/** A step on a change's time box, with its audit event (none for `null`). */
function boxStep(
  request: OperationRequest,
  change: Partial<TimeBox>,
  type: BoxEvent | null,
  by: Actor,
  ctx: StepContext,
  outcome: Record<string, JsonValue> = {},
): Step {
  const box = request.timeBox;
  if (box === undefined) throw new StateConflictError(say.putBackNotInForce(request.id));
  const timeBox: TimeBox = { ...box, ...change };
  const detail = {
    state: timeBox.state,
    endsAt: timeBox.endsAt,
    putBack: timeBox.requestId,
    conflicts: timeBox.conflicts,
    nextAt: timeBox.nextAt,
    lastError: timeBox.lastError,
    ...outcome,
  };
  const events = type === null ? [] : [approvals.requestEvent(request, type, by, ctx, detail)];
  return { patch: { timeBox }, events };
}

// --- The sweep ------------------------------------------------------------------------------

/** Time-boxed changes in force (applied, not yet put back), soonest end first. */
export async function timeBoxesInForce(svc: ServiceContext): Promise<OperationRequest[]> {
  const open = await svc.store.listRequests({ timeBoxOpen: true, limit: OPEN_SCAN_LIMIT });
  return open
    .filter((r) => r.state === 'succeeded')
    .sort((a, b) => (a.timeBox?.endsAt ?? '').localeCompare(b.timeBox?.endsAt ?? ''));
}

/**
 * One pass over the open time boxes: close those whose change never applied, put back those
 * due (and retry those whose attempt is due), finish those whose put-back request has ended,
 * remind requesters of ends near, and tell a lead of a put-back failing for an hour.
 */
export async function sweepTimeBoxes(svc: ServiceContext): Promise<TimeBoxSweep> {
  const done: TimeBoxSweep = { putBack: [], reminded: [], escalated: [] };
  const open = await svc.store.listRequests({ timeBoxOpen: true, limit: OPEN_SCAN_LIMIT });
  for (const request of open) {
    try {
      await sweepOne(svc, request, open, done);
    } catch (error) {
      svc.logger?.error(
        { requestId: request.id, err: recordError(error) },
        'time-boxed change: sweep failed',
      );
    }
  }
  return done;
}

async function sweepOne(
  svc: ServiceContext,
  request: OperationRequest,
  open: readonly OperationRequest[],
  done: TimeBoxSweep,
): Promise<void> {
  const box = request.timeBox;
  if (box === undefined) return;
  const c = stepContext(svc);
  const now = c.now.getTime();
  if (['failed', 'rejected', 'cancelled', 'expired'].includes(request.state)) {
    await apply(svc.store, request, boxStep(request, { state: 'cancelled' }, null, SYSTEM_ACTOR, c), c.now);
    return;
  }
  if (request.state !== 'succeeded') return;
  if (box.endsAt === null) {
    // Settled as applied by a lead after an unknown outcome: its window starts now.
    const endsAt = endsAtFrom(box.asked, c.now, svc.timeZone ?? 'UTC');
    await apply(svc.store, request, boxStep(request, { endsAt }, null, SYSTEM_ACTOR, c), c.now);
    return;
  }
  if (box.state === 'running') {
    const finished = await finishRunning(svc, request);
    if (finished) done.putBack.push(finished);
    return;
  }
  if (box.state === 'retrying' && box.failingSince !== null && !box.leadTold) {
    if (Date.parse(box.failingSince) + ESCALATE_AFTER_MS <= now) {
      const told = boxStep(request, { leadTold: true }, 'put-back-escalated', SYSTEM_ACTOR, c);
      const escalated = await apply(svc.store, request, told, c.now);
      if (escalated) done.escalated.push(escalated);
      return;
    }
  }
  const due = box.state === 'waiting' ? Date.parse(box.endsAt) : Date.parse(box.nextAt ?? box.endsAt);
  if (due <= now) {
    const put = await putBack(svc, request, SYSTEM_ACTOR, holdersOf(svc, request, open));
    if (put) done.putBack.push(put);
    return;
  }
  if (box.state === 'waiting' && box.remindedAt === null && remindNow(box, now)) {
    const step = boxStep(request, { remindedAt: c.now.toISOString() }, 'put-back-reminded', SYSTEM_ACTOR, c);
    const reminded = await apply(svc.store, request, step, c.now);
    if (reminded) done.reminded.push(reminded);
  }
}

/** Ten minutes before the end, when the change was in force longer than that already. */
function remindNow(box: TimeBox, now: number): boolean {
  if (box.endsAt === null) return false;
  const end = Date.parse(box.endsAt);
  const applied = box.appliedAt === undefined ? end - 2 * REMIND_BEFORE_MS : Date.parse(box.appliedAt);
  return end - now <= REMIND_BEFORE_MS && end - applied > 2 * REMIND_BEFORE_MS;
}

/** Other time-boxed changes of the same operation in force, which may hold some of its items now. */
function holdersOf(
  svc: ServiceContext,
  request: OperationRequest,
  open: readonly OperationRequest[],
): Holder[] {
  return open.flatMap((other) => {
    const holds =
      other.id !== request.id &&
      other.operation === request.operation &&
      other.state === 'succeeded' &&
      awaitsPutBack(other.timeBox?.state);
    const undo = holds ? sealedUndo(svc, other) : undefined;
    return undo === undefined ? [] : [{ id: other.id, undo }];
  });
}

// --- Putting back ---------------------------------------------------------------------------

/** Events after which a change is never put back again: it went back, or was left. */
const BOX_ENDED: ReadonlySet<string> = new Set(['reverted', 'revert-conflict']);

/**
 * Puts `request` back: reads the service, plans what is still as vidops left it, claims the
 * put-back by compare-and-set (`reverting`; the loser of a race does nothing), then creates and
 * runs the linked put-back request. Nothing left to put back: `left` (`revert-conflict`). The
 * service unreachable: `retrying` (`put-back-retrying`), with backoff.
 */
export async function putBack(
  svc: ServiceContext,
  request: OperationRequest,
  by: Actor,
  holders: readonly Holder[],
): Promise<OperationRequest | null> {
  const c = stepContext(svc);
  const ended = await foundInLog(svc, request.id, BOX_ENDED);
  if (ended !== null) {
    // Its log says it went back (or was left) already: the row was set back in the database.
    svc.logger?.error(
      { requestId: request.id, logSays: ended },
      'not put back again: the audit log says this change was put back or left already',
    );
    const left = boxStep(request, { state: 'left', conflicts: [] }, 'revert-conflict', by, c, { ended });
    return apply(svc.store, request, left, c.now);
  }
  const undo = sealedUndo(svc, request);
  if (undo === undefined) {
    const left = boxStep(request, { state: 'left', conflicts: [] }, 'revert-conflict', by, c, {
      undo: request.undo === undefined ? 'unknown' : 'unsealed',
    });
    return apply(svc.store, request, left, c.now);
  }
  let planned: Awaited<ReturnType<typeof planPutBack>>;
  try {
    planned = await planPutBack(svc, request.operation, undo, holders);
  } catch (error) {
    return retryLater(svc, request, recordError(error));
  }
  // The hand-over comes first: a crash after it leaves this change due, planned again, and the
  // hand-over is the same once more; a holder already going back takes none (planned again later).
  const moved = await handOver(svc, planned.handOvers);
  if (moved !== null)
    return retryLater(svc, request, recordedSaid('HolderMoved', say.putBackHolderMoved(moved)));
  if (planned.prepared === null) {
    const left = boxStep(request, { state: 'left', conflicts: planned.conflicts }, 'revert-conflict', by, c);
    return apply(svc.store, request, left, c.now);
  }
  const id = svc.requestId();
  const claim = boxStep(
    request,
    {
      state: 'running',
      requestId: id,
      conflicts: planned.conflicts,
      attempts: (request.timeBox?.attempts ?? 0) + 1,
    },
    'reverting',
    by,
    c,
    { goesBack: itemsOf(planned.prepared.preview) },
  );
  const claimed = await apply(svc.store, request, claim, c.now);
  if (claimed === null) return null;
  const { prepared } = planned;
  const made = approvals.newRequest(
    {
      id,
      operation: prepared.operation,
      params: prepared.params,
      target: prepared.target,
      preview: prepared.preview,
      reason: null,
      requester: SYSTEM_ACTOR,
      mode: { kind: 'direct' },
      revertOf: { id: request.id, kind: 'put-back' },
    },
    c,
  );
  const created = await svc.store.createRequest(made.request, made.events);
  if (!(await stillClaimed(svc, request.id, id))) {
    // This process stalled after its claim, and another took the put-back over meanwhile (it
    // found no request under the claim): this request is recorded, not sent.
    svc.logger?.warn({ requestId: request.id, putBack: id }, 'put-back taken over meanwhile; not sent');
    const superseded = recordedSaid('Superseded', say.putBackSuperseded());
    await apply(svc.store, created.request, approvals.fail(created.request, superseded, c), c.now);
    return null;
  }
  await execute(svc, created.request);
  return (await finishRunning(svc, claimed)) ?? claimed;
}

/** Whether change `changeId` is still being put back by request `putBackId` (the claim holds). */
async function stillClaimed(svc: ServiceContext, changeId: string, putBackId: string): Promise<boolean> {
  const box = (await svc.store.getRequest(changeId))?.timeBox;
  return box?.state === 'running' && box.requestId === putBackId;
}

/** What to send to put `request` back, or null when nothing is left; what stays, and hand-overs. */
async function planPutBack(
  svc: ServiceContext,
  operation: ChangeOperation,
  undo: Undo,
  holders: readonly Holder[],
) {
  const inverse = SERVICES[operation].inverse;
  if (inverse === undefined) return { prepared: null, conflicts: [], handOvers: [] };
  const io = prepareIo(svc);
  const plan = await inverse(undo, io, holders);
  if (plan.input === null) return { prepared: null, conflicts: plan.conflicts, handOvers: plan.handOvers };
  try {
    const prepared = await prepareRequest(io, { kind: operation, ...plan.input } as never);
    return { prepared, conflicts: plan.conflicts, handOvers: plan.handOvers };
  } catch (error) {
    // Changed between the two reads so that nothing would change: nothing to put back.
    if (error instanceof InputError)
      return { prepared: null, conflicts: plan.conflicts, handOvers: plan.handOvers };
    throw error;
  }
}

/**
 * The holders go back to what the first replaced, for the items it left to them. Null when done;
 * else the holder no longer waiting to go back (it is being put back, or was): the first must be
 * planned again, once the service shows what that holder left.
 */
async function handOver(svc: ServiceContext, handOvers: readonly HandOver[]): Promise<string | null> {
  const byHolder = new Map<string, HandOver[]>();
  for (const h of handOvers) byHolder.set(h.holderId, [...(byHolder.get(h.holderId) ?? []), h]);
  for (const [holderId, given] of byHolder) {
    if (!(await handOverTo(svc, holderId, given))) return holderId;
  }
  return null;
}

async function handOverTo(
  svc: ServiceContext,
  holderId: string,
  given: readonly HandOver[],
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const holder = await svc.store.getRequest(holderId);
    const held = holder === null ? undefined : sealedUndo(svc, holder);
    if (holder === null || held === undefined || !awaitsPutBack(holder.timeBox?.state)) return false;
    const patch = undoPatch(svc, holder, handedOver(held, given));
    if (await svc.store.transition(holder.id, holder.version, patch, svc.clock().toISOString(), []))
      return true;
  }
  return false;
}

/** The attempt failed before anything was sent: try again after the backoff. */
async function retryLater(
  svc: ServiceContext,
  request: OperationRequest,
  error: RecordedError,
): Promise<OperationRequest | null> {
  const c = stepContext(svc);
  const box = request.timeBox;
  if (box === undefined) return null;
  const attempts = box.state === 'running' ? box.attempts : box.attempts + 1;
  const wait = BACKOFF_MS[Math.max(0, Math.min(attempts, BACKOFF_MS.length) - 1)] ?? 900_000;
  const change: Partial<TimeBox> = {
    state: 'retrying',
    attempts,
    nextAt: new Date(c.now.getTime() + wait).toISOString(),
    // Planned again because a later change was going back is not a failure of the service.
    failingSince: error.name === 'HolderMoved' ? box.failingSince : (box.failingSince ?? c.now.toISOString()),
    lastError: { name: error.name, message: error.message, ...(error.said ? { said: error.said } : {}) },
    requestId: null,
  };
  svc.logger?.warn({ requestId: request.id, attempts, error: error.name }, 'putting back failed; retrying');
  return apply(svc.store, request, boxStep(request, change, 'put-back-retrying', SYSTEM_ACTOR, c), c.now);
}

/**
 * A running put-back whose request has ended: `done` (`reverted`, and `revert-conflict` when
 * something was left), or `retrying` when it failed. A request claimed but never created (the
 * process stopped in between) is planned again once it is stale.
 */
async function finishRunning(
  svc: ServiceContext,
  request: OperationRequest,
): Promise<OperationRequest | null> {
  const box = request.timeBox;
  if (box === undefined || box.state !== 'running' || box.requestId === null) return null;
  const current = await svc.store.getRequest(request.id);
  if (current === null || current.version !== request.version) return null;
  const putBackRequest = await svc.store.getRequest(box.requestId);
  const c = stepContext(svc);
  if (putBackRequest === null) {
    const stale = Date.parse(request.updatedAt) + svc.staleExecutionMs <= c.now.getTime();
    return stale
      ? retryLater(svc, request, {
          name: 'Interrupted',
          message: 'vidops stopped before the put-back was sent',
        })
      : null;
  }
  if (putBackRequest.state === 'succeeded') {
    const change: Partial<TimeBox> = { state: 'done', nextAt: null, lastError: null };
    const step = boxStep(request, change, 'reverted', SYSTEM_ACTOR, c);
    if (box.conflicts.length > 0) {
      step.events.push(...boxStep(request, change, 'revert-conflict', SYSTEM_ACTOR, c).events);
    }
    return apply(svc.store, request, step, c.now);
  }
  if (putBackRequest.state === 'failed' || putBackRequest.state === 'unknown') {
    return retryLater(svc, request, putBackRequest.error ?? { name: 'Error', message: putBackRequest.state });
  }
  return null;
}

// --- What people do with a change in force --------------------------------------------------

type Refused = Extract<PutBackResult, { kind: 'refused' }>;

/** A time-boxed change in force, or why not (not one, or not this person's to undo). */
async function inForce(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  states: readonly TimeBox['state'][],
): Promise<{ ok: true; request: OperationRequest } | { ok: false; result: Refused }> {
  const request = await svc.store.getRequest(id);
  if (request === null) return { ok: false, result: refused(say.svcNoRequest(id)) };
  const box = request.timeBox;
  if (request.state !== 'succeeded' || box === undefined || !states.includes(box.state)) {
    return { ok: false, result: refused(say.putBackNotInForce(id), request) };
  }
  const refusal = await undoRefusal(svc, request, actor);
  if (refusal !== null) return { ok: false, result: refused(refusal, request) };
  return { ok: true, request };
}

/** @see Operations.putBackNow */
export async function putBackNow(svc: ServiceContext, id: string, actor: Actor): Promise<PutBackResult> {
  const found = await inForce(svc, id, actor, ['waiting', 'retrying']);
  if (!found.ok) return found.result;
  const open = await svc.store.listRequests({ timeBoxOpen: true, limit: OPEN_SCAN_LIMIT });
  const done = await putBack(svc, found.request, actor, holdersOf(svc, found.request, open));
  if (done === null) {
    // Another replica (or the sweep) claimed it first: it is being put back all the same.
    const now = await svc.store.getRequest(id);
    return { kind: 'putting-back', request: now ?? found.request };
  }
  return { kind: 'putting-back', request: done };
}

/** @see Operations.checkExtend */
export async function checkExtend(svc: ServiceContext, id: string, actor: Actor): Promise<PrecheckResult> {
  const found = await inForce(svc, id, actor, ['waiting']);
  return found.ok ? { kind: 'allowed', request: found.request } : found.result;
}

/** @see Operations.extend */
export async function extend(
  svc: ServiceContext,
  id: string,
  actor: Actor,
  asked: BoxAsked,
  reason: string | null,
): Promise<SubmitResult> {
  const found = await inForce(svc, id, actor, ['waiting']);
  if (!found.ok) {
    return { kind: 'denied', reason: found.result.reason, said: found.result.said };
  }
  const prepared = await extensionOf(svc, found.request);
  return submit(svc, actor, prepared, reason ?? `extends ${id}`, { asked, extendsId: id });
}
