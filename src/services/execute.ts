import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, isMissingRouteError, NotFoundError } from '../client/errors.js';
import { mayHaveReachedService } from '../client/http.js';
import type { Step, StepContext } from '../core/approvals.js';
import * as approvals from '../core/approvals.js';
import { type ChangeOperation, OPERATION_SPECS } from '../core/catalog.js';
import { VidopsError } from '../core/errors.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Actor, OperationRequest, RecordedError } from '../core/model.js';
import { type Said, saidJson, say } from '../core/said.js';
import { sealHolds } from '../core/seal.js';
import { english, messageOf, recordedSaid } from '../i18n/said.js';
import { batchIo, claimOf } from './batch.js';
import { type ExecuteIo, runOperation } from './catalog.js';
import { apply, type ServiceContext, stepContext } from './context.js';
import { MAX_CAS_ATTEMPTS } from './reads.js';
import { staleRevert } from './revert.js';
import { afterApplied, extendWindow, noteUndo, resumedPutBack, windowRefusal, withUndo } from './time-box.js';

/**
 * Executing a request exactly once: sending it, judging how the send ended, and recording that
 * outcome. The call itself is the operation's entry in the services' table (./catalog.ts), with
 * the typed parameters read from the store.
 * @see docs/api.md, "Endpoints"
 */

/** A lead's "Send again" of a request whose outcome was unknown: who, and their note. */
export interface Resent {
  by: Actor;
  note: string | null;
}

/**
 * Runs a request this caller moved into `executing`, then records `succeeded`, `failed` or, when
 * the service may or may not have applied it, `unknown`. Only the winner of that transition
 * calls this, so the upstream sees the change once. `resent`: a lead's Send again, whose end
 * settles the request (or leaves it unknown). `resumed`: taken over after its process stopped.
 */
export async function execute(
  svc: ServiceContext,
  claimed: OperationRequest,
  { resent, resumed = false }: { resent?: Resent; resumed?: boolean } = {},
): Promise<OperationRequest> {
  let request = claimed;
  if (!sealHolds(svc.sealer, request, 'send')) return refuseUnsealed(svc, request, say.sendUnsealed());
  const stale =
    (await staleRevert(svc, request)) ??
    (await resumedPutBack(svc, request, resumed)) ??
    (await windowRefusal(svc, request));
  if (stale !== null) {
    const c = stepContext(svc);
    svc.logger?.warn({ requestId: request.id }, 'not sent: what it changes moved, or a window holds it');
    return (await apply(svc.store, request, approvals.fail(request, stale, c), c.now)) ?? request;
  }
  // An Extend sends nothing: it moves the end of the window it extends.
  const extension = request.timeBox?.extends !== undefined;
  const noted = extension ? { kind: 'ok' as const, request } : await noteUndo(svc, request);
  if (noted.kind === 'refused') return noted.request;
  // Again on what is sent when noting the undo read the row back: the database may have changed it.
  if (noted.request !== request && !sealHolds(svc.sealer, noted.request, 'send')) {
    return refuseUnsealed(svc, noted.request, say.sendUnsealed());
  }
  request = noted.request;
  const claim = claimOf(svc, request);
  const outcome = extension
    ? await extendWindow(svc, request)
    : await sendAlone(svc, request.operation, request.id, () =>
        sendRequest(
          request,
          {
            client: svc.client,
            fetchCover: svc.fetchCover,
            resumed,
            ...(request.operation === 'viewer.unblock-many' ? { batch: batchIo(svc, request, claim) } : {}),
          },
          { repeat: resent !== undefined },
        ),
      );
  if (outcome.kind === 'failed' && outcome.error.name === 'Busy' && resumed) {
    // Its first send may have landed: "not sent" is not known. It stays `executing`, and the
    // resume sweep takes it again once the other send has given the lease back.
    svc.logger?.warn(
      { requestId: request.id },
      'resumed send waited for the lease in vain; left to the next sweep',
    );
    return request;
  }
  const c = stepContext(svc);
  let current = request;
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt += 1) {
    const step = withUndo(svc, current, outcomeStep(current, outcome, c, resent), c.now);
    const done = await apply(svc.store, current, step, c.now);
    if (done) {
      if (done.state === 'succeeded') await afterApplied(svc, done);
      svc.logger?.info(
        { requestId: done.id, operation: done.operation, state: done.state, error: done.error?.name },
        'request executed',
      );
      return done;
    }
    // Where its approval message is was recorded meanwhile (that keeps `updatedAt`), or the run
    // renewed its claim: the request is still this run's, so its outcome is recorded on the
    // version now stored. Anything else (another replica took it for interrupted) is not this
    // process's to record.
    const fresh = await svc.store.getRequest(request.id);
    if (fresh === null || fresh.state !== 'executing' || fresh.updatedAt !== claim.at()) break;
    current = fresh;
  }
  // Someone changed it while it ran (e.g. another replica took it for interrupted); say what is there now.
  const now = await svc.store.getRequest(request.id);
  svc.logger?.warn(
    { requestId: request.id, operation: request.operation, state: now?.state },
    'request changed while it was executing; outcome not recorded by this process',
  );
  return now ?? request;
}

/**
 * A request that must not be sent, because its record was changed in the database rather than by
 * a vidops process that judged it: its seal does not hold (or holds under another secret key), or
 * its own log says it ended. It fails with `said`, in the audit log, and an error line.
 */
