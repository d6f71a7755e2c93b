import type { VideoClient } from '../client/types.js';
import { type ChangeOperation, operationTarget } from '../core/catalog.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest } from '../core/model.js';
import { type ExecuteIo, type OperationService, type PrepareIo, SERVICES } from '../operations/services.js';
import type { Prepared, PrepareInput } from './types.js';

export type { ExecuteIo } from '../operations/services.js';

/**
 * Runs the services' half of the operation modules (each `src/operations/<name>/service.ts`): prepare,
 * send, and look up "Check now" for any operation, through the table built from them.
 * @see docs/architecture.md, "The operation catalog"
 */

/** @see Operations.prepare */
export async function prepareRequest<O extends ChangeOperation>(
  io: PrepareIo,
  input: PrepareInput<O>,
): Promise<Prepared<O>> {
  const operation: O = input.kind;
  const service: OperationService<O> = SERVICES[operation];
  const { params, preview, warnings } = await service.prepare(input, io);
  const prepared: Prepared<O> = {
    operation,
    params,
    target: operationTarget(operation, params),
    preview,
    warnings,
  };
  return prepared;
}

/** Sends a request's typed parameters; the upstream's answer as recorded. */
export async function runOperation<O extends ChangeOperation>(
  request: Pick<OperationRequest<O>, 'operation' | 'params'>,
  io: ExecuteIo,
): Promise<JsonObject> {
  const service: OperationService<O> = SERVICES[request.operation];
  const answer = await service.execute(request.params, io);
  return answer.raw;
}

/** The look-up of "Check now" for `request`, or null when its operation has none. */
export function targetLookUp<O extends ChangeOperation>(
  request: Pick<OperationRequest<O>, 'operation' | 'params'>,
  client: VideoClient,
): (() => Promise<unknown>) | null {
  const service: OperationService<O> = SERVICES[request.operation];
  const lookUp = service.lookUp;
  return lookUp === undefined ? null : () => lookUp(request.params, client);
}
