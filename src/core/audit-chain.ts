import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from './json.js';
import type { AuditEvent } from './model.js';
import { iteratorOf } from './tee.js';

/**
 * Computes an event's hash from everything else in it. `ofCanonical`, when there, hashes the
 * canonical JSON of those fields already written (what the function itself would write first), so
 * a store that has the text does not write the event a second time.
 */
export type HashEvent = ((event: Omit<AuditEvent, 'hash'>) => string) & {
  ofCanonical?: (canonical: string) => string;
};

/** The `prevHash` of the first event of a chain. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of an event: SHA-256, or HMAC-SHA256 when a key is configured, over the canonical
 * JSON of every field but `hash` itself (so `seq` and `prevHash` are covered and events cannot be
 * reordered or dropped without breaking the chain).
 * @see docs/architecture.md, "Audit log"
 */
export function createHasher(hmacKey?: string): HashEvent {
  const ofCanonical = (canonical: string): string => {
    const h = hmacKey === undefined ? createHash('sha256') : createHmac('sha256', hmacKey);
    return h.update(canonical, 'utf8').digest('hex');
  };
  const hash = (event: Omit<AuditEvent, 'hash'>): string => {
    const { hash: _ignored, ...rest } = event as AuditEvent;
    return ofCanonical(canonicalJson(rest));
  };
  return Object.assign(hash, { ofCanonical });
}

/**
 * The columns a store keeps beside the hashed event JSON so that it can be queried (by actor, by
 * time, by request). They are not hashed: `verifyChain` compares each with the hashed event,
 * since whoever queries them sees what they say.
 */
export const STORED_COLUMNS = ['id', 'at', 'type', 'actor_id', 'operation', 'request_id'] as const;
export type StoredColumn = (typeof STORED_COLUMNS)[number];

/** An event as a store holds it: the hashed event, and its columns exactly as read. */
export interface StoredAuditEvent {
  event: AuditEvent;
  columns: Readonly<Record<StoredColumn, string | null>>;
}

/** What each column must say, from the hashed event. */
const COLUMN_VALUE: Readonly<Record<StoredColumn, (event: AuditEvent) => string | null>> = {
  id: (e) => e.id,
  at: (e) => e.at,
  type: (e) => e.type,
  actor_id: (e) => e.actor.id,
  operation: (e) => e.operation,
  request_id: (e) => e.requestId ?? null,
};

export type VerifyResult =
  | { ok: true; count: number; head: { seq: number; hash: string } | null }
  | {
      ok: false;
      count: number;
      brokenAt: number;
      /** `chain`: the hashes do not hold; `column`: a stored column disagrees with a sound event. */
      kind: 'chain' | 'column';
      reason: string;
    };

/** How far past a broken link verify looks for the event that belongs there, to name a reordering. */
const REORDER_LOOKAHEAD = 1000;

type Entry = AuditEvent | StoredAuditEvent;

function isStored(entry: Entry): entry is StoredAuditEvent {
  return 'event' in entry && 'columns' in entry;
}

/** The same instant, or the same text when either is not a time. */
function sameTime(a: string, b: string): boolean {
  const [ma, mb] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(ma) || Number.isNaN(mb) ? a === b : ma === mb;
}

function shownValue(value: string | null): string {
  if (value === null) return 'NULL';
  return /^[\w.:+-]+$/.test(value) ? value : JSON.stringify(value);
}

/** The first stored column that disagrees with the (already verified) event, as a sentence. */
function columnMismatch(stored: StoredAuditEvent): string | null {
  const { event, columns } = stored;
  for (const column of STORED_COLUMNS) {
    const hashed = COLUMN_VALUE[column](event);
    const said = columns[column];
    const same =
      said === null || hashed === null
        ? said === hashed
        : column === 'at'
          ? sameTime(said, hashed)
          : said === hashed;
    if (!same) {
      return `event #${event.seq}: column ${column} says ${shownValue(said)} but the hashed event says ${shownValue(hashed)}`;
    }
  }
  return null;
}

/**
 * Recomputes the chain oldest first and names the first event that does not fit: a gap in `seq`
 * (events removed), a `prevHash` that is not the previous hash (named as a reordering when the
 * event that belongs there comes a little later, else removed or replaced), a wrong hash (edited),
 * and, for events read with their stored columns, a column that says something else than the
 * hashed event (`actor_id`, `type`, `operation`, `at`, `id`, `request_id` edited).
 */
export async function verifyChain(
  events: Iterable<Entry> | AsyncIterable<Entry>,
  hash: HashEvent,
): Promise<VerifyResult> {
  const iterator = iteratorOf(events);
  const next = async (): Promise<Entry | undefined> => {
    const step = await iterator.next();
    return step.done ? undefined : step.value;
  };
  let prevHash = GENESIS_HASH;
  let prevSeq: number | null = null;
  let count = 0;
  let head: { seq: number; hash: string } | null = null;
  const broken = (event: AuditEvent, kind: 'chain' | 'column', reason: string): VerifyResult => ({
    ok: false,
    count,
    brokenAt: event.seq,
    kind,
    reason,
  });
  try {
    for (let entry = await next(); entry !== undefined; entry = await next()) {
      const event = isStored(entry) ? entry.event : entry;
      if (prevSeq !== null && event.seq !== prevSeq + 1) {
        return broken(event, 'chain', `event #${event.seq} follows #${prevSeq}: events are missing`);
      }
      if (event.prevHash !== prevHash) {
        return broken(event, 'chain', await misplaced(event, prevHash, prevSeq, next));
      }
      if (hash(event) !== event.hash) {
        return broken(
          event,
          'chain',
          `event #${event.seq} was altered (its hash does not match its content)`,
        );
      }
      if (isStored(entry)) {
        const mismatch = columnMismatch(entry);
        if (mismatch !== null) return broken(event, 'column', mismatch);
      }
      prevHash = event.hash;
      prevSeq = event.seq;
      head = { seq: event.seq, hash: event.hash };
      count += 1;
    }
  } finally {
    await iterator.return?.();
  }
  return { ok: true, count, head };
}

/**
 * Why `event` does not link to the event before it: when one of the next events is the one that
 * links there, the two are out of order; otherwise something before it was removed or replaced.
 */
async function misplaced(
  event: AuditEvent,
  expected: string,
  prevSeq: number | null,
  next: () => Promise<Entry | undefined>,
): Promise<string> {
  const before = prevSeq === null ? 'the start of the chain' : `#${prevSeq}'s hash`;
  for (let i = 0; i < REORDER_LOOKAHEAD; i += 1) {
    const entry = await next();
    if (entry === undefined) break;
    const later = isStored(entry) ? entry.event : entry;
    if (later.prevHash === expected) {
      return `events #${event.seq} and #${later.seq} are out of order: #${later.seq}'s prevHash is ${before}`;
    }
  }
  return `event #${event.seq} does not link to the event before it (prevHash differs from ${before}): an event was removed or replaced`;
}

/** The first 12 hex digits of a hash: what the audit channel shows as the outside witness. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}
