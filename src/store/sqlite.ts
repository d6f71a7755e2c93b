import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { StoredAuditEvent } from '../core/audit-chain.js';
import type { BatchStep } from '../core/batch.js';
import type { Delegation } from '../core/delegation.js';
import { ConfigError, StateConflictError } from '../core/errors.js';
import { type AuditEvent, type NewAuditEvent, type OperationRequest, tellsSlack } from '../core/model.js';
import { ASK_TYPES, foldViewerUnblocks, type ViewerUnblock, viewersOfEvent } from '../core/viewer-history.js';
import {
  distrustWords,
  folderTrusted,
  othersMayWrite,
  ownUid,
  resolveTrusted,
  sticky,
} from '../trusted-file.js';
import {
  AppendListeners,
  type AuditRow,
  addMs,
  auditWindow,
  byJobId,
  CHECKPOINT_COLUMNS,
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
} from './store.js';

/**
 * `normal`: in WAL mode a commit is in the WAL file (in the OS page cache) before it returns, so it
 * survives the process being killed; only a power loss or kernel crash can drop the last commits.
 * `full`: also fsyncs the WAL on every commit, surviving power loss at the cost of one fsync per
 * commit.
 */
export type SqliteSynchronous = 'normal' | 'full';

export interface SqliteStoreOptions {
  hash: HashEvent;
  logger?: StoreLogger | undefined;
  /** Default `normal`, see {@link SqliteSynchronous}. */
  synchronous?: SqliteSynchronous | undefined;
}

/**
 * How long a writer waits for another process's write lock before failing. Our transactions are
 * short (no network inside), so waiting is almost always what the caller wants.
 */
const BUSY_TIMEOUT_MS = 10_000;
const DEFAULT_LIST_LIMIT = 50;
const WINDOW_LIST_LIMIT = 500;
/** A time-boxed change in force, and when it is due: the index `requests_time_box_due` (migration 12). */
const WINDOW_IN_FORCE = `state = 'succeeded' AND json_extract(data, '$.timeBox.state') IN ('waiting', 'running', 'retrying')`;
const WINDOW_DUE = `COALESCE(json_extract(data, '$.timeBox.nextAt'), json_extract(data, '$.timeBox.endsAt'), '')`;
/** What each sweep reads by its due time: the key and condition of its partial index, word for word. */
const DUE: Record<DueKind, { at: string; where: string; index: string }> = {
  expiry: { at: 'expires_at', where: "state = 'pending'", index: 'requests_pending_expiry' },
  followUp: {
    at: 'follow_up_at',
    where: "state = 'pending' AND follow_up_at IS NOT NULL",
    index: 'requests_follow_up_due',
  },
  unannounced: {
    at: 'created_at',
    where: "state = 'pending' AND json_type(data, '$.slack') = 'null'",
    index: 'requests_unannounced',
  },
  executing: { at: 'updated_at', where: "state = 'executing'", index: 'requests_executing_since' },
  review: {
    at: "json_extract(data, '$.breakGlass.reviewDueAt')",
    where:
      "json_type(data, '$.breakGlass.review') = 'null' AND json_type(data, '$.breakGlass.overdueAt') = 'null'",
    index: 'requests_review_due',
  },
};
const DEFAULT_PAGE_SIZE = 2_000;
const SQLITE_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/** The operation of delegation events, which have an index of their own (migration 13). */
const DELEGATION = 'delegation';

type Row = Record<string, unknown>;

/**
 * Makes the database's folder and file, when they are not there yet, so that other users of the
 * machine can neither read nor list them (the file holds viewers' mobile numbers and every
 * request's parameters): the folder `rwxrwx---` and the file `rw-rw----`, less the umask, so a
 * group the operator chose can share them with the CLI. SQLite gives the WAL and its index the
 * file's mode. A file there already keeps its mode; if others may read it, the log says so.
 *
 * First it stops at anything another user could have put in SQLite's way: a link on the path
 * someone else made; a folder anyone may swap files in (written by others, not sticky); a folder
 * another user made where nobody else should (in `/tmp`, say); and in a sticky folder, a database,
 * WAL, index or journal file another user made (a link to a file of root's, a WAL its maker holds
 * open to read what is written, a journal SQLite would play back). In a folder only its owner and
 * group may write, the group's files are the operator's choice: a lead's CLI makes the WAL when it
 * opens the database first.
 * @see docs/security.md, "The database file"
 */
export async function prepareSqliteFile(path: string, logger: StoreLogger | undefined): Promise<void> {
  const refuse = (what: string): never => {
    throw new ConfigError([`DATABASE_URL: ${what}`]);
  };
  mkdirSync(dirname(resolve(path)), { recursive: true, mode: 0o770 });
  const whole = await resolveTrusted(path);
  if (whole.kind === 'refused') refuse(`${path} ${distrustWords(whole.why)}`);
  const folderPath = dirname(resolve(path));
  const realFolder = await resolveTrusted(folderPath);
  if (realFolder.kind !== 'real') {
    return refuse(
      realFolder.kind === 'refused'
        ? `${folderPath} ${distrustWords(realFolder.why)}`
        : `${folderPath} is missing`,
    );
  }
  const file = whole.kind === 'real' ? whole.path : join(realFolder.path, basename(path));
  const folder = dirname(file);
  const where = statSync(folder);
  if (othersMayWrite(where.mode) && !sticky(where.mode)) {
    refuse(
      `the folder ${folder} may be written by other users (mode ${(where.mode & 0o777).toString(8)}), who could swap the database for their own: run \`chmod o-w ${folder}\`, or keep the database in a folder of its own`,
    );
  }
  const trusted = ownUid(where.uid) || (await folderTrusted(folder));
  if (!trusted) {
    refuse(
      `the folder ${folder} belongs to another user (uid ${where.uid}), made where others may write, who could put their own database in it: keep the database in a folder of your own`,
    );
  }
  const stranger = strangersFile(file);
  if (stranger !== null) refuse(stranger);
  try {
    closeSync(openSync(file, 'wx', 0o660));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o007) !== 0) {
      logger?.warn(
        { path: file, mode: mode.toString(8) },
        `the database may be read by other users of this machine: run \`chmod o-rwx ${file}*\``,
      );
    }
  }
}

