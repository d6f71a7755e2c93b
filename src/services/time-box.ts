import * as approvals from '../core/approvals.js';
import { type Step, type StepContext, SYSTEM_ACTOR } from '../core/approvals.js';
import type { ChangeOperation } from '../core/catalog.js';
import { InputError, StateConflictError } from '../core/errors.js';
import { canonicalJson, type JsonValue } from '../core/json.js';
import type { Actor, OperationRequest, RecordedError } from '../core/model.js';
import { windowRule } from '../core/policy.js';
import { heldItems, type Touches } from '../core/put-back.js';
import { type Said, say } from '../core/said.js';
import { undoHolds } from '../core/seal.js';
import {
  awaitsPutBack,
  type BoxAsked,
  checkWindow,
  endsAtFrom,
  newTimeBox,
  type PutBackConflict,
  type RevertOf,
  type TimeBox,
  type Undo,
  untilMs,
} from '../core/time-box.js';
import { ipKey } from '../core/validate/ip.js';
import { readProtectionField } from '../core/validate/protection.js';
import { messageOf, recordedSaid } from '../i18n/said.js';
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
import { execute, recordError, type SendOutcome } from './execute.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import { extensionOf, undoRefusal } from './revert.js';
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
  revert = false,
): TimeBox | undefined {
  const at = { now: svc.clock(), timeZone: svc.timeZone ?? 'UTC' };
  const rule = windowRule(svc.policy, operation);
  // A Revert is not a change for a while: a policy that requires a window does not ask it of one.
  const checked = checkWindow(revert ? { ...rule, requireDuration: false } : rule, asked, at);
  if (!checked.ok) throw new InputError(checked.said);
  return checked.window === null ? undefined : newTimeBox(checked.window.asked, extendsId);
}

// --- When it runs ----------------------------------------------------------------------------

/**
 * Before a reversible change is sent: reads what it replaces and keeps it on the request (with a
 * `window-changed` event when it is time-boxed), so a resumed run still knows the values from before the first send. A
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
  try {
    // One operation's request carries its own params and preview: the union cannot be named here.
    const read = undoOf as (params: unknown, preview: unknown, io: ExecuteIo) => Promise<Undo>;
    const undo = await read(request.params, request.preview, {
      client: svc.client,
      fetchCover: svc.fetchCover,
    });
    const patch = undoPatch(svc, request, undo);
    // What a window will put back is in the audit chain from when it is first known.
    const recorded = { recorded: itemsOf(undo), undo };
    const events =
      request.timeBox === undefined
        ? []
        : boxStep(request, {}, 'window-changed', SYSTEM_ACTOR, c, recorded).events;
    const noted = await svc.store.transition(request.id, request.version, patch, c.now.toISOString(), events);
    return { kind: 'ok', request: noted?.request ?? request };
  } catch (error) {
    if (request.timeBox === undefined) return { kind: 'ok', request };
    svc.logger?.warn({ requestId: request.id }, 'could not read the values a time-boxed change replaces');
    const failed = await apply(svc.store, request, approvals.fail(request, recordError(error), c), c.now);
    return { kind: 'refused', request: failed ?? request };
  }
}

// --- One window at a time holds a setting or an address ----------------------------------------

/** The settings or addresses a request touches: its recorded undo, else its preview. */
function touched(request: OperationRequest): string[] {
  return heldItems(request.operation, request.undo ?? (request.preview as Touches | null));
}

/** A time-boxed change in force other than `self` that holds one of `items`, and the first it holds. */
async function holderOf(
  svc: ServiceContext,
  items: readonly string[],
  self?: string,
): Promise<{ holder: OperationRequest; item: string } | null> {
  const wanted = new Set(items);
  for (const window of await svc.store.listWindows()) {
    const item = window.id === self ? undefined : touched(window).find((i) => wanted.has(i));
    if (item !== undefined) return { holder: window, item };
  }
  return null;
}

/** "preventZoom is held by R-… (asked by …) until 18:00: extend it, or put it back first." */
function heldSaid(svc: ServiceContext, holder: OperationRequest, item: string): Said {
  const name = item.slice(item.indexOf(':') + 1);
  const endsAt = holder.timeBox?.endsAt ?? null;
  return say.boxHeld(name, holder.id, holder.requester.id, endsAt, svc.timeZone ?? 'UTC');
}

