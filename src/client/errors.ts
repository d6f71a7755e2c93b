import { VidopsError } from '../core/errors.js';
import type { JsonValue } from '../core/json.js';
import type { Failure } from '../core/said.js';
import { failureEnglish } from '../i18n/messages/errors-en.js';

/**
 * Typed errors of the video protection API client. They carry what a person or a service needs to
 * act (status, the service's answer, which operation, method and path) and never the request
 * headers, the keys or got's own error object (whose `options` hold the keys).
 * @see docs/architecture.md, "Client of the video protection API"
 */

/** What every ApiError knows about the call it came from. */
export interface ApiErrorDetails {
  status: number | null;
  body: JsonValue | string | null;
  operation: string;
  method: string;
  /** Path without the query string (queries may hold mobile numbers). */
  path: string;
  /** Sanitized description of the underlying failure (never the original error object). */
  cause?: string;
}

/** Any failure of a call to the video protection API. */
export class ApiError extends VidopsError {
  readonly status: number | null;
  readonly body: JsonValue | string | null;
  readonly operation: string;
  readonly method: string;
  readonly path: string;

  constructor(message: string, details: ApiErrorDetails) {
    // A string cause keeps the diagnosis without dragging got's options (with the keys) along.
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.body = details.body;
    this.operation = details.operation;
    this.method = details.method;
    this.path = details.path;
  }
}

/** 401/403: the keys are wrong, revoked, or lack the right. */
export class AuthError extends ApiError {}

/** 404 for an unknown ID (the route itself exists). */
export class NotFoundError extends ApiError {}

/** 400/422 from the service, or a request refused by the client before anything was sent. */
export class ValidationError extends ApiError {
  /** Dotted names of the fields at fault (empty when the service did not say). */
  readonly fields: readonly string[];
  /** One line per problem, in plain words. */
  readonly issues: readonly string[];

  constructor(
    message: string,
    details: ApiErrorDetails & { fields?: readonly string[]; issues?: readonly string[] },
  ) {
    super(message, details);
    this.fields = details.fields ?? [];
    this.issues = details.issues ?? [];
  }
}

/** 429: too many calls; `retryAfterSeconds` is the service's hint when it gave one. */
export class RateLimitError extends ApiError {
  readonly retryAfterSeconds: number | null;

