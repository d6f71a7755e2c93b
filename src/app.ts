import type pino from 'pino';
import type { Logger } from 'pino';
import type { CallInfo, RetryPolicy } from './client/index.js';
import { batchProgress } from './commands/batch.js';
import { createCoverFetcher, createSlackNotifier } from './commands/changes.js';
import { type AppContext, createWorkQueue, type WorkQueue } from './commands/context.js';
import { busyShed, registerVidopsHandlers } from './commands/slash.js';
import type { Config } from './config.js';
import type { HashEvent } from './core/audit-chain.js';
import { checkpointOrigin } from './core/checkpoint.js';
import { redactError } from './core/mask.js';
import type { OperationRequest } from './core/model.js';
import type { Policy } from './core/policy.js';
import { sealKeyOf } from './core/seal.js';
import { keyLabel, type SignerKey } from './core/signed-note.js';
import { Scheduler } from './jobs/scheduler.js';
import { within } from './jobs/timeout.js';
import { createLogger } from './logger.js';
import {
  closing,
  Lifecycle,
  loadPolicy,
  openAuditedStore,
  openVideoClient,
  type Part,
  readPolicyFile,
} from './parts.js';
import { loadSigningKey } from './services/audit-keys.js';
import { fileMemory, memoryPathFor } from './services/checkpoint-memory.js';
import { type Checkpointer, createCheckpointer } from './services/checkpoints.js';
import { createDrafts, createOperations, type Operations } from './services/index.js';
import type { FollowUpSweep } from './services/reminders.js';
import { announce, appSweeps, followUp } from './services/sweeps.js';
import { createInteractiveWebClient, createSlackApp, type SlackApp, type SlackAppDeps } from './slack/app.js';
import type { AuditPublisher } from './slack/audit-publisher.js';
import { createDirectory } from './slack/directory.js';
import { createLanguages } from './slack/languages.js';
import { createVidopsMetrics, type VidopsMetrics } from './slack/metrics.js';
import { createNotificationWorker, type NotificationWorker } from './slack/notification-worker.js';
import { createResponseUrlPoster } from './slack/response-url.js';
import type { Store } from './store/index.js';

/**
 * The composition root: builds every part of vidops from the configuration and wires them
 * together. No module keeps state of its own, so tests and benchmarks build as many as they like.
 * @see docs/architecture.md, "Architecture", "Runtime contract" and "Composition root"
 */

export interface VidopsDeps {
  config: Config;
  clock?: () => Date;
  /** The process logger; built from `config.logLevel` when absent. */
  logger?: Logger;
  /** Where the built logger writes (tests capture lines); stdout when absent. */
  logDestination?: pino.DestinationStream;
  /** Listen address of the HTTP server; all interfaces when absent. Tests use 127.0.0.1. */
  host?: string;
  /** Throw (instead of logging) when a message breaks Block Kit limits: tests. */
  strictBlockKit?: boolean;
  /** Retries of idempotent upstream calls (tests use RAPID_RETRY). */
  clientRetryPolicy?: RetryPolicy;
  /** Pacing of the audit-channel publisher, and the lease, backoff and poll of the notification worker (tests). */
  publisher?: SlackAppDeps['publisher'];
  /** How long `stop()` waits for Slack requests in flight. */
  shutdownTimeoutMs?: number;
  /** How often pending requests are expired and interrupted ones resumed (default 30 s). */
  sweepIntervalMs?: number;
  /** How long `stop()` keeps posting the audit backlog before it gives up (default 5 s). */
  flushTimeoutMs?: number;
  /** How often the checkpointer looks whether a checkpoint is due, and at most how often when woken (tests). */
  checkpoints?: { pollMs?: number; minGapMs?: number };
  /** Commands worked on at once after their ack (default 16). */
  workConcurrency?: number;
  /** Commands waiting beyond those; past it a command is answered "busy" (default 1000). */
  workMaxQueued?: number;
  /** Least time between two edits of batch messages (default 1.5 s). */
  batchProgressMs?: number;
}