/**
 * A second time-boxed change of a setting or an address a window holds is refused when asked,
 * naming the holder: Extend lengthens a window; a change for good (no window) may override it.
 * Throws InputError; nothing is recorded.
 * @see docs/time-boxed.md, "One window at a time"
 */
export async function refuseHeld(
  svc: ServiceContext,
  prepared: { operation: ChangeOperation; preview: unknown; revertOf?: RevertOf | undefined },
  box: TimeBox | undefined,
): Promise<void> {
  if (box === undefined || box.extends !== undefined || prepared.revertOf !== undefined) return;
  const found = await holderOf(svc, heldItems(prepared.operation, prepared.preview as Touches));
  if (found !== null) throw new InputError(heldSaid(svc, found.holder, found.item));
}

/**
 * Just before a time-boxed change is first sent: an `until` end that passed while it waited for
 * approval refuses it; otherwise it takes its items in one atomic step of the store, or is refused
 * naming the window that took one first (two asked at once and approved later: the first applied
 * holds). Null when it may be sent, and for any other request or a resumed one.
 */
export async function windowRefusal(
  svc: ServiceContext,
  request: OperationRequest,
): Promise<RecordedError | null> {
  const box = request.timeBox;
  if (box === undefined || box.extends !== undefined || undoHolds(svc.sealer, request)) return null;
  if (box.asked.kind === 'until' && untilMs(box.asked.at, svc.timeZone ?? 'UTC') <= svc.clock().getTime()) {
    return recordedSaid('NotSent', say.boxPassedWaiting(request.id, box.asked.text));
  }
  const items = touched(request);
  const found = await holderOf(svc, items, request.id);
  const holderId = found?.holder.id ?? (await svc.store.holdItems(request.id, items));
  if (holderId === null) return null;
  const holder = found?.holder ?? (await svc.store.getRequest(holderId));
  const item = found?.item ?? items[0] ?? '';
  return holder === null ? null : recordedSaid('NotSent', heldSaid(svc, holder, item));
}

/**
 * A protection put-back a stopped process left under way is planned again before it is resumed:
 * the service may have changed since (someone set a setting it would send back), and protection
 * has no conditional update. Unless the plan is still what it sends, it is not sent (`Superseded`),
 * and the change's put-back reads the service back (the first send may have landed) and plans
 * again. A whitelist send is checked against the list it was planned on (`expectBefore`). Null
 * when it may be sent, and for any other request.
 */
export async function resumedPutBack(
  svc: ServiceContext,
  request: OperationRequest,
  resumed: boolean,
): Promise<RecordedError | null> {
  if (!resumed || request.revertOf?.kind !== 'put-back') return null;
  const change = await svc.store.getRequest(request.revertOf.id);
  const undo = change === null ? undefined : sealedUndo(svc, change);
  if (change === null || undo?.kind === 'whitelist') return null;
  try {
    const planned = undo && (await planPutBack(svc, change.operation, undo, change.timeBox?.overridden));
    const params = planned?.prepared?.params;
    if (params !== undefined && canonicalJson(params) === canonicalJson(request.params)) return null;
  } catch {
    // The service could not be read: not sent now; the change's put-back tries again.
  }
  return recordedSaid('Superseded', say.putBackInterrupted());
}

/**
 * An Extend, applied: the end of the window it extends moves, in one compare-and-set with its
 * audit event (`window-extended`), while that window is still waiting to go back. A put-back
 * claimed first wins, and the Extend fails saying so; an Extend first, and the put-back waits
 * for the new end. Nothing is sent to the service: the values stay as they are.
 */
