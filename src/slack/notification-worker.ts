import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ErrorCode, WebAPIRateLimitedError } from '@slack/web-api';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import { Backoff, IDLE_POLL, JobRunner, KeyedBackoff } from '../jobs/runner.js';
import { settledWithin, within } from '../jobs/timeout.js';
import type { NotificationJob, Store } from '../store/store.js';

/** The part of the store the worker uses. */
export type NotificationStore = Pick<
  Store,
  | 'claimNotifications'
  | 'ackNotifications'
  | 'releaseNotifications'
  | 'renewNotifications'
  | 'notificationDepth'
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
  /** The idle poll backs off up to this while it finds nothing (default: `idlePollMs` when given). */
  idlePollMaxMs?: number | undefined;
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

type StepCounts = { claimed: number; done: number };

/** One worker's settings and state; the functions below take it explicitly. */
interface Worker {
  readonly store: NotificationStore;
  readonly deliver: DeliverNotifications;
  readonly clock: () => Date;
  readonly logger: Logger;
  readonly workerId: string;
  readonly settleMs: number;
  readonly batchRequests: number;
  readonly leaseMs: number;
  readonly backoffBaseMs: number;
  readonly runner: JobRunner<StepCounts>;
  /** Per request: one that keeps failing waits longer, the others do not. */
  readonly perRequest: KeyedBackoff;
  /** Slack not answering at all (or the store failing): every request waits. */
  readonly transport: Backoff;
  /** The earliest moment a job this worker gave back for a retry is due again (drain waits for it). */
  retryAt: number;
  /** Wakes the loop once the newest kicked change has settled. */
  settleTimer: NodeJS.Timeout | null;
  settledAt: number;
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
  const batchRequests = options.batchRequests ?? 5;
  if (batchRequests < 1) throw new RangeError('batchRequests must be at least 1');
  const backoffBaseMs = options.backoffBaseMs ?? 1000;
  const backoffMaxMs = options.backoffMaxMs ?? 60_000;
  const transport = new Backoff(backoffBaseMs, backoffMaxMs);
  const w: Worker = {
    store: options.store,
    deliver: options.deliver,
    clock: options.clock,
    logger: options.logger,
    workerId: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    settleMs: options.settleMs ?? 200,
    batchRequests,
    leaseMs: options.leaseMs ?? 30_000,
    backoffBaseMs,
    runner: new JobRunner<StepCounts>({
      name: 'notification worker',
      logger: options.logger,
      step: () => step(w, true),
      idlePollMs: options.idlePollMs ?? IDLE_POLL.ms,
      idlePollMaxMs: options.idlePollMaxMs ?? options.idlePollMs ?? IDLE_POLL.maxMs,
      backoff: transport,
    }),
    perRequest: new KeyedBackoff(backoffBaseMs, backoffMaxMs, MAX_REMEMBERED_FAILURES),
    transport,
    retryAt: Number.POSITIVE_INFINITY,
    settleTimer: null,
    settledAt: 0,
  };
  const worker: NotificationWorker = {
    start: () => w.runner.start(),
    async stop() {
      if (w.settleTimer) clearTimeout(w.settleTimer);
      w.settleTimer = null;
      await w.runner.stop();
    },
    flushOnce: async () => (await w.runner.exclusive(() => step(w, false))).done,
    async drain(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      // The delivery in hand may hang on a slow Slack: it is waited for within the bound only, and
      // what it claimed is leased, taken again after the next start if it never ends.
      const stopped = await settledWithin(worker.stop(), timeoutMs);
      if (stopped.kind === 'error') throw stopped.error;
      return drain(w, stopped.kind === 'late' ? 0 : Math.max(0, deadline - performance.now()));
    },
    kick: () => kick(w),
  };
  return worker;
}

/** Arms (or re-arms) the settle timer: a burst of changes becomes one look once it is still. */
function kick(w: Worker): void {
  w.settledAt = performance.now() + w.settleMs + WAKE_SLACK_MS;
  if (w.settleTimer === null) armSettle(w, w.settleMs + WAKE_SLACK_MS);
}