export async function refuseUnsealed(
  svc: ServiceContext,
  request: OperationRequest,
  said: Said,
  logSays?: string,
): Promise<OperationRequest> {
  svc.logger?.error(
    { requestId: request.id, operation: request.operation, ...(logSays === undefined ? {} : { logSays }) },
    'request not sent: its record was changed in the database (or is sealed under another VIDEO_SECRET_KEY)',
  );
  const c = stepContext(svc);
  const unsealed = approvals.fail(request, recordedSaid('Unsealed', said), c);
  return (await apply(svc.store, request, unsealed, c.now)) ?? request;
}

/**
 * How long a send holds its operation's lease before it must renew it: past the worst case of a
 * whitelist replace with the default client (three calls of three attempts at 10 s, and waits:
 * about 150 s), so that a renewal late by a loop stall loses nothing; a process that stopped
 * without giving it back frees it after this long.
 */
const LEASE_MS = 3 * 60_000;
/** A send renews its lease this often (real time) while it runs, for a slower service. */
const LEASE_RENEW_MS = 30_000;
/** How long a send waits for another of its operation to end before it gives up, not sent. */
export const LEASE_WAIT_MS = 20_000;
const LEASE_POLL_MS = 50;

/**
 * Runs `send` under its operation's lease when the operation sends alone (`sendsAlone`), so no
 * other process sends one at the same time; `failed` (nothing was sent) when another held it for
 * {@link LEASE_WAIT_MS}. Each send holds it under a token of its own (a stalled run's give-back
 * cannot free a resumed run's lease), and renews it while it runs. The lease's times follow the
 * service's clock, so replicas' clocks must agree (docs/operations.md); the waits are real time.
 */
async function sendAlone(
  svc: ServiceContext,
  operation: ChangeOperation,
  requestId: string,
  send: () => Promise<SendOutcome>,
): Promise<SendOutcome> {
  if (OPERATION_SPECS[operation].sendsAlone !== true) return send();
  const name = `send:${operation}`;
  const holder = `${requestId}/${randomUUID()}`;
  const take = () => {
    const now = svc.clock();
    return svc.store.takeLease(
      name,
      holder,
      new Date(now.getTime() + LEASE_MS).toISOString(),
      now.toISOString(),
    );
  };
  const giveUpAt = Date.now() + LEASE_WAIT_MS;
  while (!(await take())) {
    if (Date.now() >= giveUpAt) {
      return { kind: 'failed', error: recordedSaid('Busy', say.sendBusy(LEASE_WAIT_MS / 1000)) };
    }
    await sleep(LEASE_POLL_MS);
  }
  const renewal = setInterval(() => {
    take().catch((error: unknown) => {
      svc.logger?.warn({ lease: name, err: recordError(error) }, 'could not renew a lease');
    });
  }, LEASE_RENEW_MS);
  renewal.unref();
  try {
    return await send();
  } finally {
    clearInterval(renewal);
    // Given back at once; if that fails, the lease lapses at its `until`.
    await svc.store.giveLease(name, holder).catch((error: unknown) => {
      svc.logger?.warn({ lease: name, err: recordError(error) }, 'could not give a lease back');
    });
  }
}

/** The step that records how a send ended (`resent`: a lead's Send again of an unknown outcome). */
function outcomeStep(
  request: OperationRequest,
  outcome: SendOutcome,
  c: StepContext,
  resent: Resent | undefined,
): Step {
  if (resent) {
    const settled = (words: Said, answer: JsonValue) =>
      approvals.resolve(
        request,
        resent.by,
        {
          way: 'send-again',
          state: 'succeeded',
          outcome: english(words),
          outcomeSaid: words,
          note: resent.note,
          answer,
        },
        c,
      );
    if (outcome.kind === 'applied') return settled(say.outcomeDeletedAgain(), outcome.result);
    if (outcome.kind === 'already-deleted') return settled(say.outcomeDeleted(), null);
    return approvals.markUnknown(request, c, {
      kind: 'no-answer',
      error: outcome.error,
      resentBy: resent.by,
    });
  }
  switch (outcome.kind) {
    case 'applied':
      return approvals.succeed(request, outcome.result, c);
    case 'unknown':
      return approvals.markUnknown(request, c, { kind: 'no-answer', error: outcome.error });
    default:
      return approvals.fail(request, outcome.error, c);
  }
}

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
 *   connection lost after sending, an unreadable answer, a 3xx (not followed), and for deletes a
 *   5xx; the rest (a refusal before sending, a 4xx, 429 included; a 5xx to a create) is `failed`.
 */
export function judgeFailure(operation: ChangeOperation, error: unknown, repeat: boolean): SendOutcome {
  const recorded = recordError(error);
  const rule = OPERATION_SPECS[operation].endpoint.repeat;
  if (repeat) {
    const gone = rule === 'lead' && error instanceof NotFoundError && !isMissingRouteError(error);
    return { kind: gone ? 'already-deleted' : 'unknown', error: recorded };
  }
  if (rule === 'resume' || !mayHaveReachedService(error)) return { kind: 'failed', error: recorded };
  const answered5xx = error instanceof ApiError && error.status !== null && error.status >= 500;
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
  const raw = error instanceof Error ? messageOf(error) : String(error);
  const message = raw.length > MAX_MESSAGE ? `${raw.slice(0, MAX_MESSAGE)}…` : raw;
  if (error instanceof ApiError && error.status !== null) return { name, message, status: error.status };
  if (error instanceof VidopsError && error.said !== null)
    return { name, message, said: saidJson(error.said) };
  return { name, message };
}