export async function extendWindow(svc: ServiceContext, extension: OperationRequest): Promise<SendOutcome> {
  const firstId = extension.timeBox?.extends ?? '';
  const stale: SendOutcome = {
    kind: 'failed',
    error: recordedSaid('NotSent', say.extendStale(extension.id, firstId)),
  };
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const first = await svc.store.getRequest(firstId);
    const box = first?.state === 'succeeded' ? first.timeBox : undefined;
    if (
      first === null ||
      extension.timeBox === undefined ||
      box?.state !== 'waiting' ||
      box.endsAt === null
    ) {
      return stale;
    }
    const c = stepContext(svc);
    // An Extend lengthens a window, never shortens it: two approved at once end at the later end.
    const asked = endsAtFrom(extension.timeBox.asked, c.now, svc.timeZone ?? 'UTC');
    const endsAt = asked > box.endsAt ? asked : box.endsAt;
    const step = boxStep(first, { endsAt, remindedAt: null }, 'window-changed', extension.requester, c, {
      extendedBy: extension.id,
      from: box.endsAt,
    });
    if (await apply(svc.store, first, step, c.now))
      return { kind: 'applied', result: { extends: firstId, endsAt } };
  }
  return stale;
}

/**
 * A succeeding step of a time-boxed change also sets when it goes back. An Extend's own box is
 * closed (`cancelled`: nothing of its own goes back); the window it extends carries the new end.
 */
export function withUndo(svc: ServiceContext, request: OperationRequest, step: Step, now: Date): Step {
  const box = request.timeBox;
  if (step.patch.state !== 'succeeded' || box === undefined || box.endsAt !== null) return step;
  const endsAt = endsAtFrom(box.asked, now, svc.timeZone ?? 'UTC');
  const state = box.extends === undefined ? box.state : 'cancelled';
  const timeBox: TimeBox = { ...box, endsAt, appliedAt: now.toISOString(), state };
  return { ...step, patch: { ...step.patch, timeBox } };
}

/**
 * After a change applied: a Revert ends the window of the change it reverts (below); a change for
 * good (no window) of a setting or an address a window holds takes it over, so that window's
 * put-back leaves it alone (`overridden`, with a `window-changed` event).
 */
export async function afterApplied(svc: ServiceContext, done: OperationRequest): Promise<void> {
  if (done.revertOf?.kind === 'revert') await afterRevert(svc, done, done.revertOf.id);
  if (done.timeBox !== undefined || done.revertOf?.kind === 'put-back') return;
  const items = new Set(touched(done));
  if (items.size === 0) return;
  const c = stepContext(svc);
  for (const window of await svc.store.listWindows()) {
    const box = window.timeBox;
    // Named as the window's put-back names them: the setting, or the address in canonical form.
    const taken = touched(window).flatMap((i) => (items.has(i) ? [i.slice(i.indexOf(':') + 1)] : []));
    if (box?.state !== 'waiting' || window.id === done.revertOf?.id || taken.length === 0) continue;
    const overridden = [...new Set([...(box.overridden ?? []), ...taken])];
    const step = boxStep(window, { overridden }, 'window-changed', done.requester, c, {
      overriddenBy: done.id,
      items: taken,
    });
    await apply(svc.store, window, step, c.now);
  }
}

/**
 * After a Revert of a time-boxed change applied: the change is back already, so its whole window
 * ends (`left`, with `revertedBy`), with any window recorded as continuing it (an Extend applied
 * before one holder per setting). Its put-back would otherwise run at its end and send its old
 * values over whatever was set since, and Put back now and Extend… would still offer it.
 */
