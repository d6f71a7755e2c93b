import type { JsonObject, JsonValue } from '../core/json.js';
import { type ApiError, UnexpectedAnswerError } from './errors.js';
import type { ResponseBody } from './http.js';
import type { CallSite } from './schemas.js';

/**
 * Permissive reading of the service's answers, whose shapes the spec does not show: a `data`
 * envelope is unwrapped when present, IDs are `_id` or `id`, lists sit under `items`, `data`,
 * `docs` or at the top, and whatever was sent is kept as `raw`.
 * @see docs/api.md, "Responses"
 */

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The payload inside a `{ data: … }` envelope, or the body itself. */
export function unwrap(body: ResponseBody): ResponseBody {
  if (isObject(body) && 'data' in body && typeof body.data === 'object' && body.data !== null) {
    return body.data;
  }
  return body;
}

/** The answer as a JSON object: objects as they are, anything else as `{ value }`. */
export function asRaw(body: ResponseBody): JsonObject {
  if (isObject(body)) return body;
  return { value: body };
}

/** The record an answer is about: the unwrapped object (or `{ value }`). */
export function recordOf(body: ResponseBody): JsonObject {
  return asRaw(unwrap(body));
}

/** First of `keys` holding a string (numbers are given as text, IDs sometimes are numbers). */
export function text(record: JsonObject, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

export function num(record: JsonObject, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  }
  return null;
}

export function bool(record: JsonObject, ...keys: string[]): boolean | null {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'boolean') return value;
  }
  return null;
}

/** `_id` or `id` of a record. */
export function idOf(record: JsonObject, ...more: string[]): string | null {
  return text(record, '_id', 'id', ...more);
}

const LIST_KEYS = ['items', 'data', 'docs'] as const;
const TOTAL_KEYS = ['total', 'totalDocs', 'totalCount', 'count', 'totalItems'] as const;

/**
 * Items and total of a list answer, or null when no list can be found. Looks at the top level,
 * then one envelope down (`{ data: { docs: [...], totalDocs } }`).
 */
export function listOf(body: ResponseBody): { items: JsonValue[]; total: number | null } | null {
  if (Array.isArray(body)) return { items: body, total: null };
  if (!isObject(body)) return null;
  for (const key of LIST_KEYS) {
    const value = body[key];
    if (Array.isArray(value)) return { items: value, total: num(body, ...TOTAL_KEYS) };
  }
  const inner = body.data;
  if (isObject(inner)) {
    for (const key of LIST_KEYS) {
      const value = inner[key];
      if (Array.isArray(value)) {
        return { items: value, total: num(inner, ...TOTAL_KEYS) ?? num(body, ...TOTAL_KEYS) };
      }
    }
  }
  return null;
}

/**
 * The error for a 2xx answer that cannot be read. The body is left out (it may hold mobile
 * numbers); the message names the shape instead.
 */
export function unexpectedAnswer(site: CallSite, body: ResponseBody, wanted: string): ApiError {
  const shape = isObject(body)
    ? `an object with ${Object.keys(body).slice(0, 10).join(', ') || 'no fields'}`
    : Array.isArray(body)
      ? 'a list'
      : body === null
        ? 'nothing'
        : `a ${typeof body}`;
  return new UnexpectedAnswerError(
    `The video service answered ${site.method} ${site.path} (${site.operation}) with ${shape}; expected ${wanted}`,
    { status: null, body: null, operation: site.operation, method: site.method, path: site.path },
  );
}
