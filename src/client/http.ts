import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import got, {
  type Got,
  TimeoutError as GotTimeoutError,
  type OptionsOfTextResponseBody,
  RequestError,
} from 'got';
import type { JsonPrimitive, JsonValue } from '../core/json.js';
import { maskMobilesInText } from '../core/mask.js';
import type { RepeatRule } from '../core/operation-spec.js';
import {
  ApiError,
  type ApiErrorDetails,
  errorForStatus,
  MAX_ANSWER_BYTES,
  MAX_ANSWER_MIB,
  NetworkError,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedAnswerError,
  ValidationError,
  WhitelistConflictError,
} from './errors.js';
import type { CallSite } from './schemas.js';

/**
 * The single request path of the client: one got instance per client, JSON in and out, status
 * mapped to typed errors, and an explicit retry loop whose rules are named constants.
 * @see docs/architecture.md, "Client of the video protection API"
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Which failures a retry policy repeats. `not-sent`: the request certainly never reached the
 * service (connection refused, name not resolved); `network`: any other connection failure,
 * which may have come after the request was sent.
 */
export type RetryReason = 'not-sent' | 'network' | 'timeout' | 'server' | 'rate-limit';

/** How often and how patiently a call is repeated. */
export interface RetryPolicy {
  readonly name: string;
  /** Total attempts, the first one included. */
  readonly maxAttempts: number;
  /** First backoff; doubles each attempt, with jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the RateLimitError goes to the caller. */
  readonly maxRetryAfterMs: number;
  readonly retryOn: readonly RetryReason[];
}

/** Reads, unblock, whitelist set, config update and edits: repeating them gives the same end state. */
export const IDEMPOTENT_RETRY: RetryPolicy = {
  name: 'idempotent',
  maxAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 10_000,
  retryOn: ['not-sent', 'network', 'timeout', 'server', 'rate-limit'],
};

/**
 * The same waits as `policy`, but a call is repeated only when the service certainly did not act
 * on it: the request never left (refused, name not resolved) or the answer was 429.
 */
export function beforeSendOnly(policy: RetryPolicy): RetryPolicy {
  return { ...policy, name: `${policy.name}, before-send only`, retryOn: ['not-sent', 'rate-limit'] };
}

/**
 * Deletes: a repeat after the service may have acted answers 404 and hides a delete that happened,
 * so a timeout, a reset after sending or a 5xx is never repeated.
 */
export const BEFORE_SEND_RETRY: RetryPolicy = beforeSendOnly(IDEMPOTENT_RETRY);

/** Creates and retry-conversion: a repeat after a lost answer could duplicate work. */
export const NO_RETRY: RetryPolicy = {
  name: 'none',
  maxAttempts: 1,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxRetryAfterMs: 0,
  retryOn: [],
};

/**
 * The policy a call to an operation's endpoint runs under, from its table's `repeat`: reads and
 * resumable changes take `policy`; deletes are repeated only before they can have been sent;
 * creates and op 10 never.
 */
export function retryFor(repeat: RepeatRule | 'read', policy: RetryPolicy): RetryPolicy {
  switch (repeat) {
    case 'read':
    case 'resume':
      return policy;
    case 'lead':
      return beforeSendOnly(policy);
    case 'never':
      return NO_RETRY;
  }
}

/** For tests: same rules as IDEMPOTENT_RETRY with millisecond waits, so a suite stays fast. */
export const RAPID_RETRY: RetryPolicy = {
  name: 'rapid',
  maxAttempts: 3,
  baseDelayMs: 1,
  maxDelayMs: 5,
  maxRetryAfterMs: 50,
  retryOn: ['not-sent', 'network', 'timeout', 'server', 'rate-limit'],
};

/** One HTTP exchange with the service, for metrics and logs (no headers, no query, no body). */
export interface CallInfo {
  operation: string;
  method: string;
  path: string;
  status: number | null;
  durationMs: number;
  /** 1 for the first try, 2 for the first retry… */
  attempt: number;
  /** `ErrorName: message`, sanitized, when the exchange failed. */
  error?: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  timeoutMs: number;
  onCall?: (info: CallInfo) => void;
}

