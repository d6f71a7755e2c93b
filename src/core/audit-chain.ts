import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from './json.js';
import type { AuditEvent } from './model.js';

/** Computes an event's hash from everything else in it. */
export type HashEvent = (event: Omit<AuditEvent, 'hash'>) => string;

/** The `prevHash` of the first event of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of an event: SHA-256, or HMAC-SHA256 when a key is configured, over the canonical
 * JSON of every field but `hash` itself (so `seq` and `prevHash` are covered and events cannot be
 * reordered or dropped without breaking the chain).
 * @see docs/architecture.md, "Audit log"
 */
export function createHasher(hmacKey?: string): HashEvent {
  return (event) => {
    const { hash: _ignored, ...rest } = event as AuditEvent;
    const body = canonicalJson(rest);
    const h = hmacKey === undefined ? createHash('sha256') : createHmac('sha256', hmacKey);
    return h.update(body, 'utf8').digest('hex');
  };
}

export type VerifyResult =
  | { ok: true; count: number; head: { seq: number; hash: string } | null }
  | { ok: false; count: number; brokenAt: number; reason: string };

/**
 * Recomputes the chain oldest first and names the first event that does not fit: a wrong hash
 * (edited), a `prevHash` that is not the previous hash (removed or reordered), or a gap in `seq`.
 */
export async function verifyChain(
  events: Iterable<AuditEvent> | AsyncIterable<AuditEvent>,
  hash: HashEvent,
): Promise<VerifyResult> {
  let prevHash = GENESIS_HASH;
  let prevSeq: number | null = null;
  let count = 0;
  let head: { seq: number; hash: string } | null = null;
  for await (const event of events) {
    if (prevSeq !== null && event.seq !== prevSeq + 1) {
      return {
        ok: false,
        count,
        brokenAt: event.seq,
        reason: `event #${event.seq} follows #${prevSeq}: events are missing`,
      };
    }
    if (event.prevHash !== prevHash) {
      return {
        ok: false,
        count,
        brokenAt: event.seq,
        reason: `event #${event.seq} does not link to the event before it (prevHash differs)`,
      };
    }
    if (hash(event) !== event.hash) {
      return {
        ok: false,
        count,
        brokenAt: event.seq,
        reason: `event #${event.seq} was altered (its hash does not match its content)`,
      };
    }
    prevHash = event.hash;
    prevSeq = event.seq;
    head = { seq: event.seq, hash: event.hash };
    count += 1;
  }
  return { ok: true, count, head };
}

/** The first 12 hex digits of a hash: what the audit channel shows as the outside witness. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}
