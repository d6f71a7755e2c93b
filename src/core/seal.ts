import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Delegation } from './delegation.js';
import { canonicalJson, type JsonValue } from './json.js';
import type { Approval, OperationRequest } from './model.js';
import type { StoredUndo } from './time-box.js';

/**
 * Seals: proof, by a key the database does not hold, of what a vidops process decided.
 *
 * - A request is sealed `asked` when it is made: this operation, these parameters, the target
 *   and preview the approvers are shown, the window, what it undoes, this requester, this many
 *   approvals needed. An approval or break-glass is taken only on a
 *   request whose `asked` seal holds.
 * - Each approval is sealed as it is given; only sealed approvals count toward the quorum.
 * - A request is sealed `send` by the step that judged it fit to run: made direct by the policy,
 *   the approval that completed the quorum, break-glass, a put-back the sweep made. `execute`
 *   sends nothing whose `send` seal does not hold.
 * - The values a change replaced are sealed as vidops reads them; a put-back, Revert or Extend
 *   goes back only to sealed values.
 * - A delegation is sealed when a lead gives it; only a sealed one lets its delegate approve.
 *
 * Whoever can write to the database can flip a state, add an approval, lower a quorum, edit a
 * parameter or an old value, or graft a window onto a done change, but cannot seal the result.
 * The key is derived from `VIDEO_SECRET_KEY`, which every process that sends already holds and
 * the database does not.
 * @see docs/security.md, "What vidops takes from its database on trust"
 */

/** The seal key: an HMAC of a fixed label under the service's secret key. */
export function sealKeyOf(secretKey: string): Uint8Array {
  return createHmac('sha256', secretKey).update('vidops seal v1', 'utf8').digest();
}

/**
 * What a request's seal binds: what it sends, what the approvers were shown (target and preview,
 * from which an edit's Revert later reads the values it replaced), for how long, what it undoes,
 * who asked, and how many approvals it needs.
 */
export type Sealed = Pick<
  OperationRequest,
  'id' | 'operation' | 'params' | 'target' | 'preview' | 'timeBox' | 'revertOf' | 'quorum' | 'requester'
>;

/** What an undo's seal binds beside the values: whose they are. */
export type UndoSealed = Pick<OperationRequest, 'id' | 'operation' | 'timeBox'>;

/** `asked`: made, and waiting for its approvals; `send`: judged fit to send. */
export type SealStage = 'asked' | 'send';

/** Makes seals with one key; given to the steps that decide (./approvals.ts `StepContext`). */
export interface Sealer {
  request(r: Sealed, stage: SealStage): string;
  approval(requestId: string, approval: Approval): string;
  undo(r: UndoSealed, undo: StoredUndo): string;
  delegation(d: DelegationSealed): string;
}

/** What a delegation's seal binds: who hands their approvals to whom, from when until when. */
export type DelegationSealed = Pick<Delegation, 'id' | 'lead' | 'delegate' | 'createdAt' | 'until'>;

/** The window as asked (and the change it extends): the parts of a time box that never change. */
function windowOf(timeBox: OperationRequest['timeBox']): JsonValue {
  return timeBox === undefined ? null : { asked: timeBox.asked, extends: timeBox.extends ?? null };
}

/** HMAC-SHA256 (hex) of the canonical JSON of `subject` under `key`. */
export function macOf(key: Uint8Array | string, subject: JsonValue): string {
  return createHmac('sha256', key).update(canonicalJson(subject), 'utf8').digest('hex');
}

export function sealerOf(key: Uint8Array): Sealer {
  const mac = (subject: JsonValue) => macOf(key, subject);
  return {
    request: (r, stage) =>
      mac({
        seal: stage,
        id: r.id,
        operation: r.operation,
        params: r.params as JsonValue,
        target: r.target,
        preview: (r.preview ?? null) as JsonValue,
        window: windowOf(r.timeBox),
        revertOf: (r.revertOf ?? null) as JsonValue,
        quorum: r.quorum,
        requester: r.requester.id,
      }),
    approval: (requestId, a) =>
      mac({ seal: 'approval', requestId, by: a.by.id, for: a.for?.id ?? null, at: a.at }),
    undo: (r, undo) =>
      mac({
        seal: 'undo',
        id: r.id,
        operation: r.operation,
        window: windowOf(r.timeBox),
        undo: undo as unknown as JsonValue,
      }),
    delegation: (d) =>
      mac({
        seal: 'delegation',
        id: d.id,
        lead: d.lead.id,
        delegate: d.delegate.id,
        from: Date.parse(d.createdAt),
        until: Date.parse(d.until),
      }),
  };
}

/** Whether `seal` is the one `expected`, compared in constant time (a stored non-string is not). */
export function holds(seal: unknown, expected: string): boolean {
  if (typeof seal !== 'string') return false;
  const a = Buffer.from(seal, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request carries the seal of `stage` for what it holds now. */
export function sealHolds(
  sealer: Sealer,
  r: Sealed & Pick<OperationRequest, 'seal'>,
  stage: SealStage,
): boolean {
  return holds(r.seal, sealer.request(r, stage));
}

/** True when the request's recorded undo carries its seal. */
export function undoHolds(
  sealer: Sealer,
  r: UndoSealed & Pick<OperationRequest, 'undo' | 'undoSeal'>,
): boolean {
  return r.undo !== undefined && holds(r.undoSeal, sealer.undo(r, r.undo));
}
