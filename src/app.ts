import { readFile } from 'node:fs/promises';
import type pino from 'pino';
import type { Logger } from 'pino';
import { createVideoClient, type RetryPolicy } from './client/index.js';
import { createCoverFetcher, createSlackNotifier } from './commands/changes.js';
import { type AppContext, createWorkQueue, type SlackContext } from './commands/context.js';
import { busyShed, registerVidopsHandlers } from './commands/slash.js';
import type { Config } from './config.js';
import { createHasher } from './core/audit-chain.js';
import { checkpointOrigin } from './core/checkpoint.js';
import { ConfigError } from './core/errors.js';
import { redactError } from './core/mask.js';
import { buildPolicy, checkPolicy, type Policy } from './core/policy.js';
import { keyLabel } from './core/signed-note.js';
import { within } from './jobs/timeout.js';
import { createLogger } from './logger.js';
import { loadSigningKey } from './services/audit-keys.js';
import { fileMemory, memoryPathFor } from './services/checkpoint-memory.js';
import { type Checkpointer, createCheckpointer } from './services/checkpoints.js';
import {
  createDrafts,
  createOperations,
  createReads,
  type Operations,
  storeMethodMemory,
  storeSupportMemory,
} from './services/index.js';
import type { FollowUpSweep } from './services/reminders.js';
import { createInteractiveWebClient, createSlackApp, type SlackAppDeps } from './slack/app.js';
import type { AuditPublisher } from './slack/audit-publisher.js';
import { createDirectory } from './slack/directory.js';
import { createLanguages } from './slack/languages.js';
import { createVidopsMetrics, type VidopsMetrics } from './slack/metrics.js';
import { createNotificationWorker } from './slack/notification-worker.js';
import { createResponseUrlPoster } from './slack/response-url.js';
import { openStore, type Store } from './store/index.js';

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
/** Slack redelivers within minutes; delivery keys older than a day only take space. */
const DELIVERY_KEY_TTL_MS = 24 * 60 * 60_000;
const DELIVERY_PRUNE_INTERVAL_MS = 60 * 60_000;
/** The handler that creates a request posts its message itself; the sweep only helps after this. */
const UNPOSTED_GRACE_MS = 15_000;
/** One replica tries to announce a given request per window (claimed by a unique store key). */
const ANNOUNCE_WINDOW_MS = 5 * 60_000;
// Commands worked on at once after their ack: plenty for a support team, and few enough that a
// flood cannot crowd out acknowledgements (Slack's 3 s) or exhaust memory (see bench/slack.ts).
const WORK_CONCURRENCY = 16;
const WORK_MAX_QUEUED = 1000;
const FLUSH_TIMEOUT_MS = 5_000;
const DRAIN_TIMEOUT_MS = 10_000;

