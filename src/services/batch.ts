import type { BatchCounts, StepEnd } from '../core/batch.js';
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
export function batchIo(svc: ServiceContext, request: OperationRequest): BatchIo {
  const { store } = svc;
  const requestId = request.id;
  return {
    steps: () => store.listSteps(requestId),
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
