import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AnyMiddlewareArgs, Logger as BoltLogger, Middleware } from '@slack/bolt';
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { KEYWORDS } from '../core/grammar.js';
import { redactError, redactText } from '../core/mask.js';
import { langFor } from '../i18n/index.js';
import type { Store } from '../store/store.js';
import {
  type AuditPublisher,
  type AuditPublisherOptions,
  createAuditPublisher,
  createPublisherWebClient,
} from './audit-publisher.js';
import { App, createSocketModeReceiver, LogLevel, type SocketModeReceiver } from './bolt.js';
import { createVidopsMetrics, outcomeOf, type VidopsMetrics } from './metrics.js';
import type { NotificationWorkerOptions } from './notification-worker.js';
import { type Installation, installationProblem, OpsServer, VidopsReceiver } from './receiver.js';

/**
 * Retries for calls made while a person waits (handlers): a couple of quick ones, and a 429 is
 * handed back rather than pausing the whole client for up to 30 minutes.
 * @see docs/slack.md, "Rate limits"
 */
export const INTERACTIVE_RETRY_POLICY = { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 1000 } as const;

/** The Web API options of calls made while a person waits: Bolt's own client and the handlers'. */
function interactiveClientOptions(config: Config): WebClientOptions {
  const slackApiUrl = config.slack.apiUrl;
  return {
    rejectRateLimitedCalls: true,
    retryConfig: INTERACTIVE_RETRY_POLICY,
    timeout: 10_000,
    ...(slackApiUrl ? { slackApiUrl } : {}),
  };
}

/**
 * The Web API client for calls made outside a request's own (the notifier, the directory, Home
 * tabs): the options of Bolt's client, built from the configuration alone, so it exists before
 * the Bolt app and the handlers that need it.
 */
export function createInteractiveWebClient(config: Config, logger: Logger): WebClient {
  return new WebClient(config.slack.botToken, {
    ...interactiveClientOptions(config),
    logger: boltLoggerFor(logger, config.logLevel),
    logLevel: toBoltLevel(config.logLevel),
  });
}

/** How long a successful `auth.test` counts for `/readyz`; probes come often, auth rarely changes. */
const SLACK_AUTH_TTL_MS = 60_000;

// Metric labels are the grammar's own command words; anything else counts as `other`.
const COMMAND_WORDS: ReadonlySet<string> = new Set(KEYWORDS);

/** Interaction and event kinds from Slack; a fixed set keeps metric labels bounded. */
const INTERACTION_TYPES = new Set([
  'block_actions',
  'view_submission',
  'view_closed',
  'event_callback',
  'shortcut',
  'message_action',
  'block_suggestion',
]);

export interface SlackAppDeps {
  config: Config;
  /** Every commit that appends audit events wakes the publisher (`Store.onAppend`). */
  store: Store;
  logger: Logger;
  clock: () => Date;
  /** Adds command, action and view handlers (other modules), after the app's own middleware. */
  register: (app: App) => void;
  /** Readiness check for `/readyz`; default: store ping and Slack `auth.test` (cached a minute). */
  ready?: () => Promise<void>;
  /** States `/readyz` adds to its answer, ready or not (e.g. whether checkpoints are signed). */
  readyStatus?: () => Record<string, string>;
  /** Listen address; default all interfaces. */
  host?: string;
  /** HTTP mode: answers a request before Bolt when vidops cannot take it (see VidopsReceiver). */
  shed?: (body: Record<string, unknown>) => object | null;
  metrics?: VidopsMetrics;
  workerId?: string;
  /** Overrides of the publisher's pacing, and the notification worker's (tests). */
  publisher?: Partial<
    Pick<
      AuditPublisherOptions,
      'minIntervalMs' | 'batchMax' | 'leaseMs' | 'backoffBaseMs' | 'backoffMaxMs' | 'idlePollMs'
    > &
      Pick<NotificationWorkerOptions, 'settleMs'>
  >;
  /** How long `stop()` waits for requests in flight. */
  shutdownTimeoutMs?: number;
}

