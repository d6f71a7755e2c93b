import { STATUS_CODES } from 'node:http';
import type { JsonObject } from '../core/json.js';

/**
 * An error the sandbox answers as JSON: `{statusCode, error, message, ...extra}`. Thrown by the
 * pure state and validation code; the HTTP layer only serialises it.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: JsonObject = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The JSON body of the answer. */
  body(): JsonObject {
    return errorBody(this.status, this.message, this.extra);
  }
}

/** `{statusCode, error, message}` with the reason phrase of the status, plus any extra members. */
export function errorBody(status: number, message: string, extra: JsonObject = {}): JsonObject {
  return { statusCode: status, error: STATUS_CODES[status] ?? 'Error', message, ...extra };
}

/** 400 naming the first field at fault: message `<field>: <why>`. */
export function badRequest(field: string, why: string): SandboxHttpError {
  return new SandboxHttpError(400, `${field}: ${why}`, { field });
}

/** 404 for an identifier nobody knows (as opposed to a route nobody knows). */
export function notFound(kind: string, id: string): SandboxHttpError {
  return new SandboxHttpError(404, `${kind} ${id} not found`, { code: 'NOT_FOUND' });
}

/** 404 for a path that is not a route at all. */
export function routeNotFound(): SandboxHttpError {
  return new SandboxHttpError(404, 'route not found', { code: 'ROUTE_NOT_FOUND' });
}
