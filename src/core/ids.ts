import { randomFillSync, randomUUID } from 'node:crypto';

/** Crockford base32: no I, L, O or U, so an ID read aloud or retyped is not misread. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const REQUEST_ID_LENGTH = 8;

/** `R-` followed by 8 Crockford base32 characters, e.g. `R-7QK2M9XD`. */
export const REQUEST_ID_PATTERN = /^R-[0-9A-HJKMNP-TV-Z]{8}$/;

/**
 * Random bytes drawn 64 IDs at a time and each used once: one system call per 64 requests rather
 * than one per request, as `randomUUID` does for event IDs.
 */
const pool = Buffer.alloc(REQUEST_ID_LENGTH * 64);
let poolAt = pool.length;

/**
 * A short request ID a person can type into `/vidops` or the CLI: 40 random bits, short enough to
 * read out on a call. Two can meet among tens of thousands of requests; the services then draw
 * another (services/operations.ts, `createWithFreshId`).
 * @see docs/architecture.md, "Approvals"
 */
export function newRequestId(): string {
  if (poolAt + REQUEST_ID_LENGTH > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let out = 'R-';
  for (let i = poolAt; i < poolAt + REQUEST_ID_LENGTH; i++) out += CROCKFORD[(pool[i] ?? 0) & 31];
  poolAt += REQUEST_ID_LENGTH;
  return out;
}

/** A random unique audit event ID (UUID v4). */
export function newEventId(): string {
  return randomUUID();
}

/**
 * Reads a request ID as people type it: any case, surrounding spaces or backticks, the `R-`
 * prefix optional, and the letters Crockford maps (I/L → 1, O → 0). Null when it cannot be one.
 * An R is taken for the prefix only when eight characters follow it: one ID in 32 begins with R.
 */
export function normalizeRequestId(raw: string): string | null {
  const typed = raw
    .trim()
    .replace(/^`+|`+$/g, '')
    .trim()
    .toUpperCase();
  const cleaned = (/^R[-_ ]?(.{8})$/.exec(typed)?.[1] ?? typed).replace(/[IL]/g, '1').replace(/O/g, '0');
  const id = `R-${cleaned}`;
  return REQUEST_ID_PATTERN.test(id) ? id : null;
}