export interface SlackApp {
  app: App;
  receiver: VidopsReceiver | SocketModeReceiver;
  publisher: AuditPublisher;
  metrics: VidopsMetrics;
  /** A Web API client that never retries on its own (publisher, readiness). */
  web: WebClient;
  /** Starts the receiver (and the probes server in Socket Mode) and the publisher. */
  start(): Promise<{ port: number }>;
  /** Stops taking requests, waits for those in flight, lets the publisher finish its post. */
  stop(): Promise<void>;
}

function toBoltLevel(level: Config['logLevel']): LogLevel {
  switch (level) {
    case 'debug':
    case 'trace':
      return LogLevel.DEBUG;
    case 'info':
      return LogLevel.INFO;
    case 'warn':
      return LogLevel.WARN;
    default:
      return LogLevel.ERROR;
  }
}

const SEVERITY: Record<LogLevel, number> = {
  [LogLevel.DEBUG]: 0,
  [LogLevel.INFO]: 1,
  [LogLevel.WARN]: 2,
  [LogLevel.ERROR]: 3,
};

function describe(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part instanceof Error) {
    const { name, message } = redactError(part);
    return `${name}: ${message}`;
  }
  try {
    return JSON.stringify(part) ?? String(part);
  } catch {
    return String(part);
  }
}

/**
 * Bolt's and the Web API client's logger, written to pino. Their messages are flattened to text
 * with tokens removed and mobile numbers masked: they log request bodies at debug level.
 */
export function boltLoggerFor(logger: Logger, level: Config['logLevel']): BoltLogger {
  let current = toBoltLevel(level);
  let target = logger.child({ component: 'bolt' });
  const write = (at: LogLevel, parts: unknown[]) => {
    if (SEVERITY[at] < SEVERITY[current]) return;
    const message = redactText(parts.map(describe).join(' '));
    target[at](message);
  };
  return {
    debug: (...msg: unknown[]) => write(LogLevel.DEBUG, msg),
    info: (...msg: unknown[]) => write(LogLevel.INFO, msg),
    warn: (...msg: unknown[]) => write(LogLevel.WARN, msg),
    error: (...msg: unknown[]) => write(LogLevel.ERROR, msg),
    setLevel: (l: LogLevel) => {
      current = l;
    },
    getLevel: () => current,
    setName: (name: string) => {
      target = logger.child({ component: name });
    },
  };
}

function field(body: object, key: string): unknown {
  return (body as Record<string, unknown>)[key];
}

/** The `command` label of `vidops_commands_total` for a request body. */
export function commandLabel(body: object): string {
  if (typeof field(body, 'command') === 'string') {
    const text = field(body, 'text');
    const word = (typeof text === 'string' ? text : '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (word === '') return 'help';
    return COMMAND_WORDS.has(word) ? word : 'other';
  }
  const type = field(body, 'type');
  return typeof type === 'string' && INTERACTION_TYPES.has(type) ? type : 'other';
}

/** The workspace and organisation of the bot token, which every request must come from. */
async function installationOf(web: WebClient): Promise<Installation> {
  const auth = await web.auth.test();
  if (typeof auth.team_id !== 'string' || auth.team_id === '') {
    throw new Error('auth.test named no team');
  }
  return {
    teamId: auth.team_id,
    enterpriseId:
      typeof auth.enterprise_id === 'string' && auth.enterprise_id !== '' ? auth.enterprise_id : null,
    enterpriseInstall: auth.is_enterprise_install === true,
  };
}

/**
 * The checks VidopsReceiver makes of HTTP requests, for Socket Mode envelopes: the installation
 * they come from, then their envelope ID (a redelivered envelope) and an event's ID (a retried
 * event). A request dropped here runs no handler and is acknowledged, so Slack does not send it
 * again; events were acknowledged by Bolt already.
 * @see docs/slack.md, "Request signing" and "Deadlines"
 */
export function socketModeGuard(deps: {
  installation: () => Installation | null;
  seen: (key: string) => Promise<boolean>;
  /** Forgets a key `seen` recorded: the delivery did not get through, so its redelivery must run. */
  forget: (key: string) => Promise<void>;
  logger: Pick<Logger, 'info' | 'warn'>;
}): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const { body, next, context } = args;
    const ack = 'ack' in args && typeof args.ack === 'function' ? (args.ack as () => Promise<void>) : null;
    const drop = async (message: string, fields: object) => {
      deps.logger.warn(fields, message);
      await ack?.();
    };
    const installation = deps.installation();
    const problem =
      installation === null ? 'the installation is not known yet' : installationProblem(body, installation);
    if (problem !== null) {
      await drop('refused a Slack request from another workspace', { reason: problem });
      return;
    }
    const envelopeId = context.envelopeId;
    if (typeof envelopeId === 'string' && !(await deps.seen(`envelope:${envelopeId}`))) {
      await drop('redelivered Socket Mode envelope ignored', { envelopeId });
      return;
    }
    const eventId = field(body, 'event_id');
    if (field(body, 'type') === 'event_callback' && typeof eventId === 'string') {
      if (!(await deps.seen(`event:${eventId}`))) {
        deps.logger.info({ eventId }, 'duplicate event delivery ignored');
        return;
      }
    }
    try {
      await next();
    } catch (error) {
      // A slash command's ack that could not go out (the socket closed under it) ran nothing: its
      // work is queued after the ack. Slack sends the envelope again after the reconnect, and that
      // delivery must run, not be dropped as a repeat.
      if (typeof envelopeId === 'string' && typeof field(body, 'command') === 'string' && ackNotSent(error)) {
        await deps.forget(`envelope:${envelopeId}`).catch(() => undefined);
        deps.logger.warn({ envelopeId }, 'a command’s ack did not get out; its redelivery will run');
      }
      throw error;
    }
  };
}

