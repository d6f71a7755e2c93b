import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimitError, ServerError } from '../../client/errors.js';
import { mayHaveReachedService } from '../../client/http.js';
import type { VideoClient } from '../../client/types.js';
import { type BatchStep, countSteps } from '../../core/batch.js';
import { type BatchIo, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** How many numbers are sent at once: a few, so a slow service is not flooded. */
export const BATCH_CONCURRENCY = 4;
/** How long a batch waits after a 429 that names no time. */
const BUSY_WAIT_MS = 2_000;
/** How long every worker holds back after a 5xx (that number itself is not sent again). */
const SERVER_ERROR_WAIT_MS = 250;
/** The longest a `Retry-After` is waited for; longer, the number fails and can be retried later. */
const MAX_RETRY_AFTER_MS = 60_000;
/** How often one number is asked again after a "busy" answer (the service certainly did not act). */
const MAX_BUSY_TRIES = 5;

/**
 * A batch's run: every number not yet taken is taken (its step recorded `sending`), sent once,
 * and its end recorded; a step this run finds `sending` was taken by a run that stopped, so its
 * answer is lost: `unknown`, never sent again. A few numbers go at once; a 429 holds every worker
 * for its `Retry-After` and sends the same number again (the service did not act on it); a 5xx
 * holds them a moment, its number `unknown`.
 * @see docs/approvals.md, "Many numbers at once"
 */
export const service = serviceOf(spec, {
  async prepare(input, io) {
    // The edge read and merged the list; repeat viewers are marked by the viewer history, and
    // counted again under their locks when the request is recorded (src/services/submit.ts).
    const repeats = await io.repeatViewers(input.mobileNumbers);
    return {
      params: { mobileNumbers: input.mobileNumbers },
      preview: { kind: 'unblock-many', count: input.mobileNumbers.length, repeats },
      warnings: [],
    };
  },
  async execute(p, io) {
    const batch = io.batch;
    if (batch === undefined) throw new Error('a batch runs only with its steps');
    const taken = new Set<number>();
    for (const step of await batch.steps()) taken.add(step.index);
    await endOthers(batch);
    const todo = p.mobileNumbers
      .map((mobileNumber, index) => ({ mobileNumber, index }))
      .filter((n) => !taken.has(n.index));
    const pace = { until: 0 };
    let next = 0;
    const worker = async () => {
      for (let n = todo[next++]; n !== undefined; n = todo[next++]) {
        // A run taken over takes no more numbers: the run that took it goes on with them.
        if (!(await batch.renew())) return;
        if (!(await batch.begin(n.index, n.mobileNumber))) continue;
        const failure = await sendOnce(io.client, n.mobileNumber, pace, batch);
        const to = failure === null ? 'done' : mayHaveReachedService(failure) ? 'unknown' : 'failed';
        await batch.end(n.index, n.mobileNumber, to, failure ?? undefined);
        batch.progress(countSteps(p.mobileNumbers.length, await batch.steps()));
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, todo.length) }, worker));
    // Steps another run took meanwhile (one taken over while still alive) end here, unknown:
    // this run's answer is the request's, and theirs would come too late to be recorded.
    const counts = countSteps(p.mobileNumbers.length, await endOthers(batch));
    return { raw: { ...counts } };
  },
});

/**
 * Sends one number; null when the service took it, else what it threw. A 429 holds every worker
 * (`pace`) for its Retry-After and asks again, at most {@link MAX_BUSY_TRIES} times.
 */
async function sendOnce(
  client: VideoClient,
  mobileNumber: string,
  pace: { until: number },
  batch: BatchIo,
): Promise<unknown> {
  for (let tries = 1; ; tries += 1) {
    const wait = pace.until - Date.now();
    // Up to a minute's wait per try: the claim is renewed before each, so the run stays alive.
    if (wait > 0) await batch.renew().then(() => sleep(wait));
    try {
      await client.viewers.unblock({ mobileNumber }, { once: true });
      return null;
    } catch (error) {
      if (error instanceof ServerError) pace.until = Math.max(pace.until, Date.now() + SERVER_ERROR_WAIT_MS);
      // Only a 429 says for sure that the service did not act: that number alone is asked again.
      if (!(error instanceof RateLimitError) || tries >= MAX_BUSY_TRIES) return error;
      const asked = error.retryAfterSeconds === null ? BUSY_WAIT_MS : error.retryAfterSeconds * 1000;
      if (asked > MAX_RETRY_AFTER_MS) return error;
      pace.until = Math.max(pace.until, Date.now() + asked);
    }
  }
}

/**
 * Ends as `unknown` every step still `sending` that this run did not take (its own have ended
 * when it calls this): a run that stopped, or is too slow, may have sent it. The steps after.
 */
async function endOthers(batch: BatchIo): Promise<BatchStep[]> {
  const steps = await batch.steps();
  const left = steps.filter((s) => s.state === 'sending');
  for (const s of left) await batch.end(s.index, s.mobileNumber, 'unknown', lostAnswer());
  return left.length === 0 ? steps : batch.steps();
}

/** The error of a step found `sending` by another run: whether its number was unblocked is not known. */
function lostAnswer(): Error {
  const error = new Error('the run that sent it stopped before its answer was recorded');
  error.name = 'AnswerLost';
  return error;
}