/** Reads `POLICY_FILE` and builds the policy; a rule nobody could ever satisfy stops the start. */
export async function loadPolicy(config: Config): Promise<Policy> {
  let fileText: string | undefined;
  if (config.policyFile !== undefined) {
    try {
      fileText = await readFile(config.policyFile, 'utf8');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new ConfigError([
        `POLICY_FILE ${config.policyFile} cannot be read${typeof code === 'string' ? ` (${code})` : ''}`,
      ]);
    }
  }
  const policy = buildPolicy({
    leads: config.leads,
    agents: config.agents,
    fileText,
    fileName: config.policyFile,
  });
  const problems = checkPolicy(policy);
  if (problems.length > 0) throw new ConfigError(problems);
  return policy;
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

/** `every 1000 events or 60 min`, as the start log and `/readyz` say it. */
function describeEvery(every: Config['auditCheckpointEvery']): string {
  const parts = [
    ...(every.events === null ? [] : [`${every.events} events`]),
    ...(every.ms === null ? [] : [`${every.ms / 60_000} min`]),
  ];
  return `every ${parts.join(' or ')}`;
}

/**
 * Builds vidops, each part after what it needs and none bound later: policy, store (migrated),
 * video client, Slack Web API client, directory, the services' reads, notifier, operations, work
 * queue, the handlers' context, and last the Bolt app (receiver, audit publisher woken by the
 * store's `onAppend`) with its handlers. Throws ConfigError for a policy that cannot work;
 * nothing listens until `start()`.
 * @see docs/architecture.md, "Architecture" and "Composition root"
 */
export async function createVidops(deps: VidopsDeps): Promise<Vidops> {
  const { config } = deps;
  const clock = deps.clock ?? (() => new Date());
  const logger = deps.logger ?? createLogger({ level: config.logLevel, destination: deps.logDestination });
  const policy = await loadPolicy(config);
  const metrics = createVidopsMetrics();
  // Read before anything is opened: a key that cannot sign (or that others may read) stops the start.
  const signing =
    config.auditSigningKeyFile === undefined
      ? null
      : {
          ...(await loadSigningKey(config.auditSigningKeyFile, config.auditLogName)),
          memoryPath: memoryPathFor(config.auditSigningKeyFile, config.auditCheckpointStateFile),
        };
  const checkpointState =
    signing === null
      ? 'off: AUDIT_SIGNING_KEY_FILE is not set, no audit checkpoints are signed'
      : `signed by ${keyLabel(signing.key)} ${describeEvery(config.auditCheckpointEvery)} and at shutdown`;

  const store = await openStore(config.databaseUrl, {
    hash: createHasher(config.auditHmacKey),
    logger: logger.child({ component: 'store' }),
  });

  const upstreamLog = logger.child({ component: 'video-client' });
  const client = createVideoClient({
    baseUrl: config.video.url,
    apiKey: config.video.apiKey,
    secretKey: config.video.secretKey,
    timeoutMs: config.video.timeoutMs,
    retryConversionMethod: config.video.retryConversionMethod,
    methodMemory: storeMethodMemory(store),
    supportMemory: storeSupportMemory(store, config.video.url),
    ...(deps.clientRetryPolicy ? { retryPolicy: deps.clientRetryPolicy } : {}),
    onCall: (info) => {
      metrics.upstreamSeconds.observe({ operation: info.operation }, info.durationMs / 1000);
      if (info.error !== undefined) {
        metrics.upstreamErrors.inc({ operation: info.operation, error: info.error.split(':')[0] ?? 'Error' });
      }
      upstreamLog.debug({ ...info, durationMs: Math.round(info.durationMs) }, 'video API call');
    },
  });

  // The Web API client comes from the configuration alone, so everything that talks to Slack is
  // built before the Bolt app, and the app last, with its handlers.
  const web = createInteractiveWebClient(config, logger);
  const directory = createDirectory(web, {
    groups: watchedGroups(policy),
    clock,
    logger: logger.child({ component: 'directory' }),
  });
  // The notifier reads requests through the services' reads, which need no notifier; the
  // operations, which tell the notifier of every change, come after it.
  const slackContext: SlackContext = {
    config,
    ops: createReads({ store, client, policy, directory, clock }),
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
  };
  const notifier = createSlackNotifier({ ...slackContext, store });
  const ops = createOperations({
    store,
    client,
    policy,
    directory,
    clock,
    logger: logger.child({ component: 'services' }),
    fetchCover: createCoverFetcher(slackContext),
    timeZone: config.languages.timeZone,
  });

  const workFailures = metrics.registry.counter(
    'vidops_work_failures_total',
    'Commands whose work after the ack failed unexpectedly',
    ['command'],
  );
  const workTurnedAway = metrics.registry.counter(
    'vidops_work_turned_away_total',
    'Commands answered "busy" because the work queue was full',
    ['command'],
  );
  const work = createWorkQueue({
    concurrency: deps.workConcurrency ?? WORK_CONCURRENCY,
    maxQueued: deps.workMaxQueued ?? WORK_MAX_QUEUED,
    logger: logger.child({ component: 'work' }),
    onFailure: (command) => workFailures.inc({ command }),
    onTurnedAway: (command) => workTurnedAway.inc({ command }),
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

  const responses = createResponseUrlPoster();
  const context: AppContext = {
    ...slackContext,
    ops,
    drafts: createDrafts({ store, clock, logger }),
    metrics,
    work,
    respondTo: responses.respondTo,
  };

  let slack: ReturnType<typeof createSlackApp>;
  try {
    slack = createSlackApp({
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
  } catch (error) {
    client.close();
    await store.close();
    throw error;
  }

  // Approval messages, DMs and Home tabs are told from the notification outbox after the change
  // committed, woken by every commit that records one; paced like the audit publisher in tests.
  const pacing = deps.publisher ?? {};
  const notifications = createNotificationWorker({
    store,
    deliver: notifier.deliver,
    clock,
    logger: logger.child({ component: 'notifications' }),
    leaseMs: pacing.leaseMs,
    backoffBaseMs: pacing.backoffBaseMs,
    backoffMaxMs: pacing.backoffMaxMs,
    idlePollMs: pacing.idlePollMs,
  });
  const stopWakingNotifications = store.onAppend(() => notifications.kick());

  // Checkpoints are made when due and at shutdown; each written one is posted at the publisher's next turn.
  const checkpointer =
    signing === null
      ? null
      : createCheckpointer({
          store,
          signer: signing.key,
          // What the key signed before is remembered beside it, out of the database's reach.
          memory: fileMemory(signing.memoryPath, {
            onStaleLock: (path) => logger.warn({ path }, 'took over a stale audit checkpoint lock file'),
          }),
          onRefused: () => metrics.auditCheckpointRefused.inc(),
          origin: checkpointOrigin(config.auditLogName),
          hash: createHasher(config.auditHmacKey),
          clock,
          every: config.auditCheckpointEvery,
          logger: logger.child({ component: 'checkpoints' }),
          onWritten: () => slack.publisher.kickCheckpoints(),
          ...deps.checkpoints,
        });
  const stopWakingCheckpointer =
    checkpointer === null ? () => undefined : store.onAppend(() => checkpointer.kick());

  let stopSweeper: (() => Promise<void>) | null = null;
  let pruneTimer: NodeJS.Timeout | null = null;
  let slackSweepTimer: NodeJS.Timeout | null = null;

  async function announceUnposted(): Promise<number> {
    const now = clock().getTime();
    const pending = await store.listRequests({ states: ['pending'], limit: 200 });
    let announced = 0;
    for (const request of pending) {
      if (request.slack !== null || Date.parse(request.createdAt) > now - UNPOSTED_GRACE_MS) continue;
      const window = Math.floor(now / ANNOUNCE_WINDOW_MS);
      if (!(await store.markDelivered(`announce:${request.id}:${window}`, new Date(now).toISOString()))) {
        continue;
      }
      await notifier.requestChanged(request);
      announced += 1;
    }
    // A job recorded on its own appends no audit event, so nothing else wakes the worker for it.
    if (announced > 0) notifications.kick();
    return announced;
  }

  async function sweepFollowUps(): Promise<FollowUpSweep> {
    const done = await ops.sweepFollowUps();
    // A re-render is a job recorded on its own, with no audit event to wake the worker.
    if (done.rerendered > 0) notifications.kick();
    return done;
  }

  /** One follow-up sweep at a time in this process; replicas are kept apart by the compare-and-set. */
  let followingUp: Promise<void> | null = null;
  function followUpTick(): Promise<void> {
    followingUp ??= (async () => {
      try {
        await sweepFollowUps();
      } catch (error) {
        logger.warn({ err: redactError(error) }, 'could not follow up waiting requests');
      } finally {
        followingUp = null;
      }
    })();
    return followingUp;
  }

  async function sweepSlack(): Promise<void> {
    await followUpTick();
    try {
      const announced = await announceUnposted();
      if (announced > 0) logger.info({ announced }, 'posted approval messages that were missing');
    } catch (error) {
      logger.warn({ err: redactError(error) }, 'could not post missing approval messages');
    }
  }

  async function pruneOldRecords(): Promise<void> {
    try {
      const before = new Date(clock().getTime() - DELIVERY_KEY_TTL_MS).toISOString();
      const pruned = await store.pruneDeliveries(before);
      if (pruned > 0) logger.debug({ pruned }, 'forgot old Slack delivery keys');
    } catch (error) {
      logger.warn({ err: redactError(error) }, 'could not prune old Slack delivery keys');
    }
    try {
      const drafts = await store.pruneDrafts(clock().toISOString());
      if (drafts > 0) logger.debug({ drafts }, 'forgot expired modal drafts');
    } catch (error) {
      logger.warn({ err: redactError(error) }, 'could not prune expired modal drafts');
    }
  }
  let stopping: Promise<void> | null = null;

  async function flushBacklog(): Promise<void> {
    const deadline = Date.now() + (deps.flushTimeoutMs ?? FLUSH_TIMEOUT_MS);
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const depth = await within(
        Promise.all([store.outboxDepth(), store.unpostedCheckpoints()]).then(([a, b]) => a + b),
        left,
      );
      if (depth === undefined || depth === 0) return;
      const posted = await within(slack.publisher.flushOnce(), left);
      if (posted === undefined) break;
    }
    logger.warn(
      'stopped with audit events or checkpoints not yet posted; they are posted after the next start',
    );
  }

  return {
    store,
    ops,
    publisher: slack.publisher,
    metrics,
    context,
    checkpointer,
    announceUnposted,
    sweepFollowUps,
    async start() {
      const { port } = await slack.start();
      notifications.start();
      checkpointer?.start();
      if (checkpointer === null) logger.warn(`audit checkpoints ${checkpointState}`);
      else logger.info(`audit checkpoints ${checkpointState}`);
      stopSweeper = ops.startSweeper(deps.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
      pruneTimer = setInterval(() => void pruneOldRecords(), DELIVERY_PRUNE_INTERVAL_MS);
      pruneTimer.unref();
      slackSweepTimer = setInterval(() => void sweepSlack(), deps.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
      slackSweepTimer.unref();
      // Follow-ups that fell due while no replica ran are done at start, not a tick later.
      void followUpTick();
      return { port };
    },
    stop() {
      stopping ??= (async () => {
        // Stop taking requests first, then let the work they started finish and append its events.
        await slack.stop();
        if (!(await work.drain(deps.shutdownTimeoutMs ?? DRAIN_TIMEOUT_MS))) {
          logger.warn(work.size(), 'stopped with commands still being worked on');
        }
        await stopSweeper?.();
        // The last checkpoint covers every event written before the stop; it is posted with the backlog.
        stopWakingCheckpointer();
        if (checkpointer !== null) {
          await checkpointer.stop();
          try {
            const last = await within(checkpointer.checkpointNow(), deps.flushTimeoutMs ?? FLUSH_TIMEOUT_MS);
            if (last === undefined) logger.warn('stopped before the shutdown checkpoint was signed');
          } catch (error) {
            logger.error({ err: redactError(error) }, 'could not sign the shutdown checkpoint');
          }
        }
        if (pruneTimer) clearInterval(pruneTimer);
        if (slackSweepTimer) clearInterval(slackSweepTimer);
        await followingUp;
        // The notification backlog is worked through beside the audit backlog, within the same bound.
        stopWakingNotifications();
        const notified = notifications.drain(deps.flushTimeoutMs ?? FLUSH_TIMEOUT_MS);
        try {
          await flushBacklog();
        } catch (error) {
          logger.error({ err: redactError(error) }, 'could not flush the audit backlog');
        }
        await notified;
        responses.close();
        client.close();
        await store.close();
      })();
      return stopping;
    },
  };
}
