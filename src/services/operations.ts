import { type ChangeOperation, OPERATION_SPECS, type Spec } from '../core/catalog.js';
import { PolicyDeniedError } from '../core/errors.js';
import { AUDIT_MAX } from '../core/grammar.js';
import type { Actor, AuditEvent } from '../core/model.js';
import { decide, needsConfirmation } from '../core/policy.js';
import { Scheduler } from '../jobs/scheduler.js';
import {
  breakGlass,
  breakGlassOffered,
  checkBreakGlass,
  checkBreakGlassReview,
  remindBreakGlass,
  reviewBreakGlass,
} from './break-glass.js';
import { prepareRequest } from './catalog.js';
import { auditDenied, policyActor, prepareIo, type ServiceContext, serviceContext } from './context.js';
import { approve, cancel, precheck, reject } from './decide.js';
import { createReads } from './reads.js';
import { remind, sweepFollowUps } from './reminders.js';
import { resolve } from './resolve.js';
import { prepareRevert } from './revert.js';
import { submit } from './submit.js';
import { expireDue, requestSweep, resumeInterrupted } from './sweeps.js';
import { checkExtend, checkedBox, extend, putBackNow, sweepTimeBoxes } from './time-box.js';
import type { Operations, OperationsDeps, PrepareInput } from './types.js';
import { batchPreview, viewerHistory } from './viewers.js';

/**
 * The operations services: prepare, submit, approve, reject, cancel, execute exactly once, expire,
 * resume, and settle outcomes left unknown. Every change goes through a compare-and-set in the
 * store together with its audit events; execution happens only in the caller that won the
 * transition into `executing`. Each use case is a function of one {@link ServiceContext}, in a
 * file of its own; this is their table.
 * @see docs/architecture.md, "Approvals", "Audit log" and "Scale"
 */
export function createOperations(deps: OperationsDeps): Operations {
  const svc = serviceContext(deps);
  const operations: Operations = {
    ...createReads({ ...deps, delegation: svc.delegation }),
    // Reminders, escalation, the expiry warning and the requester's Remind (issue 13).
    remind: (id, actor) => remind(svc, id, actor),
    sweepFollowUps: () => sweepFollowUps(svc),
    prepare: async (_actor, input) => prepareRequest(prepareIo(svc), input),
    submit: (actor, prepared, options = {}) =>
      submit(svc, actor, prepared, options.reason?.trim() || null, { asked: options.timeBox }),
    approve: (id, actor) => approve(svc, id, actor),
    reject: (id, actor, note) => reject(svc, id, actor, note),
    cancel: (id, actor, note = null) => cancel(svc, id, actor, note),
    checkReject: (id, actor) => precheck(svc, id, actor, 'rejected'),
    checkResolve: (id, actor) => precheck(svc, id, actor, 'settled'),
    resolve: (id, actor, way, note = null) => resolve(svc, id, actor, way, note),
    confirmationFor: (input) => (needsConfirmation(svc.policy, input.kind) ? confirmText(input) : null),
    auditRefusal: (actor, subject, action, reason) =>
      auditDenied(svc, actor, { ...subject, requestId: null }, action, reason),
    recentAudit: (actor, n) => recentAudit(svc, actor, n),
    viewerHistory: (viewer) => viewerHistory(svc, viewer),
    previewBatch: (list) => batchPreview(svc, list),
    expireDue: () => expireDue(svc),
    breakGlassOffered: (request, actor) => breakGlassOffered(svc, request, actor),
    checkBreakGlass: (id, actor) => checkBreakGlass(svc, id, actor),
    breakGlass: (id, actor, input) => breakGlass(svc, id, actor, input),
    checkBreakGlassReview: (id, actor) => checkBreakGlassReview(svc, id, actor),
    reviewBreakGlass: (id, actor, verdict, note = null) => reviewBreakGlass(svc, id, actor, verdict, note),
    remindBreakGlass: () => remindBreakGlass(svc),
    delegate: (lead, words) => svc.delegation.delegate(lead, words),
    cancelDelegation: (lead) => svc.delegation.cancel(lead),
    expireDelegations: () => svc.delegation.expireDue(),
    // Time-boxed changes and Revert (docs/time-boxed.md)
    putBackNow: (id, actor) => putBackNow(svc, id, actor),
    extend: (id, actor, asked, reason = null) => extend(svc, id, actor, asked, reason?.trim() || null),
    checkExtend: (id, actor) => checkExtend(svc, id, actor),
    checkWindow: (operation, asked) => {
      checkedBox(svc, operation, asked);
    },
    prepareRevert: (id, actor) => prepareRevert(svc, id, actor),
    timeBoxesInForce: () => svc.store.listWindows(),
    sweepTimeBoxes: () => sweepTimeBoxes(svc),
    resumeInterrupted: () => resumeInterrupted(svc),
    startSweeper(intervalMs) {
      const sweeper = new Scheduler([requestSweep(operations, intervalMs)], svc.logger);
      sweeper.start();
      return () => sweeper.stop();
    },
  };
  return operations;
}

/** The last `n` audit events, oldest first; leads only (policy `audit`), a refusal audited. */
async function recentAudit(svc: ServiceContext, actor: Actor, n: number): Promise<AuditEvent[]> {
  const who = await policyActor(svc, actor);
  // `audit` is a read: its rule can only say who may run it, so the decision is allow or deny.
  const decision = decide(svc.policy, { operation: 'audit', actor: who, recentCount: 0, now: svc.clock() });
  if (decision.kind === 'deny') {
    const subject = { operation: 'audit', target: 'audit log', params: { n }, requestId: null };
    await auditDenied(svc, actor, subject, 'audit', decision);
    throw new PolicyDeniedError(decision.said);
  }
  const last = Math.max(1, Math.min(AUDIT_MAX, Math.trunc(n)));
  return svc.store.listAudit({ last });
}

/** What a typed confirmation of `input` repeats (the catalog says: its ID, else its title). */
function confirmText<O extends ChangeOperation>(input: PrepareInput<O>): string {
  const spec: Spec<O> = OPERATION_SPECS[input.kind];
  return spec.confirm(input);
}
