import type { JsonObject, JsonValue } from '../core/json.js';

/**
 * The JSON form of a value built from typed objects (interfaces carry no index signature, so
 * TypeScript does not see them as JsonValue): `undefined` members dropped, anything that is not
 * JSON refused, so what is stored and hashed is exactly what was meant.
 */
export function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('toJson: numbers must be finite');
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toJson(item)));
  if (typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toJson(item);
    }
    return out;
  }
  throw new TypeError(`toJson: ${typeof value} is not JSON`);
}

/** `toJson` for values that must be objects (request params). */
export function toJsonObject(value: unknown): JsonObject {
  const json = toJson(value);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new TypeError('toJsonObject: not an object');
  }
  return json;
}
