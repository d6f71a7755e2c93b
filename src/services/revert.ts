import { cancelRefusal } from '../core/actor.js';
import { type ChangeOperation, OPERATION_SPECS, operationTarget } from '../core/catalog.js';
import { InputError, PolicyDeniedError } from '../core/errors.js';
import { canonicalJson } from '../core/json.js';
import type { Actor, OperationRequest, RecordedError } from '../core/model.js';
import { isLead } from '../core/policy.js';
import { type Said, say } from '../core/said.js';
import { undoHolds } from '../core/seal.js';
import type { Undo } from '../core/time-box.js';
import { recordedSaid } from '../i18n/said.js';
import type { Inverse } from '../operations/common/service.js';
import { SERVICES } from '../operations/services.js';
import { prepareRequest } from './catalog.js';
import { policyActor, prepareIo, type ServiceContext, sealedUndo } from './context.js';
import { recordError } from './execute.js';
import type { Prepared } from './types.js';

/**
 * Revert… of a done reversible change: a new request with the inverse change, computed from what
 * the change replaced and what the service shows now, submitted like any change (the same policy,
 * the same approvals). Who may undo a change: its requester (with the proof a cancel needs) or a
 * lead (from the CLI only where the policy trusts `--as`).
 * @see docs/time-boxed.md, "Revert"
 */

/** The request `id`, or an InputError saying there is none. */
async function requestOrRefuse(svc: ServiceContext, id: string): Promise<OperationRequest> {
  const request = await svc.store.getRequest(id);
  if (request === null) throw new InputError(say.svcNoRequest(id));
  return request;
}

/** Why `actor` may not undo `request` (put it back now, extend it, revert it); null when they may. */
export async function undoRefusal(
  svc: ServiceContext,
  request: OperationRequest,
  actor: Actor,
): Promise<Said | null> {
  const trusted = svc.policy.cli.approve;
  if (cancelRefusal(trusted, request, actor) === null) return null;
  const claimed = actor.via?.kind === 'cli' && !trusted;
  if (!claimed && isLead(svc.policy, await policyActor(svc, actor))) return null;
  return say.revertNotYours(request.id);
}

/** @see Operations.prepareRevert */
export async function prepareRevert(svc: ServiceContext, id: string, actor: Actor): Promise<Prepared> {
  const request = await requestOrRefuse(svc, id);
  const spec = OPERATION_SPECS[request.operation];
  if (spec.undo === 'none' || request.revertOf?.kind === 'put-back') {
    throw new InputError(say.revertNotRevertible(request.id, spec.title));
  }
  if (request.state !== 'succeeded') throw new InputError(say.revertNotDone(request.id));
  const refusal = await undoRefusal(svc, request, actor);
  if (refusal !== null) throw new PolicyDeniedError(refusal);
  const ended = nothingOfItsOwn(request, null) ?? (await anotherRevert(svc, request, null));
  if (ended !== null) throw new InputError(ended);
  const plan = await inverseNow(svc, request);
  if (plan === null) throw new InputError(say.revertBeforeUnknown());
  if (plan.input === null) throw new InputError(say.revertNothing(request.id));
  const prepared = await prepareRequest(prepareIo(svc), { kind: request.operation, ...plan.input } as never);
  const warnings = [...prepared.warnings];
  if (plan.conflicts.length > 0) {
    warnings.push(
      say.warnRevertLeaves(
        request.id,
        plan.conflicts.map((c) => c.item),
      ),
    );
  }
  if (plan.undo.kind === 'record' && editedSince(plan.undo, prepared.preview)) {
    warnings.push(say.warnRevertChangedSince(request.id));
  }
  return { ...prepared, warnings, revertOf: { id: request.id, kind: 'revert' } } as Prepared;
}

/**
 * Why a time-boxed `change` has nothing of its own to revert: an Extend moved only an end (the
 * Revert of its change ends the whole window), or its window ended (put back, or reverted). `revert`
 * names the Revert not sent, once asked.
 */
function nothingOfItsOwn(change: OperationRequest, revert: string | null): Said | null {
  const box = change.timeBox;
  if (box?.extends !== undefined) return say.revertExtend(change.id, box.extends);
  const ended = box?.state === 'done' || box?.state === 'left';
  return ended ? say.revertWindowEnded(change.id, revert) : null;
}

/**
 * Why another Revert of `change` stops this one: a second would undo whatever was set after the
 * first. Sending (`revert` names it), one done, being sent or of unknown outcome; asking, also one
 * waiting. Each Revert is `executing` before it looks, so of two sent at once at most one is sent.
 */
async function anotherRevert(
  svc: ServiceContext,
  change: OperationRequest,
  revert: string | null,
): Promise<Said | null> {
  const others = (await svc.store.listReverts(change.id)).filter((r) => r.id !== revert);
  const done = others.find((r) => r.state === 'succeeded');
  if (done !== undefined) return say.revertDoneAlready(change.id, done.id, revert);
  // Asking, one that may still be decided stops it too (an expired one no longer can).
  const now = svc.clock().getTime();
  const waits = (r: OperationRequest) =>
    revert === null &&
    ['pending', 'approved'].includes(r.state) &&
    (r.expiresAt === null || now < Date.parse(r.expiresAt));
  const open = others.find((r) => r.state === 'executing' || r.state === 'unknown' || waits(r));

  if (open === undefined) return null;
  return revert === null
    ? say.revertAsked(change.id, open.id)
    : say.revertInFlight(revert, change.id, open.id);
}

