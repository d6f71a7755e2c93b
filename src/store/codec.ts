import { STORED_COLUMNS, type StoredAuditEvent, type StoredColumn } from '../core/audit-chain.js';
import { type BatchStep, STEP_STATES, type StepState } from '../core/batch.js';
import { readRequest } from '../core/catalog.js';
import type { Delegation } from '../core/delegation.js';
import { InputError } from '../core/errors.js';
import { canonicalJson, canonicalMembers, type JsonValue, joinMembers } from '../core/json.js';
import type {
  Actor,
  Approval,
  AuditEvent,
  BreakGlassRecord,
  FollowUp,
  NewAuditEvent,
  OperationRequest,
  RecordedError,
  RequestState,
  SlackRef,
} from '../core/model.js';
import type { RevertOf, StoredUndo, TimeBox } from '../core/time-box.js';
import { foldViewerUnblocks, type ViewerUnblock } from '../core/viewer-history.js';
import type {
  HashEvent,
  ModalDraft,
  NotificationJob,
  RequestDm,
  RequestDmKind,
  RequestPatch,
  StoredCheckpoint,
} from './store.js';

/**
 * Row mapping shared by the SQLite and PostgreSQL adapters. Both keep the queried fields in
 * columns and everything else as canonical JSON text, so values come back exactly as written
 * and the audit chain verifies after a round trip.
 * @see docs/architecture.md, "Audit log"
 */

/** What the store logs (a pino logger fits): only metadata, never row contents or secrets. */
export interface StoreLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The listeners of `Store.onAppend`, told after a commit that appended audit events. A listener
 * that throws is logged and skipped: the write it follows is committed already.
 */
export class AppendListeners {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly logger: StoreLogger | undefined) {}

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Tells every listener, when `events` (committed) is not empty. */
  notify(events: readonly unknown[]): void {
    if (events.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.logger?.warn(
          { error: error instanceof Error ? error.name : typeof error },
          'an append listener failed',
        );
      }
    }
  }
}

/** Fields of a request that live in the `data` JSON column rather than in their own column. */
interface RequestData {
  /** Typed when written; read back as JSON and parsed by `readRequest`. */
  params: unknown;
  paramsHash: string;
  target: string;
  preview: unknown;
  reason: string | null;
  requester: Actor;
  quorum: number;
  approvals: Approval[];
  decidedBy: Actor | null;
  decisionNote: string | null;
  result: JsonValue | null;
  error: RecordedError | null;
  slack: SlackRef | null;
  /** Absent until the request is first followed up (and in rows written before follow-ups). */
  followUp?: FollowUp;
  /** Only on requests run by break-glass. */
  breakGlass?: BreakGlassRecord | undefined;
  /** Only on time-boxed changes, done reversible changes, and the requests that undo them. */
  timeBox?: TimeBox | undefined;
  undo?: StoredUndo | undefined;
  revertOf?: RevertOf | undefined;
  /** Only on requests a judging step sent (src/core/seal.ts). */
  seal?: string | undefined;
  undoSeal?: string | undefined;
}

/** A `requests` row as both adapters read it (timestamps already as ISO strings). */
export interface RequestRow {
  id: string;
  operation: string;
  state: string;
  created_at: string;
  expires_at: string | null;
  updated_at: string;
  version: number;
  data: string;
}

/** The columns both adapters select for a request, the fields of {@link RequestRow}. */
export const REQUEST_COLUMNS = 'id, operation, state, created_at, expires_at, updated_at, version, data';

/** `WHERE a AND b`, or nothing when there is no condition. */
export function whereClause(conditions: readonly string[]): string {
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}

/** An open request: the condition of the partial index `requests_open`, word for word. */
export const OPEN_REQUEST = "state IN ('pending', 'approved', 'executing')";

/** The columns both adapters select for an event, in the order of {@link AuditRow}. */
export const EVENT_COLUMNS = 'seq, prev_hash, hash, event';

/**
 * An `audit_events` row as an array: verify and export read the whole log, and array rows plus a
 * parsed body completed in place cost half as much as object rows copied into a new object.
 */
export type AuditRow = [seq: number, prevHash: string, hash: string, event: string];

/**
 * Every row of `audit_events` in keyset pages by `seq`, not one open cursor: a consumer may pause
 * between rows for as long as it likes. `page(after)` reads the next `pageSize` rows after `after`.
 */
