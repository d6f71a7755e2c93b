import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ErrorCode, WebAPIRateLimitedError } from '@slack/web-api';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import type { NotificationJob, Store } from '../store/store.js';
import { createSleeper } from './sleeper.js';

/** The part of the store the worker uses. */
export type NotificationStore = Pick<
  Store,
  'claimNotifications' | 'ackNotifications' | 'releaseNotifications' | 'notificationDepth'
>;

/** What telling Slack about one request came to, when nothing failed. */
export type DeliveryOutcome =
  | { kind: 'done' }
  /** It cannot be done yet (another replica may be posting the same message): try again at `notBefore`. */
  | { kind: 'later'; notBefore: Date; reason: string };

/**
 * Tells Slack about one request as it stands now, for all its waiting `jobs` at once (oldest
 * first). Throws when Slack failed; the jobs are then given back and tried again.
 */
export type DeliverNotifications = (
  requestId: string,
  jobs: readonly NotificationJob[],
) => Promise<DeliveryOutcome>;

export interface NotificationWorkerOptions {
  store: NotificationStore;
  deliver: DeliverNotifications;
  /** Timestamps for the store (claims, leases, `notBefore`). Must advance like real time. */
  clock: () => Date;
  logger: Logger;
  /** Names this process in leases; unique per replica (made up when absent). */
  workerId?: string | undefined;
  /**
   * How long a request must have been still before it is told: the answer to a click goes first,
   * and a burst (approved, executing, succeeded) becomes one update.
   */
  settleMs?: number | undefined;
  /** Requests claimed at once (each with all its jobs). */
  batchRequests?: number | undefined;
  leaseMs?: number | undefined;
  /** First retry delay after a Slack error; doubles per failure of the same request. */
  backoffBaseMs?: number | undefined;
  backoffMaxMs?: number | undefined;
  /** How often an idle worker looks for jobs recorded by other processes (the CLI, replicas). */
  idlePollMs?: number | undefined;
}

export interface NotificationWorker {
  start(): void;
  /** Stops the loop; resolves once the request in hand (if any) was told and recorded. */
  stop(): Promise<void>;
  /** One claim-and-deliver step now (after any pause), settled or not; returns the jobs done. */
  flushOnce(): Promise<number>;
  /**
   * Stops the loop, then keeps working through what this process can claim, retries included,
   * for at most `timeoutMs`. True when no job is left in the store.
   */
  drain(timeoutMs: number): Promise<boolean>;
  /** Changes were just recorded: look for them once they have settled, not at the next poll. */
  kick(): void;
}

/** Added to every pause, so that a wake-up does not come a hair before the store's time says due. */
const WAKE_SLACK_MS = 10;
/** Requests remembered with their failure count (for backoff); beyond that the oldest is forgotten. */
const MAX_REMEMBERED_FAILURES = 1000;

/** Slack could not be reached or answered with an HTTP error: every request would fail alike. */
function isTransportError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === ErrorCode.RequestError || code === ErrorCode.HTTPError;
}

/**
 * Works through the notification outbox: claims the waiting jobs of a few requests at a time
 * (each request whole, with a lease), has `deliver` tell Slack about each request as it stands
 * now, and acknowledges the jobs only when that is done. A 429 pauses the worker for its
 * `Retry-After`; another Slack error gives the request's jobs back with exponential backoff (and,
 * when Slack cannot be reached at all, pauses the worker too). Nothing is lost across restarts:
 * a job stays in the store until done, and a stopped worker's jobs come back when its lease ends.
 * @see docs/architecture.md, "Approvals" and "Scale"
 */