/** A JSON request body as zod outputs it: optional members may be present as `undefined` (dropped). */
export type JsonBody = JsonPrimitive | undefined | readonly JsonBody[] | { readonly [key: string]: JsonBody };

/** One call as the resources describe it. */
export interface RequestSpec {
  operation: CallSite['operation'];
  /** From the operation's endpoint table: narrows `retry` (see retryFor); none for the extras. */
  repeat?: RepeatRule | 'read';
  method: HttpMethod;
  /** Starts with `/v1/`; IDs in it already URL-encoded. */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: { readonly [key: string]: JsonBody };
  /** Multipart body, built afresh for each attempt. */
  form?: () => FormData;
  retry: RetryPolicy;
  /** A read-only extra: a missing route becomes NotSupportedError. */
  optional?: boolean;
}

/** What came back from a successful call: parsed JSON, the text when it was not JSON, or null. */
export type ResponseBody = JsonValue | string | null;

export interface Transport {
  request(spec: RequestSpec): Promise<ResponseBody>;
  /** Frees the keep-alive sockets. */
  close(): void;
}

/** Members of an answer that hold the keys, whatever the service echoes back. */
const KEY_MEMBERS: ReadonlySet<string> = new Set(['api_key', 'secret_key', 'apikey', 'secretkey']);

/** Network error codes that mean the exchange failed on the wire, not in our code. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * Codes that can only come before a byte of the request was written: the connection was refused,
 * or the host name did not resolve. Any other failure may have come after the service got it.
 */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Builds the transport of one client: a got instance with keep-alive agents and the keys. */