export async function* keysetPages<R extends readonly [number, ...unknown[]], T>(
  page: (after: number) => Promise<readonly R[]> | readonly R[],
  pageSize: number,
  map: (row: R) => T,
): AsyncIterable<T> {
  let after = 0;
  for (;;) {
    const rows = await page(after);
    for (const row of rows) yield map(row);
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    after = last[0];
  }
}

/** The columns both adapters select for a checkpoint, the fields of {@link CheckpointRow}. */
export const CHECKPOINT_COLUMNS = 'size, head, made_at, note, posted_at';

/** A `checkpoints` row as both adapters read it (times already as ISO strings). */
export interface CheckpointRow {
  size: number;
  head: string;
  made_at: string;
  note: string;
  posted_at: string | null;
}

export function rowToCheckpoint(row: CheckpointRow): StoredCheckpoint {
  return {
    size: row.size,
    head: row.head,
    time: new Date(row.made_at).toISOString(),
    note: row.note,
    postedAt: row.posted_at === null ? null : new Date(row.posted_at).toISOString(),
  };
}

/** Column values of a new checkpoint, checked: a whole size, a hex head, a time, a note. */
export function checkpointColumns(c: { size: number; head: string; time: string; note: string }): unknown[] {
  if (!Number.isSafeInteger(c.size) || c.size < 0)
    throw new InputError(`checkpoint size ${c.size} is not a count`);
  if (!/^[0-9a-f]{64}$/.test(c.head)) throw new InputError('checkpoint head is not 64 hex digits');
  if (c.note === '') throw new InputError('checkpoint note is empty');
  return [c.size, c.head, normalizeTime(c.time, 'time'), c.note];
}

/** The columns both adapters select for a notification job, the fields of {@link NotificationRow}. */
export const NOTIFICATION_COLUMNS = 'id, request_id, state, version, at';

/** A `notifications` row as both adapters read it (`at` already as an ISO string). */
export interface NotificationRow {
  id: number;
  request_id: string;
  state: string;
  version: number;
  at: string;
}

export function rowToNotification(row: NotificationRow): NotificationJob {
  return {
    id: row.id,
    requestId: row.request_id,
    state: row.state as RequestState,
    version: row.version,
    at: new Date(row.at).toISOString(),
  };
}

/** Jobs oldest first, whatever order the database returned them in. */
export function byJobId(a: NotificationJob, b: NotificationJob): number {
  return a.id - b.id;
}

/**
 * Timestamps in columns are normalised to `Date#toISOString()` form so that comparisons (text in
 * SQLite, timestamptz in PostgreSQL) agree with time order whatever form the caller used.
 */
/** A `drafts` row as both databases return it (times as ISO strings). */
export interface DraftRow {
  key: string;
  user_id: string;
  kind: string;
  payload: string;
  created_at: string;
  expires_at: string;
}

export const DRAFT_COLUMNS = 'key, user_id, kind, payload, created_at, expires_at';

/** The columns of a draft, times normalised, payload as JSON text. */
export function draftColumns(d: ModalDraft): unknown[] {
  return [
    d.key,
    d.userId,
    d.kind,
    JSON.stringify(d.payload),
    normalizeTime(d.createdAt, 'createdAt'),
    normalizeTime(d.expiresAt, 'expiresAt'),
  ];
}

/** A draft row back as a draft; null when it expired at `now`. */
export function rowToDraft(row: DraftRow | undefined, now: string): ModalDraft | null {
  if (row === undefined) return null;
  const expiresAt = new Date(row.expires_at).toISOString();
  if (Date.parse(expiresAt) <= Date.parse(now)) return null;
  return {
    key: row.key,
    userId: row.user_id,
    kind: row.kind,
    payload: JSON.parse(row.payload) as JsonValue,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt,
  };
}

export function normalizeTime(value: string, what: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InputError(`${what} is not an ISO-8601 time: "${value}"`);
  return new Date(ms).toISOString();
}

/** `at` plus `ms` milliseconds, as an ISO string (lease ends). */
export function addMs(at: string, ms: number): string {
  return new Date(Date.parse(normalizeTime(at, 'time')) + ms).toISOString();
}

