import * as approvals from '../core/approvals.js';
import { SYSTEM_ACTOR } from '../core/approvals.js';
import { OPERATION_SPECS } from '../core/catalog.js';
import { redactError } from '../core/mask.js';
import type { OperationRequest } from '../core/model.js';
import { say } from '../core/said.js';
import type { JobLogger, Task } from '../jobs/scheduler.js';
import type { Store } from '../store/store.js';
import {
  apply,
  dueNow,
  foundInLog,
  SETTLED,
  type ServiceContext,
  stepContext,
  stepOrNull,
} from './context.js';
import { execute, refuseUnsealed } from './execute.js';
import type { FollowUpSweep } from './reminders.js';
import type { Operations } from './types.js';

/**
 * What vidops does by itself, every so often, on the one scheduler (src/jobs/scheduler.ts): expire
 * due requests, take over interrupted ones, remind the leads of unreviewed break-glass changes, end
 * delegations past their `until`, follow up waiting requests, post approval messages that are
 * missing, and forget old delivery keys and drafts. Each step is claimed by compare-and-set or a
 * unique key, so replicas sweeping at once do each thing once.
 * @see docs/architecture.md, "Composition root" and "Scale"
 */

/** The handler that creates a request posts its message itself; the sweep only helps after this. */
const UNPOSTED_GRACE_MS = 15_000;
/** One replica tries to announce a given request per window (claimed by a unique store key). */
const ANNOUNCE_WINDOW_MS = 5 * 60_000;
/** Slack redelivers within minutes; delivery keys older than a day only take space. */
const DELIVERY_KEY_TTL_MS = 24 * 60 * 60_000;
const PRUNE_INTERVAL_MS = 60 * 60_000;

export async function expireDue(svc: ServiceContext): Promise<OperationRequest[]> {
  const expired: OperationRequest[] = [];
  for await (const request of dueNow(svc.store, 'expiry', svc.clock().toISOString())) {
    await eachAlone(svc, request, 'expire', async () => {
      const c = stepContext(svc);
      const step = stepOrNull(() => approvals.expire(request, c));
      if (!step) return;
      const done = await apply(svc.store, request, step, c.now);
      if (done) expired.push(done);
    });
  }
  if (expired.length > 0) svc.logger?.info({ count: expired.length }, 'requests expired');
  return expired;
}

/**
 * Takes over requests left `executing` past `staleExecutionMs` (their process died): only what
 * gives the same end state and the same answer when sent twice is resumed; a delete or a create
 * may already have happened, so it waits for a lead as `unknown`.
 */
export async function resumeInterrupted(
  svc: ServiceContext,
): Promise<{ resumed: OperationRequest[]; unknown: OperationRequest[] }> {
  const cutoff = new Date(svc.clock().getTime() - svc.staleExecutionMs).toISOString();
  const resumed: OperationRequest[] = [];
  const unknown: OperationRequest[] = [];
  for await (const request of dueNow(svc.store, 'executing', cutoff)) {
    await eachAlone(svc, request, 'take over', () => takeOver(svc, request, resumed, unknown));
  }
  return { resumed, unknown };
}

/** One request left `executing` by a process that stopped: resumed, or marked unknown. */
async function takeOver(
  svc: ServiceContext,
  request: OperationRequest,
  resumed: OperationRequest[],
  unknown: OperationRequest[],
): Promise<void> {
  const c = stepContext(svc);
  const resume = OPERATION_SPECS[request.operation].endpoint.repeat === 'resume';
  // The claim bumps the version and updatedAt, so another replica sweeping now skips it.
  const step = stepOrNull(() =>
    resume
      ? approvals.startExecution(request, SYSTEM_ACTOR, c, { resume: true })
      : approvals.markUnknown(request, c),
  );
  if (resume) {
    const ended = await foundInLog(svc, request.id, ENDED);
    // Set back to `executing` in the database after it ended: its seal is still the one it was
    // sent with, so only its own log tells a replay from an interrupted send.
    if (ended !== null) {
      await refuseUnsealed(svc, request, say.resumeEnded(request.id, ended), ended);
      return;
    }
  }
  const done = step ? await apply(svc.store, request, step, c.now) : null;
  if (!done) return;
  const line = { requestId: request.id, operation: request.operation };
  if (resume) {
    svc.logger?.warn(line, 'resuming an interrupted request');
    resumed.push(await execute(svc, done, { resumed: true }));
  } else {
    svc.logger?.warn(line, 'interrupted request: outcome unknown');
    unknown.push(done);
  }
}