export function createNotificationWorker(options: NotificationWorkerOptions): NotificationWorker {
  const { store, deliver, clock, logger } = options;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const settleMs = options.settleMs ?? 200;
  const batchRequests = options.batchRequests ?? 5;
  const leaseMs = options.leaseMs ?? 30_000;
  const backoffBaseMs = options.backoffBaseMs ?? 1000;
  const backoffMaxMs = options.backoffMaxMs ?? 60_000;
  const idlePollMs = options.idlePollMs ?? 2000;
  if (batchRequests < 1) throw new RangeError('batchRequests must be at least 1');

  let running = false;
  // Set while stop() waits for the step in hand: that step gives back what it has not begun.
  let stopping = false;
  let loop: Promise<void> | null = null;
  // Pauses are measured on the monotonic clock: they are about real seconds, not the injected time.
  let nextAt = 0;
  // The earliest moment a job this worker gave back for a retry is due again (drain waits for it).
  let retryAt = Number.POSITIVE_INFINITY;
  let transportFailures = 0;
  const failures = new Map<string, number>();
  let settleTimer: NodeJS.Timeout | null = null;
  let settledAt = 0;
  // One step at a time, whether from the loop, flushOnce or drain.
  let lock: Promise<unknown> = Promise.resolve();

  const { sleep, wake, interrupt } = createSleeper();

  /** Wakes the loop when the newest kicked change has settled (re-armed while changes keep coming). */
  function onSettled(): void {
    settleTimer = null;
    wake();
    const left = settledAt - performance.now();
    if (left > 1) armSettle(left);
  }

  function armSettle(ms: number): void {
    settleTimer = setTimeout(onSettled, Math.max(0, ms));
    settleTimer.unref();
  }

  function backoffFor(requestId: string): number {
    const n = (failures.get(requestId) ?? 0) + 1;
    failures.delete(requestId);
    failures.set(requestId, n);
    if (failures.size > MAX_REMEMBERED_FAILURES) {
      const oldest = failures.keys().next().value;
      if (oldest !== undefined) failures.delete(oldest);
    }
    return Math.min(backoffMaxMs, backoffBaseMs * 2 ** (n - 1));
  }

  function globalBackoff(): number {
    transportFailures += 1;
    return Math.min(backoffMaxMs, backoffBaseMs * 2 ** (transportFailures - 1));
  }

  async function release(jobs: readonly NotificationJob[], delayMs: number): Promise<void> {
    if (jobs.length === 0) return;
    if (delayMs > 0) retryAt = Math.min(retryAt, performance.now() + delayMs + WAKE_SLACK_MS);
    try {
      await store.releaseNotifications(
        jobs.map((j) => j.id),
        new Date(clock().getTime() + delayMs).toISOString(),
      );
    } catch (error) {
      logger.error(
        { err: redactError(error), jobs: jobs.length },
        'could not give notification jobs back; they return when the lease ends',
      );
    }
  }

  async function ack(requestId: string, jobs: readonly NotificationJob[]): Promise<void> {
    try {
      await store.ackNotifications(jobs.map((j) => j.id));
    } catch (error) {
      // Done twice at worst: the steps are idempotent or claimed once in the store.
      logger.error(
        { err: redactError(error), requestId, jobs: jobs.length },
        'told Slack but could not mark the notification jobs done; they are done again when the lease ends',
      );
    }
  }

  function byRequest(jobs: readonly NotificationJob[]): Map<string, NotificationJob[]> {
    const groups = new Map<string, NotificationJob[]>();
    for (const job of jobs) {
      const group = groups.get(job.requestId);
      if (group) group.push(job);
      else groups.set(job.requestId, [job]);
    }
    return groups;
  }

  /** Claims a few requests and tells Slack about each. `settled`: only those still for `settleMs`. */
  async function step(settled: boolean): Promise<{ claimed: number; done: number }> {
    const now = clock();
    let jobs: NotificationJob[];
    try {
      jobs = await store.claimNotifications({
        worker: workerId,
        requests: batchRequests,
        leaseMs,
        now: now.toISOString(),
        settledAt: new Date(now.getTime() - (settled ? settleMs : 0)).toISOString(),
      });
    } catch (error) {
      const delay = globalBackoff();
      logger.error({ err: redactError(error), retryInMs: delay }, 'could not claim notification jobs');
      nextAt = performance.now() + delay;
      return { claimed: 0, done: 0 };
    }
    if (jobs.length === 0) return { claimed: 0, done: 0 };

    const started = performance.now();
    const groups = [...byRequest(jobs)];
    let done = 0;
    for (let i = 0; i < groups.length; i += 1) {
      const [requestId, mine] = groups[i] as [string, NotificationJob[]];
      const rest = () => groups.slice(i + 1).flatMap(([, js]) => js);
      // Past half the lease, or asked to stop: the rest go back for whoever claims next.
      if (performance.now() - started > leaseMs / 2 || stopping) {
        await release([...mine, ...rest()], 0);
        break;
      }
      let outcome: DeliveryOutcome;
      try {
        outcome = await deliver(requestId, mine);
      } catch (error) {
        if (error instanceof WebAPIRateLimitedError) {
          const pause = Math.max(error.retryAfter * 1000, backoffBaseMs);
          await release([...mine, ...rest()], pause);
          nextAt = performance.now() + pause + WAKE_SLACK_MS;
          logger.warn({ retryAfterMs: pause, requestId }, 'Slack rate limited the notifications; waiting');
          break;
        }
        const transport = isTransportError(error);
        const delay = Math.max(backoffFor(requestId), transport ? globalBackoff() : 0);
        await release(mine, delay);
        const { message } = redactError(error);
        const code = (error as { data?: { error?: unknown } }).data?.error;
        logger.error(
          { err: { message, code }, requestId, jobs: mine.length, retryInMs: delay },
          'could not tell Slack about a request; will retry',
        );
        if (transport) {
          // Slack is not answering: the others would fail alike; they wait with this one.
          await release(rest(), delay);
          nextAt = performance.now() + delay + WAKE_SLACK_MS;
          break;
        }
        continue;
      }
      transportFailures = 0;
      if (outcome.kind === 'later') {
        const delay = Math.max(0, outcome.notBefore.getTime() - clock().getTime());
        await release(mine, delay);
        logger.debug({ requestId, retryInMs: delay, reason: outcome.reason }, 'notification put off');
        continue;
      }
      failures.delete(requestId);
      await ack(requestId, mine);
      done += mine.length;
      logger.debug(
        { requestId, jobs: mine.length, versions: mine.map((j) => j.version) },
        'told Slack about a request',
      );
    }
    return { claimed: jobs.length, done };
  }

  function locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = lock.then(fn, fn);
    lock = run.catch(() => undefined);
    return run;
  }

  async function waitForTurn(): Promise<void> {
    const wait = nextAt - performance.now();
    if (wait > 0) await sleep(wait, false);
  }

  async function run(): Promise<void> {
    while (running) {
      if (nextAt > performance.now()) {
        await waitForTurn();
        continue;
      }
      const { claimed } = await locked(() => step(true)).catch((error: unknown) => {
        logger.error({ err: redactError(error) }, 'notification worker step failed');
        nextAt = performance.now() + globalBackoff();
        return { claimed: 0, done: 0 };
      });
      if (claimed === 0 && running && nextAt <= performance.now()) await sleep(idlePollMs, true);
    }
  }

  const worker: NotificationWorker = {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      stopping = true;
      if (settleTimer) clearTimeout(settleTimer);
      settleTimer = null;
      interrupt();
      try {
        await loop;
        loop = null;
        await lock;
      } finally {
        stopping = false;
      }
    },
    async flushOnce() {
      return locked(async () => {
        await waitForTurn();
        return (await step(false)).done;
      });
    },
    async drain(timeoutMs) {
      await worker.stop();
      const deadline = performance.now() + timeoutMs;
      try {
        for (;;) {
          const due = Math.max(nextAt, performance.now());
          if (due >= deadline) break;
          const { claimed } = await locked(async () => {
            await waitForTurn();
            return step(false);
          });
          if (claimed > 0) continue;
          // Nothing to claim now: wait for a retry of ours that falls within the bound, if any.
          if (retryAt >= deadline) break;
          const wait = retryAt - performance.now();
          retryAt = Number.POSITIVE_INFINITY;
          if (wait > 0) await sleep(wait, false);
        }
      } catch (error) {
        logger.error({ err: redactError(error) }, 'notification drain failed');
      }
      const left = await store.notificationDepth().catch(() => -1);
      if (left !== 0) {
        logger.warn(
          { jobs: left < 0 ? 'unknown' : left },
          'stopped with notifications not yet done; they are done after the next start',
        );
      }
      return left === 0;
    },
    kick() {
      settledAt = performance.now() + settleMs + WAKE_SLACK_MS;
      if (settleTimer === null) armSettle(settleMs + WAKE_SLACK_MS);
    },
  };
  return worker;
}