export function createTransport(options: TransportOptions): Transport {
  const secrets = [options.apiKey, options.secretKey].filter((s) => s.length > 0);
  const redact = (text: string): string =>
    secrets.reduce((t, secret) => t.replaceAll(secret, '[redacted]'), text);
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  const client: Got = got.extend({
    prefixUrl: options.baseUrl,
    timeout: { request: options.timeoutMs },
    agent: agents,
    headers: {
      api_key: options.apiKey,
      secret_key: options.secretKey,
      accept: 'application/json',
    },
    // Statuses, retries and parsing are ours; a redirect could carry the key headers elsewhere.
    throwHttpErrors: false,
    // Plain bytes only, so MAX_ANSWER_BYTES caps what is held (a small gzip can unpack to gigabytes).
    decompress: false,
    retry: { limit: 0 },
    followRedirect: false,
    responseType: 'text',
  });

  async function once(spec: RequestSpec): Promise<{ body: ResponseBody; status: number }> {
    const pending = client(pathOf(spec), readyOptions(spec));
    // Counted as the bytes arrive (and from Content-Length when it is sent): past the cap the
    // exchange is cancelled, so a huge answer never sits in memory.
    let tooLarge = false;
    pending.on('downloadProgress', (progress) => {
      if (
        tooLarge ||
        (progress.transferred <= MAX_ANSWER_BYTES && (progress.total ?? 0) <= MAX_ANSWER_BYTES)
      ) {
        return;
      }
      tooLarge = true;
      pending.cancel();
    });
    let response: Awaited<typeof pending>;
    try {
      response = await pending;
    } catch (thrown) {
      if (!tooLarge) throw thrown;
      const where = `${spec.method} ${spec.path} (${spec.operation})`;
      throw new ResponseTooLargeError(
        `The service's answer to ${where} was larger than ${MAX_ANSWER_MIB} MiB; not read`,
        { status: null, body: null, operation: spec.operation, method: spec.method, path: spec.path },
      );
    }
    const parsed = parseBody(response.body, response.headers['content-type']);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const problem = unkeepable(parsed);
    if (problem !== null && ok) {
      // Acted on or not, the answer cannot be stored: the call's outcome is not known from it.
      throw new UnexpectedAnswerError(
        `The service's answer to ${spec.method} ${spec.path} (${spec.operation}) could not be read: ${problem}`,
        { status: null, body: null, operation: spec.operation, method: spec.method, path: spec.path },
      );
    }
    // The keys come out of every answer before anyone stores or shows it, success or error; an
    // error answer that cannot be kept is told by its status alone.
    const body = redactKeys(problem === null ? parsed : null, redact);
    if (ok) return { body, status: response.statusCode };
    throw errorForStatus({
      status: response.statusCode,
      body: sanitizeBody(body, redact),
      operation: spec.operation,
      method: spec.method,
      path: spec.path,
      retryAfterSeconds: parseRetryAfter(response.headers['retry-after']),
      optional: spec.optional === true,
    });
  }

  function report(info: CallInfo): void {
    if (!options.onCall) return;
    try {
      options.onCall(info);
    } catch {
      // A failing metrics or log hook must not turn a good call into a failed one.
    }
  }

  async function request(spec: RequestSpec): Promise<ResponseBody> {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      try {
        const { body, status } = await once(spec);
        report({ ...callBase(spec), status, attempt, durationMs: performance.now() - started });
        return body;
      } catch (thrown) {
        const error = toApiError(thrown, spec, (text) => maskMobilesInText(redact(text)));
        report({
          ...callBase(spec),
          status: error.status,
          attempt,
          durationMs: performance.now() - started,
          error: `${error.name}: ${error.message}`,
        });
        const wait = retryDelay(
          spec.repeat === undefined ? spec.retry : retryFor(spec.repeat, spec.retry),
          attempt,
          error,
        );
        if (wait === null) throw error;
        await delay(wait);
      }
    }
  }

  return {
    request,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function callBase(spec: RequestSpec): Pick<CallInfo, 'operation' | 'method' | 'path'> {
  return { operation: spec.operation, method: spec.method, path: spec.path };
}

/**
 * The path got is given, its query already encoded (as got's `searchParams` would encode it):
 * got then merges only a method and at most a body and a header per call.
 */
function pathOf(spec: RequestSpec): string {
  const path = spec.path.replace(/^\/+/, '');
  if (spec.query === undefined) return path;
  const query = new URLSearchParams(definedQuery(spec.query)).toString();
  return query === '' ? path : `${path}?${query}`;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** The per-call options, ready: the JSON body serialized here rather than by got's `json`. */
function readyOptions(spec: RequestSpec): OptionsOfTextResponseBody {
  if (spec.json !== undefined) {
    return { method: spec.method, body: JSON.stringify(spec.json), headers: JSON_HEADERS };
  }
  return spec.form ? { method: spec.method, body: spec.form() } : { method: spec.method };
}

function definedQuery(query: Record<string, string | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) out[key] = String(value);
  }
  return out;
}