function requestData(r: RequestData): RequestData {
  // Picked field by field so that stray runtime properties never reach the database.
  return {
    params: r.params,
    paramsHash: r.paramsHash,
    target: r.target,
    preview: r.preview,
    reason: r.reason,
    requester: r.requester,
    quorum: r.quorum,
    approvals: r.approvals,
    decidedBy: r.decidedBy,
    decisionNote: r.decisionNote,
    result: r.result,
    error: r.error,
    slack: r.slack,
    ...(r.followUp === undefined ? {} : { followUp: r.followUp }),
    breakGlass: r.breakGlass,
    ...(r.timeBox === undefined ? {} : { timeBox: r.timeBox }),
    ...(r.undo === undefined ? {} : { undo: r.undo }),
    ...(r.revertOf === undefined ? {} : { revertOf: r.revertOf }),
    ...(r.seal === undefined ? {} : { seal: r.seal }),
    ...(r.undoSeal === undefined ? {} : { undoSeal: r.undoSeal }),
  };
}

/** Column values of a new request. */
export function requestColumns(r: OperationRequest): {
  id: string;
  operation: string;
  state: string;
  requesterId: string;
  createdAt: string;
  expiresAt: string | null;
  updatedAt: string;
  version: number;
  data: string;
  /** A new pending request is due for the follow-up sweep at once: it reads the policy. */
  followUpAt: string | null;
} {
  if (!Number.isSafeInteger(r.version)) throw new InputError(`request version must be an integer`);
  return {
    id: r.id,
    operation: r.operation,
    state: r.state,
    requesterId: r.requester.id,
    createdAt: normalizeTime(r.createdAt, 'createdAt'),
    expiresAt: r.expiresAt === null ? null : normalizeTime(r.expiresAt, 'expiresAt'),
    updatedAt: normalizeTime(r.updatedAt, 'updatedAt'),
    version: r.version,
    data: canonicalJson(requestData(r)),
    followUpAt: r.state === 'pending' ? normalizeTime(r.createdAt, 'createdAt') : null,
  };
}

/** The `data` JSON of a request after `patch`, given its current `data`. */
export function patchedData(currentData: string, patch: RequestPatch): string {
  const current = JSON.parse(currentData) as RequestData;
  const next: RequestData = { ...current };
  if (patch.approvals !== undefined) next.approvals = patch.approvals;
  if (patch.decidedBy !== undefined) next.decidedBy = patch.decidedBy;
  if (patch.decisionNote !== undefined) next.decisionNote = patch.decisionNote;
  if (patch.result !== undefined) next.result = patch.result;
  if (patch.error !== undefined) next.error = patch.error;
  if (patch.slack !== undefined) next.slack = patch.slack;
  if (patch.followUp !== undefined) next.followUp = patch.followUp;
  if (patch.breakGlass !== undefined) next.breakGlass = patch.breakGlass;
  if (patch.timeBox !== undefined) next.timeBox = patch.timeBox;
  if (patch.undo !== undefined) next.undo = patch.undo;
  if (patch.seal !== undefined) next.seal = patch.seal;
  if (patch.undoSeal !== undefined) next.undoSeal = patch.undoSeal;
  return canonicalJson(requestData(next));
}

/** A row as a typed request: its parameters and preview parsed once, here (`readRequest`). */
export function rowToRequest(row: RequestRow): OperationRequest {
  const data = JSON.parse(row.data) as RequestData;
  return readRequest({
    id: row.id,
    operation: row.operation,
    params: data.params,
    paramsHash: data.paramsHash,
    target: data.target,
    preview: data.preview,
    reason: data.reason,
    requester: data.requester,
    state: row.state as RequestState,
    quorum: data.quorum,
    approvals: data.approvals,
    decidedBy: data.decidedBy,
    decisionNote: data.decisionNote,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    updatedAt: row.updated_at,
    result: data.result,
    error: data.error,
    slack: data.slack,
    ...(data.followUp === undefined ? {} : { followUp: data.followUp }),
    version: row.version,
    ...(data.breakGlass === undefined || data.breakGlass === null ? {} : { breakGlass: data.breakGlass }),
    ...(data.timeBox === undefined ? {} : { timeBox: data.timeBox }),
    ...(data.undo === undefined ? {} : { undo: data.undo }),
    ...(data.revertOf === undefined ? {} : { revertOf: data.revertOf }),
    ...(data.seal === undefined ? {} : { seal: data.seal }),
    ...(data.undoSeal === undefined ? {} : { undoSeal: data.undoSeal }),
  });
}