function armSettle(w: Worker, ms: number): void {
  w.settleTimer = setTimeout(
    () => {
      w.settleTimer = null;
      w.runner.wake();
      const left = w.settledAt - performance.now();
      if (left > 1) armSettle(w, left);
    },
    Math.max(0, ms),
  );
  w.settleTimer.unref();
}

async function release(w: Worker, jobs: readonly NotificationJob[], delayMs: number): Promise<void> {
  if (jobs.length === 0) return;
  if (delayMs > 0) {
    w.retryAt = Math.min(w.retryAt, performance.now() + delayMs + WAKE_SLACK_MS);
    w.runner.wakeIn(delayMs + WAKE_SLACK_MS);
  }
  try {
    await w.store.releaseNotifications(
      jobs.map((j) => j.id),
      new Date(w.clock().getTime() + delayMs).toISOString(),
      w.workerId,
    );
  } catch (error) {
    w.logger.error(
      { err: redactError(error), jobs: jobs.length },
      'could not give notification jobs back; they return when the lease ends',
    );
  }
}

async function renew(w: Worker, jobs: readonly NotificationJob[]): Promise<void> {
  try {
    const until = new Date(w.clock().getTime() + w.leaseMs).toISOString();
    await w.store.renewNotifications(
      jobs.map((j) => j.id),
      w.workerId,
      until,
    );
  } catch (error) {
    w.logger.warn({ err: redactError(error), jobs: jobs.length }, 'could not renew the notification lease');
  }
}

async function ack(w: Worker, requestId: string, jobs: readonly NotificationJob[]): Promise<void> {
  try {
    await w.store.ackNotifications(jobs.map((j) => j.id));
  } catch (error) {
    // Done twice at worst: the steps are idempotent or claimed once in the store.
    w.logger.error(
      { err: redactError(error), requestId, jobs: jobs.length },
      'told Slack but could not mark the notification jobs done; they are done again when the lease ends',
    );
  }
}

function byRequest(jobs: readonly NotificationJob[]): [string, NotificationJob[]][] {
  const groups = new Map<string, NotificationJob[]>();
  for (const job of jobs) {
    const group = groups.get(job.requestId);
    if (group) group.push(job);
    else groups.set(job.requestId, [job]);
  }
  return [...groups];
}

async function claim(w: Worker, settled: boolean): Promise<NotificationJob[]> {
  const now = w.clock();
  try {
    return await w.store.claimNotifications({
      worker: w.workerId,
      requests: w.batchRequests,
      leaseMs: w.leaseMs,
      now: now.toISOString(),
      settledAt: new Date(now.getTime() - (settled ? w.settleMs : 0)).toISOString(),
    });
  } catch (error) {
    const delay = w.transport.next();
    w.logger.error({ err: redactError(error), retryInMs: delay }, 'could not claim notification jobs');
    w.runner.pauseFor(delay);
    return [];
  }
}

/** Claims a few requests and tells Slack about each. `settled`: only those still for `settleMs`. */
async function step(w: Worker, settled: boolean): Promise<StepCounts> {
  const jobs = await claim(w, settled);
  if (jobs.length === 0) return { claimed: 0, done: 0 };
  const started = performance.now();
  const groups = byRequest(jobs);
  let done = 0;
  for (let i = 0; i < groups.length; i += 1) {
    const [requestId, mine] = groups[i] as [string, NotificationJob[]];
    const rest = () => groups.slice(i + 1).flatMap(([, js]) => js);
    // Past half the lease, or asked to stop: the rest go back for whoever claims next.
    if (performance.now() - started > w.leaseMs / 2 || w.runner.stopping) {
      await release(w, [...mine, ...rest()], 0);
      break;
    }
    const told = await tell(w, requestId, mine, rest);
    if (told === 'stop') break;
    done += told;
  }
  return { claimed: jobs.length, done };
}