/**
 * The Socket Mode client's codes for a send (the ack) it could not make: the socket was closed or
 * not ready. Written out, so that HTTP mode does not load @slack/socket-mode for them.
 */
const NOT_SENT = new Set([
  'slack_socket_mode_send_while_not_ready_error',
  'slack_socket_mode_send_while_disconnected_error',
]);

function ackNotSent(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NOT_SENT.has(code);
}

/** Readiness of Slack: a cached `auth.test`, so frequent probes cost one call a minute. */
function slackAuthCheck(web: WebClient): () => Promise<void> {
  let okUntil = 0;
  let pending: Promise<void> | null = null;
  return async () => {
    if (performance.now() < okUntil) return;
    pending ??= web.auth
      .test()
      .then(() => {
        okUntil = performance.now() + SLACK_AUTH_TTL_MS;
      })
      .catch((error: unknown) => {
        throw new Error(`Slack auth failed: ${redactError(error).message}`);
      })
      .finally(() => {
        pending = null;
      });
    await pending;
  };
}

/** `/readyz`'s check: the one given, or the store's ping and a cached Slack `auth.test`. */
function readinessOf(deps: SlackAppDeps, web: WebClient): () => Promise<void> {
  if (deps.ready !== undefined) return deps.ready;
  const slackAuth = slackAuthCheck(web);
  return async () => {
    try {
      await deps.store.ping();
    } catch (error) {
      throw new Error(`store unreachable: ${redactError(error).message}`);
    }
    await slackAuth();
  };
}

/** What the receivers share: where requests come from, what was seen, and the probes' check. */
interface ReceiverParts {
  deps: SlackAppDeps;
  metrics: VidopsMetrics;
  boltLogger: BoltLogger;
  ready: () => Promise<void>;
  seen: (key: string) => Promise<boolean>;
  forget: (key: string) => Promise<void>;
  /** Known once `start()` read it from auth.test; nothing is listened to before. */
  installation: { current: Installation | null };
}

