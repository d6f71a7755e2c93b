import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonObject, type ParsedBody, parseBody, readBody, recordedBody } from './body.js';
import { DEMO } from './demo-data.js';
import { errorBody, routeNotFound, SandboxHttpError } from './errors.js';
import { FaultBook, type FaultRule, FaultRulesBodySchema, normalisePath } from './faults.js';
import { queryObject, RequestLog, redactHeaders } from './request-log.js';
import {
  apiRoutes,
  BareNotFound,
  documentedRoutes,
  type Handler,
  matchRoute,
  methodNotAllowed,
  type Route,
  route,
} from './routes.js';
import { SandboxModel, type WhitelistMode } from './state.js';
import type { RecordedRequest, SandboxState } from './types.js';
import { parseInput } from './validation.js';

export { DEMO } from './demo-data.js';
export type { FaultRule } from './faults.js';
export { DOCUMENTED_ENDPOINTS, isDocumentedCall } from './routes.js';
export type { RecordedRequest, SandboxState } from './types.js';

/** How to start the sandbox; every member has a default. */
export interface SandboxOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Expected `api_key` header; default `demo-api-key`. */
  apiKey?: string;
  /** Expected `secret_key` header; default `demo-secret-key`. */
  secretKey?: string;
  /** How long a retried conversion stays `waiting`; default 2000 ms. */
  conversionDelayMs?: number;
  /** Start (and reset) with the demo data; default true. */
  demoData?: boolean;
  /** Whether op 1 replaces the whitelist or appends to it; default `replace`. */
  whitelistMode?: WhitelistMode;
  /**
   * Serve the read-only extras (default true). False: exactly the 13 documented operations, and
   * every other method or path answers 404 `{"message":"not found"}`, as a service without the
   * extras and with no documented error format would. `/__sandbox/…` stays in both modes.
   */
  extras?: boolean;
  /** Called once each `/v1` request is answered (or reset), e.g. for an access log. */
  onRequest?: (request: RecordedRequest, durationMs: number) => void;
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** False when only the 13 documented operations are served. */
  extras: boolean;
  /** Stops listening, ends keep-alive sockets and pending delays. */
  close(): Promise<void>;
  /** Back to the initial data; faults and the request log cleared. */
  reset(): void;
  /** Replaces the fault rules; throws on an invalid rule. */
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  state(): SandboxState;
  /** The `/v1` requests received, oldest first (at most the last 5,000). */
  requests(): RecordedRequest[];
  clearRequests(): void;
}

const JSON_TYPE = 'application/json';

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  // Digests have one length, so the comparison takes the same time whatever was sent.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function callerIpOf(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

type Answer = { status: number; payload: string; headers: Record<string, string> };

/** What one running sandbox keeps; every function below takes it explicitly. */
interface SandboxContext {
  readonly options: SandboxOptions;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly model: SandboxModel;
  readonly faults: FaultBook;
  readonly log: RequestLog;
  readonly extras: boolean;
  readonly api: readonly Route[];
  readonly control: readonly Route[];
  /** Pending delays, resolved at once when the sandbox closes. */
  readonly delays: Map<NodeJS.Timeout, () => void>;
  closed: boolean;
}

/**
 * Starts the local emulator of the video protection API: the 13 operations, the read-only
 * extras (unless `extras: false`), and the `/__sandbox/*` control surface (reset, faults, state,
 * request log).
 * @see docs/architecture.md, "Sandbox"
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const ctx = sandboxContext(options);
  const server = createServer((req, res) => {
    handle(ctx, req, res).catch((error: unknown) => {
      console.error('sandbox: request failed', error);
      if (!res.headersSent) send(res, internalError());
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    extras: ctx.extras,
    close: () => closeSandbox(ctx, server),
    reset: () => resetSandbox(ctx),
    setFaults: (rules) => {
      ctx.faults.replace(rules);
    },
    clearFaults: () => ctx.faults.clear(),
    state: () => ctx.model.snapshot(),
    requests: () => ctx.log.list(),
    clearRequests: () => {
      ctx.log.clear();
    },
  };
}

function sandboxContext(options: SandboxOptions): SandboxContext {
  const model = new SandboxModel({
    conversionDelayMs: options.conversionDelayMs ?? 2000,
    whitelistMode: options.whitelistMode ?? 'replace',
    demoData: options.demoData ?? true,
  });
  const extras = options.extras ?? true;
  const ctx: SandboxContext = {
    options,
    apiKey: options.apiKey ?? DEMO.apiKey,
    secretKey: options.secretKey ?? DEMO.secretKey,
    model,
    faults: new FaultBook(),
    log: new RequestLog(5000),
    extras,
    api: extras ? apiRoutes(model) : documentedRoutes(apiRoutes(model)),
    control: [],
    delays: new Map(),
    closed: false,
  };
  return Object.assign(ctx, { control: controlRoutes(ctx) });
}

function resetSandbox(ctx: SandboxContext): void {
  ctx.model.reset();
  ctx.faults.clear();
  ctx.log.clear();
}

async function closeSandbox(ctx: SandboxContext, server: Server): Promise<void> {
  if (ctx.closed) return;
  ctx.closed = true;
  for (const [timer, resolve] of ctx.delays) {
    clearTimeout(timer);
    resolve();
  }
  ctx.delays.clear();
  const stopped = new Promise<void>((resolve, reject) =>
    server.close((error) => (error === undefined ? resolve() : reject(error))),
  );
  server.closeAllConnections();
  await stopped;
}

/** The `/__sandbox/*` control surface: reset, faults, state, request log. */
function controlRoutes(ctx: SandboxContext): Route[] {
  return [
    route('/__sandbox/reset', {
      POST: () => {
        resetSandbox(ctx);
        return { reset: true };
      },
    }),
    route('/__sandbox/faults', {
      GET: () => ({ rules: ctx.faults.list() }),
      POST: ({ body }) => ({
        rules: ctx.faults.replace(parseInput(FaultRulesBodySchema, jsonObject(body)).rules),
      }),
      DELETE: () => {
        ctx.faults.clear();
        return { rules: [] };
      },
    }),
    route('/__sandbox/state', { GET: () => ctx.model.snapshot() }),
    route('/__sandbox/requests', {
      GET: () => ({ requests: ctx.log.list() }),
      DELETE: () => ({ cleared: ctx.log.clear() }),
    }),
  ];
}

