import type { IncomingHttpHeaders } from 'node:http';
import type { RecordedRequest } from './types.js';

/** Headers whose values never leave the sandbox: the access keys and any bearer credential. */
const SECRET_HEADERS = new Set(['api_key', 'secret_key', 'authorization', 'cookie']);

/** A copy of `headers` with secret values replaced by `[redacted]`. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  }
  return out;
}

/** Query parameters as an object; a repeated parameter becomes an array. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const previous = out[name];
    out[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return out;
}

/** The `/v1` requests received, oldest first, keeping only the newest `limit`. */
export class RequestLog {
  private entries: RecordedRequest[] = [];

  constructor(private readonly limit = 5000) {}

  /** Adds an entry; the caller fills in `status` once it has answered. */
  add(entry: RecordedRequest): RecordedRequest {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.shift();
    return entry;
  }

  list(): RecordedRequest[] {
    return structuredClone(this.entries);
  }

  clear(): number {
    const count = this.entries.length;
    this.entries = [];
    return count;
  }
}