  constructor(message: string, details: ApiErrorDetails & { retryAfterSeconds: number | null }) {
    super(message, details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** 5xx: the service failed. */
export class ServerError extends ApiError {}

/** No complete answer within the configured timeout. */
export class TimeoutError extends ApiError {}

/**
 * Largest answer read from the service. The documented answers are small JSON; a bigger one
 * (a runaway list, a proxy's error page, an attack) is cut off unread rather than held in memory.
 */
export const MAX_ANSWER_MIB = 1;
export const MAX_ANSWER_BYTES = MAX_ANSWER_MIB * 1024 * 1024;

/**
 * The answer was larger than the client reads ({@link MAX_ANSWER_BYTES}), so the
 * exchange was cut off unread. Like a timeout, the request itself had been sent: a change may or
 * may not have been applied. A TimeoutError, so every rule about timeouts holds for it too.
 */
export class ResponseTooLargeError extends TimeoutError {}

/** The connection failed (refused, reset, DNS…); `code` is the system error code. */
export class NetworkError extends ApiError {
  readonly code: string | null;

  constructor(message: string, details: ApiErrorDetails & { code: string | null }) {
    super(message, details);
    this.code = details.code;
  }
}

/**
 * An optional endpoint (an extra, or a method of op 10) does not exist on this service, or may
 * not: an extra that never answered 200 gives this for any 404.
 */
export class NotSupportedError extends ApiError {}

/** A 2xx answer vidops cannot read (not JSON, or not the shape of what was asked for). */
export class UnexpectedAnswerError extends ApiError {}

/** The whitelist changed between the request and its execution; nothing was posted. */
export class WhitelistConflictError extends ApiError {
  readonly expected: readonly string[];
  readonly actual: readonly string[];

  constructor(
    message: string,
    details: ApiErrorDetails & { expected: readonly string[]; actual: readonly string[] },
  ) {
    super(message, details);
    this.expected = details.expected;
    this.actual = details.actual;
  }
}

/** After the POST, the service's whitelist is not the one intended (e.g. it appended). */
export class WhitelistMismatchError extends ApiError {
  readonly intended: readonly string[];
  readonly actual: readonly string[];

  constructor(
    message: string,
    details: ApiErrorDetails & { intended: readonly string[]; actual: readonly string[] },
  ) {
    super(message, details);
    this.intended = details.intended;
    this.actual = details.actual;
  }
}

/** Where an HTTP answer came from, for {@link errorForStatus}. */
export interface HttpFailure {
  status: number;
  body: JsonValue | string | null;
  operation: string;
  method: string;
  path: string;
  /** Parsed `Retry-After`, in seconds. */
  retryAfterSeconds: number | null;
  /** True for the read-only extras, which may be missing on the live service. */
  optional: boolean;
}

/**
 * The one place where an HTTP status becomes an error class.
 * @see docs/api-extras.md (extras answering 404/405 are "not supported")
 */
export function errorForStatus(failure: HttpFailure): ApiError {
  const { status, body, operation, method, path } = failure;
  const details: ApiErrorDetails = { status, body, operation, method, path };
  const said = serviceMessage(body);
  const where = `${method} ${path} (${operation})`;
  const message = `The video service answered ${status} to ${where}${said ? `: ${said}` : ''}`;
  if (failure.optional && isMissingRoute(status, body)) {
    return new NotSupportedError(
      `${operation} is not supported by this service (${method} ${path} answered ${status})`,
      details,
    );
  }
  if (status === 401 || status === 403) return new AuthError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 400 || status === 422) {
    const field = isObject(body) && typeof body.field === 'string' ? [body.field] : [];
    return new ValidationError(message, { ...details, fields: field, issues: said ? [said] : [] });
  }
  if (status === 429) {
    return new RateLimitError(message, { ...details, retryAfterSeconds: failure.retryAfterSeconds });
  }
  if (status >= 500) return new ServerError(message, details);
  return new ApiError(message, details);
}

/**
 * True when the answer says the route (not the record) is missing: 405, or 404 with code
 * ROUTE_NOT_FOUND, a non-JSON body, or the "Cannot POST /path" message of Express/NestJS.
 */
export function isMissingRoute(status: number | null, body: JsonValue | string | null): boolean {
  if (status === 405) return true;
  if (status !== 404) return false;
  if (!isObject(body)) return true;
  if (body.code === 'ROUTE_NOT_FOUND') return true;
  if (typeof body.code === 'string') return false;
  const message = typeof body.message === 'string' ? body.message : '';
  return /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(message);
}

/**
 * A 404 of an extra that has not answered 200 yet: the route may not exist at all, so it is not
 * taken as "no such record".
 * @see docs/api-extras.md (every extra is optional on the live service)
 */
export function unprovenExtra(error: NotFoundError): NotSupportedError {
  const { status, body, operation, method, path } = error;
  return new NotSupportedError(
    `${operation} may not be offered by this service (${method} ${path} answered ${status ?? 'nothing'} before it ever answered 200)`,
    { status, body, operation, method, path },
  );
}

/**
 * What went wrong with a call, in a few words a person can act on ("the service answered 404"),
 * naming the status or the failure; never the body, which may hold mobile numbers.
 */
export function failureInWords(error: unknown): string {
  return failureEnglish(failureOf(error));
}

/** Why a call failed, as data, for a sentence worded in the reader's language. */
export function failureOf(error: unknown): Failure {
  if (error instanceof TimeoutError) return { kind: 'timeout' };
  if (error instanceof NetworkError) return { kind: 'unreachable', code: error.code };
  if (error instanceof UnexpectedAnswerError) return { kind: 'unreadable' };
  if (error instanceof ApiError && error.status !== null) return { kind: 'answered', status: error.status };
  if (error instanceof ValidationError) return { kind: 'refusedBefore' };
  return { kind: 'failed' };
}

/** Same test, on an error already thrown. */
export function isMissingRouteError(error: unknown): error is ApiError {
  return error instanceof ApiError && isMissingRoute(error.status, error.body);
}

const MAX_SAID = 300;

/** The human part of an error answer: `message` (string or list), else `error`, else the text. */
function serviceMessage(body: JsonValue | string | null): string {
  let said = '';
  if (typeof body === 'string') said = body.trim();
  else if (isObject(body)) {
    const m = body.message;
    if (typeof m === 'string') said = m;
    else if (Array.isArray(m)) said = m.filter((x) => typeof x === 'string').join('; ');
    else if (typeof body.error === 'string') said = body.error;
  }
  said = said.replace(/\s+/g, ' ');
  return said.length > MAX_SAID ? `${said.slice(0, MAX_SAID)}…` : said;
}

function isObject(value: JsonValue | string | null): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