/** Socket Mode: Bolt's receiver, and the health/ready/metrics server on `config.port`. */
function socketModeReceiver(parts: ReceiverParts): { receiver: SocketModeReceiver; opsServer: OpsServer } {
  const { deps, metrics, boltLogger, ready } = parts;
  const { config, logger } = deps;
  const appToken = config.slack.appToken;
  if (!appToken) throw new Error('Socket Mode needs SLACK_APP_TOKEN');
  const slackApiUrl = config.slack.apiUrl;
  const receiver = createSocketModeReceiver({
    appToken,
    logger: boltLogger,
    logLevel: toBoltLevel(config.logLevel),
    // Each Socket Mode envelope has an ID; a redelivered envelope is recognised by it.
    customPropertiesExtractor: (args: { envelope_id?: unknown }) =>
      typeof args.envelope_id === 'string' ? { envelopeId: args.envelope_id } : {},
    ...(slackApiUrl ? { installerOptions: { clientOptions: { slackApiUrl } } } : {}),
  });
  const opsServer = new OpsServer({
    logger,
    metrics,
    ready,
    ...(deps.readyStatus === undefined ? {} : { status: deps.readyStatus }),
    ...(deps.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: deps.shutdownTimeoutMs }),
  });
  return { receiver, opsServer };
}

/** HTTP mode: {@link VidopsReceiver} on `config.port`, which checks and de-duplicates requests. */
function httpReceiver(parts: ReceiverParts): VidopsReceiver {
  const { deps, metrics, ready, seen, installation } = parts;
  const signingSecret = deps.config.slack.signingSecret;
  if (!signingSecret) throw new Error('HTTP mode needs SLACK_SIGNING_SECRET');
  return new VidopsReceiver({
    signingSecret,
    logger: deps.logger,
    metrics,
    clock: deps.clock,
    port: deps.config.port,
    ready,
    ...(deps.readyStatus === undefined ? {} : { status: deps.readyStatus }),
    seen,
    installation: () => installation.current,
    ...(deps.shed === undefined ? {} : { shed: deps.shed }),
    ...(deps.host === undefined ? {} : { host: deps.host }),
    ...(deps.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: deps.shutdownTimeoutMs }),
  });
}

function boltApp(config: Config, receiver: VidopsReceiver | SocketModeReceiver, boltLogger: BoltLogger): App {
  return new App({
    token: config.slack.botToken,
    receiver,
    logger: boltLogger,
    logLevel: toBoltLevel(config.logLevel),
    clientOptions: interactiveClientOptions(config),
    extendedErrorHandler: true,
    // Bolt would otherwise call auth.test in this constructor and keep a failed result (and an
    // unhandled rejection) for the life of the process; `start()` runs it and fails clearly.
    deferInitialization: true,
    // vidops keeps no per-conversation state; Bolt's default store builds an Error per request.
    convoStore: false,
  });
}

/** The audit-channel publisher, counted in the metrics. */
function auditPublisher(deps: SlackAppDeps, web: WebClient, metrics: VidopsMetrics): AuditPublisher {
  const { config } = deps;
  return createAuditPublisher({
    store: deps.store,
    web,
    channel: config.auditChannel,
    clock: deps.clock,
    logger: deps.logger.child({ component: 'audit-publisher' }),
    workerId: deps.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    onResult: (r) =>
      (r.post === 'events' ? metrics.auditPosts : metrics.auditCheckpointPosts).inc({ outcome: r.outcome }),
    // The audit channel reads `CHANNEL_LOCALE`, dates in `DISPLAY_TIME_ZONE`.
    lang: langFor(config.languages.channelLocale, config.languages.timeZone),
    ...deps.publisher,
  });
}

/** The app's own middleware (Socket Mode's checks, counting) and its error handler, before the handlers. */
function useMiddleware(app: App, parts: ReceiverParts): void {
  const { deps, metrics, seen, forget, installation } = parts;
  const { logger } = deps;
  if (deps.config.slack.socketMode) {
    // HTTP requests are checked and de-duplicated in VidopsReceiver; Socket Mode ones here, first.
    app.use(socketModeGuard({ installation: () => installation.current, seen, forget, logger }));
  }
  // Counts every request by outcome, the one place that does (HTTP's busy answer before Bolt
  // aside): a listener only says how it ended (`settleOutcome`); a slash command's work ends after
  // the ack, so its outcome is a promise counted when it settles. It does not wake the publisher:
  // the work after an ack appends its events later, and the store's `onAppend` wakes it then; a
  // wake-up here, with nothing appended yet, cost an empty claim (a write transaction) per request.
  app.use(async ({ body, context, next }) => {
    const command = commandLabel(body);
    try {
      await next();
    } catch (error) {
      metrics.countCommand(command, 'error');
      throw error;
    }
    const outcome = outcomeOf(context);
    if (typeof outcome === 'string') metrics.countCommand(command, outcome);
    else void outcome.then((ended) => metrics.countCommand(command, ended));
  });
  app.error(async ({ error, body }: { error: Error; body: object }) => {
    logger.error(
      { err: redactError(error), command: commandLabel(body), user: userOf(body) },
      'error in a Slack handler',
    );
    // Rethrown so the receiver answers at once (500) when nothing acknowledged the request.
    throw error;
  });
}