export interface Vidops {
  /** Starts the HTTP server (or Socket Mode), the audit publisher and the sweeper. */
  start(): Promise<{ port: number }>;
  /** Stops taking work, stops the sweeper, flushes the audit backlog (bounded), closes everything. */
  stop(): Promise<void>;
  store: Store;
  ops: Operations;
  publisher: AuditPublisher;
  metrics: VidopsMetrics;
  context: AppContext;
  /** Signs audit checkpoints; null when `AUDIT_SIGNING_KEY_FILE` is not set. */
  checkpointer: Checkpointer | null;
  /**
   * Posts the approval message of pending requests that have none (made in the CLI, or while
   * Slack was down); returns how many were announced. Runs with the sweeper; exposed for tests.
   */
  announceUnposted(): Promise<number>;
  /**
   * Reminds, escalates and warns of expiry where due, once each across replicas, and queues a
   * re-render of approval messages whose time left changed words. Runs with the sweeper, at
   * start and every `sweepIntervalMs`; exposed for tests, which move the clock.
   */
  sweepFollowUps(): Promise<FollowUpSweep>;
}

const SWEEP_INTERVAL_MS = 30_000;
// One batch message edit per 1.5 s across all batches: within `chat.update`'s Tier 3 (50 a minute).
const BATCH_PROGRESS_MS = 1_500;
// Commands worked on at once after their ack: plenty for a support team, and few enough that a
// flood cannot crowd out acknowledgements (Slack's 3 s) or exhaust memory (see bench/slack.ts).
const WORK_CONCURRENCY = 16;
const WORK_MAX_QUEUED = 1000;
const FLUSH_TIMEOUT_MS = 5_000;
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Builds vidops, each part after what it needs and none bound later: policy, signing key, store
 * (migrated) and video client, Slack Web API client, directory, operations, the handlers' context,
 * and the Bolt app (receiver, audit publisher) with its handlers; then the notifier with its
 * worker, the checkpointer and the sweeps. Throws ConfigError for a policy that cannot work;
 * nothing listens until `start()`, which starts the parts in the order listed at the end; `stop()`
 * stops them in reverse.
 * @see docs/architecture.md, "Architecture" and "Composition root"
 */