/** The part of an event stored as JSON: everything but its place in the chain. */
function eventBody(e: NewAuditEvent): NewAuditEvent {
  return {
    id: e.id,
    type: e.type,
    at: e.at,
    actor: e.actor,
    operation: e.operation,
    target: e.target,
    params: e.params,
    requestId: e.requestId,
    outcome: e.outcome,
    error: e.error,
  };
}

/** An event placed in the chain, with the values its columns need. */
export interface ChainedEvent {
  event: AuditEvent;
  /** Canonical JSON of the event body (without seq, prevHash, hash). */
  json: string;
  /** `at` normalised for range queries. */
  at: string;
}

/**
 * Places `events` after `head` in the chain: consecutive `seq`, each `prevHash` the hash before,
 * each `hash` from the injected hasher. Must run while the caller holds the append lock.
 */
export function chainEvents(
  head: { seq: number; hash: string } | null,
  events: readonly NewAuditEvent[],
  hash: HashEvent,
  genesis: string,
): ChainedEvent[] {
  let seq = head?.seq ?? 0;
  let prevHash = head?.hash ?? genesis;
  return events.map((e) => {
    // Each member is written once: the stored body, and the hashed text with seq and prevHash.
    const members = canonicalMembers(eventBody(e));
    const json = joinMembers(members);
    // Stored as canonical JSON and parsed back, so what is hashed is exactly what is read later.
    const stored = JSON.parse(json) as NewAuditEvent;
    seq += 1;
    const unhashed = { ...stored, seq, prevHash };
    const digest = hash.ofCanonical?.(joinMembers(members, { seq, prevHash })) ?? hash(unhashed);
    const event: AuditEvent = { ...unhashed, hash: digest };
    prevHash = event.hash;
    return { event, json, at: normalizeTime(e.at, `event ${e.id} at`) };
  });
}

/**
 * The columns `audit verify` reads: those of {@link AuditRow}, then every column kept beside the
 * event JSON (`STORED_COLUMNS`, in that order), to compare them with the hashed event.
 */
export const VERIFY_COLUMNS = `${EVENT_COLUMNS}, ${STORED_COLUMNS.join(', ')}`;

/** A row of {@link VERIFY_COLUMNS}. */
/** The stored columns as the driver gives them: text, unless someone retyped one in the database. */
export type VerifyRow = [...AuditRow, ...(string | null | Uint8Array | number | bigint)[]];

/** The event and its stored columns as read, for `verifyChain`. */
export function rowToStoredEvent(row: VerifyRow): StoredAuditEvent {
  const event = rowToEvent([row[0], row[1], row[2], row[3]]);
  const columns = {} as Record<StoredColumn, string | null>;
  STORED_COLUMNS.forEach((name, i) => {
    const value = row[4 + i];
    // A column retyped in the database (a BLOB, a number) says something else than the event's
    // text, even when its bytes spell the same: it is shown as what it is, and so disagrees.
    if (value === undefined || value === null) columns[name] = null;
    else if (typeof value === 'string') columns[name] = value;
    else columns[name] = `(${value instanceof Uint8Array ? 'blob' : typeof value}) ${String(value)}`;
  });
  return { event, columns };
}

export function rowToEvent(row: AuditRow): AuditEvent {
  const event = JSON.parse(row[3]) as AuditEvent;
  event.seq = row[0];
  event.prevHash = row[1];
  event.hash = row[2];
  return event;
}

/** An event read for one of several viewers: the {@link AuditRow}, then the viewer it was read for. */
export type ViewerAuditRow = [...AuditRow, viewer: string];

/** Each viewer's unblocks, folded from the events read for it in one statement (in `seq` order). */
export function foldByViewer(
  viewers: readonly string[],
  rows: readonly ViewerAuditRow[],
): Map<string, ViewerUnblock[]> {
  const events = new Map<string, AuditEvent[]>(viewers.map((v) => [v, []]));
  for (const row of rows) events.get(row[4])?.push(rowToEvent([row[0], row[1], row[2], row[3]]));
  return new Map([...events].map(([viewer, read]) => [viewer, foldViewerUnblocks(viewer, read)]));
}

/** Which events `listAudit` returns: the newest `last` (capped by `limit`) or the oldest `limit`. */
export function auditWindow(query: { last?: number; limit?: number }): {
  newest: boolean;
  count: number | null;
} {
  const { last, limit } = query;
  if (last !== undefined) return { newest: true, count: Math.max(0, Math.min(last, limit ?? last)) };
  return { newest: false, count: limit === undefined ? null : Math.max(0, limit) };
}

