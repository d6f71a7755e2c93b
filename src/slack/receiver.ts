import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App, Receiver } from '@slack/bolt';
import type { Logger } from 'pino';
import { redactError } from '../core/mask.js';
import { orTimeout, settledWithin } from '../jobs/timeout.js';
import { AuthorizationError, ReceiverMultipleAckError } from './bolt.js';
import type { VidopsMetrics } from './metrics.js';

/**
 * A request must arrive whole (headers and body) within five seconds, checked every second: Slack
 * sends its small payloads at once and wants the ack within three, so a body that never ends is
 * answered 408 and its socket freed, instead of being held for Node's default five minutes.
 */
const REQUEST_BOUNDS = { requestTimeout: 5000, headersTimeout: 5000, connectionsCheckingInterval: 1000 };

/** Largest request body accepted on `/slack/events`; Slack's payloads are far smaller. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** Slack's rule: refuse a request timestamp more than five minutes from local time, either way. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;
/** Bolt's HTTP receiver answers 404 itself at 3001 ms when `ack()` was not called; so do we. */
export const UNHANDLED_REQUEST_TIMEOUT_MS = 3001;

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Checks a Slack request signature: HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing
 * secret, compared in constant time, and a timestamp within five minutes of `nowMs` either way
 * (stock Bolt only refuses old ones; a future-dated replay would pass it).
 * @see docs/slack.md, "Request signing"
 */
export function verifySlackSignature(args: {
  signingSecret: string;
  rawBody: Buffer | string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
}): VerifyResult {
  const { signature, timestamp } = args;
  if (!signature || !timestamp) return { ok: false, reason: 'missing signature headers' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'timestamp is not a number of seconds' };
  const skew = Math.abs(Math.floor(args.nowMs / 1000) - Number(timestamp));
  if (skew > MAX_CLOCK_SKEW_SECONDS) {
    return {
      ok: false,
      reason: `timestamp is ${skew} s away from local time (limit ${MAX_CLOCK_SKEW_SECONDS} s)`,
    };
  }
  const hmac = createHmac('sha256', args.signingSecret);
  hmac.update(`v0:${timestamp}:`);
  hmac.update(args.rawBody);
  const expected = Buffer.from(`v0=${hmac.digest('hex')}`, 'utf8');
  const given = Buffer.from(signature, 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch says nothing about the secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'signature does not match' };
  }
  return { ok: true };
}

