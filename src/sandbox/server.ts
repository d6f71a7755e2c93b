import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

/**
 * Starts the local emulator of the video protection API: the 13 operations, the read-only
 * extras (unless `extras: false`), and the `/__sandbox/*` control surface (reset, faults, state,
 * request log).
 * @see docs/architecture.md, "Sandbox"
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const apiKey = options.apiKey ?? DEMO.apiKey;
  const secretKey = options.secretKey ?? DEMO.secretKey;
  const model = new SandboxModel({
    conversionDelayMs: options.conversionDelayMs ?? 2000,
    whitelistMode: options.whitelistMode ?? 'replace',
    demoData: options.demoData ?? true,
  });
  const faults = new FaultBook();
  const log = new RequestLog(5000);
  const extras = options.extras ?? true;
  const api = extras ? apiRoutes(model) : documentedRoutes(apiRoutes(model));
  /** In documented-only mode, whether a method and path is one of the 13 operations. */
  const served = (method: string, path: string) =>
    extras || matchRoute(api, path)?.route.methods[method] !== undefined;
  const bareNotFound = () => ({
    status: 404,
    payload: JSON.stringify(new BareNotFound().body()),
    headers: {},
  });
  const delays = new Map<NodeJS.Timeout, () => void>();
  let closed = false;

  const reset = () => {
    model.reset();
    faults.clear();
    log.clear();
  };

  const control: Route[] = [
    route('/__sandbox/reset', {
      POST: () => {
        reset();
        return { reset: true };
      },
    }),
    route('/__sandbox/faults', {
      GET: () => ({ rules: faults.list() }),
      POST: ({ body }) => ({
        rules: faults.replace(parseInput(FaultRulesBodySchema, jsonObject(body)).rules),
      }),
      DELETE: () => {
        faults.clear();
        return { rules: [] };
      },
    }),
    route('/__sandbox/state', { GET: () => model.snapshot() }),
    route('/__sandbox/requests', {
      GET: () => ({ requests: log.list() }),
      DELETE: () => ({ cleared: log.clear() }),
    }),
  ];

  /** Resolves after `ms`, or at once when the sandbox closes. */
  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        delays.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      delays.set(timer, resolve);
    });

  const send = (
    res: ServerResponse,
    status: number,
    payload: string,
    headers: Record<string, string> = {},
    contentType = JSON_TYPE,
  ) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, {
      ...headers,
      'content-type': contentType,
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
  };

  const sendError = (res: ServerResponse, error: SandboxHttpError) =>
    send(res, error.status, JSON.stringify(error.body()), error.headers);

  /** Runs the handler of the matching route, mapping every outcome to status and body. */
  const dispatch = async (
    routes: readonly Route[],
    req: IncomingMessage,
    path: string,
    query: URLSearchParams,
    body: ParsedBody,
  ): Promise<{ status: number; payload: string; headers: Record<string, string> }> => {
    try {
      const match = matchRoute(routes, path);
      if (match === null) throw routeNotFound();
      const method = req.method ?? 'GET';
      const handler: Handler | undefined = match.route.methods[method];
      if (handler === undefined) throw methodNotAllowed(method, path, Object.keys(match.route.methods));
      const result = await handler({ params: match.params, query, body, callerIp: callerIpOf(req) });
      return { status: 200, payload: JSON.stringify(result), headers: {} };
    } catch (error) {
      if (error instanceof SandboxHttpError) {
        return { status: error.status, payload: JSON.stringify(error.body()), headers: error.headers };
      }
      // A bug in the sandbox, not in the caller: say so without leaking anything.
      console.error('sandbox: unexpected error', error);
      return {
        status: 500,
        payload: JSON.stringify(errorBody(500, 'internal sandbox error', { code: 'INTERNAL' })),
        headers: {},
      };
    }
  };

  const answerFault = (res: ServerResponse, rule: FaultRule): number => {
    const status = rule.status ?? 500;
    if (rule.body === undefined) {
      send(
        res,
        status,
        JSON.stringify(errorBody(status, 'injected fault', { code: 'INJECTED_FAULT' })),
        rule.headers,
      );
      return status;
    }
    send(
      res,
      status,
      rule.body,
      rule.headers,
      rule.contentType ?? (isJson(rule.body) ? JSON_TYPE : 'text/plain'),
    );
    return status;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
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
      sendError(res, error);
      return;
    }
    const body = await parseBody(raw, req.headers['content-type']);

    if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
      const result = await dispatch(control, req, path, url.searchParams, body);
      send(res, result.status, result.payload, result.headers);
      return;
    }
    if (path !== '/v1' && !path.startsWith('/v1/')) {
      sendError(res, extras ? routeNotFound() : new BareNotFound());
      return;
    }

    const entry = log.add({
      at: new Date().toISOString(),
      method,
      path,
      query: queryObject(url.searchParams),
      headers: redactHeaders(req.headers),
      body: recordedBody(body),
      status: null,
    });
    const done = () => options.onRequest?.(structuredClone(entry), performance.now() - started);

    const fault = faults.take(method, path);
    if (fault?.latencyMs !== undefined && fault.latencyMs > 0) await delay(fault.latencyMs);
    if (closed) return;
    if (fault?.reset === true) {
      req.socket.destroy();
      done();
      return;
    }
    if (fault?.status !== undefined) {
      entry.status = answerFault(res, fault);
      done();
      return;
    }

    // Without the extras, anything else is not there at all, whoever asks.
    const result = !served(method, path)
      ? bareNotFound()
      : sameSecret(req.headers.api_key, apiKey) && sameSecret(req.headers.secret_key, secretKey)
        ? await dispatch(api, req, path, url.searchParams, body)
        : {
            status: 401,
            payload: JSON.stringify(errorBody(401, 'missing or invalid api_key/secret_key')),
            headers: {},
          };
    // Faults after the handling: the change has taken effect, its answer is late or never comes.
    if (fault?.latencyAfterMs !== undefined && fault.latencyAfterMs > 0) await delay(fault.latencyAfterMs);
    if (fault?.resetAfter === true) {
      req.socket.destroy();
      entry.status = result.status;
      done();
      return;
    }
    send(res, result.status, result.payload, result.headers);
    entry.status = result.status;
    done();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('sandbox: request failed', error);
      if (!res.headersSent) {
        send(res, 500, JSON.stringify(errorBody(500, 'internal sandbox error', { code: 'INTERNAL' })));
      } else {
        res.destroy();
      }
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
    extras,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const [timer, resolve] of delays) {
        clearTimeout(timer);
        resolve();
      }
      delays.clear();
      const stopped = new Promise<void>((resolve, reject) =>
        server.close((error) => (error === undefined ? resolve() : reject(error))),
      );
      server.closeAllConnections();
      await stopped;
    },
    reset,
    setFaults: (rules) => {
      faults.replace(rules);
    },
    clearFaults: () => faults.clear(),
    state: () => model.snapshot(),
    requests: () => log.list(),
    clearRequests: () => {
      log.clear();
    },
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
