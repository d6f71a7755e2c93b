import { ApiError, isMissingRouteError, NotFoundError } from '../client/errors.js';
import { mayHaveReachedService } from '../client/http.js';
import { type ChangeOperation, OPERATION_SPECS } from '../core/catalog.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest, RecordedError } from '../core/model.js';
import { type ExecuteIo, runOperation } from './catalog.js';

/**
 * Sending a request and judging how the send ended. The call itself is the operation's entry in
 * the services' table (./catalog.ts), with the typed parameters read from the store.
 * @see docs/api.md, "Endpoints"
 */

/**
 * How one send of a request ended, as the request records it:
 * - `applied`: the service answered 2xx;
 * - `already-deleted`: a delete sent again (never the first send) answered 404;
 * - `unknown`: it may or may not have been applied (see {@link judgeFailure});
 * - `failed`: the service certainly did not apply it.
 */
export type SendOutcome =
  | { kind: 'applied'; result: JsonObject }
  | { kind: 'already-deleted'; error: RecordedError }
  | { kind: 'unknown'; error: RecordedError }
  | { kind: 'failed'; error: RecordedError };

/**
 * Sends the request once (the client's retry policy decides what "once" allows) and says how it
 * ended. `repeat`: this is a send after an earlier one whose outcome is unknown.
 * @see docs/architecture.md, "Approvals"
 */
export async function sendRequest(
  request: Pick<OperationRequest, 'operation' | 'params'>,
  io: ExecuteIo,
  options: { repeat: boolean },
): Promise<SendOutcome> {
  try {
    return { kind: 'applied', result: await runOperation(request, io) };
  } catch (error) {
    return judgeFailure(request.operation, error, options.repeat);
  }
}

/**
 * What a failed send says about the request:
 * - a repeated delete answered 404 (the record, not the route, is missing): already deleted;
 * - any other failure of a repeat says nothing about the earlier send: still unknown;
 * - operations vidops repeats by itself (`repeat: resume`) keep `failed`, with the client's own
 *   words when the answer was lost (asking again gives the same end state);
 * - otherwise a failure after which the service may have acted is `unknown`: no answer in time, a
 *   connection lost after sending, an unreadable answer, and for deletes a 5xx; the rest (a
 *   refusal before sending, a 4xx, 429 included; a 5xx to a create) is `failed`.
 */
export function judgeFailure(operation: ChangeOperation, error: unknown, repeat: boolean): SendOutcome {
  const recorded = recordError(error);
  const rule = OPERATION_SPECS[operation].repeat;
  if (repeat) {
    const gone = rule === 'lead' && error instanceof NotFoundError && !isMissingRouteError(error);
    return { kind: gone ? 'already-deleted' : 'unknown', error: recorded };
  }
  if (rule === 'resume' || !mayHaveReachedService(error)) return { kind: 'failed', error: recorded };
  const answered5xx = error instanceof ApiError && error.status !== null;
  if (answered5xx && rule === 'never') return { kind: 'failed', error: recorded };
  return { kind: 'unknown', error: recorded };
}

const MAX_MESSAGE = 1000;

/**
 * An error as the request and the audit log record it: class name, message, HTTP status. Only
 * these three fields are taken, so nothing else the error carries (bodies, causes) is stored.
 */
export function recordError(error: unknown): RecordedError {
  const name = error instanceof Error ? error.name : 'Error';
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.length > MAX_MESSAGE ? `${raw.slice(0, MAX_MESSAGE)}…` : raw;
  if (error instanceof ApiError && error.status !== null) return { name, message, status: error.status };
  return { name, message };
}