/** The workspace (and Enterprise Grid organisation) the bot token belongs to, from `auth.test`. */
export interface Installation {
  teamId: string;
  enterpriseId: string | null;
  /** Installed for a whole Grid organisation: requests then come from its many workspaces. */
  enterpriseInstall: boolean;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function obj(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The workspace and organisation a request says it comes from, read where Bolt reads them:
 * an event's first authorization, a command's `team_id`, an interaction's installed team of
 * its view, or its `team`, or its user's team.
 */
export function teamOf(request: object): { teamId: string | null; enterpriseId: string | null } {
  const body = obj(request);
  if (body.type === 'event_callback') {
    const authorization = obj(Array.isArray(body.authorizations) ? body.authorizations[0] : undefined);
    return {
      teamId: str(authorization.team_id) ?? str(body.team_id),
      enterpriseId: str(authorization.enterprise_id) ?? str(body.enterprise_id),
    };
  }
  if (typeof body.command === 'string') {
    return { teamId: str(body.team_id), enterpriseId: str(body.enterprise_id) };
  }
  const team = obj(body.team);
  return {
    teamId: str(obj(body.view).app_installed_team_id) ?? str(team.id) ?? str(obj(body.user).team_id),
    enterpriseId: str(obj(body.enterprise).id) ?? str(team.enterprise_id),
  };
}

/**
 * Why a request is not for this installation, or null when it is: another workspace (another
 * installation of an app with the same signing secret), or another Grid organisation.
 */
export function installationProblem(body: object, installation: Installation): string | null {
  const { teamId, enterpriseId } = teamOf(body);
  if (installation.enterpriseInstall) {
    return enterpriseId === installation.enterpriseId
      ? null
      : `organisation ${enterpriseId ?? '(none)'} is not ${installation.enterpriseId ?? '(none)'}`;
  }
  if (teamId !== installation.teamId) return `team ${teamId ?? '(none)'} is not ${installation.teamId}`;
  if (enterpriseId !== null && enterpriseId !== installation.enterpriseId) {
    return `organisation ${enterpriseId} is not ${installation.enterpriseId ?? '(none)'}`;
  }
  return null;
}

/**
 * How long past its own timestamp a busy answer's key is kept: a signature is accepted until five
 * minutes after the time it was signed (which may be ahead of this host's clock), plus a minute.
 */
const SHED_KEY_MS = (MAX_CLOCK_SKEW_SECONDS + 60) * 1000;
/** At most this many busy answers remembered in memory (about 100 bytes each); more go to `seen`. */
const MAX_SHED_KEYS = 20_000;

/**
 * The delivery key of a signed request that carries no ID of its own (slash commands, buttons,
 * modal submissions): the SHA-256 of its signature, which covers its timestamp and body. Slack
 * never sends these twice, so a second one is a replay within the five-minute window.
 */
export function replayKey(signature: string): string {
  return `request:${createHash('sha256').update(signature).digest('hex')}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

function mediaType(req: IncomingMessage): string {
  const given = header(req, 'content-type') ?? '';
  // What Slack sends for commands and interactions, exactly: no need to take it apart.
  if (given === FORM_TYPE) return FORM_TYPE;
  return given.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A body that does not fit (413) or could not be read. */
class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(header(req, 'content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new BodyError(413, `body of ${declared} bytes exceeds ${limit}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(new BodyError(413, `body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(new BodyError(400, err.message));
    });
  });
}

type Body = Record<string, unknown>;

/**
 * A form-encoded Slack body: `payload=` JSON for interactivity, or plain fields for slash
 * commands. (Events API bodies are JSON.)
 */
function formBody(params: URLSearchParams): Body {
  const payload = params.get('payload');
  if (payload !== null) return asObject(JSON.parse(payload));
  const fields: Record<string, string> = {};
  // First value wins: Slack never repeats a field, so a repeat is not Slack's.
  for (const [k, v] of params) if (!(k in fields)) fields[k] = v;
  return fields;
}

/** The fields of a slash command that the checks before dispatch read (workspace, busy answer). */
function commandFields(params: URLSearchParams): Body {
  const fields: Record<string, string> = {};
  for (const key of ['command', 'text', 'team_id', 'enterprise_id']) {
    const value = params.get(key);
    if (value !== null) fields[key] = value;
  }
  return fields;
}

function asObject(parsed: unknown): Body {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('body is not a JSON object');
  }
  return parsed as Body;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, headers);
  res.end();
}

/** The response for an `ack(body)`: empty, text, or JSON (e.g. `response_action: errors`). */
function sendAck(res: ServerResponse, body: unknown): void {
  if (res.headersSent) return;
  if (body === undefined || body === null || body === '') {
    res.writeHead(200);
    res.end();
  } else if (typeof body === 'string') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  } else {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }
}

/** Handles the requests of `/slack/events`; the ops server routes them here. */
export type EventsHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface OpsServerOptions {
  logger: Logger;
  metrics: VidopsMetrics;
  /** Resolves when the process can serve (store reachable, Slack auth ok); throws the reason. */
  ready?: () => Promise<void>;
  /** States added to every `/readyz` answer (e.g. `checkpoints: "off: …"`); they do not decide readiness. */
  status?: () => Record<string, string>;
  /** `/slack/events`; absent in Socket Mode, where that path answers 404. */
  events?: EventsHandler;
  /** How long `close()` waits for requests in flight before cutting connections. */
  shutdownTimeoutMs?: number;
  /** How long `/readyz` waits for the check before answering 503. */
  readyTimeoutMs?: number;
}

/**
 * The HTTP server of a vidops process: `POST /slack/events` (HTTP mode), `GET /healthz`,
 * `GET /readyz`, `GET /metrics`. Shared by both receivers so Socket Mode has the same probes.
 * @see docs/architecture.md, "Runtime contract"
 */
export class OpsServer {
  private readonly server: Server;
  /** Requests whose handler has not settled or whose response has not closed. */
  private inFlight = 0;
  /** Called when the last request in flight is done (a stopping server waits for it). */
  private idle: Array<() => void> = [];
  private closing = false;
  private closed: Promise<void> | null = null;

  constructor(private readonly options: OpsServerOptions) {
    this.server = createServer(REQUEST_BOUNDS, (req, res) => {
      // A request is in flight until its handler settled and its response went out (closed).
      this.inFlight += 1;
      let open = 2;
      const settled = () => {
        open -= 1;
        if (open === 0) this.leave();
      };
      res.once('close', settled);
      this.route(req, res)
        .catch((error: unknown) => {
          options.logger.error({ err: redactError(error), path: req.url }, 'request failed');
          sendEmpty(res, 500);
        })
        .then(settled);
    });
    // Keep-alive connections would otherwise hold `close()` open until they time out.
    this.server.keepAliveTimeout = 5000;
  }

  private leave(): void {
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  /** Listens on `port` (0 picks a free one) and resolves with the port bound. */
  listen(port: number, host?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen({ port, ...(host === undefined ? {} : { host }) }, () => {
        this.server.off('error', onError);
        // Node's process metrics are measured while /metrics is served, and stopped by close().
        this.options.metrics.registry.startProcessMetrics();
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  get listening(): boolean {
    return this.server.listening;
  }

  /**
   * Stops accepting connections, waits (bounded by `shutdownTimeoutMs`) for requests in flight to
   * finish, then closes what is left.
   */
  close(): Promise<void> {
    if (this.closed) return this.closed;
    this.closing = true;
    this.closed = (async () => {
      const stopped = new Promise<void>((resolve) => {
        if (!this.server.listening) resolve();
        else this.server.close(() => resolve());
      });
      this.server.closeIdleConnections();
      const deadline = this.options.shutdownTimeoutMs ?? 10_000;
      const drained = new Promise<void>((resolve) => {
        if (this.inFlight === 0) resolve();
        else this.idle.push(() => resolve());
      });
      const outcome = (await settledWithin(drained, deadline)).kind === 'late' ? 'timeout' : 'drained';
      if (outcome === 'timeout') {
        this.options.logger.warn(
          { inFlight: this.inFlight, waitedMs: deadline },
          'shutdown: cutting requests still in flight',
        );
      }
      this.server.closeAllConnections();
      await stopped;
      this.options.metrics.registry.stopProcessMetrics();
    })();
    return this.closed;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.closing) res.setHeader('connection', 'close');
    // The path without its query: cut from a plain path, parsed when it is anything else (a whole
    // URL, dot segments, escapes).
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const plain = query === -1 ? target : target.slice(0, query);
    const path = /^\/[\w/-]*$/.test(plain) ? plain : new URL(target, 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    const only = (allowed: string): boolean => {
      if (method === allowed || (allowed === 'GET' && method === 'HEAD')) return true;
      req.resume();
      sendEmpty(res, 405, { allow: allowed });
      return false;
    };
    switch (path) {
      case '/slack/events':
        if (!this.options.events) break;
        if (only('POST')) await this.options.events(req, res);
        return;
      case '/healthz':
        if (only('GET')) sendJson(res, 200, { ok: true });
        return;
      case '/readyz':
        if (only('GET')) await this.readyz(res);
        return;
      case '/metrics':
        if (only('GET')) {
          const { registry } = this.options.metrics;
          const text = await registry.render();
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        }
        return;
    }
    req.resume();
    sendJson(res, 404, { ok: false, error: 'not found' });
  }

  private async readyz(res: ServerResponse): Promise<void> {
    if (this.closing) {
      sendJson(res, 503, { ok: false, reason: 'shutting down' });
      return;
    }
    const check = this.options.ready;
    const status = this.options.status?.() ?? {};
    if (!check) {
      sendJson(res, 200, { ok: true, ...status });
      return;
    }
    const limit = this.options.readyTimeoutMs ?? 5000;
    try {
      await orTimeout(check(), limit, `readiness check took longer than ${limit} ms`);
      sendJson(res, 200, { ok: true, ...status });
    } catch (error) {
      const { message } = redactError(error);
      this.options.logger.warn({ reason: message }, 'not ready');
      sendJson(res, 503, { ok: false, reason: message, ...status });
    }
  }
}

export interface VidopsReceiverOptions {
  signingSecret: string;
  logger: Logger;
  metrics: VidopsMetrics;
  /** Injected clock; the signature timestamp window is measured against it. */
  clock?: () => Date;
  port?: number;
  /** Listen address; default all interfaces. Tests use 127.0.0.1. */
  host?: string;
  ready?: () => Promise<void>;
  /** States added to every `/readyz` answer; see {@link OpsServerOptions}. */
  status?: () => Record<string, string>;
  /**
   * Records a delivery key and resolves true the first time it is seen, false for a repeat (wire
   * it to `store.markDelivered`). Events API deliveries are keyed `event:<event_id>` (Slack's
   * retries, re-signed, carry the same ID); every other request by {@link replayKey}. A repeat is
   * answered 200 and not processed.
   */
  seen?: (key: string) => Promise<boolean>;
  /**
   * The installation requests must come from (from `auth.test` at start); null while unknown, when
   * requests are answered 503. Without it (tests of the receiver alone) nothing is checked.
   */
  installation?: () => Installation | null;
  /**
   * Answers a request at once, before de-duplication and Bolt, when vidops cannot take it (a
   * slash command while the work queue is full): the answer to send, or null to go on. A request
   * turned away does nothing, so it needs no delivery key, and under a flood the "busy" answer
   * costs a signature check instead of a store write and Bolt's middleware.
   */
  shed?: (body: Record<string, unknown>) => object | null;
  bodyLimitBytes?: number;
  unhandledRequestTimeoutMs?: number;
  shutdownTimeoutMs?: number;
  readyTimeoutMs?: number;
}

/**
 * Bolt receiver for HTTP mode on a plain `node:http` server. Unlike Bolt's HTTPReceiver it
 * refuses future-dated signatures, de-duplicates Events API retries and replays of every other
 * signed request, refuses requests from other workspaces than the installation's, caps bodies at
 * 1 MB and serves the health, readiness and metrics routes beside `/slack/events`.
 * @see docs/slack.md, "Request signing" and "Deadlines"
 */
export class VidopsReceiver implements Receiver {
  private app: App | undefined;
  private readonly server: OpsServer;
  private readonly clock: () => Date;
  private boundPort: number | undefined;
  // Pending 3-second ack deadlines; cleared on stop so a cut request leaves no timer behind.
  private readonly ackTimers = new Set<NodeJS.Timeout>();
  /** `shed` answers as JSON text, by answer. */
  private readonly shedTexts = new WeakMap<object, string>();
  /**
   * Requests answered "busy" (nothing done), by replay key, until their signature is too old to be
   * accepted: a replay of one must do nothing either, though no delivery was recorded for it (a
   * busy answer writes nothing, to stay cheap under a flood). Kept in this process only; beyond
   * MAX_SHED_KEYS live ones, a busy answer records its key with `seen` instead.
   */
  private readonly shedKeys = new Map<string, number>();
  /** When the first of the remembered busy keys expires: no sweep finds anything before. */
  private shedSweepAt = Number.POSITIVE_INFINITY;

  constructor(private readonly options: VidopsReceiverOptions) {
    if (!options.signingSecret) throw new Error('VidopsReceiver needs a signing secret');
    this.clock = options.clock ?? (() => new Date());
    this.server = new OpsServer({
      logger: options.logger,
      metrics: options.metrics,
      events: (req, res) => this.handleEvents(req, res),
      ...(options.ready ? { ready: options.ready } : {}),
      ...(options.status ? { status: options.status } : {}),
      ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
      ...(options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: options.readyTimeoutMs }),
    });
  }

  init(app: App): void {
    this.app = app;
  }

  /** Starts listening; resolves with the port bound (useful with port 0). */
  async start(port?: number): Promise<{ port: number }> {
    if (!this.server.listening) {
      this.boundPort = await this.server.listen(port ?? this.options.port ?? 3000, this.options.host);
      this.options.logger.info({ port: this.boundPort }, 'listening for Slack requests');
    }
    return { port: this.port };
  }

  /** The port bound by `start()`. */
  get port(): number {
    if (this.boundPort === undefined) throw new Error('receiver is not started');
    return this.boundPort;
  }

  /** Stops accepting requests and waits (bounded) for those in flight. */
  async stop(): Promise<void> {
    await this.server.close();
    for (const timer of this.ackTimers) clearTimeout(timer);
    this.ackTimers.clear();
  }

  private async handleEvents(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { logger } = this.options;
    const started = process.hrtime.bigint();
    let raw: Buffer;
    try {
      raw = await readBody(req, this.options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
    } catch (error) {
      const status = error instanceof BodyError ? error.status : 400;
      logger.warn({ status, reason: redactError(error).message }, 'refused a Slack request body');
      // The rest of an oversized body is not read; close the connection rather than reuse it.
      sendEmpty(res, status, { connection: 'close' });
      req.resume();
      return;
    }
    const text = raw.toString('utf8');
    const contentType = mediaType(req);

    // Slack's certificate check: only the exact `ssl_check=1` skips verification, and it is
    // answered without dispatching anything, so nothing smuggled beside it can run. The form is
    // split once, here, and read again below only after the signature held.
    const form = contentType === FORM_TYPE ? new URLSearchParams(text) : null;
    if (form !== null && form.getAll('ssl_check').length === 1 && form.get('ssl_check') === '1') {
      sendEmpty(res, 200);
      return;
    }

    const verified = verifySlackSignature({
      signingSecret: this.options.signingSecret,
      rawBody: raw,
      signature: header(req, 'x-slack-signature'),
      timestamp: header(req, 'x-slack-request-timestamp'),
      nowMs: this.clock().getTime(),
    });
    if (!verified.ok) {
      logger.warn({ reason: verified.reason }, 'refused a Slack request: verification failed');
      sendEmpty(res, 401);
      return;
    }

    // A slash command is checked below on four of its fields, read from the form; its whole body
    // is copied out only once it is to be dispatched (under a flood most are answered "busy").
    const slash = form !== null && !form.has('payload') ? commandFields(form) : null;
    let body: Body;
    try {
      body = slash ?? (form === null ? asObject(JSON.parse(text)) : formBody(form));
    } catch (error) {
      logger.warn({ reason: redactError(error).message }, 'malformed Slack request body');
      sendEmpty(res, 400);
      return;
    }

    if (body.type === 'url_verification') {
      sendJson(res, 200, { challenge: body.challenge });
      return;
    }

    if (this.options.installation) {
      const installation = this.options.installation();
      if (installation === null) {
        logger.warn('refused a Slack request: the installation is not known yet');
        sendEmpty(res, 503);
        return;
      }
      const problem = installationProblem(body, installation);
      if (problem !== null) {
        logger.warn(
          { reason: problem, type: body.type ?? 'command' },
          'refused a Slack request from another workspace',
        );
        // 200 with a refusal rather than 401: the signature held, so Slack did send it, only for a
        // workspace this deployment does not serve (an install elsewhere of an app sharing the
        // signing secret). Slack retries Events API deliveries answered otherwise, which would only
        // repeat the refusal, and a person who typed the command reads why instead of an error.
        if (typeof body.command === 'string') {
          sendJson(res, 200, {
            response_type: 'ephemeral',
            text: 'vidops does not serve this workspace. Nothing was done.',
          });
        } else sendEmpty(res, 200);
        return;
      }
    }

    const shed = this.options.shed?.(body) ?? null;
    if (shed !== null) {
      // The same answer object every time under a flood: written to JSON once.
      let text = this.shedTexts.get(shed);
      if (text === undefined) {
        text = JSON.stringify(shed);
        this.shedTexts.set(shed, text);
      }
      if (!res.headersSent) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(text);
      }
      this.rememberShed(
        replayKey(header(req, 'x-slack-signature') ?? ''),
        Number(header(req, 'x-slack-request-timestamp')) * 1000,
      );
      this.options.metrics.ackSeconds.observe({}, Number(process.hrtime.bigint() - started) / 1e9);
      return;
    }

    if (slash !== null && form !== null) body = formBody(form);

    if (this.options.seen) {
      const isEvent = body.type === 'event_callback' && typeof body.event_id === 'string';
      const key = isEvent
        ? `event:${String(body.event_id)}`
        : replayKey(header(req, 'x-slack-signature') ?? '');
      let first: boolean;
      try {
        first = !this.wasShed(key) && (await this.options.seen(key));
      } catch (error) {
        // Without the de-duplication record we cannot tell a repeat; let Slack deliver again.
        logger.error({ err: redactError(error) }, 'could not record a Slack delivery');
        sendEmpty(res, 500);
        return;
      }
      if (!first) {
        if (isEvent) {
          logger.info(
            { eventId: body.event_id, retryNum: header(req, 'x-slack-retry-num') },
            'duplicate event delivery ignored',
          );
        } else {
          logger.warn({ type: body.type ?? 'command' }, 'replayed Slack request ignored');
        }
        sendEmpty(res, 200);
        return;
      }
    }

    await this.dispatch(req, res, body, started);
  }

  /**
   * Keeps a busy answer's key until its signature (made at `signedAtMs`) is refused as too old.
   * Expired keys are swept when the map is full; a live key is never dropped: when the map is full
   * of live keys, the key is recorded with `seen`, as a request that runs is.
   */
  private rememberShed(key: string, signedAtMs = this.clock().getTime()): void {
    const now = this.clock().getTime();
    if (this.shedKeys.size >= MAX_SHED_KEYS && now >= this.shedSweepAt) {
      let first = Number.POSITIVE_INFINITY;
      for (const [k, until] of this.shedKeys) {
        if (until <= now) this.shedKeys.delete(k);
        else first = Math.min(first, until);
      }
      this.shedSweepAt = first;
    }
    const until = signedAtMs + SHED_KEY_MS;
    const keep = () => {
      this.shedKeys.set(key, until);
      this.shedSweepAt = Math.min(this.shedSweepAt, until);
    };
    if (this.shedKeys.size < MAX_SHED_KEYS) {
      keep();
      return;
    }
    // Without `seen` nothing is de-duplicated here at all (a receiver alone, in tests).
    this.options.seen?.(key).catch((error: unknown) => {
      // Kept here past the bound rather than dropped: only while the store fails.
      keep();
      this.options.logger.error(
        { err: redactError(error) },
        'could not record a command answered busy in the store; remembered in memory instead',
      );
    });
  }

  private wasShed(key: string): boolean {
    const until = this.shedKeys.get(key);
    return until !== undefined && until > this.clock().getTime();
  }

  private async dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    body: Body,
    started: bigint,
  ): Promise<void> {
    const { logger, metrics } = this.options;
    const app = this.app;
    if (!app) throw new Error('receiver was not initialised by a Bolt App');
    let acked = false;
    const timer = setTimeout(() => {
      this.ackTimers.delete(timer);
      if (acked) return;
      logger.error({ type: body.type }, 'a Slack request was not acknowledged within 3 seconds');
      sendEmpty(res, 404);
    }, this.options.unhandledRequestTimeoutMs ?? UNHANDLED_REQUEST_TIMEOUT_MS);
    this.ackTimers.add(timer);
    const clearTimer = () => {
      clearTimeout(timer);
      this.ackTimers.delete(timer);
    };

    const ack = async (response?: unknown): Promise<void> => {
      if (acked) throw new ReceiverMultipleAckError();
      acked = true;
      clearTimer();
      metrics.ackSeconds.observe({}, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.headersSent) {
        logger.warn({ type: body.type }, 'ack() came after the response was already sent');
        return;
      }
      sendAck(res, response);
    };

    const retryNum = Number.parseInt(header(req, 'x-slack-retry-num') ?? '', 10);
    const retryReason = header(req, 'x-slack-retry-reason');
    try {
      await app.processEvent({
        body,
        ack,
        ...(Number.isFinite(retryNum) ? { retryNum } : {}),
        ...(retryReason === undefined ? {} : { retryReason }),
        customProperties: { receivedAt: this.clock().getTime() },
      });
    } catch (error) {
      // Bolt already gave the error to the app's error handler, which rethrew it; answer the
      // request if nothing did yet, as Bolt's receiver does.
      clearTimer();
      // Logged at warn: the app's error handler (or Bolt's default one) has logged the error.
      logger.warn({ err: redactError(error), type: body.type }, 'answering a Slack request that failed');
      if (!res.headersSent) {
        acked = true;
        sendEmpty(res, error instanceof AuthorizationError ? 401 : 500);
      }
    }
  }
}
