import pg from 'pg';
import type { StoredAuditEvent } from '../core/audit-chain.js';
import type { BatchStep } from '../core/batch.js';
import type { Delegation } from '../core/delegation.js';
import { StateConflictError } from '../core/errors.js';
import { type AuditEvent, type NewAuditEvent, type OperationRequest, tellsSlack } from '../core/model.js';
import { ASK_TYPES, foldViewerUnblocks, type ViewerUnblock, viewersOfEvent } from '../core/viewer-history.js';
import {
  AppendListeners,
  type AuditRow,
  addMs,
  auditWindow,
  byJobId,
  CHECKPOINT_COLUMNS,
  type ChainedEvent,
  type CheckpointRow,
  chainEvents,
  checkpointColumns,
  DELEGATION_COLUMNS,
  type DelegationRow,
  DRAFT_COLUMNS,
  type DraftRow,
  delegationColumns,
  draftColumns,
  EVENT_COLUMNS,
  endedDelegationData,
  foldByViewer,
  keysetPages,
  LEASED,
  NOTIFICATION_COLUMNS,
  type NotificationRow,
  normalizeTime,
  OPEN_REQUEST,
  patchedData,
  REQUEST_COLUMNS,
  REQUEST_DM_COLUMNS,
  type RequestDmRow,
  type RequestRow,
  requestColumns,
  rowToCheckpoint,
  rowToDelegation,
  rowToDraft,
  rowToEvent,
  rowToNotification,
  rowToRequest,
  rowToRequestDm,
  rowToStep,
  rowToStoredEvent,
  STEP_COLUMNS,
  type StepRow,
  type StoreLogger,
  VERIFY_COLUMNS,
  type VerifyRow,
  type ViewerAuditRow,
  whereClause,
} from './codec.js';
import { MIGRATIONS, pendingMigrations, refuseNewer } from './migrations.js';
import {
  type AuditQuery,
  type Counted,
  type CountedBuild,
  type Due,
  type DueKind,
  type DueQuery,
  type EventCount,
  type EventLimit,
  GENESIS_HASH,
  type HashEvent,
  type LimitedTransition,
  type ModalDraft,
  type NotificationClaim,
  type NotificationJob,
  type PendingFilter,
  REPEAT_READ_LIMIT,
  type RequestDm,
  type RequestFilter,
  type RequestPatch,
  type StepEndChange,
  type Store,
  type StoredCheckpoint,
  type ViewerQuery,
  type ViewersWindow,
  type ViewerWindow,
} from './store.js';

export interface PostgresStoreOptions {
  hash: HashEvent;
  logger?: StoreLogger | undefined;
  /**
   * Schema holding vidops's tables (created by `migrate`); default: the server's search_path.
   * Lets several deployments or test runs share one database.
   */
  schema?: string | undefined;
  /** Pool size; default 10. */
  maxConnections?: number | undefined;
}

/**
 * Advisory lock keys (two-int form, first int = what is locked). 'vid\0' and 'vid\1' in ASCII:
 * unlikely to collide with other applications' locks on a shared server.
 */
const LOCK_MIGRATE = 0x76696400;
const LOCK_AUDIT = 0x76696401;
/** 'vid\2': a limit of one person on one operation (second int: the hash of what is counted). */
const LOCK_LIMIT = 0x76696402;
/** 'vid\3': who holds a setting or an address while its window is in force. */
const LOCK_HOLD = 0x76696403;
/** 'vid\4': one viewer's unblocks (the repeat rule; second int: the hash of the number). */
const LOCK_VIEWER = 0x76696404;
/** Audit appends are serialised per schema, so deployments sharing a database don't wait on each other. */
const LOCK_KEY_OF_SCHEMA = "hashtext(coalesce(current_schema(), ''))";

const DEFAULT_LIST_LIMIT = 50;
const WINDOW_LIST_LIMIT = 500;
/** A time-boxed change in force, and when it is due: the index `requests_time_box_due` (migration 11). */
const WINDOW_IN_FORCE = `state = 'succeeded' AND ((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'running', 'retrying')`;
const WINDOW_DUE = `(COALESCE((data::jsonb) -> 'timeBox' ->> 'nextAt', (data::jsonb) -> 'timeBox' ->> 'endsAt', '') COLLATE "C")`;
/**
 * What each sweep reads by its due time: the key and condition of its partial index (migration
 * 20), word for word; `low` comes before every key (the first page).
 */
const DUE: Record<DueKind, { at: string; where: string; low: string }> = {
  expiry: { at: 'expires_at', where: "state = 'pending'", low: '-infinity' },
  followUp: { at: 'follow_up_at', where: "state = 'pending' AND follow_up_at IS NOT NULL", low: '-infinity' },
  unannounced: {
    at: 'created_at',
    where: "state = 'pending' AND (data::jsonb -> 'slack') = 'null'::jsonb",
    low: '-infinity',
  },
  executing: { at: 'updated_at', where: "state = 'executing'", low: '-infinity' },
  review: {
    at: `(((data::jsonb) -> 'breakGlass' ->> 'reviewDueAt') COLLATE "C")`,
    where: `(data::jsonb -> 'breakGlass' -> 'review') = 'null'::jsonb
      AND (data::jsonb -> 'breakGlass' -> 'overdueAt') = 'null'::jsonb`,
    low: '',
  },
};
const DEFAULT_PAGE_SIZE = 2_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const OID_INT8 = 20;
const OID_TIMESTAMPTZ = 1184;

// Our own parsers, on this pool only: counts and seqs as numbers (they stay far below 2^53) and
// times as ISO strings, whatever other code does to pg's global parsers.
const defaultTimestamptz = pg.types.getTypeParser(OID_TIMESTAMPTZ, 'text');
const typeOverrides = new pg.TypeOverrides();
typeOverrides.setTypeParser(OID_INT8, 'text', (v: string) => Number(v));
typeOverrides.setTypeParser(OID_TIMESTAMPTZ, 'text', (v: string) => toIso(defaultTimestamptz(v)));

