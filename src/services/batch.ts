import type { BatchCounts, StepEnd } from '../core/batch.js';
import { redactError } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import type { BatchIo } from '../operations/common/service.js';
import type { ServiceContext } from './context.js';
import { recordError } from './execute.js';

/**
 * The steps of a batch's request in the store (src/core/batch.ts), as its run uses them: each
 * number taken before it is sent, its end recorded once with its own `step` event in the chain
 * (actor: the requester; the audit channel does not post it, docs/audit.md).
 * @see docs/approvals.md, "Many numbers at once"
 */
export function batchIo(svc: ServiceContext, request: OperationRequest, claim: Claim): BatchIo {
  const { store } = svc;
  const requestId = request.id;
  return {
    steps: () => store.listSteps(requestId),
    renew: () => claim.renew(),
    begin: (index, mobileNumber) =>
      store.beginStep({ requestId, index, mobileNumber, at: svc.clock().toISOString() }),
    end(index, mobileNumber, to: StepEnd, failure?: unknown) {
      const at = svc.clock().toISOString();
      const error = failure === undefined ? null : recordError(failure);
      const event = {
        id: svc.eventId(),
        type: 'step' as const,
        at,
        actor: request.requester,
        operation: request.operation,
        target: `viewer ${mobileNumber}`,
        params: { mobileNumber, index },
        requestId,
        outcome: { state: to },
        error,
      };
      return store.endStep({ requestId, index, from: 'sending', to, error, at }, [event]);
    },
    progress: (counts: BatchCounts) => svc.onBatchProgress?.(request, counts),
  };
}

/** A run's claim on its `executing` request: when it was last renewed, and its renewal. */
export interface Claim {
  /** The request's `updatedAt` as this run last wrote it (or found it). */
  at(): string;
  /** Renews the claim when a quarter of the stale-execution time has gone by; false once lost. */
  renew(): Promise<boolean>;
}

/**
 * The claim of the run of `request`: a long run (a batch of 500 against a slow service) renews it
 * as it goes, so the sweep does not take it for interrupted (`staleExecutionMs`) while it is
 * alive; a run that stopped renews nothing and is taken over as before.
 * @see docs/approvals.md, "Many numbers at once"
 */
export function claimOf(svc: ServiceContext, request: OperationRequest): Claim {
  let at = request.updatedAt;
  let held = true;
  // The workers of one run share the claim: one renewal at a time, the others wait for it.
  let renewing: Promise<boolean> | null = null;
  const renewNow = async (to: string) => {
    try {
      held = await svc.store.renewExecution(request.id, at, to);
      if (held) at = to;
    } catch (error) {
      // A renewal missed is tried again by the next number; the run itself goes on.
      svc.logger?.warn({ requestId: request.id, err: redactError(error) }, 'could not renew a batch’s claim');
    } finally {
      renewing = null;
    }
    return held;
  };
  return {
    at: () => at,
    renew() {
      const now = svc.clock();
      if (renewing !== null) return renewing;
      if (!held || now.getTime() - Date.parse(at) < svc.staleExecutionMs / 4) return Promise.resolve(held);
      renewing = renewNow(now.toISOString());
      return renewing;
    },
  };
}