/** JSON when it parses (whatever the content type says), else the text; empty is null. */
function parseBody(text: string, contentType: string | undefined): ResponseBody {
  if (text.trim() === '') return null;
  const looksJson = /json/i.test(contentType ?? '') || /^\s*[[{"]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Deepest answer kept: the documented ones are a few levels deep; SQLite's JSON reads 1,000. */
const MAX_ANSWER_DEPTH = 64;

/**
 * Why a parsed answer cannot be stored, shown or hashed (nested deeper than MAX_ANSWER_DEPTH, or a
 * number JSON.parse read as Infinity), or null. Walked with a stack of its own: an answer nested
 * thousands deep must not overflow the call stack here.
 */
function unkeepable(body: ResponseBody): string | null {
  const stack: Array<{ value: JsonValue; depth: number }> = body === null ? [] : [{ value: body, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, depth } = next;
    if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to read';
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_ANSWER_DEPTH) return `nested deeper than ${MAX_ANSWER_DEPTH} levels`;
    for (const member of Array.isArray(value) ? value : Object.values(value)) {
      stack.push({ value: member, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Every text of an answer, member names included, passed through `clean`; with `keyMembers`, a
 * member named like a key (`api_key`, `secret_key`, `apiKey`, `secretKey`) is `[redacted]`
 * whatever it holds. An answer may hold a key as a name (`{"grants":{"<key>":"owner"}}`).
 */
function cleanBody(body: ResponseBody, clean: (text: string) => string, keyMembers = false): ResponseBody {
  const walk = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        clean(k),
        keyMembers && KEY_MEMBERS.has(k.toLowerCase()) ? '[redacted]' : walk(v),
      ]),
    );
  };
  return body === null ? null : walk(body);
}

/** Success bodies, stored with the request and shown in the audit channel: the keys taken out. */
function redactKeys(body: ResponseBody, redact: (text: string) => string): ResponseBody {
  return cleanBody(body, redact, true);
}

/** Error bodies end up in logs and Slack messages: the keys cut out and mobile numbers masked. */
function sanitizeBody(body: ResponseBody, redact: (text: string) => string): ResponseBody {
  return cleanBody(body, (text) => maskMobilesInText(redact(text)));
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | null {
  if (header === undefined || header.trim() === '') return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - now) / 1000);
}

/** Turns whatever got threw into one of our errors, keeping only a sanitized description. */
function toApiError(thrown: unknown, spec: RequestSpec, clean: (text: string) => string): ApiError {
  if (thrown instanceof ApiError) return thrown;
  const base = (cause: string): ApiErrorDetails => ({
    status: null,
    body: null,
    operation: spec.operation,
    method: spec.method,
    path: spec.path,
    cause,
  });
  const where = `${spec.method} ${spec.path} (${spec.operation})`;
  if (thrown instanceof GotTimeoutError) {
    const cause = clean(`${thrown.code}: ${thrown.message}`);
    return new TimeoutError(`The video service did not answer ${where} in time`, base(cause));
  }
  if (thrown instanceof RequestError) {
    const code = typeof thrown.code === 'string' ? thrown.code : null;
    const cause = clean(`${code ?? thrown.name}: ${thrown.message}`);
    if (code !== null && NETWORK_CODES.has(code)) {
      return new NetworkError(`Could not reach the video service for ${where} (${code})`, {
        ...base(cause),
        code,
      });
    }
    return new ApiError(`The call ${where} failed: ${cause}`, base(cause));
  }
  const cause = clean(thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown));
  return new ApiError(`The call ${where} failed: ${cause}`, base(cause));
}

/** Milliseconds to wait before the next attempt, or null when the error goes to the caller. */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  error: ApiError,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const reason = retryReason(error);
  if (reason === null || !policy.retryOn.includes(reason)) return null;
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: spreads replicas apart yet never retries instantly.
  const backoff = exponential / 2 + (random() * exponential) / 2;
  if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
    const asked = error.retryAfterSeconds * 1000;
    if (asked > policy.maxRetryAfterMs) return null;
    return Math.max(asked, backoff);
  }
  return backoff;
}

function retryReason(error: ApiError): RetryReason | null {
  // Asking again would fetch the same oversized answer: the cap is not a passing failure.
  if (error instanceof ResponseTooLargeError) return null;
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof NetworkError) {
    return error.code !== null && NOT_SENT_CODES.has(error.code) ? 'not-sent' : 'network';
  }
  if (error instanceof RateLimitError) return 'rate-limit';
  if (error instanceof ServerError) return 'server';
  return null;
}

/**
 * True when a failed call may still have been carried out by the service: no answer came (a
 * timeout, a connection lost after sending, an answer that could not be read), or a 5xx came.
 * False when the service certainly did not act: the request never left, or a 4xx answer (429
 * included) said it was refused. Errors that are not the client's are not calls at all (false).
 */
export function mayHaveReachedService(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error instanceof TimeoutError) return true;
  if (error instanceof NetworkError) return error.code === null || !NOT_SENT_CODES.has(error.code);
  // A 4xx refused the call; a 5xx, or a 3xx (not followed: a 303 may point at what was made), may not.
  if (error.status !== null) return error.status < 400 || error.status >= 500;
  // Refused before sending: a request the client found invalid, a whitelist that changed since the
  // request. Anything else without a status is a call whose answer was lost or unreadable.
  return !(error instanceof ValidationError || error instanceof WhitelistConflictError);
}