export async function createVidops(deps: VidopsDeps): Promise<Vidops> {
  const { config } = deps;
  const clock = deps.clock ?? (() => new Date());
  const logger = deps.logger ?? createLogger({ level: config.logLevel, destination: deps.logDestination });
  const flushMs = deps.flushTimeoutMs ?? FLUSH_TIMEOUT_MS;
  const policy = await loadPolicy(config, readPolicyFile);
  // Read before anything is opened: a key that cannot sign (or that others may read) stops the start.
  const signing = await signingOf(config);
  const metrics = createVidopsMetrics();
  const storeLog = logger.child({ component: 'store' });
  const { store, hash } = await openAuditedStore(config.databaseUrl, config.auditHmacKey, storeLog);
  const client = openVideoClient(config.video, store, {
    ...(deps.clientRetryPolicy ? { retryPolicy: deps.clientRetryPolicy } : {}),
    onCall: timedCalls(metrics, logger.child({ component: 'video-client' })),
  });
  const responses = createResponseUrlPoster();
  const opened = [closing(store), closing(client), closing(responses)];
  try {
    // The Web API client comes from the configuration alone, so everything that talks to Slack is
    // built before the Bolt app, and the app last, with its handlers.
    const web = createInteractiveWebClient(config, logger);
    const directory = createDirectory(web, {
      groups: watchedGroups(policy),
      clock,
      logger: logger.child({ component: 'directory' }),
    });
    // The batch's message needs the handlers' context, built after the services: bound below.
    let progress: (request: OperationRequest) => void = () => {};
    const ops = createOperations({
      store,
      client,
      policy,
      directory,
      clock,
      sealKey: sealKeyOf(config.video.secretKey),
      logger: logger.child({ component: 'services' }),
      fetchCover: createCoverFetcher({ web, config }),
      timeZone: config.languages.timeZone,
      onBatchProgress: (request) => progress(request),
    });
    const work = workQueueOf(deps, metrics, logger);
    requestGauges(metrics, store, clock);
    const context: AppContext = {
      config,
      ops,
      policy,
      directory,
      web,
      logger,
      clock,
      languages: createLanguages({
        ...config.languages,
        store,
        web,
        clock,
        logger: logger.child({ component: 'languages' }),
      }),
      strictBlockKit: deps.strictBlockKit ?? false,
      drafts: createDrafts({ store, clock, logger }),
      metrics,
      work,
      respondTo: responses.respondTo,
      people: new WeakMap(),
    };
    progress = batchProgress({ ...context, store }, deps.batchProgressMs ?? BATCH_PROGRESS_MS);
    const checkpointState = describeCheckpoints(config, signing?.key ?? null);
    const slack = createSlackApp({
      config,
      store,
      logger,
      clock,
      metrics,
      register: (app) => registerVidopsHandlers(app, context),
      shed: busyShed(context),
      ...(deps.host === undefined ? {} : { host: deps.host }),
      ...(deps.publisher === undefined ? {} : { publisher: deps.publisher }),
      ...(deps.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: deps.shutdownTimeoutMs }),
      readyStatus: () => ({ checkpoints: checkpointState }),
    });
    const notifications = notificationsOf(context, store, deps.publisher ?? {});
    // A job recorded on its own (a re-render, a missing message) has no audit event to wake the worker.
    const queued = () => notifications.kick();
    const checkpointer =
      signing &&
      checkpointerOf(signing, { deps, store, hash, clock, metrics, logger, publisher: slack.publisher });
    const sweeps = {
      ops,
      store,
      clock,
      log: logger,
      queued,
      intervalMs: deps.sweepIntervalMs ?? SWEEP_INTERVAL_MS,
    };
    const front = listening(slack);
    const parts = new Lifecycle([
      ...opened,
      backlogs(store, notifications, slack.publisher, flushMs),
      checkpoints(store, checkpointer, { state: checkpointState, logger, flushMs }),
      draining(work, deps.shutdownTimeoutMs ?? DRAIN_TIMEOUT_MS, logger),
      front,
      new Scheduler(appSweeps(sweeps), logger),
    ]);
    return {
      store,
      ops,
      publisher: slack.publisher,
      metrics,
      context,
      checkpointer,
      announceUnposted: () => announce(sweeps),
      sweepFollowUps: () => followUp(sweeps),
      start: async () => {
        await parts.start();
        return { port: front.port };
      },
      stop: () => parts.stop(),
    };
  } catch (error) {
    await new Lifecycle(opened).stop();
    throw error;
  }
}

/** User groups whose members matter: every `S…` in LEADS, AGENTS and the policy's rules. */
function watchedGroups(policy: Policy): string[] {
  const ids = [...policy.leads, ...(policy.agents ?? [])];
  for (const rule of Object.values(policy.rules)) {
    if (Array.isArray(rule.allowed)) ids.push(...rule.allowed);
    ids.push(...rule.approvers, ...rule.followUp.escalateTo);
  }
  return [...new Set(ids.filter((id) => id.startsWith('S')))];
}

/** Every upstream call timed and counted on `/metrics`, and logged when debugging. */
function timedCalls(metrics: VidopsMetrics, log: Logger): (info: CallInfo) => void {
  return (info) => {
    metrics.upstreamSeconds.observe({ operation: info.operation }, info.durationMs / 1000);
    if (info.error !== undefined) {
      metrics.upstreamErrors.inc({ operation: info.operation, error: info.error.split(':')[0] ?? 'Error' });
    }
    log.debug({ ...info, durationMs: Math.round(info.durationMs) }, 'video API call');
  };
}