/**
 * Which of the database's files (the file, its WAL, its index, its journal) another user made,
 * as the refusal says it; null when none, or when others may not add files to its folder. It is
 * asked before SQLite opens them and again once it has, before anything is written: in the instant
 * between, another user could make the WAL or its index, or a link there to a file of theirs, and
 * SQLite would write into it. Each is judged by what stands at its path (a link as itself), and on
 * Linux also by what this process holds open under its name (`/proc/self/fd`), where a file
 * removed since still counts. A file renamed away in the moment between SQLite's open and the
 * second look escapes both (docs/security.md says so).
 * @see docs/security.md, "The database file"
 */
function strangersFile(file: string): string | null {
  const folder = statSync(dirname(file));
  if (!othersMayWrite(folder.mode)) return null;
  for (const { path, uid } of ownersOf(new Set([file, `${file}-wal`, `${file}-shm`, `${file}-journal`]))) {
    if (!ownUid(uid) && uid !== folder.uid) {
      return `${path} belongs to another user (uid ${uid}), in a folder anyone may add files to: vidops does not keep its approvals and audit log beside a file another user made; remove it, or keep the database in a folder of its own`;
    }
  }
  return null;
}

/** Who owns each of `names` as it stands, and each file this process holds open under one of them. */
function ownersOf(names: ReadonlySet<string>): { path: string; uid: number }[] {
  const standing = [...names].flatMap((path) => {
    const found = lstatSync(path, { throwIfNoEntry: false });
    return found === undefined ? [] : [{ path, uid: found.uid }];
  });
  // Where there is no /proc/self/fd (not Linux), the paths alone.
  const fds = existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd') : [];
  const held = fds.flatMap((fd) => {
    const link = `/proc/self/fd/${fd}`;
    try {
      const path = readlinkSync(link).replace(/ \(deleted\)$/, '');
      return names.has(path) ? [{ path, uid: statSync(link).uid }] : [];
    } catch {
      return []; // Closed meanwhile.
    }
  });
  return [...standing, ...held];
}