/**
 * Tells Slack about one request: the jobs done, or given back for later; 'stop' when Slack
 * asked everyone to wait (a 429) or is not answering (the rest were given back too).
 */
async function tell(
  w: Worker,
  requestId: string,
  mine: NotificationJob[],
  rest: () => NotificationJob[],
): Promise<number | 'stop'> {
  let outcome: DeliveryOutcome;
  // Slack may take longer than the lease (three tries of ten seconds a call): the lease of this
  // request's jobs and of those still waiting in the batch is renewed while it is told, so no other
  // replica tells the same request meanwhile and an older state never lands after a newer one.
  const renewal = setInterval(() => void renew(w, [...mine, ...rest()]), w.leaseMs / 3);
  renewal.unref();
  try {
    outcome = await w.deliver(requestId, mine);
  } catch (error) {
    return failed(w, error, requestId, mine, rest);
  } finally {
    clearInterval(renewal);
  }
  w.transport.reset();
  if (outcome.kind === 'later') {
    const delay = Math.max(0, outcome.notBefore.getTime() - w.clock().getTime());
    await release(w, mine, delay);
    w.logger.debug({ requestId, retryInMs: delay, reason: outcome.reason }, 'notification put off');
    return 0;
  }
  w.perRequest.reset(requestId);
  await ack(w, requestId, mine);
  w.logger.debug(
    { requestId, jobs: mine.length, versions: mine.map((j) => j.version) },
    'told Slack about a request',
  );
  return mine.length;
}

async function failed(
  w: Worker,
  error: unknown,
  requestId: string,
  mine: NotificationJob[],
  rest: () => NotificationJob[],
): Promise<0 | 'stop'> {
  if (error instanceof WebAPIRateLimitedError) {
    const pause = Math.max(error.retryAfter * 1000, w.backoffBaseMs);
    await release(w, [...mine, ...rest()], pause);
    w.runner.pauseFor(pause + WAKE_SLACK_MS);
    w.logger.warn({ retryAfterMs: pause, requestId }, 'Slack rate limited the notifications; waiting');
    return 'stop';
  }
  const transport = isTransportError(error);
  const delay = Math.max(w.perRequest.next(requestId), transport ? w.transport.next() : 0);
  await release(w, mine, delay);
  const { message } = redactError(error);
  const code = (error as { data?: { error?: unknown } }).data?.error;
  w.logger.error(
    { err: { message, code }, requestId, jobs: mine.length, retryInMs: delay },
    'could not tell Slack about a request; will retry',
  );
  if (!transport) return 0;
  // Slack is not answering: the others would fail alike; they wait with this one.
  await release(w, rest(), delay);
  w.runner.pauseFor(delay + WAKE_SLACK_MS);
  return 'stop';
}

/**
 * With the loop stopped, keeps working through what this process can claim, retries included,
 * for at most `timeoutMs`. True when no job is left in the store.
 */
async function drain(w: Worker, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  try {
    for (;;) {
      const due = Math.max(w.runner.nextAt, performance.now());
      if (due >= deadline) break;
      // A step that outlasts the bound (Slack slow to answer) is left to finish unobserved: what it
      // claimed is leased, and taken again after the next start if it never ends.
      const stepped = await within(
        w.runner.exclusive(() => step(w, false)),
        deadline - performance.now(),
      );
      if (stepped === undefined) break;
      if (stepped.claimed > 0) continue;
      // Nothing to claim now: wait for a retry of ours that falls within the bound, if any.
      if (w.retryAt >= deadline) break;
      const wait = w.retryAt - performance.now();
      w.retryAt = Number.POSITIVE_INFINITY;
      if (wait > 0) await w.runner.sleep(wait);
    }
  } catch (error) {
    w.logger.error({ err: redactError(error) }, 'notification drain failed');
  }
  const left = await w.store.notificationDepth().catch(() => -1);
  if (left !== 0) {
    w.logger.warn(
      { jobs: left < 0 ? 'unknown' : left },
      'stopped with notifications not yet done; they are done after the next start',
    );
  }
  return left === 0;
}