/** The bounded queue of work after an ack, counted on `/metrics`. */
function workQueueOf(deps: VidopsDeps, metrics: VidopsMetrics, logger: Logger): WorkQueue {
  const failures = metrics.registry.counter(
    'vidops_work_failures_total',
    'Commands whose work after the ack failed unexpectedly',
    ['command'],
  );
  const turnedAway = metrics.registry.counter(
    'vidops_work_turned_away_total',
    'Commands answered "busy" because the work queue was full',
    ['command'],
  );
  const work = createWorkQueue({
    concurrency: deps.workConcurrency ?? WORK_CONCURRENCY,
    maxQueued: deps.workMaxQueued ?? WORK_MAX_QUEUED,
    logger: logger.child({ component: 'work' }),
    onFailure: (command) => failures.inc({ command }),
    onTurnedAway: (command) => turnedAway.inc({ command }),
  });
  metrics.registry.gauge(
    'vidops_work_jobs',
    'Commands being worked on after their ack, and waiting for a turn',
    () => {
      const { running, queued } = work.size();
      return [
        { labels: { state: 'running' }, value: running },
        { labels: { state: 'queued' }, value: queued },
      ];
    },
    ['state'],
  );
  return work;
}

/**
 * Gauges read from the store on each scrape, for the alerts on stalled approvals and escalated
 * put-backs (deploy/prometheus/alerts.yaml): states, so an alert stays while the problem does.
 * Each reads one index row or the few rows of its own index, however long the history.
 */
function requestGauges(metrics: VidopsMetrics, store: Store, clock: () => Date): void {
  metrics.registry.gauge(
    'vidops_approval_oldest_pending_seconds',
    'Age of the oldest request waiting for approval (0 when none waits)',
    async () => {
      const oldest = await store.oldestPendingAt();
      return oldest === null ? 0 : Math.max(0, (clock().getTime() - Date.parse(oldest)) / 1000);
    },
  );
  metrics.registry.gauge(
    'vidops_put_backs_escalated',
    'Time-boxed changes whose put-back kept failing and was handed to a lead, not yet back',
    () => store.countPutBacksEscalated(),
  );
}

/** The key of `AUDIT_SIGNING_KEY_FILE` and where it remembers what it signed; null when not set. */
async function signingOf(config: Config): Promise<{ key: SignerKey; memoryPath: string } | null> {
  if (config.auditSigningKeyFile === undefined) return null;
  return {
    ...(await loadSigningKey(config.auditSigningKeyFile, config.auditLogName)),
    memoryPath: memoryPathFor(config.auditSigningKeyFile, config.auditCheckpointStateFile),
  };
}

/** `signed by … every 1000 events or 60 min and at shutdown`, as the start log and `/readyz` say it. */
function describeCheckpoints(config: Config, key: SignerKey | null): string {
  if (key === null) return 'off: AUDIT_SIGNING_KEY_FILE is not set, no audit checkpoints are signed';
  const every = config.auditCheckpointEvery;
  const parts = [
    ...(every.events === null ? [] : [`${every.events} events`]),
    ...(every.ms === null ? [] : [`${every.ms / 60_000} min`]),
  ];
  return `signed by ${keyLabel(key)} every ${parts.join(' or ')} and at shutdown`;
}