/**
 * Just before a Revert is first sent, the change it undoes is planned again against the service as
 * it is now. When that no longer gives exactly the parameters approved (the change was put back,
 * reverted already, or changed again since), the Revert must not be sent: the error says why.
 * Null when it may be sent, and for any other request. A resumed Revert has its undo noted
 * already, before its first send, so it is not planned again (the service may show it applied).
 */
export async function staleRevert(
  svc: ServiceContext,
  request: OperationRequest,
): Promise<RecordedError | null> {
  // Noted (and sealed) before its first send: resumed, so not planned again.
  if (request.revertOf?.kind !== 'revert' || undoHolds(svc.sealer, request)) return null;
  const original = await svc.store.getRequest(request.revertOf.id);
  const unknown = recordedSaid('NotSent', say.revertBeforeUnknown());
  if (original === null) return unknown;
  // Planned again, a window put back or reverted may give the same removal of what was set since.
  const ended = nothingOfItsOwn(original, request.id) ?? (await anotherRevert(svc, original, request.id));
  if (ended !== null) return recordedSaid('NotSent', ended);
  const stale = recordedSaid('NotSent', say.revertStale(request.id, original.id));
  try {
    const plan = await inverseNow(svc, original);
    if (plan === null) return unknown;
    if (plan.input === null) return stale;
    const again = await prepareRequest(prepareIo(svc), { kind: request.operation, ...plan.input } as never);
    // An edit's inverse is its old values whatever the thing shows now: what changed is looked up.
    const moved = plan.undo.kind === 'record' ? changedFields(request.preview, again.preview) : [];
    if (moved.length > 0)
      return recordedSaid('NotSent', say.revertEditedSince(request.id, original.id, moved));
    return canonicalJson(again.params) === canonicalJson(request.params) ? null : stale;
  } catch (error) {
    // Nothing would change any more ("already"), or the service could not be read: not sent.
    if (error instanceof InputError) return stale;
    svc.logger?.warn(
      { requestId: request.id, err: recordError(error) },
      'could not check a Revert before sending it',
    );
    return recordedSaid('NotSent', say.revertUnchecked(request.id, original.id));
  }
}

/**
 * `change` planned back against the service as it shows now, with the old values it recorded
 * (sealed); null when those are not known or its operation has no inverse. Throws as the read does.
 */
export async function inverseNow(
  svc: ServiceContext,
  change: OperationRequest,
): Promise<(Inverse<ChangeOperation> & { undo: Undo }) | null> {
  const inverse = SERVICES[change.operation].inverse;
  const undo = sealedUndo(svc, change);
  if (undo === undefined || inverse === undefined) return null;
  return { ...(await inverse(undo, prepareIo(svc))), undo };
}

/** The fields whose looked-up value (`before`) differs between two previews of one edit. */
function changedFields(asked: unknown, now: unknown): string[] {
  const seen = (preview: unknown) => {
    const before = (preview as { before?: unknown } | null)?.before;
    return typeof before === 'object' && before !== null ? (before as Record<string, unknown>) : null;
  };
  const [a, b] = [seen(asked), seen(now)];
  if (a === null || b === null) return [];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((key) => canonicalJson(a[key] ?? null) !== canonicalJson(b[key] ?? null));
}

/** Whether what the look-up shows now differs from what the edit set (someone edited it since). */
function editedSince(undo: Extract<Undo, { kind: 'record' }>, preview: unknown): boolean {
  const now = (preview as { before?: unknown } | null)?.before;
  if (now === null || now === undefined || typeof undo.after !== 'object' || undo.after === null)
    return false;
  const after = undo.after as Record<string, unknown>;
  const seen = now as Record<string, unknown>;
  return Object.keys(after).some(
    (key) =>
      after[key] !== null &&
      key in seen &&
      canonicalJson(after[key] ?? null) !== canonicalJson(seen[key] ?? null),
  );
}

/**
 * An Extend's change: the values the first set, set again (the service keeps them; nothing
 * changes on it), previewed as the first was, so the approvers see what stays in force. Each
 * time-box operation says how (`again` in its service).
 */
export async function extensionOf(svc: ServiceContext, request: OperationRequest): Promise<Prepared> {
  const again = SERVICES[request.operation].again;
  const undo = sealedUndo(svc, request);
  if (again === undefined || undo === undefined) {
    throw new InputError(say.putBackNotInForce(request.id));
  }
  const { params, preview } = await again(undo, prepareIo(svc));
  const target = operationTarget(request.operation, params as never);
  return { operation: request.operation, params, target, preview, warnings: [] } as Prepared;
}
