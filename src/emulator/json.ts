import type { JsonObject, JsonValue } from '../core/json.js';

/**
 * JSON as the emulator reads it from requests and answers it: the few checks every part of it
 * makes of loosely typed fields, and Slack's shape of an error answer.
 */

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function list(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** `text` read as a JSON object; undefined when it is not one. */
export function parseObject(text: string): JsonObject | undefined {
  try {
    const parsed: JsonValue = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A form field as text: strings as they are, numbers and booleans written out. */
export function str(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** `true` as JSON or as a form field says it. */
export function truthy(value: JsonValue | undefined): boolean {
  return value === true || value === 'true';
}

/** Slack's answer to a call it refuses: HTTP 200 with `ok: false` and the error's code. */
export function fail(error: string, extra: JsonObject = {}): JsonObject {
  return { ok: false, error, ...extra };
}

/** A refusal that lists what is wrong, as Slack does for blocks and views. */
export function problemAnswer(code: string, errors: string[]): JsonObject {
  return fail(code, { errors, response_metadata: { messages: errors.map((e) => `[ERROR] ${e}`) } });
}