/** The checkpointer; each checkpoint it writes is posted at the publisher's next turn. */
function checkpointerOf(
  signing: { key: SignerKey; memoryPath: string },
  with_: {
    deps: VidopsDeps;
    store: Store;
    hash: HashEvent;
    clock: () => Date;
    metrics: VidopsMetrics;
    logger: Logger;
    publisher: AuditPublisher;
  },
): Checkpointer {
  const { deps, logger } = with_;
  return createCheckpointer({
    store: with_.store,
    signer: signing.key,
    // What the key signed before is remembered beside it, out of the database's reach.
    memory: fileMemory(signing.memoryPath, {
      onStaleLock: (path) => logger.warn({ path }, 'took over a stale audit checkpoint lock file'),
    }),
    onRefused: () => with_.metrics.auditCheckpointRefused.inc(),
    origin: checkpointOrigin(deps.config.auditLogName),
    hash: with_.hash,
    clock: with_.clock,
    every: deps.config.auditCheckpointEvery,
    logger: logger.child({ component: 'checkpoints' }),
    onWritten: () => with_.publisher.kickCheckpoints(),
    ...deps.checkpoints,
  });
}

/**
 * Approval messages, DMs and Home tabs are told from the notification outbox after the change
 * committed; paced like the audit publisher in tests.
 */
function notificationsOf(
  context: AppContext,
  store: Store,
  pacing: NonNullable<VidopsDeps['publisher']>,
): NotificationWorker {
  return createNotificationWorker({
    store,
    deliver: createSlackNotifier({ ...context, store }).deliver,
    clock: context.clock,
    logger: context.logger.child({ component: 'notifications' }),
    leaseMs: pacing.leaseMs,
    backoffBaseMs: pacing.backoffBaseMs,
    backoffMaxMs: pacing.backoffMaxMs,
    idlePollMs: pacing.idlePollMs,
    settleMs: pacing.settleMs,
  });
}

/**
 * The notification worker, woken by every append; at stop, it and the audit publisher work
 * through what is left side by side, within `flushMs` (the rest is done after the next start).
 */
function backlogs(
  store: Store,
  notifications: NotificationWorker,
  publisher: AuditPublisher,
  flushMs: number,
): Part {
  const unwake = store.onAppend(() => notifications.kick());
  return {
    start: () => notifications.start(),
    async stop() {
      unwake();
      await Promise.all([notifications.drain(flushMs), publisher.drain(flushMs)]);
    },
  };
}

/**
 * The checkpointer's loop, woken by every append; at stop, one last checkpoint covering every
 * event written before it (posted with the backlog).
 */
function checkpoints(
  store: Store,
  checkpointer: Checkpointer | null,
  how: { state: string; logger: Logger; flushMs: number },
): Part {
  const { logger } = how;
  const unwake = checkpointer === null ? () => undefined : store.onAppend(() => checkpointer.kick());
  return {
    async start() {
      if (checkpointer === null) {
        logger.warn(`audit checkpoints ${how.state}`);
        return;
      }
      logger.info(`audit checkpoints ${how.state}`);
      // A database restored from a backup is older than what the key signed: said at start, not
      // only when the next checkpoint falls due.
      await checkpointer.checkExtends();
      checkpointer.start();
    },
    async stop() {
      unwake();
      if (checkpointer === null) return;
      await checkpointer.stop();
      try {
        const last = await within(checkpointer.checkpointNow(), how.flushMs);
        if (last === undefined) logger.warn('stopped before the shutdown checkpoint was signed');
      } catch (error) {
        logger.error({ err: redactError(error) }, 'could not sign the shutdown checkpoint');
      }
    },
  };
}

/** At stop, the work the last requests started is let finish (bounded), and appends its events. */
function draining(work: WorkQueue, timeoutMs: number, logger: Logger): Part {
  return {
    start: () => undefined,
    async stop() {
      if (!(await work.drain(timeoutMs)))
        logger.warn(work.size(), 'stopped with commands still being worked on');
    },
  };
}

/** The Slack front door (the receiver, or Socket Mode and the probes); `port` once started. */
function listening(slack: SlackApp): Part & { port: number } {
  const front = {
    port: 0,
    async start() {
      front.port = (await slack.start()).port;
    },
    stop: () => slack.stop(),
  };
  return front;
}