function toIso(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  return new Date(String(v)).toISOString();
}

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * Store on PostgreSQL for several replicas. Requests change by compare-and-set
 * (`UPDATE … WHERE id = $1 AND version = $2`); audit events are appended in the same transaction
 * after `pg_advisory_xact_lock`, so the chain has one order across processes; the outbox is
 * claimed with `FOR UPDATE SKIP LOCKED` plus a lease; delivery keys de-duplicate by primary key.
 * Each transaction takes row locks first and the audit lock last, so they cannot deadlock.
 * @see docs/architecture.md, "Scale" and "Audit log"
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly hash: HashEvent;
  private readonly schema: string | undefined;
  private readonly appended: AppendListeners;

  constructor(connectionString: string, options: PostgresStoreOptions) {
    this.hash = options.hash;
    this.schema = options.schema;
    if (this.schema !== undefined && !SCHEMA_NAME.test(this.schema)) {
      throw new Error(`schema must be a lower-case SQL identifier, got "${this.schema}"`);
    }
    const logger = options.logger;
    this.appended = new AppendListeners(logger);
    this.pool = new pg.Pool({
      connectionString,
      application_name: 'vidops',
      max: options.maxConnections ?? 10,
      types: typeOverrides,
      ...(this.schema === undefined ? {} : { options: `-c search_path=${this.schema}` }),
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', (err: Error & { code?: string }) => {
      logger?.warn({ err: { message: err.message, code: err.code } }, 'PostgreSQL connection lost');
    });
  }

  /** Runs `fn` in a transaction on one pooled connection; rolls back on any error. */
  private async tx<T>(fn: (client: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackErr) {
        // The connection is unusable: have the pool discard it instead of reusing it.
        broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async migrate(): Promise<void> {
    const list = MIGRATIONS.postgres;
    await this.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_MIGRATE]);
      if (this.schema !== undefined) await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await c.query(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
      );
      const { rows } = await c.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      refuseNewer(list, applied);
      for (const m of pendingMigrations(list, applied)) {
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
    });
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async schemaVersions(): Promise<number[]> {
    const { rows } = await this.pool.query<{ exists: boolean }>(
      "SELECT to_regclass('schema_migrations') IS NOT NULL AS exists",
    );
    if (rows[0]?.exists !== true) return [];
    const applied = await this.pool.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    return applied.rows.map((r) => r.version);
  }

  async databaseNow(): Promise<Date> {
    // As milliseconds: this pool reads timestamps as text.
    const { rows } = await this.pool.query<{ ms: string }>(
      'SELECT (extract(epoch FROM now()) * 1000)::text AS ms',
    );
    return new Date(Number(rows[0]?.ms ?? Number.NaN));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async createRequest(
    request: OperationRequest,
    events: readonly NewAuditEvent[],
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }> {
    const done = await this.tx((client) => this.insertRequest(client, request, events));
    this.appended.notify(done.events);
    return done;
  }

  async createCountedRequest(
    count: EventCount,
    build: CountedBuild,
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }> {
    const done = await this.tx(async (client) => {
      const counted = await this.countUnderLock(client, count);
      const earlier = count.viewer === undefined ? [] : await this.viewerUnderLock(client, count.viewer);
      const byViewer =
        count.viewers === undefined ? new Map() : await this.viewersUnderLock(client, count.viewers);
      const made = build(counted, earlier, byViewer);
      return this.insertRequest(client, made.request, made.events);
    });
    this.appended.notify(done.events);
    return done;
  }

  /**
   * Takes the lock of what `count` counts (held to the end of the transaction), then counts: the
   * count is a statement issued after the lock is granted, so (READ COMMITTED) it sees what the
   * previous holder committed, on any replica. Taken before any row or audit lock, so it cannot
   * deadlock with them.
   */
  private async countUnderLock(client: Queryable, count: EventCount): Promise<number> {
    const types = [...count.types].sort();
    // The person's lock, and a command line actor's OS user's too: taken in one order everywhere,
    // so two transactions needing both never wait on each other.
    const keys = [JSON.stringify([count.actorId, count.operation, types])];
    if (count.osUser !== undefined) keys.push(JSON.stringify(['os', count.osUser, count.operation, types]));
    for (const key of keys.sort()) {
      await client.query(`SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '') || $2))`, [
        LOCK_LIMIT,
        key,
      ]);
    }
    return this.countWith(client, count);
  }

  /**
   * Takes the viewer's lock (after the person's, before any row or audit lock: one order
   * everywhere), then reads its unblocks in the window: a statement issued after the lock is
   * granted sees what the previous holder committed, on any replica.
   */
  private async viewerUnderLock(client: Queryable, window: ViewerWindow): Promise<ViewerUnblock[]> {
    await client.query(`SELECT pg_advisory_xact_lock($1, hashtext(coalesce(current_schema(), '') || $2))`, [
      LOCK_VIEWER,
      window.viewer,
    ]);
    return this.readViewerUnblocks(client, { ...window, limit: REPEAT_READ_LIMIT });
  }

  /**
   * The locks of a batch's viewers, the single unblock's (`viewerUnderLock`), taken in the order
   * of their keys, so two batches sharing viewers never wait on each other in a circle; then all
   * their unblocks in the window, in one statement (as `readViewerUnblocks` reads one viewer's).
   */
  private async viewersUnderLock(
    client: Queryable,
    window: ViewersWindow,
  ): Promise<Map<string, ViewerUnblock[]>> {
    await client.query(
      `SELECT pg_advisory_xact_lock($1, k) FROM (
         SELECT DISTINCT hashtext(coalesce(current_schema(), '') || v) AS k FROM unnest($2::text[]) AS v
         ORDER BY k) AS keys`,
      [LOCK_VIEWER, [...window.viewers]],
    );
    const { rows } = await client.query<ViewerAuditRow>({
      text: `WITH asks AS (
         SELECT viewer, seq, request_id FROM (
           SELECT viewer, seq, request_id, row_number() OVER (PARTITION BY viewer ORDER BY seq DESC) AS nth
           FROM viewer_events WHERE viewer = ANY($1::text[]) AND ask AND at >= $2::timestamptz) AS numbered
         WHERE nth <= $3),
       picked AS (
         SELECT viewer, seq FROM asks
         UNION
         SELECT v.viewer, v.seq FROM viewer_events v
         JOIN (SELECT viewer, min(seq) AS first FROM asks GROUP BY viewer) f ON v.viewer = f.viewer AND v.seq > f.first
         WHERE v.request_id IN (SELECT request_id FROM asks a WHERE a.viewer = v.viewer))
       SELECT e.seq, e.prev_hash, e.hash, e.event, p.viewer FROM picked p JOIN audit_events e ON e.seq = p.seq
       ORDER BY e.seq`,
      values: [[...window.viewers], normalizeTime(window.since, 'since'), REPEAT_READ_LIMIT],
      rowMode: 'array',
    });
    return foldByViewer(window.viewers, rows);
  }

  async viewerUnblocks(query: ViewerQuery): Promise<ViewerUnblock[]> {
    return this.readViewerUnblocks(this.pool, query);
  }

  /**
   * The viewer's newest `limit` asks (from the index, by primary key), then the other indexed
   * events of their requests, folded.
   */
  private async readViewerUnblocks(db: Queryable, query: ViewerQuery): Promise<ViewerUnblock[]> {
    const since = query.since === undefined ? null : normalizeTime(query.since, 'since');
    const { rows } = await db.query<AuditRow>({
      text: `WITH asks AS (
         SELECT seq, request_id FROM viewer_events
         WHERE viewer = $1 AND ask AND ($2::timestamptz IS NULL OR at >= $2::timestamptz)
         ORDER BY seq DESC LIMIT $3)
       SELECT ${EVENT_COLUMNS} FROM audit_events WHERE seq IN (
         SELECT seq FROM asks
         UNION
         SELECT v.seq FROM viewer_events v
         WHERE v.viewer = $1 AND v.seq > (SELECT min(seq) FROM asks)
           AND v.request_id IN (SELECT request_id FROM asks WHERE request_id IS NOT NULL))
       ORDER BY seq`,
      values: [query.viewer, since, Math.max(0, Math.floor(query.limit))],
      rowMode: 'array',
    });
    return foldViewerUnblocks(query.viewer, rows.map(rowToEvent));
  }

  /** The events `count` names, on `db` (the pool or a transaction's connection). */
  private async countWith(db: Queryable, count: EventCount): Promise<number> {
    if (count.types.length === 0) return 0;
    const args = [count.actorId, count.operation, normalizeTime(count.since, 'since'), [...count.types]];
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM audit_events
       WHERE actor_id = $1 AND operation = $2 AND at >= $3 AND type = ANY($4::text[])`,
      args,
    );
    const byActor = rows[0]?.n ?? 0;
    if (count.osUser === undefined) return byActor;
    // The same OS user's events under every other name it gave (`--as`): read from the event.
    const other = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM audit_events
       WHERE actor_id <> $1 AND operation = $2 AND at >= $3 AND type = ANY($4::text[])
         AND (event::jsonb) #>> '{actor,via,osUser}' = $5`,
      [...args, count.osUser],
    );
    return byActor + (other.rows[0]?.n ?? 0);
  }

  /** Inserts a request, its notification job and its events in the caller's transaction. */
  private async insertRequest(
    client: Queryable,
    request: OperationRequest,
    events: readonly NewAuditEvent[],
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }> {
    const c = requestColumns(request);
    let row: RequestRow | undefined;
    try {
      // The notification job rides in the same statement (a change with audit events is told).
      const result = await client.query<RequestRow>(
        `WITH inserted AS (
           INSERT INTO requests (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data, follow_up_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11) RETURNING ${REQUEST_COLUMNS}
         ), job AS (
           ${insertJobFrom('inserted', '$10')}
         )
         SELECT ${REQUEST_COLUMNS} FROM inserted`,
        [
          c.id,
          c.operation,
          c.state,
          c.requesterId,
          c.createdAt,
          c.expiresAt,
          c.updatedAt,
          c.version,
          c.data,
          events.length > 0 && tellsSlack(request),
          c.followUpAt,
        ],
      );
      row = result.rows[0];
    } catch (err) {
      if (err instanceof pg.DatabaseError && err.code === '23505' && err.constraint === 'requests_pkey') {
        throw new StateConflictError(`Request ${request.id} already exists.`, { cause: err });
      }
      throw err;
    }
    if (row === undefined) throw new Error(`insert of request ${request.id} returned nothing`);
    return { request: rowToRequest(row), events: await this.appendInTransaction(client, events) };
  }

  async getRequest(id: string): Promise<OperationRequest | null> {
    const { rows } = await this.pool.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    return row === undefined ? null : rowToRequest(row);
  }

  async transition(
    id: string,
    expectedVersion: number,
    patch: RequestPatch,
    at: string,
    events: readonly NewAuditEvent[],
    whileDelegated?: string,
  ): Promise<{ request: OperationRequest; events: AuditEvent[] } | null> {
    const updatedAt = normalizeTime(at, 'at');
    const done = await this.tx(async (client) => {
      const current = await this.requestAt(client, id, expectedVersion);
      if (current === undefined) return null;
      if (whileDelegated !== undefined && !(await this.delegationOpen(client, whileDelegated, updatedAt))) {
        return null;
      }
      return this.applyPatch(client, current, patch, updatedAt, events);
    });
    if (done !== null) this.appended.notify(done.events);
    return done;
  }

  async transitionWithin(
    limit: EventLimit,
    id: string,
    expectedVersion: number,
    patch: RequestPatch,
    at: string,
    events: readonly NewAuditEvent[],
  ): Promise<LimitedTransition> {
    const updatedAt = normalizeTime(at, 'at');
    const done = await this.tx(async (client): Promise<LimitedTransition> => {
      // The limit's lock first (see countUnderLock), then the version, the count and the change.
      const used = await this.countUnderLock(client, limit);
      const current = await this.requestAt(client, id, expectedVersion);
      if (current === undefined) return { kind: 'stale' };
      if (used >= limit.max) return { kind: 'limited', used };
      const changed = await this.applyPatch(client, current, patch, updatedAt, events);
      return changed === null ? { kind: 'stale' } : { kind: 'done', ...changed };
    });
    if (done.kind === 'done') this.appended.notify(done.events);
    return done;
  }

  /**
   * Whether delegation `id` is open at `at`, its row share-locked until the commit: an end of it
   * (an UPDATE) waits for this transaction, or, committed first, is seen here.
   */
  private async delegationOpen(client: Queryable, id: string, at: string): Promise<boolean> {
    const { rows } = await client.query(
      'SELECT 1 FROM delegations WHERE id = $1 AND ended_at IS NULL AND until > $2 FOR SHARE',
      [id, at],
    );
    return rows.length > 0;
  }

  /**
   * The request's row if it is still at `version`. Read without a lock: the UPDATE of
   * {@link applyPatch} only applies to this same version, and any other change would have bumped it.
   */
  private async requestAt(client: Queryable, id: string, version: number): Promise<RequestRow | undefined> {
    const { rows } = await client.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = $1 AND version = $2`,
      [id, version],
    );
    return rows[0];
  }

  /** Compare-and-set of a row read in this transaction, with its notification job and events. */
  private async applyPatch(
    client: Queryable,
    current: RequestRow,
    patch: RequestPatch,
    updatedAt: string,
    events: readonly NewAuditEvent[],
  ): Promise<{ request: OperationRequest; events: AuditEvent[] } | null> {
    const expiresAt =
      patch.expiresAt === undefined
        ? current.expires_at
        : patch.expiresAt === null
          ? null
          : normalizeTime(patch.expiresAt, 'expiresAt');
    const state = patch.state ?? current.state;
    const data = patchedData(current.data, patch);
    const updated = (
      await client.query<RequestRow>(
        `WITH updated AS (
           UPDATE requests SET state = $3, expires_at = $4, updated_at = $5, version = version + 1, data = $6
           WHERE id = $1 AND version = $2 RETURNING ${REQUEST_COLUMNS}
         ), job AS (
           ${insertJobFrom('updated', '$7')}
         )
         SELECT ${REQUEST_COLUMNS} FROM updated`,
        [
          current.id,
          current.version,
          state,
          expiresAt,
          updatedAt,
          data,
          events.length > 0 && tellsSlack({ ...tellingOf(data), state }),
        ],
      )
    ).rows[0];
    if (updated === undefined) return null;
    return { request: rowToRequest(updated), events: await this.appendInTransaction(client, events) };
  }

  async listRequests(filter: RequestFilter = {}): Promise<OperationRequest[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.states !== undefined) {
      params.push([...filter.states]);
      where.push(`state = ANY($${params.length}::text[])`);
    }
    if (filter.requesterId !== undefined) {
      params.push(filter.requesterId);
      where.push(`requester_id = $${params.length}`);
    }
    if (filter.breakGlassUnreviewed === true) {
      // JSON null (no review yet); a request without break-glass has no such member.
      where.push(`(data::jsonb -> 'breakGlass' -> 'review') = 'null'::jsonb`);
    }
    if (filter.timeBoxOpen === true) {
      where.push(`((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'running', 'retrying')`);
    }
    params.push(filter.limit ?? DEFAULT_LIST_LIMIT);
    const { rows } = await this.pool.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests ${whereClause(where)}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(rowToRequest);
  }

  async listOpenRequests(requesterId: string, limit: number): Promise<Counted<OperationRequest>> {
    const where = `requester_id = $1 AND ${OPEN_REQUEST}`;
    const [rows, total] = await Promise.all([
      this.pool.query<RequestRow>(
        `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
        [requesterId, limit],
      ),
      this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM requests WHERE ${where}`, [requesterId]),
    ]);
    return { items: rows.rows.map(rowToRequest), total: total.rows[0]?.n ?? 0 };
  }

  async listPending(filter: PendingFilter): Promise<Counted<OperationRequest>> {
    // The pending range of `requests_state`: open work only, however long the history.
    const where = `state = 'pending' AND (expires_at IS NULL OR expires_at > $1)
      AND operation = ANY($2::text[]) AND requester_id <> $3`;
    const params = [normalizeTime(filter.now, 'now'), [...filter.operations], filter.notRequesterId];
    const [rows, total] = await Promise.all([
      this.pool.query<RequestRow>(
        `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4`,
        [...params, filter.limit],
      ),
      this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM requests WHERE ${where}`, params),
    ]);
    return { items: rows.rows.map(rowToRequest), total: total.rows[0]?.n ?? 0 };
  }

  async oldestPendingAt(): Promise<string | null> {
    const { rows } = await this.pool.query<{ at: string | null }>(
      "SELECT min(created_at) AS at FROM requests WHERE state = 'pending'",
    );
    return rows[0]?.at ?? null;
  }

  async listReverts(id: string): Promise<OperationRequest[]> {
    const { rows } = await this.pool.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ((data::jsonb) -> 'revertOf' ->> 'kind') = 'revert'
         AND ((data::jsonb) -> 'revertOf' ->> 'id') = $1 ORDER BY created_at, id`,
      [id],
    );
    return rows.map(rowToRequest);
  }

  async countPutBacksEscalated(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*) AS n FROM requests WHERE ((data::jsonb) -> 'timeBox' -> 'leadTold') = 'true'::jsonb
         AND ((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'retrying')`,
    );
    return rows[0]?.n ?? 0;
  }

  async listDue(q: DueQuery): Promise<Due[]> {
    const { at, where, low } = DUE[q.kind];
    const { rows } = await this.pool.query<RequestRow & { due_at: string }>(
      `SELECT ${REQUEST_COLUMNS}, ${at} AS due_at FROM requests
       WHERE ${where} AND ${at} <= $1 AND (${at}, id) > ($2, $3) ORDER BY ${at}, id LIMIT $4`,
      [normalizeTime(q.by, 'by'), q.after?.at ?? low, q.after?.id ?? '', q.limit],
    );
    return rows.map((row) => ({ request: rowToRequest(row), at: toIso(row.due_at) }));
  }

  async setFollowUpAt(id: string, at: string | null): Promise<void> {
    await this.pool.query("UPDATE requests SET follow_up_at = $2 WHERE id = $1 AND state = 'pending'", [
      id,
      at === null ? null : normalizeTime(at, 'at'),
    ]);
  }

  async appendAudit(events: readonly NewAuditEvent[]): Promise<AuditEvent[]> {
    if (events.length === 0) return [];
    const appended = await this.tx((client) => this.appendInTransaction(client, events));
    this.appended.notify(appended);
    return appended;
  }

  onAppend(listener: () => void): () => void {
    return this.appended.add(listener);
  }

  /**
   * Takes the audit lock, reads the head and appends after it. The head is read by a statement
   * issued after the lock is granted, so (READ COMMITTED) it sees the previous holder's commit.
   */
  private async appendInTransaction(
    client: Queryable,
    events: readonly NewAuditEvent[],
  ): Promise<AuditEvent[]> {
    if (events.length === 0) return [];
    await client.query(`SELECT pg_advisory_xact_lock($1, ${LOCK_KEY_OF_SCHEMA})`, [LOCK_AUDIT]);
    const head = (
      await client.query<{ seq: number; hash: string }>(
        'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
      )
    ).rows[0];
    const chained = chainEvents(head ?? null, events, this.hash, GENESIS_HASH);
    const { sql, params } = insertEventsSql(chained);
    await client.query(sql, params);
    const viewers = viewerRowsSql(chained);
    if (viewers !== null) await client.query(viewers.sql, viewers.params);
    return chained.map((c) => c.event);
  }

  async listAudit(query: AuditQuery = {}): Promise<AuditEvent[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.afterSeq !== undefined) {
      params.push(query.afterSeq);
      where.push(`seq > $${params.length}`);
    }
    if (query.since !== undefined) {
      params.push(normalizeTime(query.since, 'since'));
      where.push(`at >= $${params.length}`);
    }
    if (query.until !== undefined) {
      params.push(normalizeTime(query.until, 'until'));
      where.push(`at <= $${params.length}`);
    }
    if (query.requestId !== undefined) {
      params.push(query.requestId);
      where.push(`request_id = $${params.length}`);
    }
    if (query.operation !== undefined) {
      params.push(query.operation);
      where.push(`operation = $${params.length}`);
    }
    const { newest, count } = auditWindow(query);
    let limit = '';
    if (count !== null) {
      params.push(count);
      limit = `LIMIT $${params.length}`;
    }
    const { rows } = await this.pool.query<AuditRow>({
      text: `SELECT ${EVENT_COLUMNS} FROM audit_events ${whereClause(where)}
             ORDER BY seq ${newest ? 'DESC' : 'ASC'} ${limit}`,
      values: params,
      rowMode: 'array',
    });
    if (newest) rows.reverse();
    return rows.map(rowToEvent);
  }

  iterateAudit(pageSize = DEFAULT_PAGE_SIZE): AsyncIterable<AuditEvent> {
    return this.auditPages<AuditRow, AuditEvent>(EVENT_COLUMNS, pageSize, rowToEvent);
  }

  iterateStoredAudit(pageSize = DEFAULT_PAGE_SIZE): AsyncIterable<StoredAuditEvent> {
    // `at` comes back through this pool's timestamptz parser as an ISO string.
    return this.auditPages<VerifyRow, StoredAuditEvent>(VERIFY_COLUMNS, pageSize, rowToStoredEvent);
  }

  private auditPages<R extends AuditRow | VerifyRow, T>(
    columns: string,
    pageSize: number,
    map: (row: R) => T,
  ): AsyncIterable<T> {
    const page = async (after: number): Promise<R[]> => {
      const { rows } = await this.pool.query<R>({
        text: `SELECT ${columns} FROM audit_events WHERE seq > $1 ORDER BY seq LIMIT $2`,
        values: [after, pageSize],
        rowMode: 'array',
      });
      return rows;
    };
    return keysetPages(page, pageSize, map);
  }

  async auditHead(): Promise<{ seq: number; hash: string } | null> {
    const { rows } = await this.pool.query<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
    );
    const head = rows[0];
    return head === undefined ? null : { seq: head.seq, hash: head.hash };
  }

  async countEvents(
    actorId: string,
    operation: string,
    types: readonly string[],
    since: string,
  ): Promise<number> {
    return this.countWith(this.pool, { actorId, operation, types, since });
  }

  async claimOutbox(worker: string, limit: number, leaseMs: number, now: string): Promise<AuditEvent[]> {
    const at = normalizeTime(now, 'now');
    // One statement: pick free rows (skipping rows another worker is claiming right now), lease
    // them, and return their events.
    const { rows } = await this.pool.query<AuditRow>({
      text: `WITH picked AS (
         SELECT seq FROM outbox
         WHERE delivered_at IS NULL
           AND (lease_until IS NULL OR lease_until <= $3)
           AND (not_before IS NULL OR not_before <= $3)
         ORDER BY seq LIMIT $4
         FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE outbox o SET lease_owner = $1, lease_until = $2
         FROM picked WHERE o.seq = picked.seq
         RETURNING o.seq
       )
       SELECT a.seq, a.prev_hash, a.hash, a.event
       FROM audit_events a JOIN leased USING (seq) ORDER BY a.seq`,
      values: [worker, addMs(at, leaseMs), at, limit],
      rowMode: 'array',
    });
    return rows.map(rowToEvent);
  }

  async ackOutbox(seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    // The count of acknowledged events moves in the same statement: the depth gauge reads it.
    await this.pool.query(
      `WITH acked AS (
         UPDATE outbox SET delivered_at = now(), lease_owner = NULL, lease_until = NULL
         WHERE delivered_at IS NULL AND seq = ANY($1::bigint[])
         RETURNING seq
       )
       UPDATE outbox_acked SET n = n + (SELECT count(*) FROM acked)
       WHERE EXISTS (SELECT 1 FROM acked)`,
      [[...seqs]],
    );
  }

  /**
   * The outboxes' leases (`outbox` by seq, `notifications` by id, `checkpoints` by size): gives
   * back (`notBefore`) or renews (`until`) the rows `worker` still holds and that are not done;
   * how many it held.
   */
  private async leased(
    table: keyof typeof LEASED,
    keys: readonly number[],
    worker: string,
    change: { notBefore: string } | { until: string },
  ): Promise<number> {
    if (keys.length === 0) return 0;
    const { key, pending } = LEASED[table];
    const [set, at] =
      'until' in change
        ? ['lease_until = $3', normalizeTime(change.until, 'until')]
        : [
            'lease_owner = NULL, lease_until = NULL, not_before = $3',
            normalizeTime(change.notBefore, 'notBefore'),
          ];
    const { rowCount } = await this.pool.query(
      `UPDATE ${table} SET ${set}
       WHERE ${pending}${key} = ANY($1::bigint[]) AND lease_owner = $2`,
      [[...keys], worker, at],
    );
    return rowCount ?? 0;
  }

  async releaseOutbox(seqs: readonly number[], notBefore: string, worker: string): Promise<void> {
    await this.leased('outbox', seqs, worker, { notBefore });
  }

  renewOutbox(seqs: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('outbox', seqs, worker, { until });
  }

  async outboxDepth(): Promise<number> {
    // Every event enters the outbox: the head less those acknowledged, two rows read (migration 12).
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT coalesce((SELECT max(seq) FROM audit_events), 0) - (SELECT n FROM outbox_acked) AS n',
    );
    return rows[0]?.n ?? 0;
  }

  async claimNotifications(claim: NotificationClaim): Promise<NotificationJob[]> {
    const now = normalizeTime(claim.now, 'now');
    const settledAt = normalizeTime(claim.settledAt, 'settledAt');
    return this.tx(async (client) => {
      // First the requests' rows, skipping those another worker is claiming (or a transition is
      // changing) right now: whoever holds a request's row lock is the only one claiming it.
      const { rows: picked } = await client.query<{ id: string }>(
        `SELECT r.id FROM requests r
         WHERE r.id IN (
           SELECT request_id FROM notifications
           GROUP BY request_id
           HAVING bool_and(lease_until IS NULL OR lease_until <= $1)
              AND bool_and(not_before IS NULL OR not_before <= $1)
              AND max(at) <= $2
           ORDER BY min(id) LIMIT $3)
         FOR NO KEY UPDATE OF r SKIP LOCKED`,
        [now, settledAt, claim.requests],
      );
      if (picked.length === 0) return [];
      // A second statement, so (READ COMMITTED) it sees the leases of a claim that held these
      // rows before us and committed: a request leased meanwhile is left alone.
      const { rows } = await client.query<NotificationRow>(
        `UPDATE notifications SET lease_owner = $1, lease_until = $2
         WHERE request_id = ANY($3::text[])
           AND request_id NOT IN (
             SELECT request_id FROM notifications
             WHERE request_id = ANY($3::text[]) AND (lease_until > $4 OR not_before > $4))
         RETURNING ${NOTIFICATION_COLUMNS}`,
        [claim.worker, addMs(now, claim.leaseMs), picked.map((p) => p.id), now],
      );
      return rows.map(rowToNotification).sort(byJobId);
    });
  }

  async ackNotifications(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query('DELETE FROM notifications WHERE id = ANY($1::bigint[])', [[...ids]]);
  }

  async releaseNotifications(ids: readonly number[], notBefore: string, worker: string): Promise<void> {
    await this.leased('notifications', ids, worker, { notBefore });
  }

  renewNotifications(ids: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('notifications', ids, worker, { until });
  }

  async enqueueNotification(requestId: string, at: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO notifications (request_id, state, version, at)
       SELECT id, state, version, $2 FROM requests WHERE id = $1`,
      [requestId, normalizeTime(at, 'at')],
    );
    return rowCount === 1;
  }

  async notificationDepth(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM notifications');
    return rows[0]?.n ?? 0;
  }

  async markDelivered(key: string, at: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'INSERT INTO deliveries (key, at) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
      [key, normalizeTime(at, 'at')],
    );
    return rowCount === 1;
  }

  async takeLease(name: string, holder: string, until: string, now: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO leases (name, holder, until) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
       WHERE leases.until <= $4 OR leases.holder = EXCLUDED.holder`,
      [name, holder, normalizeTime(until, 'until'), normalizeTime(now, 'now')],
    );
    return rowCount === 1;
  }

  async giveLease(name: string, holder: string): Promise<void> {
    await this.pool.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  async listWindows(filter: { dueBy?: string; limit?: number } = {}): Promise<OperationRequest[]> {
    const params: unknown[] = [filter.limit ?? WINDOW_LIST_LIMIT];
    if (filter.dueBy !== undefined) params.push(normalizeTime(filter.dueBy, 'dueBy'));
    const due = filter.dueBy === undefined ? '' : `AND ${WINDOW_DUE} <= $2`;
    const { rows } = await this.pool.query<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ${WINDOW_IN_FORCE} ${due}
       ORDER BY ${WINDOW_DUE}, id LIMIT $1`,
      params,
    );
    return rows.map(rowToRequest);
  }

  async holdItems(requestId: string, items: readonly string[]): Promise<string | null> {
    return this.tx(async (c) => {
      // One holder per item: claims are serialised, so two changes applied at once cannot both take one.
      await c.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_HOLD]);
      const held = await c.query<{ request_id: string }>(
        `SELECT h.request_id FROM time_box_holds h JOIN requests r ON r.id = h.request_id
         WHERE h.item = ANY($1::text[]) AND h.request_id <> $2
           AND r.state NOT IN ('failed', 'rejected', 'cancelled', 'expired')
           AND ((r.data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'running', 'retrying')
         LIMIT 1`,
        [[...items], requestId],
      );
      const holder = held.rows[0]?.request_id;
      if (holder !== undefined) return holder;
      await c.query(
        `INSERT INTO time_box_holds (item, request_id) SELECT DISTINCT unnest($1::text[]), $2
         ON CONFLICT (item) DO UPDATE SET request_id = EXCLUDED.request_id`,
        [[...items], requestId],
      );
      return null;
    });
  }

  async pruneDeliveries(before: string): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM deliveries WHERE at < $1', [
      normalizeTime(before, 'before'),
    ]);
    return rowCount ?? 0;
  }

  async forgetDelivery(key: string): Promise<void> {
    await this.pool.query('DELETE FROM deliveries WHERE key = $1', [key]);
  }

  async putDraft(draft: ModalDraft): Promise<void> {
    await this.pool.query(
      `INSERT INTO drafts (${DRAFT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (key) DO UPDATE SET user_id = excluded.user_id, kind = excluded.kind,
         payload = excluded.payload, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      draftColumns(draft),
    );
  }

  async takeDraft(key: string, now: string): Promise<ModalDraft | null> {
    const at = normalizeTime(now, 'now');
    // DELETE … RETURNING: of two takes at once, one gets the row and the other nothing.
    const { rows } = await this.pool.query<DraftRow>(
      `DELETE FROM drafts WHERE key = $1 RETURNING ${DRAFT_COLUMNS}`,
      [key],
    );
    return rowToDraft(rows[0], at);
  }

  async pruneDrafts(now: string): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM drafts WHERE expires_at <= $1', [
      normalizeTime(now, 'now'),
    ]);
    return rowCount ?? 0;
  }

  async addCheckpoint(checkpoint: {
    size: number;
    head: string;
    time: string;
    note: string;
  }): Promise<boolean> {
    // The primary key on size: of two replicas writing the same size, one inserts, one does nothing.
    const { rowCount } = await this.pool.query(
      'INSERT INTO checkpoints (size, head, made_at, note) VALUES ($1, $2, $3, $4) ON CONFLICT (size) DO NOTHING',
      checkpointColumns(checkpoint),
    );
    return rowCount === 1;
  }

  async listCheckpoints(): Promise<StoredCheckpoint[]> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY size`,
    );
    return rows.map(rowToCheckpoint);
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | null> {
    const { rows } = await this.pool.query<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY size DESC LIMIT 1`,
    );
    const row = rows[0];
    return row === undefined ? null : rowToCheckpoint(row);
  }

  async claimCheckpoints(
    worker: string,
    limit: number,
    leaseMs: number,
    now: string,
  ): Promise<StoredCheckpoint[]> {
    const at = normalizeTime(now, 'now');
    const { rows } = await this.pool.query<CheckpointRow>(
      `WITH picked AS (
         SELECT size FROM checkpoints
         WHERE posted_at IS NULL
           AND (lease_until IS NULL OR lease_until <= $3)
           AND (not_before IS NULL OR not_before <= $3)
         ORDER BY size LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       UPDATE checkpoints c SET lease_owner = $1, lease_until = $2
       FROM picked WHERE c.size = picked.size
       RETURNING ${CHECKPOINT_COLUMNS.split(', ')
         .map((column) => `c.${column}`)
         .join(', ')}`,
      [worker, addMs(at, leaseMs), at, limit],
    );
    return rows.map(rowToCheckpoint).sort((a, b) => a.size - b.size);
  }

  async markCheckpointPosted(size: number, at: string): Promise<void> {
    await this.pool.query(
      `UPDATE checkpoints SET posted_at = $2, lease_owner = NULL, lease_until = NULL
       WHERE size = $1 AND posted_at IS NULL`,
      [size, normalizeTime(at, 'at')],
    );
  }

  async releaseCheckpoints(sizes: readonly number[], notBefore: string, worker: string): Promise<void> {
    await this.leased('checkpoints', sizes, worker, { notBefore });
  }

  renewCheckpoints(sizes: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('checkpoints', sizes, worker, { until });
  }

  async unpostedCheckpoints(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*) AS n FROM checkpoints WHERE posted_at IS NULL',
    );
    return rows[0]?.n ?? 0;
  }

  async undeliveredSeqs(limit: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ seq: number }>(
      'SELECT seq FROM outbox WHERE delivered_at IS NULL ORDER BY seq LIMIT $1',
      [limit],
    );
    return rows.map((r) => r.seq);
  }

  // --- Delegations (migration 6) ---------------------------------------------------------

  async addDelegation(delegation: Delegation, events: readonly NewAuditEvent[]): Promise<Delegation> {
    const c = delegationColumns(delegation);
    const done = await this.tx(async (client) => {
      let row: DelegationRow | undefined;
      try {
        row = (
          await client.query<DelegationRow>(
            `INSERT INTO delegations (id, lead_id, delegate_id, created_at, until, ended_at, data)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${DELEGATION_COLUMNS}`,
            [c.id, c.leadId, c.delegateId, c.createdAt, c.until, c.endedAt, c.data],
          )
        ).rows[0];
      } catch (err) {
        if (err instanceof pg.DatabaseError && err.code === '23505') {
          throw new StateConflictError(`${delegation.lead.id} already has a delegation in force.`, {
            cause: err,
          });
        }
        throw err;
      }
      if (row === undefined) throw new Error(`insert of delegation ${delegation.id} returned nothing`);
      return { delegation: rowToDelegation(row), events: await this.appendInTransaction(client, events) };
    });
    this.appended.notify(done.events);
    return done.delegation;
  }

  async endDelegation(
    id: string,
    end: Pick<Delegation, 'endedAt' | 'endedBy' | 'ending'>,
    events: readonly NewAuditEvent[],
  ): Promise<Delegation | null> {
    const endedAt = end.endedAt === null ? null : normalizeTime(end.endedAt, 'endedAt');
    const done = await this.tx(async (client) => {
      const current = (
        await client.query<DelegationRow>(
          `SELECT ${DELEGATION_COLUMNS} FROM delegations WHERE id = $1 AND ended_at IS NULL FOR UPDATE`,
          [id],
        )
      ).rows[0];
      if (current === undefined) return null;
      const row = (
        await client.query<DelegationRow>(
          `UPDATE delegations SET ended_at = $2, data = $3 WHERE id = $1 AND ended_at IS NULL
           RETURNING ${DELEGATION_COLUMNS}`,
          [id, endedAt, endedDelegationData(current.data, end)],
        )
      ).rows[0];
      if (row === undefined) return null;
      return { delegation: rowToDelegation(row), events: await this.appendInTransaction(client, events) };
    });
    if (done !== null) this.appended.notify(done.events);
    return done?.delegation ?? null;
  }

  async listDelegations(
    filter: { leadId?: string; delegateId?: string; open?: boolean; limit?: number } = {},
  ): Promise<Delegation[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.leadId !== undefined) {
      params.push(filter.leadId);
      where.push(`lead_id = $${params.length}`);
    }
    if (filter.delegateId !== undefined) {
      params.push(filter.delegateId);
      where.push(`delegate_id = $${params.length}`);
    }
    if (filter.open === true) where.push('ended_at IS NULL');
    params.push(filter.limit ?? DEFAULT_LIST_LIMIT);
    const { rows } = await this.pool.query<DelegationRow>(
      `SELECT ${DELEGATION_COLUMNS} FROM delegations ${whereClause(where)}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map(rowToDelegation);
  }

  // --- Language choices (migration 7) ----------------------------------------------------

  async getLanguageChoice(userId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ locale: string }>(
      'SELECT locale FROM language_choices WHERE user_id = $1',
      [userId],
    );
    return rows[0]?.locale ?? null;
  }

  async setLanguageChoice(userId: string, locale: string, at: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO language_choices (user_id, locale, chosen_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, chosen_at = excluded.chosen_at`,
      [userId, locale, normalizeTime(at, 'at')],
    );
  }

  // --- DMs carrying a request's buttons (migration 8) ---------------------------------------

  async recordRequestDm(dm: RequestDm): Promise<void> {
    await this.pool.query(
      `INSERT INTO request_dms (request_id, channel, ts, user_id, kind, posted_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (request_id, channel, ts) DO NOTHING`,
      [dm.requestId, dm.channel, dm.ts, dm.userId, dm.kind, normalizeTime(dm.postedAt, 'postedAt')],
    );
  }

  async requestDms(requestId: string): Promise<RequestDm[]> {
    const { rows } = await this.pool.query<RequestDmRow>(
      `SELECT ${REQUEST_DM_COLUMNS} FROM request_dms WHERE request_id = $1 ORDER BY posted_at, ts`,
      [requestId],
    );
    return rows.map(rowToRequestDm);
  }

  async forgetRequestDm(dm: Pick<RequestDm, 'requestId' | 'channel' | 'ts'>): Promise<void> {
    await this.pool.query('DELETE FROM request_dms WHERE request_id = $1 AND channel = $2 AND ts = $3', [
      dm.requestId,
      dm.channel,
      dm.ts,
    ]);
  }

  async renewExecution(id: string, from: string, to: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE requests SET updated_at = $3 WHERE id = $1 AND state = 'executing' AND updated_at = $2`,
      [id, normalizeTime(from, 'from'), normalizeTime(to, 'to')],
    );
    return rowCount === 1;
  }

  async beginStep(step: {
    requestId: string;
    index: number;
    mobileNumber: string;
    at: string;
  }): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `INSERT INTO batch_steps (request_id, idx, mobile, state, error, updated_at)
       VALUES ($1, $2, $3, 'sending', NULL, $4) ON CONFLICT DO NOTHING`,
      [step.requestId, step.index, step.mobileNumber, normalizeTime(step.at, 'at')],
    );
    return rowCount === 1;
  }

  async endStep(step: StepEndChange, events: readonly NewAuditEvent[]): Promise<boolean> {
    const at = normalizeTime(step.at, 'at');
    const appended = await this.tx(async (client) => {
      const moved = await client.query(
        'UPDATE batch_steps SET state = $1, error = $2, updated_at = $3 WHERE request_id = $4 AND idx = $5 AND state = $6',
        [
          step.to,
          step.error === null ? null : JSON.stringify(step.error),
          at,
          step.requestId,
          step.index,
          step.from,
        ],
      );
      return moved.rowCount === 1 ? this.appendInTransaction(client, events) : null;
    });
    if (appended === null) return false;
    this.appended.notify(appended);
    return true;
  }

  async listSteps(requestId: string): Promise<BatchStep[]> {
    const { rows } = await this.pool.query<StepRow>(
      `SELECT ${STEP_COLUMNS} FROM batch_steps WHERE request_id = $1 ORDER BY idx`,
      [requestId],
    );
    return rows.map(rowToStep);
  }

  async getSetting(key: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
      key,
    ]);
    return rows[0]?.value ?? null;
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.pool.query(
      'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }
}

/** The quorum kept in a request's stored data (it never changes after creation). */
/** What `tellsSlack` reads of a request's data: its quorum, and whether it is time-boxed. */
function tellingOf(data: string): { quorum: number; timeBox?: unknown } {
  const parsed = JSON.parse(data) as { quorum?: unknown; timeBox?: unknown };
  const quorum = typeof parsed.quorum === 'number' ? parsed.quorum : 0;
  return parsed.timeBox === undefined ? { quorum } : { quorum, timeBox: parsed.timeBox };
}

/**
 * The notification job of a change, as a data-modifying CTE over the request row the statement
 * wrote (`source`); `when` is the parameter saying whether the change appended audit events and
 * is told in Slack (`tellsSlack`).
 */
function insertJobFrom(source: string, when: string): string {
  return `INSERT INTO notifications (request_id, state, version, at)
             SELECT id, state, version, updated_at FROM ${source} WHERE ${when}::boolean`;
}

/** One statement inserting the events and their outbox rows (one round trip per append). */
function insertEventsSql(chained: readonly ChainedEvent[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const tuples = chained.map(({ event, json, at }) => {
    const base = params.length;
    params.push(
      event.seq,
      event.id,
      at,
      event.type,
      event.actor.id,
      event.operation,
      event.requestId ?? null,
      json,
      event.prevHash,
      event.hash,
    );
    return `(${Array.from({ length: 10 }, (_, i) => `$${base + i + 1}`).join(', ')})`;
  });
  const sql = `WITH inserted AS (
      INSERT INTO audit_events (seq, id, at, type, actor_id, operation, request_id, event, prev_hash, hash)
      VALUES ${tuples.join(', ')}
      RETURNING seq)
    INSERT INTO outbox (seq) SELECT seq FROM inserted`;
  return { sql, params };
}

/** The viewer index rows of appended events (what `viewersOfEvent` names); null when none. */
function viewerRowsSql(chained: readonly ChainedEvent[]): { sql: string; params: unknown[] } | null {
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const { event, at } of chained) {
    for (const viewer of viewersOfEvent(event)) {
      const base = params.length;
      params.push(viewer, event.seq, at, event.requestId ?? null, ASK_TYPES.includes(event.type));
      tuples.push(`($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5})`);
    }
  }
  if (tuples.length === 0) return null;
  return {
    sql: `INSERT INTO viewer_events (viewer, seq, at, request_id, ask) VALUES ${tuples.join(', ')}`,
    params,
  };
}