async function afterRevert(svc: ServiceContext, done: OperationRequest, changeId: string): Promise<void> {
  const c = stepContext(svc);
  for (const change of await svc.store.listWindows()) {
    const ends = change.id === changeId || change.timeBox?.extends === changeId;
    // A put-back claimed by a process that died (`running`) ends with the window too.
    const state = change.timeBox?.state;
    if (!ends || !(awaitsPutBack(state) || state === 'running')) continue;
    const left = boxStep(change, { state: 'left', conflicts: [] }, 'revert-conflict', SYSTEM_ACTOR, c, {
      revertedBy: done.id,
    });
    await apply(svc.store, change, left, c.now);
  }
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
  | 'put-back-escalated'
  | 'window-changed';

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

/** A window due within this long is read by the sweep: reminders, and the longest backoff. */
const LOOK_AHEAD_MS = 15 * 60_000;
const NEVER_APPLIED = ['failed', 'rejected', 'cancelled', 'expired'] as const;

/**
 * One pass over the open time boxes: close those whose change never applied, put back those
 * due (and retry those whose attempt is due), finish those whose put-back request has ended,
 * remind requesters of ends near, and tell a lead of a put-back failing for an hour. What is due
 * is read by when it is due (oldest first), whatever else waits for approval.
 */
export async function sweepTimeBoxes(svc: ServiceContext): Promise<TimeBoxSweep> {
  const done: TimeBoxSweep = { putBack: [], reminded: [], escalated: [] };
  const dueBy = new Date(svc.clock().getTime() + LOOK_AHEAD_MS).toISOString();
  const closed = await svc.store.listRequests({ timeBoxOpen: true, states: NEVER_APPLIED, limit: 500 });
  for (const request of [...closed, ...(await svc.store.listWindows({ dueBy }))]) {
    try {
      await sweepOne(svc, request, done);
    } catch (error) {
      svc.logger?.error(
        { requestId: request.id, err: recordError(error) },
        'time-boxed change: sweep failed',
      );
    }
  }
  return done;
}

async function sweepOne(svc: ServiceContext, request: OperationRequest, done: TimeBoxSweep): Promise<void> {
  const box = request.timeBox;
  if (box === undefined) return;
  const c = stepContext(svc);
  const now = c.now.getTime();
  if ((NEVER_APPLIED as readonly string[]).includes(request.state)) {
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
    const put = await putBack(svc, request, SYSTEM_ACTOR);
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

// --- Putting back ---------------------------------------------------------------------------

/** Events after which a change is never put back again: it went back, or was left. */
const BOX_ENDED: ReadonlySet<string> = new Set(['reverted', 'revert-conflict']);

/**
 * Puts `request` back: reads the service, plans what is still as vidops left it, claims the
 * put-back by compare-and-set (`reverting`; the loser of a race, or of an Extend, does nothing),
 * then creates and runs the linked put-back request. Nothing left to put back: `left`
 * (`revert-conflict`). The service unreachable: `retrying` (`put-back-retrying`), with backoff.
 */
export async function putBack(
  svc: ServiceContext,
  request: OperationRequest,
  by: Actor,
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
    planned = await planPutBack(svc, request.operation, undo, request.timeBox?.overridden);
  } catch (error) {
    return retryLater(svc, request, recordError(error));
  }
  if (planned.prepared === null) {
    // After an attempt whose answer was lost, what is found back went back by it: said so.
    const back = (request.timeBox?.attempts ?? 0) > 0 && wentBack(undo, planned.conflicts);
    if (back) return apply(svc.store, request, doneStep(request, planned.conflicts, c), c.now);
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
      // Found by the sweep while running (due now), should this process stop before it ends.
      nextAt: c.now.toISOString(),
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

/** Whether some of what `undo` set is back at its old value (it is not all among `conflicts`). */
function wentBack(undo: Undo, conflicts: readonly PutBackConflict[]): boolean {
  return itemsOf(undo).length > conflicts.length;
}

/** The put-back done (`reverted`, and `revert-conflict` when something was left alone). */
function doneStep(request: OperationRequest, conflicts: PutBackConflict[], c: StepContext): Step {
  const change: Partial<TimeBox> = { state: 'done', conflicts, nextAt: null, lastError: null };
  const step = boxStep(request, change, 'reverted', SYSTEM_ACTOR, c);
  if (conflicts.length > 0)
    step.events.push(...boxStep(request, change, 'revert-conflict', SYSTEM_ACTOR, c).events);
  return step;
}

/** Whether change `changeId` is still being put back by request `putBackId` (the claim holds). */
async function stillClaimed(svc: ServiceContext, changeId: string, putBackId: string): Promise<boolean> {
  const box = (await svc.store.getRequest(changeId))?.timeBox;
  return box?.state === 'running' && box.requestId === putBackId;
}

/**
 * What to send to put a change back, or null when nothing is left; and what stays: what others
 * changed since, and what a change for good took over (`overridden`), as the service shows it now.
 */
async function planPutBack(
  svc: ServiceContext,
  operation: ChangeOperation,
  undo: Undo,
  overridden: readonly string[] = [],
) {
  const inverse = SERVICES[operation].inverse;
  if (inverse === undefined) return { prepared: null, conflicts: [] };
  const io = prepareIo(svc);
  const plan = await inverse(overridden.length === 0 ? undo : without(undo, overridden), io);
  const taken = overridden.length === 0 ? [] : await takenOver(svc, undo, overridden);
  const conflicts = [...plan.conflicts, ...taken];
  if (plan.input === null) return { prepared: null, conflicts };
  try {
    const prepared = await prepareRequest(io, { kind: operation, ...plan.input } as never);
    return { prepared, conflicts };
  } catch (error) {
    // Changed between the two reads so that nothing would change: nothing to put back.
    if (error instanceof InputError) return { prepared: null, conflicts };
    throw error;
  }
}

/** `undo` without the items a change for good took over. */
function without(undo: Undo, items: readonly string[]): Undo {
  const gone = new Set(items);
  if (undo.kind === 'protection') return { ...undo, rows: undo.rows.filter((r) => !gone.has(r.field)) };
  if (undo.kind !== 'whitelist') return undo;
  const kept = (ips: readonly string[]) => ips.filter((ip) => !gone.has(ipKey(ip)));
  return { ...undo, added: kept(undo.added), removed: kept(undo.removed) };
}

/** The items a change for good took over, as the service shows them now: left alone, and said so. */
async function takenOver(
  svc: ServiceContext,
  undo: Undo,
  items: readonly string[],
): Promise<PutBackConflict[]> {
  if (undo.kind === 'whitelist') {
    const listed = new Set((await svc.client.whitelist.get()).map(ipKey));
    return items.map((item) => ({ item, now: listed.has(ipKey(item)) ? item : null, heldBy: null }));
  }
  const current = await svc.client.protection.get();
  return items.map((item) => ({ item, now: readProtectionField(current, item) ?? null, heldBy: null }));
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
    failingSince: box.failingSince ?? c.now.toISOString(),
    lastError: { name: error.name, message: messageOf(error), ...(error.said ? { said: error.said } : {}) },
    requestId: null,
  };
  svc.logger?.warn({ requestId: request.id, attempts, error: error.name }, 'putting back failed; retrying');
  return apply(svc.store, request, boxStep(request, change, 'put-back-retrying', SYSTEM_ACTOR, c), c.now);
}

/**
 * A running put-back whose request has ended: `done` (`reverted`, and `revert-conflict` when
 * something was left), or `retrying` when it failed. A failed one is read back first: its answer
 * may have been lost after the service applied it. A request claimed but never created (the
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
    return apply(svc.store, request, doneStep(request, box.conflicts, c), c.now);
  }
  if (putBackRequest.state === 'failed' || putBackRequest.state === 'unknown') {
    const back = await readBack(svc, request);
    if (back !== null) return apply(svc.store, request, doneStep(request, back, c), c.now);
    return retryLater(svc, request, putBackRequest.error ?? { name: 'Error', message: putBackRequest.state });
  }
  return null;
}

/**
 * What the service shows after a put-back attempt that failed: what was left alone when all
 * that could go back did (the answer was lost, not the change); null when something is still to
 * send, or the service cannot be read (the next attempt reads it again).
 */
async function readBack(svc: ServiceContext, request: OperationRequest): Promise<PutBackConflict[] | null> {
  const undo = sealedUndo(svc, request);
  if (undo === undefined) return null;
  try {
    const planned = await planPutBack(svc, request.operation, undo, request.timeBox?.overridden);
    return planned.prepared === null && wentBack(undo, planned.conflicts) ? planned.conflicts : null;
  } catch {
    return null;
  }
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
  let request = found.request;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const done = await putBack(svc, request, actor);
    if (done !== null) return { kind: 'putting-back', request: done };
    // Another replica (or the sweep) claimed it first: it is being put back all the same. An
    // Extend that moved its end meanwhile does not stop a Put back now.
    const now = await svc.store.getRequest(id);
    if (now === null || !awaitsPutBack(now.timeBox?.state))
      return { kind: 'putting-back', request: now ?? request };
    request = now;
  }
  return { kind: 'putting-back', request };
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