/** Resolves after `ms`, or at once when the sandbox closes. */
function delay(ctx: SandboxContext, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      ctx.delays.delete(timer);
      resolve();
    }, ms);
    timer.unref();
    ctx.delays.set(timer, resolve);
  });
}

function send(res: ServerResponse, answer: Answer, contentType = JSON_TYPE): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, {
    ...answer.headers,
    'content-type': contentType,
    'content-length': Buffer.byteLength(answer.payload),
  });
  res.end(answer.payload);
}

function errorAnswer(error: SandboxHttpError): Answer {
  return { status: error.status, payload: JSON.stringify(error.body()), headers: error.headers };
}

function internalError(): Answer {
  return {
    status: 500,
    payload: JSON.stringify(errorBody(500, 'internal sandbox error', { code: 'INTERNAL' })),
    headers: {},
  };
}

/** Runs the handler of the matching route, mapping every outcome to status and body. */
async function dispatch(
  routes: readonly Route[],
  req: IncomingMessage,
  path: string,
  query: URLSearchParams,
  body: ParsedBody,
): Promise<Answer> {
  try {
    const match = matchRoute(routes, path);
    if (match === null) throw routeNotFound();
    const method = req.method ?? 'GET';
    const handler: Handler | undefined = match.route.methods[method];
    if (handler === undefined) throw methodNotAllowed(method, path, Object.keys(match.route.methods));
    const result = await handler({ params: match.params, query, body, callerIp: callerIpOf(req) });
    return { status: 200, payload: JSON.stringify(result), headers: {} };
  } catch (error) {
    if (error instanceof SandboxHttpError) return errorAnswer(error);
    // A bug in the sandbox, not in the caller: say so without leaking anything.
    console.error('sandbox: unexpected error', error);
    return internalError();
  }
}

function answerFault(res: ServerResponse, rule: FaultRule): number {
  const status = rule.status ?? 500;
  if (rule.body === undefined) {
    const payload = JSON.stringify(errorBody(status, 'injected fault', { code: 'INJECTED_FAULT' }));
    send(res, { status, payload, headers: rule.headers ?? {} });
    return status;
  }
  const contentType = rule.contentType ?? (isJson(rule.body) ? JSON_TYPE : 'text/plain');
  send(res, { status, payload: rule.body, headers: rule.headers ?? {} }, contentType);
  return status;
}

/** Answers a `/v1` call: the key check, then the route; without the extras, only the 13. */
function answerApi(
  ctx: SandboxContext,
  req: IncomingMessage,
  path: string,
  url: URL,
  body: ParsedBody,
): Promise<Answer> | Answer {
  const method = req.method ?? 'GET';
  const served = ctx.extras || matchRoute(ctx.api, path)?.route.methods[method] !== undefined;
  // Without the extras, anything else is not there at all, whoever asks.
  if (!served) return { status: 404, payload: JSON.stringify(new BareNotFound().body()), headers: {} };
  if (!sameSecret(req.headers.api_key, ctx.apiKey) || !sameSecret(req.headers.secret_key, ctx.secretKey)) {
    return {
      status: 401,
      payload: JSON.stringify(errorBody(401, 'missing or invalid api_key/secret_key')),
      headers: {},
    };
  }
  return dispatch(ctx.api, req, path, url.searchParams, body);
}

async function handle(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const url = new URL(req.url ?? '/', 'http://sandbox.local');
  const path = normalisePath(url.pathname);
  const method = req.method ?? 'GET';
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    if (!(error instanceof SandboxHttpError)) throw error;
    // The rest of the body is still coming: answer, then drop the connection.
    res.setHeader('connection', 'close');
    send(res, errorAnswer(error));
    return;
  }
  const body = await parseBody(raw, req.headers['content-type']);

  if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
    send(res, await dispatch(ctx.control, req, path, url.searchParams, body));
    return;
  }
  if (path !== '/v1' && !path.startsWith('/v1/')) {
    send(res, errorAnswer(ctx.extras ? routeNotFound() : new BareNotFound()));
    return;
  }

  const entry = ctx.log.add({
    at: new Date().toISOString(),
    method,
    path,
    query: queryObject(url.searchParams),
    headers: redactHeaders(req.headers),
    body: recordedBody(body),
    status: null,
  });
  const done = (status: number | null) => {
    entry.status = status;
    ctx.options.onRequest?.(structuredClone(entry), performance.now() - started);
  };

  const fault = ctx.faults.take(method, path);
  if (fault?.latencyMs !== undefined && fault.latencyMs > 0) await delay(ctx, fault.latencyMs);
  if (ctx.closed) return;
  if (fault?.reset === true) {
    req.socket.destroy();
    done(null);
    return;
  }
  if (fault?.status !== undefined) {
    done(answerFault(res, fault));
    return;
  }
  const result = await answerApi(ctx, req, path, url, body);
  // Faults after the handling: the change has taken effect, its answer is late or never comes.
  if (fault?.latencyAfterMs !== undefined && fault.latencyAfterMs > 0) await delay(ctx, fault.latencyAfterMs);
  if (fault?.resetAfter === true) req.socket.destroy();
  else send(res, result);
  done(result.status);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