// --- Delegations (migration 6) -------------------------------------------------------------

/** The columns both adapters select for a delegation. */
export const DELEGATION_COLUMNS = 'id, until, ended_at, data';

/** A `delegations` row as both adapters read it (times already as ISO strings). */
export interface DelegationRow {
  id: string;
  until: string;
  ended_at: string | null;
  data: string;
}

/** Column values of a new delegation: the queried fields, and the whole delegation as JSON. */
export function delegationColumns(d: Delegation): {
  id: string;
  leadId: string;
  delegateId: string;
  createdAt: string;
  until: string;
  endedAt: string | null;
  data: string;
} {
  return {
    id: d.id,
    leadId: d.lead.id,
    delegateId: d.delegate.id,
    createdAt: normalizeTime(d.createdAt, 'createdAt'),
    until: normalizeTime(d.until, 'until'),
    endedAt: d.endedAt === null ? null : normalizeTime(d.endedAt, 'endedAt'),
    data: canonicalJson(delegationData(d)),
  };
}

function delegationData(d: Delegation): Delegation {
  return {
    id: d.id,
    lead: d.lead,
    delegate: d.delegate,
    reason: d.reason,
    createdAt: normalizeTime(d.createdAt, 'createdAt'),
    until: normalizeTime(d.until, 'until'),
    endedAt: d.endedAt === null ? null : normalizeTime(d.endedAt, 'endedAt'),
    endedBy: d.endedBy,
    ending: d.ending,
    ...(d.seal === undefined ? {} : { seal: d.seal }),
  };
}

/** The `data` JSON of a delegation after it ended. */
export function endedDelegationData(
  currentData: string,
  end: Pick<Delegation, 'endedAt' | 'endedBy' | 'ending'>,
): string {
  const current = JSON.parse(currentData) as Delegation;
  return canonicalJson(delegationData({ ...current, ...end }));
}

export function rowToDelegation(row: DelegationRow): Delegation {
  return JSON.parse(row.data) as Delegation;
}

// --- DMs carrying a request's buttons (migration 8) ------------------------------------------

/** The columns both adapters select for a recorded DM. */
export const REQUEST_DM_COLUMNS = 'request_id, channel, ts, user_id, kind, posted_at';

/** A `request_dms` row as both adapters read it (`posted_at` already as an ISO string). */
export interface RequestDmRow {
  request_id: string;
  channel: string;
  ts: string;
  user_id: string;
  kind: string;
  posted_at: string;
}

const REQUEST_DM_KINDS: readonly RequestDmKind[] = [
  'followUp',
  'breakGlass',
  'breakGlassOverdue',
  'timeBox',
  'batch',
];

export function rowToRequestDm(row: RequestDmRow): RequestDm {
  const kind = REQUEST_DM_KINDS.find((k) => k === row.kind);
  if (kind === undefined) throw new Error(`request_dms holds an unknown kind of DM: ${row.kind}`);
  return {
    requestId: row.request_id,
    channel: row.channel,
    ts: row.ts,
    userId: row.user_id,
    kind,
    postedAt: row.posted_at,
  };
}

/** The tables leased to one worker at a time, their key, and the condition of a row not yet done. */
export const LEASED = {
  outbox: { key: 'seq', pending: 'delivered_at IS NULL AND ' },
  notifications: { key: 'id', pending: '' },
  checkpoints: { key: 'size', pending: 'posted_at IS NULL AND ' },
} as const;

/** A row of `batch_steps`, as both dialects read it. */
export interface StepRow {
  request_id: string;
  idx: number;
  mobile: string;
  state: string;
  error: string | null;
  updated_at: string;
}

export const STEP_COLUMNS = 'request_id, idx, mobile, state, error, updated_at';

/** A batch step from its row; a state this build does not know reads as `unknown`, never as done. */
export function rowToStep(r: StepRow): BatchStep {
  const state = (STEP_STATES as readonly string[]).includes(r.state) ? (r.state as StepState) : 'unknown';
  const error: RecordedError | null = r.error === null ? null : (JSON.parse(r.error) as RecordedError);
  return {
    requestId: r.request_id,
    index: Number(r.idx),
    mobileNumber: r.mobile,
    state,
    error,
    updatedAt: r.updated_at,
  };
}