/**
 * The default store: one SQLite file in WAL mode. All writes run in `BEGIN IMMEDIATE`
 * transactions, so the chain head is read and the next event appended under the database's write
 * lock, also when several processes share the file (they wait up to {@link BUSY_TIMEOUT_MS}).
 * better-sqlite3 is synchronous, so one process never interleaves two transactions.
 * @see docs/architecture.md, "Scale" and "Audit log"
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly hash: HashEvent;
  private readonly logger: StoreLogger | undefined;
  private readonly appended: AppendListeners;
  private readonly statements = new Map<string, Database.Statement<unknown[], unknown>>();
  /**
   * One transaction wrapper for every write: `db.transaction()` builds four wrapper functions and
   * their properties each time it is called, so the body to run is passed as an argument instead.
   */
  private readonly immediate: (fn: () => unknown) => unknown;

  /** Opens (and creates) the database at `path`, or an in-memory one for `:memory:`. */
  constructor(path: string, options: SqliteStoreOptions) {
    this.hash = options.hash;
    this.logger = options.logger;
    this.appended = new AppendListeners(options.logger);
    const memory = path === ':memory:';
    this.db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    // Set before anything that takes a lock, so that even switching to WAL waits for others.
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!memory) {
      // SQLite answers BUSY at once, whatever busy_timeout says, while another process recovers
      // the WAL after a crash: a process started beside it waits as a writer would.
      const mode = whileBusy(() => this.db.pragma('journal_mode = WAL', { simple: true }), BUSY_TIMEOUT_MS);
      if (mode !== 'wal') {
        this.logger?.warn({ journalMode: mode }, 'SQLite could not switch to WAL; writes will be slower');
      }
      // Switching to WAL opened the WAL and its index: who made them is judged before anything is written.
      const stranger = strangersFile(realpathSync(path));
      if (stranger !== null) {
        this.db.close();
        throw new ConfigError([`DATABASE_URL: ${stranger}`]);
      }
    }
    // NORMAL by default: in WAL mode a commit survives the process being killed (the crash test
    // checks it) without an fsync per commit, so appends run at thousands per second; only an OS
    // crash or power cut can lose the newest commits. FULL (`?synchronous=full`) closes that gap.
    this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('foreign_keys = ON');
    this.immediate = this.db.transaction((fn: () => unknown) => fn()).immediate;
  }

  private stmt<R = Row>(sql: string): Database.Statement<unknown[], R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as Database.Statement<unknown[], R>;
  }

  /** A cached statement returning rows as arrays (for {@link AuditRow}). */
  private rawStmt<R extends unknown[]>(sql: string): Database.Statement<unknown[], R> {
    const key = `raw:${sql}`;
    let s = this.statements.get(key);
    if (s === undefined) {
      s = this.db.prepare(sql).raw(true);
      this.statements.set(key, s);
    }
    return s as Database.Statement<unknown[], R>;
  }

  /** Runs `fn` in a `BEGIN IMMEDIATE` transaction: the write lock is taken before the first read. */
  private write<T>(fn: () => T): T {
    return this.immediate(fn) as T;
  }

  async migrate(): Promise<void> {
    const list = MIGRATIONS.sqlite;
    this.write(() => {
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const applied = new Set(
        this.db
          .prepare<[], { version: number }>('SELECT version FROM schema_migrations')
          .all()
          .map((r) => r.version),
      );
      refuseNewer(list, applied);
      for (const m of pendingMigrations(list, applied)) {
        this.db.exec(m.sql);
        this.db
          .prepare(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ${SQLITE_NOW})`)
          .run(m.version, m.name);
      }
    });
    // Statements prepared against the old schema are dropped rather than trusted.
    this.statements.clear();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async schemaVersions(): Promise<number[]> {
    const table = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    if (table === undefined) return [];
    return this.db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
      .all()
      .map((r) => r.version);
  }

  async databaseNow(): Promise<Date> {
    const row = this.db.prepare<[], { now: string }>(`SELECT ${SQLITE_NOW} AS now`).get();
    return new Date(row?.now ?? Number.NaN);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async createRequest(
    request: OperationRequest,
    events: readonly NewAuditEvent[],
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }> {
    const done = this.write(() => this.insertRequest(request, events));
    this.appended.notify(done.events);
    return done;
  }

  async createCountedRequest(
    count: EventCount,
    build: CountedBuild,
  ): Promise<{ request: OperationRequest; events: AuditEvent[] }> {
    // One IMMEDIATE transaction: the write lock is held from the count to the insert, so every
    // connection to the file (every process) counts what the one before it wrote.
    const done = this.write(() => {
      const { viewer } = count;
      const earlier =
        viewer === undefined
          ? []
          : this.readViewerUnblocks({ viewer: viewer.viewer, since: viewer.since, limit: REPEAT_READ_LIMIT });
      const byViewer = count.viewers === undefined ? new Map() : this.readViewersUnblocks(count.viewers);
      const made = build(this.countInTransaction(count), earlier, byViewer);
      return this.insertRequest(made.request, made.events);
    });
    this.appended.notify(done.events);
    return done;
  }

  /** Inserts a request, its events and its notification job; callers hold the write lock. */
  private insertRequest(
    request: OperationRequest,
    events: readonly NewAuditEvent[],
  ): { request: OperationRequest; events: AuditEvent[] } {
    const c = requestColumns(request);
    // Returned as given, its times as stored: it is typed already, so it is not read back and parsed.
    const stored: OperationRequest = {
      ...request,
      createdAt: c.createdAt,
      expiresAt: c.expiresAt,
      updatedAt: c.updatedAt,
    };
    try {
      this.stmt(
        `INSERT INTO requests (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data, follow_up_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        c.id,
        c.operation,
        c.state,
        c.requesterId,
        c.createdAt,
        c.expiresAt,
        c.updatedAt,
        c.version,
        c.data,
        c.followUpAt,
      );
    } catch (err) {
      if (isSqliteCode(err, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        throw new StateConflictError(`Request ${request.id} already exists.`, { cause: err });
      }
      throw err;
    }
    const appended = this.appendInTransaction(events);
    if (appended.length > 0 && tellsSlack(stored)) {
      this.recordNotification({ id: c.id, state: c.state, version: c.version, updated_at: c.updatedAt });
    }
    return { request: stored, events: appended };
  }

  async getRequest(id: string): Promise<OperationRequest | null> {
    const row = this.stmt<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = ?`).get(id);
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
    const done = this.write(() => {
      const current = this.requestAt(id, expectedVersion);
      if (current === undefined) return null;
      if (whileDelegated !== undefined && !this.delegationOpen(whileDelegated, updatedAt)) return null;
      return this.applyPatch(current, patch, updatedAt, events);
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
    // The version, the count and the change under one write lock, as in createCountedRequest.
    const done = this.write((): LimitedTransition => {
      const current = this.requestAt(id, expectedVersion);
      if (current === undefined) return { kind: 'stale' };
      const used = this.countInTransaction(limit);
      if (used >= limit.max) return { kind: 'limited', used };
      const changed = this.applyPatch(current, patch, updatedAt, events);
      return changed === null ? { kind: 'stale' } : { kind: 'done', ...changed };
    });
    if (done.kind === 'done') this.appended.notify(done.events);
    return done;
  }

  /** Whether delegation `id` is open at `at`: not ended, and its `until` later. */
  private delegationOpen(id: string, at: string): boolean {
    return (
      this.stmt<{ one: number }>(
        'SELECT 1 AS one FROM delegations WHERE id = ? AND ended_at IS NULL AND until > ?',
      ).get(id, at) !== undefined
    );
  }

  /** The request's row if it is still at `version`. */
  private requestAt(id: string, version: number): RequestRow | undefined {
    return this.stmt<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM requests WHERE id = ? AND version = ?`).get(
      id,
      version,
    );
  }

  /** Compare-and-set of a row read in this transaction, with its events; callers hold the write lock. */
  private applyPatch(
    current: RequestRow,
    patch: RequestPatch,
    updatedAt: string,
    events: readonly NewAuditEvent[],
  ): { request: OperationRequest; events: AuditEvent[] } | null {
    const expiresAt =
      patch.expiresAt === undefined
        ? current.expires_at
        : patch.expiresAt === null
          ? null
          : normalizeTime(patch.expiresAt, 'expiresAt');
    const row = this.stmt<RequestRow>(
      `UPDATE requests SET state = ?, expires_at = ?, updated_at = ?, version = version + 1, data = ?
       WHERE id = ? AND version = ? RETURNING ${REQUEST_COLUMNS}`,
    ).get(
      patch.state ?? current.state,
      expiresAt,
      updatedAt,
      patchedData(current.data, patch),
      current.id,
      current.version,
    );
    if (row === undefined) return null;
    const appended = this.appendInTransaction(events);
    const stored = rowToRequest(row);
    if (appended.length > 0 && tellsSlack(stored)) this.recordNotification(row);
    return { request: stored, events: appended };
  }

  async viewerUnblocks(query: ViewerQuery): Promise<ViewerUnblock[]> {
    return this.readViewerUnblocks(query);
  }

  /**
   * The viewer's newest `limit` asks (from the index, by primary key), then the other indexed
   * events of their requests, folded. Also run inside a write transaction (the repeat count).
   */
  private readViewerUnblocks(query: ViewerQuery): ViewerUnblock[] {
    const since = query.since === undefined ? null : normalizeTime(query.since, 'since');
    const rows = this.rawStmt<AuditRow>(
      `WITH asks AS (
         SELECT seq, request_id FROM viewer_events
         WHERE viewer = ? AND ask = 1 AND (? IS NULL OR at >= ?)
         ORDER BY seq DESC LIMIT ?)
       SELECT ${EVENT_COLUMNS} FROM audit_events WHERE seq IN (
         SELECT seq FROM asks
         UNION
         SELECT v.seq FROM viewer_events v
         WHERE v.viewer = ? AND v.seq > (SELECT min(seq) FROM asks)
           AND v.request_id IN (SELECT request_id FROM asks WHERE request_id IS NOT NULL))
       ORDER BY seq`,
    ).all(query.viewer, since, since, Math.max(0, Math.floor(query.limit)), query.viewer);
    return foldViewerUnblocks(query.viewer, rows.map(rowToEvent));
  }

  /** A batch's viewers' unblocks in the window, as `readViewerUnblocks` reads one's, in one statement. */
  private readViewersUnblocks(window: ViewersWindow): Map<string, ViewerUnblock[]> {
    const rows = this.rawStmt<ViewerAuditRow>(
      `WITH asks AS (
         SELECT viewer, seq, request_id FROM (
           SELECT viewer, seq, request_id, row_number() OVER (PARTITION BY viewer ORDER BY seq DESC) AS nth
           FROM viewer_events WHERE viewer IN (SELECT value FROM json_each(?)) AND ask = 1 AND at >= ?)
         WHERE nth <= ?),
       picked AS (
         SELECT viewer, seq FROM asks
         UNION
         SELECT v.viewer, v.seq FROM viewer_events v
         JOIN (SELECT viewer, min(seq) AS first FROM asks GROUP BY viewer) f ON v.viewer = f.viewer AND v.seq > f.first
         WHERE v.request_id IN (SELECT request_id FROM asks a WHERE a.viewer = v.viewer))
       SELECT e.seq, e.prev_hash, e.hash, e.event, p.viewer FROM picked p JOIN audit_events e ON e.seq = p.seq
       ORDER BY e.seq`,
    ).all(JSON.stringify(window.viewers), normalizeTime(window.since, 'since'), REPEAT_READ_LIMIT);
    return foldByViewer(window.viewers, rows);
  }

  /** The notification job of a change just written; callers hold the write lock. */
  private recordNotification(row: Pick<RequestRow, 'id' | 'state' | 'version' | 'updated_at'>): void {
    this.stmt('INSERT INTO notifications (request_id, state, version, at) VALUES (?, ?, ?, ?)').run(
      row.id,
      row.state,
      row.version,
      row.updated_at,
    );
  }

  async listRequests(filter: RequestFilter = {}): Promise<OperationRequest[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.states !== undefined) {
      where.push('state IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(filter.states));
    }
    if (filter.requesterId !== undefined) {
      where.push('requester_id = ?');
      params.push(filter.requesterId);
    }
    if (filter.breakGlassUnreviewed === true) {
      // JSON null (no review yet) is 'null'; a request without break-glass has no such path.
      where.push("json_type(data, '$.breakGlass.review') = 'null'");
    }
    if (filter.timeBoxOpen === true) {
      where.push(`json_extract(data, '$.timeBox.state') IN ('waiting', 'running', 'retrying')`);
    }
    params.push(filter.limit ?? DEFAULT_LIST_LIMIT);
    const sql = `SELECT ${REQUEST_COLUMNS} FROM requests ${whereClause(where)}
                 ORDER BY created_at DESC, id DESC LIMIT ?`;
    return this.stmt<RequestRow>(sql)
      .all(...params)
      .map(rowToRequest);
  }

  async listOpenRequests(requesterId: string, limit: number): Promise<Counted<OperationRequest>> {
    const where = `requester_id = ? AND ${OPEN_REQUEST}`;
    const rows = this.stmt<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(requesterId, limit);
    const total = this.stmt<{ n: number }>(`SELECT count(*) AS n FROM requests WHERE ${where}`).get(
      requesterId,
    );
    return { items: rows.map(rowToRequest), total: total?.n ?? 0 };
  }

  async listPending(filter: PendingFilter): Promise<Counted<OperationRequest>> {
    // The pending range of `requests_state`: open work only, however long the history.
    const where = `state = 'pending' AND (expires_at IS NULL OR expires_at > ?)
      AND operation IN (SELECT value FROM json_each(?)) AND requester_id <> ?`;
    const params = [
      normalizeTime(filter.now, 'now'),
      JSON.stringify(filter.operations),
      filter.notRequesterId,
    ];
    const rows = this.stmt<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(...params, filter.limit);
    const total = this.stmt<{ n: number }>(`SELECT count(*) AS n FROM requests WHERE ${where}`).get(
      ...params,
    );
    return { items: rows.map(rowToRequest), total: total?.n ?? 0 };
  }

  async oldestPendingAt(): Promise<string | null> {
    const row = this.stmt<{ at: string | null }>(
      "SELECT min(created_at) AS at FROM requests WHERE state = 'pending'",
    ).get();
    return row?.at ?? null;
  }

  async listReverts(id: string): Promise<OperationRequest[]> {
    return this.stmt<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE json_extract(data, '$.revertOf.kind') = 'revert'
         AND json_extract(data, '$.revertOf.id') = ? ORDER BY created_at, id`,
    )
      .all(id)
      .map(rowToRequest);
  }

  async countPutBacksEscalated(): Promise<number> {
    const row = this.stmt<{ n: number }>(
      `SELECT count(*) AS n FROM requests WHERE json_extract(data, '$.timeBox.leadTold') = 1
         AND json_extract(data, '$.timeBox.state') IN ('waiting', 'retrying')`,
    ).get();
    return row?.n ?? 0;
  }

  async listDue(q: DueQuery): Promise<Due[]> {
    const { at, where, index } = DUE[q.kind];
    // `INDEXED BY`: without stats SQLite may prefer `requests_state`, whose ranges hold the history.
    return this.stmt<RequestRow & { due_at: string }>(
      `SELECT ${REQUEST_COLUMNS}, ${at} AS due_at FROM requests INDEXED BY ${index}
       WHERE ${where} AND ${at} <= ? AND (${at}, id) > (?, ?) ORDER BY ${at}, id LIMIT ?`,
    )
      .all(normalizeTime(q.by, 'by'), q.after?.at ?? '', q.after?.id ?? '', q.limit)
      .map((row) => ({ request: rowToRequest(row), at: row.due_at }));
  }

  async setFollowUpAt(id: string, at: string | null): Promise<void> {
    const value = at === null ? null : normalizeTime(at, 'at');
    this.write(() =>
      this.stmt("UPDATE requests SET follow_up_at = ? WHERE id = ? AND state = 'pending'").run(value, id),
    );
  }

  async appendAudit(events: readonly NewAuditEvent[]): Promise<AuditEvent[]> {
    if (events.length === 0) return [];
    const appended = this.write(() => this.appendInTransaction(events));
    this.appended.notify(appended);
    return appended;
  }

  onAppend(listener: () => void): () => void {
    return this.appended.add(listener);
  }

  /** Reads the head and appends after it; callers hold the write lock (IMMEDIATE transaction). */
  private appendInTransaction(events: readonly NewAuditEvent[]): AuditEvent[] {
    if (events.length === 0) return [];
    const head = this.stmt<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
    ).get();
    const chained = chainEvents(head ?? null, events, this.hash, GENESIS_HASH);
    const insertEvent = this.stmt(
      `INSERT INTO audit_events (seq, id, at, type, actor_id, operation, request_id, event, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertOutbox = this.stmt('INSERT INTO outbox (seq) VALUES (?)');
    const insertViewer = this.stmt(
      'INSERT INTO viewer_events (viewer, seq, at, request_id, ask) VALUES (?, ?, ?, ?, ?)',
    );
    for (const { event, json, at } of chained) {
      insertEvent.run(
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
      insertOutbox.run(event.seq);
      const ask = ASK_TYPES.includes(event.type) ? 1 : 0;
      for (const viewer of viewersOfEvent(event)) {
        insertViewer.run(viewer, event.seq, at, event.requestId ?? null, ask);
      }
    }
    return chained.map((c) => c.event);
  }

  async listAudit(query: AuditQuery = {}): Promise<AuditEvent[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.afterSeq !== undefined) {
      where.push('seq > ?');
      params.push(query.afterSeq);
    }
    if (query.since !== undefined) {
      where.push('at >= ?');
      params.push(normalizeTime(query.since, 'since'));
    }
    if (query.until !== undefined) {
      where.push('at <= ?');
      params.push(normalizeTime(query.until, 'until'));
    }
    // A value stored as a BLOB never equals text in SQLite: both are asked for, so a column
    // retyped in the database hides no event from a check that reads the log (still by index).
    if (query.requestId !== undefined) {
      where.push('request_id IN (?, CAST(? AS BLOB))');
      params.push(query.requestId, query.requestId);
    }
    if (query.operation === DELEGATION) {
      // Read through the delegation events' own index (migration 13): SQLite uses a partial
      // index only for the very term it was made with.
      where.push(`operation IN ('${DELEGATION}', CAST('${DELEGATION}' AS BLOB))`);
    } else if (query.operation !== undefined) {
      where.push('operation IN (?, CAST(? AS BLOB))');
      params.push(query.operation, query.operation);
    }
    const { newest, count } = auditWindow(query);
    // LIMIT -1 is SQLite for "no limit".
    params.push(count ?? -1);
    const rows = this.rawStmt<AuditRow>(
      `SELECT ${EVENT_COLUMNS} FROM audit_events ${whereClause(where)}
       ORDER BY seq ${newest ? 'DESC' : 'ASC'} LIMIT ?`,
    ).all(...params);
    if (newest) rows.reverse();
    return rows.map(rowToEvent);
  }

  iterateAudit(pageSize = DEFAULT_PAGE_SIZE): AsyncIterable<AuditEvent> {
    return this.auditPages<AuditRow, AuditEvent>(EVENT_COLUMNS, pageSize, rowToEvent);
  }

  iterateStoredAudit(pageSize = DEFAULT_PAGE_SIZE): AsyncIterable<StoredAuditEvent> {
    // Each row with the columns beside its JSON, as stored.
    return this.auditPages<VerifyRow, StoredAuditEvent>(VERIFY_COLUMNS, pageSize, rowToStoredEvent);
  }

  // Keyset pages, not one open cursor: better-sqlite3 refuses other statements on a connection
  // while a cursor is open.
  private async *auditPages<R extends AuditRow | VerifyRow, T>(
    columns: string,
    pageSize: number,
    map: (row: R) => T,
  ): AsyncIterable<T> {
    const page = this.rawStmt<R>(`SELECT ${columns} FROM audit_events WHERE seq > ? ORDER BY seq LIMIT ?`);
    yield* keysetPages((after) => page.all(after, pageSize), pageSize, map);
  }

  async auditHead(): Promise<{ seq: number; hash: string } | null> {
    const head = this.stmt<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
    ).get();
    return head === undefined ? null : { seq: head.seq, hash: head.hash };
  }

  async countEvents(
    actorId: string,
    operation: string,
    types: readonly string[],
    since: string,
  ): Promise<number> {
    return this.countInTransaction({ actorId, operation, types, since });
  }

  /** The events `count` names; inside a write transaction, what the previous writer committed. */
  private countInTransaction(count: EventCount): number {
    if (count.types.length === 0) return 0;
    const since = normalizeTime(count.since, 'since');
    const types = JSON.stringify(count.types);
    const byActor = this.stmt<{ n: number }>(
      `SELECT count(*) AS n FROM audit_events
       WHERE actor_id = ? AND operation = ? AND at >= ? AND type IN (SELECT value FROM json_each(?))`,
    ).get(count.actorId, count.operation, since, types);
    if (count.osUser === undefined) return byActor?.n ?? 0;
    // The same OS user's events under every other name it gave (`--as`): read from the event.
    const byOsUser = this.stmt<{ n: number }>(
      `SELECT count(*) AS n FROM audit_events
       WHERE operation = ? AND at >= ? AND type IN (SELECT value FROM json_each(?)) AND actor_id <> ?
         AND json_extract(event, '$.actor.via.osUser') = ?`,
    ).get(count.operation, since, types, count.actorId, count.osUser);
    return (byActor?.n ?? 0) + (byOsUser?.n ?? 0);
  }

  async claimOutbox(worker: string, limit: number, leaseMs: number, now: string): Promise<AuditEvent[]> {
    const at = normalizeTime(now, 'now');
    const leaseUntil = addMs(at, leaseMs);
    return this.write(() => {
      const claimed = this.stmt<{ seq: number }>(
        `UPDATE outbox SET lease_owner = ?, lease_until = ?
         WHERE seq IN (
           SELECT seq FROM outbox
           WHERE delivered_at IS NULL
             AND (lease_until IS NULL OR lease_until <= ?)
             AND (not_before IS NULL OR not_before <= ?)
           ORDER BY seq LIMIT ?)
         RETURNING seq`,
      ).all(worker, leaseUntil, at, at, limit);
      if (claimed.length === 0) return [];
      return this.rawStmt<AuditRow>(
        `SELECT ${EVENT_COLUMNS} FROM audit_events
         WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      )
        .all(JSON.stringify(claimed.map((c) => c.seq)))
        .map(rowToEvent);
    });
  }

  async ackOutbox(seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    this.write(() => {
      const acked = this.stmt(
        `UPDATE outbox SET delivered_at = ${SQLITE_NOW}, lease_owner = NULL, lease_until = NULL
         WHERE delivered_at IS NULL AND seq IN (SELECT value FROM json_each(?))`,
      ).run(JSON.stringify(seqs)).changes;
      if (acked > 0) this.stmt('UPDATE outbox_acked SET n = n + ?').run(acked);
    });
  }

  /**
   * The outboxes' leases (`outbox` by seq, `notifications` by id, `checkpoints` by size): gives
   * back (`notBefore`) or renews (`until`) the rows `worker` still holds and that are not done;
   * how many it held.
   */
  private leased(
    table: keyof typeof LEASED,
    keys: readonly number[],
    worker: string,
    change: { notBefore: string } | { until: string },
  ): number {
    if (keys.length === 0) return 0;
    const { key, pending } = LEASED[table];
    const [set, at] =
      'until' in change
        ? ['lease_until = ?', normalizeTime(change.until, 'until')]
        : [
            'lease_owner = NULL, lease_until = NULL, not_before = ?',
            normalizeTime(change.notBefore, 'notBefore'),
          ];
    return this.write(
      () =>
        this.stmt(
          `UPDATE ${table} SET ${set}
           WHERE ${pending}${key} IN (SELECT value FROM json_each(?)) AND lease_owner = ?`,
        ).run(at, JSON.stringify(keys), worker).changes,
    );
  }

  async releaseOutbox(seqs: readonly number[], notBefore: string, worker: string): Promise<void> {
    this.leased('outbox', seqs, worker, { notBefore });
  }

  async renewOutbox(seqs: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('outbox', seqs, worker, { until });
  }

  async outboxDepth(): Promise<number> {
    // Every event enters the outbox: the head less those acknowledged, two rows read (migration 13).
    const row = this.stmt<{ n: number }>(
      `SELECT coalesce((SELECT max(seq) FROM audit_events), 0) - (SELECT n FROM outbox_acked) AS n`,
    ).get();
    return row?.n ?? 0;
  }

  async claimNotifications(claim: NotificationClaim): Promise<NotificationJob[]> {
    const now = normalizeTime(claim.now, 'now');
    const settledAt = normalizeTime(claim.settledAt, 'settledAt');
    const leaseUntil = addMs(now, claim.leaseMs);
    // The IMMEDIATE transaction makes the claim one step for every process on the file.
    return this.write(() => {
      const picked = this.stmt<{ request_id: string }>(
        `SELECT request_id FROM notifications
         GROUP BY request_id
         HAVING sum(CASE WHEN lease_until > ? THEN 1 ELSE 0 END) = 0
            AND sum(CASE WHEN not_before > ? THEN 1 ELSE 0 END) = 0
            AND max(at) <= ?
         ORDER BY min(id) LIMIT ?`,
      ).all(now, now, settledAt, claim.requests);
      if (picked.length === 0) return [];
      return this.stmt<NotificationRow>(
        `UPDATE notifications SET lease_owner = ?, lease_until = ?
         WHERE request_id IN (SELECT value FROM json_each(?))
         RETURNING ${NOTIFICATION_COLUMNS}`,
      )
        .all(claim.worker, leaseUntil, JSON.stringify(picked.map((p) => p.request_id)))
        .map(rowToNotification)
        .sort(byJobId);
    });
  }

  async ackNotifications(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    this.write(() => {
      this.stmt('DELETE FROM notifications WHERE id IN (SELECT value FROM json_each(?))').run(
        JSON.stringify(ids),
      );
    });
  }

  async releaseNotifications(ids: readonly number[], notBefore: string, worker: string): Promise<void> {
    this.leased('notifications', ids, worker, { notBefore });
  }

  async renewNotifications(ids: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('notifications', ids, worker, { until });
  }

  async enqueueNotification(requestId: string, at: string): Promise<boolean> {
    const normalized = normalizeTime(at, 'at');
    const result = this.write(() =>
      this.stmt(
        `INSERT INTO notifications (request_id, state, version, at)
         SELECT id, state, version, ? FROM requests WHERE id = ?`,
      ).run(normalized, requestId),
    );
    return result.changes === 1;
  }

  async notificationDepth(): Promise<number> {
    const row = this.stmt<{ n: number }>('SELECT count(*) AS n FROM notifications').get();
    return row?.n ?? 0;
  }

  async markDelivered(key: string, at: string): Promise<boolean> {
    const normalized = normalizeTime(at, 'at');
    const result = this.write(() =>
      this.stmt('INSERT INTO deliveries (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(
        key,
        normalized,
      ),
    );
    return result.changes === 1;
  }

  async takeLease(name: string, holder: string, until: string, now: string): Promise<boolean> {
    const result = this.write(() =>
      this.stmt(
        `INSERT INTO leases (name, holder, until) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE leases.until <= ? OR leases.holder = excluded.holder`,
      ).run(name, holder, normalizeTime(until, 'until'), normalizeTime(now, 'now')),
    );
    return result.changes === 1;
  }

  async giveLease(name: string, holder: string): Promise<void> {
    this.write(() => this.stmt('DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder));
  }

  async listWindows(filter: { dueBy?: string; limit?: number } = {}): Promise<OperationRequest[]> {
    const due = filter.dueBy === undefined ? '' : `AND ${WINDOW_DUE} <= ?`;
    const params: unknown[] = filter.dueBy === undefined ? [] : [normalizeTime(filter.dueBy, 'dueBy')];
    // Without stats SQLite prefers `requests_state`, whose 'succeeded' range is the whole history.
    return this.stmt<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests INDEXED BY requests_time_box_due WHERE ${WINDOW_IN_FORCE} ${due}
       ORDER BY ${WINDOW_DUE}, id LIMIT ?`,
    )
      .all(...params, filter.limit ?? WINDOW_LIST_LIMIT)
      .map(rowToRequest);
  }

  async holdItems(requestId: string, items: readonly string[]): Promise<string | null> {
    const list = JSON.stringify(items);
    return this.write(() => {
      const held = this.stmt<{ request_id: string }>(
        `SELECT h.request_id FROM time_box_holds h JOIN requests r ON r.id = h.request_id
         WHERE h.item IN (SELECT value FROM json_each(?)) AND h.request_id <> ?
           AND r.state NOT IN ('failed', 'rejected', 'cancelled', 'expired')
           AND json_extract(r.data, '$.timeBox.state') IN ('waiting', 'running', 'retrying')
         LIMIT 1`,
      ).get(list, requestId);
      if (held !== undefined) return held.request_id;
      this.stmt(
        `INSERT INTO time_box_holds (item, request_id) SELECT value, ? FROM json_each(?) WHERE true
         ON CONFLICT (item) DO UPDATE SET request_id = excluded.request_id`,
      ).run(requestId, list);
      return null;
    });
  }

  async pruneDeliveries(before: string): Promise<number> {
    const cutoff = normalizeTime(before, 'before');
    const result = this.write(() => this.stmt('DELETE FROM deliveries WHERE at < ?').run(cutoff));
    return result.changes;
  }

  async forgetDelivery(key: string): Promise<void> {
    this.write(() => this.stmt('DELETE FROM deliveries WHERE key = ?').run(key));
  }

  async putDraft(draft: ModalDraft): Promise<void> {
    const columns = draftColumns(draft);
    this.write(() => {
      this.stmt(
        `INSERT INTO drafts (${DRAFT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET user_id = excluded.user_id, kind = excluded.kind,
           payload = excluded.payload, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      ).run(...columns);
    });
  }

  async takeDraft(key: string, now: string): Promise<ModalDraft | null> {
    const at = normalizeTime(now, 'now');
    // DELETE … RETURNING: of two takes at once, one gets the row and the other nothing.
    const row = this.write(() =>
      this.stmt<DraftRow>(`DELETE FROM drafts WHERE key = ? RETURNING ${DRAFT_COLUMNS}`).get(key),
    );
    return rowToDraft(row, at);
  }

  async pruneDrafts(now: string): Promise<number> {
    const at = normalizeTime(now, 'now');
    return this.write(() => this.stmt('DELETE FROM drafts WHERE expires_at <= ?').run(at)).changes;
  }

  async addCheckpoint(checkpoint: {
    size: number;
    head: string;
    time: string;
    note: string;
  }): Promise<boolean> {
    const columns = checkpointColumns(checkpoint);
    const result = this.write(() =>
      this.stmt(
        'INSERT INTO checkpoints (size, head, made_at, note) VALUES (?, ?, ?, ?) ON CONFLICT (size) DO NOTHING',
      ).run(...columns),
    );
    return result.changes === 1;
  }

  async listCheckpoints(): Promise<StoredCheckpoint[]> {
    return this.stmt<CheckpointRow>(`SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY size`)
      .all()
      .map(rowToCheckpoint);
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | null> {
    const row = this.stmt<CheckpointRow>(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints ORDER BY size DESC LIMIT 1`,
    ).get();
    return row === undefined ? null : rowToCheckpoint(row);
  }

  async claimCheckpoints(
    worker: string,
    limit: number,
    leaseMs: number,
    now: string,
  ): Promise<StoredCheckpoint[]> {
    const at = normalizeTime(now, 'now');
    return this.write(() =>
      this.stmt<CheckpointRow>(
        `UPDATE checkpoints SET lease_owner = ?, lease_until = ?
         WHERE size IN (
           SELECT size FROM checkpoints
           WHERE posted_at IS NULL
             AND (lease_until IS NULL OR lease_until <= ?)
             AND (not_before IS NULL OR not_before <= ?)
           ORDER BY size LIMIT ?)
         RETURNING ${CHECKPOINT_COLUMNS}`,
      )
        .all(worker, addMs(at, leaseMs), at, at, limit)
        .map(rowToCheckpoint)
        .sort((a, b) => a.size - b.size),
    );
  }

  async markCheckpointPosted(size: number, at: string): Promise<void> {
    const postedAt = normalizeTime(at, 'at');
    this.write(() =>
      this.stmt(
        `UPDATE checkpoints SET posted_at = ?, lease_owner = NULL, lease_until = NULL
         WHERE size = ? AND posted_at IS NULL`,
      ).run(postedAt, size),
    );
  }

  async releaseCheckpoints(sizes: readonly number[], notBefore: string, worker: string): Promise<void> {
    this.leased('checkpoints', sizes, worker, { notBefore });
  }

  async renewCheckpoints(sizes: readonly number[], worker: string, until: string): Promise<number> {
    return this.leased('checkpoints', sizes, worker, { until });
  }

  async unpostedCheckpoints(): Promise<number> {
    const row = this.stmt<{ n: number }>(
      'SELECT count(*) AS n FROM checkpoints WHERE posted_at IS NULL',
    ).get();
    return row?.n ?? 0;
  }

  async undeliveredSeqs(limit: number): Promise<number[]> {
    return this.stmt<{ seq: number }>(
      'SELECT seq FROM outbox WHERE delivered_at IS NULL ORDER BY seq LIMIT ?',
    )
      .all(limit)
      .map((r) => r.seq);
  }

  // --- Delegations (migration 6) ---------------------------------------------------------

  async addDelegation(delegation: Delegation, events: readonly NewAuditEvent[]): Promise<Delegation> {
    const c = delegationColumns(delegation);
    const done = this.write(() => {
      let row: DelegationRow | undefined;
      try {
        row = this.stmt<DelegationRow>(
          `INSERT INTO delegations (id, lead_id, delegate_id, created_at, until, ended_at, data)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${DELEGATION_COLUMNS}`,
        ).get(c.id, c.leadId, c.delegateId, c.createdAt, c.until, c.endedAt, c.data);
      } catch (err) {
        if (
          isSqliteCode(err, 'SQLITE_CONSTRAINT_UNIQUE') ||
          isSqliteCode(err, 'SQLITE_CONSTRAINT_PRIMARYKEY')
        ) {
          throw new StateConflictError(`${delegation.lead.id} already has a delegation in force.`, {
            cause: err,
          });
        }
        throw err;
      }
      if (row === undefined) throw new Error(`insert of delegation ${delegation.id} returned nothing`);
      return { delegation: rowToDelegation(row), events: this.appendInTransaction(events) };
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
    const done = this.write(() => {
      const current = this.stmt<DelegationRow>(
        `SELECT ${DELEGATION_COLUMNS} FROM delegations WHERE id = ? AND ended_at IS NULL`,
      ).get(id);
      if (current === undefined) return null;
      const row = this.stmt<DelegationRow>(
        `UPDATE delegations SET ended_at = ?, data = ? WHERE id = ? AND ended_at IS NULL
         RETURNING ${DELEGATION_COLUMNS}`,
      ).get(endedAt, endedDelegationData(current.data, end), id);
      if (row === undefined) return null;
      return { delegation: rowToDelegation(row), events: this.appendInTransaction(events) };
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
      where.push('lead_id = ?');
      params.push(filter.leadId);
    }
    if (filter.delegateId !== undefined) {
      where.push('delegate_id = ?');
      params.push(filter.delegateId);
    }
    if (filter.open === true) where.push('ended_at IS NULL');
    params.push(filter.limit ?? DEFAULT_LIST_LIMIT);
    return this.stmt<DelegationRow>(
      `SELECT ${DELEGATION_COLUMNS} FROM delegations ${whereClause(where)}
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
      .all(...params)
      .map(rowToDelegation);
  }

  // --- Language choices (migration 7) ----------------------------------------------------

  async getLanguageChoice(userId: string): Promise<string | null> {
    const row = this.stmt<{ locale: string }>('SELECT locale FROM language_choices WHERE user_id = ?').get(
      userId,
    );
    return row?.locale ?? null;
  }

  async setLanguageChoice(userId: string, locale: string, at: string): Promise<void> {
    const chosenAt = normalizeTime(at, 'at');
    this.write(() => {
      this.stmt(
        `INSERT INTO language_choices (user_id, locale, chosen_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, chosen_at = excluded.chosen_at`,
      ).run(userId, locale, chosenAt);
    });
  }

  // --- DMs carrying a request's buttons (migration 8) ---------------------------------------

  async recordRequestDm(dm: RequestDm): Promise<void> {
    const postedAt = normalizeTime(dm.postedAt, 'postedAt');
    this.write(() => {
      this.stmt(
        `INSERT INTO request_dms (request_id, channel, ts, user_id, kind, posted_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (request_id, channel, ts) DO NOTHING`,
      ).run(dm.requestId, dm.channel, dm.ts, dm.userId, dm.kind, postedAt);
    });
  }

  async requestDms(requestId: string): Promise<RequestDm[]> {
    return this.stmt<RequestDmRow>(
      `SELECT ${REQUEST_DM_COLUMNS} FROM request_dms WHERE request_id = ? ORDER BY posted_at, ts`,
    )
      .all(requestId)
      .map(rowToRequestDm);
  }

  async forgetRequestDm(dm: Pick<RequestDm, 'requestId' | 'channel' | 'ts'>): Promise<void> {
    this.write(() => {
      this.stmt('DELETE FROM request_dms WHERE request_id = ? AND channel = ? AND ts = ?').run(
        dm.requestId,
        dm.channel,
        dm.ts,
      );
    });
  }

  async renewExecution(id: string, from: string, to: string): Promise<boolean> {
    const update = this.stmt(
      "UPDATE requests SET updated_at = ? WHERE id = ? AND state = 'executing' AND updated_at = ?",
    );
    return this.write(
      () => update.run(normalizeTime(to, 'to'), id, normalizeTime(from, 'from')).changes === 1,
    );
  }

  async beginStep(step: {
    requestId: string;
    index: number;
    mobileNumber: string;
    at: string;
  }): Promise<boolean> {
    const at = normalizeTime(step.at, 'at');
    const done = this.write(() =>
      this.stmt(
        `INSERT INTO batch_steps (request_id, idx, mobile, state, error, updated_at)
         VALUES (?, ?, ?, 'sending', NULL, ?) ON CONFLICT DO NOTHING`,
      ).run(step.requestId, step.index, step.mobileNumber, at),
    );
    return done.changes === 1;
  }

  async endStep(step: StepEndChange, events: readonly NewAuditEvent[]): Promise<boolean> {
    const at = normalizeTime(step.at, 'at');
    const appended = this.write(() => {
      const moved = this.stmt(
        'UPDATE batch_steps SET state = ?, error = ?, updated_at = ? WHERE request_id = ? AND idx = ? AND state = ?',
      ).run(
        step.to,
        step.error === null ? null : JSON.stringify(step.error),
        at,
        step.requestId,
        step.index,
        step.from,
      );
      return moved.changes === 1 ? this.appendInTransaction(events) : null;
    });
    if (appended === null) return false;
    this.appended.notify(appended);
    return true;
  }

  async listSteps(requestId: string): Promise<BatchStep[]> {
    return this.stmt<StepRow>(`SELECT ${STEP_COLUMNS} FROM batch_steps WHERE request_id = ? ORDER BY idx`)
      .all(requestId)
      .map(rowToStep);
  }

  async getSetting(key: string): Promise<string | null> {
    const row = this.stmt<{ value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    return row?.value ?? null;
  }

  async setSetting(key: string, value: string): Promise<void> {
    this.write(() => {
      this.stmt(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ).run(key, value);
    });
  }
}

/**
 * Checks the error code by shape, not `instanceof`: better-sqlite3's native addon keeps the
 * SqliteError class of the first context that loaded it, so under Jest's per-file module
 * registries the class of a thrown error may not be the one this module sees.
 */
/**
 * Runs `fn` again while SQLite answers SQLITE_BUSY (or one of its extended codes), pausing a little
 * longer each time, for at most `limitMs`; then the last error is thrown. Synchronous, as the
 * driver is: for the few statements SQLite's own busy handler does not cover.
 */
export function whileBusy<T>(fn: () => T, limitMs: number): T {
  const deadline = Date.now() + limitMs;
  let pauseMs = 5;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      const busy =
        typeof err === 'object' &&
        err !== null &&
        'code' in err &&
        String(err.code).startsWith('SQLITE_BUSY');
      if (!busy || Date.now() + pauseMs > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pauseMs);
      pauseMs = Math.min(pauseMs * 2, 200);
    }
  }
}

function isSqliteCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === code;
}