/** Events after which a request is never sent again by the sweep: it ended, or may have. */
const ENDED: ReadonlySet<string> = new Set([...SETTLED, 'unknown']);

/** One request's step of a sweep: one that throws is logged, and the sweep goes on to the next. */
async function eachAlone(
  svc: ServiceContext,
  request: OperationRequest,
  what: string,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    svc.logger?.error(
      { requestId: request.id, err: redactError(error) },
      `sweep: could not ${what} a request`,
    );
  }
}

/**
 * One sweep of the requests: expire, take over the interrupted, put back time-boxed changes at
 * their end, remind of break-glass, end delegations.
 */
async function sweepRequests(ops: Operations): Promise<void> {
  const steps = [
    () => ops.expireDue(),
    () => ops.resumeInterrupted(),
    () => ops.sweepTimeBoxes(),
    () => ops.remindBreakGlass(),
    () => ops.expireDelegations(),
  ];
  // Each step runs whatever the one before did: a step that keeps failing must not stop put-backs.
  const failed: unknown[] = [];
  for (const step of steps) await step().catch((error: unknown) => failed.push(error));
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) throw new AggregateError(failed, `${failed.length} steps of the sweep failed`);
}

/** The sweep of the requests, every `intervalMs` and at start (`Operations.startSweeper`). */
export function requestSweep(ops: Operations, intervalMs: number): Task {
  return { name: 'sweep', everyMs: intervalMs, atStart: true, run: () => sweepRequests(ops) };
}

/** What the app sweeps besides the requests: follow-ups, missing approval messages, old records. */
export interface AppSweeps {
  ops: Operations;
  store: Store;
  clock: () => Date;
  log: JobLogger & { info(obj: object, msg?: string): void; debug(obj: object, msg?: string): void };
  intervalMs: number;
  /** Jobs were queued with no audit event to wake the notification worker: wake it. */
  queued: () => void;
}

/** Follows up waiting requests; wakes the notification worker for the re-renders it queued. */
export async function followUp(s: Pick<AppSweeps, 'ops' | 'queued'>): Promise<FollowUpSweep> {
  const done = await s.ops.sweepFollowUps();
  if (done.rerendered > 0) s.queued();
  return done;
}

/**
 * Queues the approval message of pending requests that have none (made in the CLI, or while
 * Slack was down), once per window across replicas; returns how many were queued.
 */
export async function announce(s: Pick<AppSweeps, 'store' | 'clock' | 'queued'>): Promise<number> {
  const now = s.clock().getTime();
  const made = new Date(now - UNPOSTED_GRACE_MS).toISOString();
  let announced = 0;
  for await (const request of dueNow(s.store, 'unannounced', made)) {
    const key = `announce:${request.id}:${Math.floor(now / ANNOUNCE_WINDOW_MS)}`;
    if (!(await s.store.markDelivered(key, new Date(now).toISOString()))) continue;
    await s.store.enqueueNotification(request.id, s.clock().toISOString());
    announced += 1;
  }
  if (announced > 0) s.queued();
  return announced;
}

/** Every periodic task of a running vidops, for one scheduler. */
export function appSweeps(s: AppSweeps): Task[] {
  const { store, clock, log } = s;
  const dayAgo = () => new Date(clock().getTime() - DELIVERY_KEY_TTL_MS).toISOString();
  return [
    requestSweep(s.ops, s.intervalMs),
    // Follow-ups that fell due while no replica ran are done at start, not a tick later.
    { name: 'follow-ups', everyMs: s.intervalMs, atStart: true, run: () => followUp(s) },
    {
      name: 'missing approval messages',
      everyMs: s.intervalMs,
      run: async () => {
        const announced = await announce(s);
        if (announced > 0) log.info({ announced }, 'posted approval messages that were missing');
      },
    },
    {
      name: 'old delivery keys',
      everyMs: PRUNE_INTERVAL_MS,
      run: async () => {
        const pruned = await store.pruneDeliveries(dayAgo());
        if (pruned > 0) log.debug({ pruned }, 'forgot old Slack delivery keys');
      },
    },
    {
      name: 'expired drafts',
      everyMs: PRUNE_INTERVAL_MS,
      run: async () => {
        const drafts = await store.pruneDrafts(clock().toISOString());
        if (drafts > 0) log.debug({ drafts }, 'forgot expired modal drafts');
      },
    },
  ];
}