/** Reads the installation, then starts the receiver (and the probes server in Socket Mode); answers the port. */
async function startReceiving(
  slack: Pick<SlackApp, 'app' | 'receiver' | 'web'>,
  opsServer: OpsServer | null,
  parts: ReceiverParts,
): Promise<number> {
  const { app, receiver, web } = slack;
  const { config, logger, host } = parts.deps;
  try {
    parts.installation.current = await installationOf(web);
    await app.init();
  } catch (error) {
    throw new Error(`Slack auth.test failed at start: ${redactError(error).message}`);
  }
  if (receiver instanceof VidopsReceiver) {
    await app.start();
    return receiver.port;
  }
  const ops = opsServer as OpsServer;
  const port = await ops.listen(config.port, host);
  try {
    await app.start();
  } catch (error) {
    await ops.close();
    throw error;
  }
  logger.info({ port }, 'connected in Socket Mode; probes listening');
  return port;
}

/**
 * Assembles the Bolt app: HTTP mode with {@link VidopsReceiver} on `config.port`, or Socket Mode
 * with Bolt's SocketModeReceiver plus the same health/ready/metrics server on `config.port`; the
 * audit-channel publisher; metrics; Bolt's logger bridged to pino; `app.error` logging redacted
 * errors. Nothing listens until `start()`.
 * @see docs/architecture.md, "Runtime contract" and "Scale"
 */
export function createSlackApp(deps: SlackAppDeps): SlackApp {
  const { config, store, clock } = deps;
  const metrics = deps.metrics ?? createVidopsMetrics();
  const boltLogger = boltLoggerFor(deps.logger, config.logLevel);
  const web = createPublisherWebClient(config.slack.botToken, {
    slackApiUrl: config.slack.apiUrl,
    logger: boltLogger,
  });
  const parts: ReceiverParts = {
    deps,
    metrics,
    boltLogger,
    ready: readinessOf(deps, web),
    seen: (key) => store.markDelivered(key, clock().toISOString()),
    forget: (key) => store.forgetDelivery(key),
    installation: { current: null },
  };
  const { receiver, opsServer } = config.slack.socketMode
    ? socketModeReceiver(parts)
    : { receiver: httpReceiver(parts), opsServer: null };
  const app = boltApp(config, receiver, boltLogger);
  const publisher = auditPublisher(deps, web, metrics);
  metrics.collectDepths({ audit: () => store.outboxDepth(), notifications: () => store.notificationDepth() });
  metrics.collectReady(parts.ready);
  // Woken at once by every append, whoever wrote (a handler, the sweeper, a resumed request).
  const stopWaking = store.onAppend(() => publisher.kick());
  useMiddleware(app, parts);
  deps.register(app);

  let started = false;
  return {
    app,
    receiver,
    publisher,
    metrics,
    web,
    async start() {
      const port = await startReceiving({ app, receiver, web }, opsServer, parts);
      publisher.start();
      started = true;
      return { port };
    },
    async stop() {
      if (started) await app.stop();
      stopWaking();
      await publisher.stop();
      await opsServer?.close();
      started = false;
    },
  };
}

function userOf(body: object): string | undefined {
  const user = field(body, 'user');
  if (user && typeof user === 'object') {
    const id = field(user, 'id');
    return typeof id === 'string' ? id : undefined;
  }
  const id = field(body, 'user_id');
  return typeof id === 'string' ? id : undefined;
}
