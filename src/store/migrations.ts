/**
 * Versioned schema migrations, one ordered list per dialect. Each store records what it applied in
 * `schema_migrations` and applies the rest under a lock (an IMMEDIATE transaction on SQLite, an
 * advisory lock on PostgreSQL), so two processes starting at once apply each migration once.
 * Released migrations are never edited: a change is a new version at the end of the list.
 * @see docs/architecture.md, "Scale"
 */

import { VidopsError } from '../core/errors.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Migration {
  /** Strictly increasing, starting at 1. */
  version: number;
  name: string;
  /** One or more statements, run inside the migration's transaction. */
  sql: string;
}

/**
 * SQLite keeps timestamps as ISO-8601 text in `toISOString()` form (normalised by the store), which
 * sorts in time order. `seq` is the rowid, assigned by the store as head + 1.
 */
const SQLITE: readonly Migration[] = [
  {
    version: 1,
    name: 'requests, audit log, outbox, deliveries, settings',
    sql: `
      CREATE TABLE requests (
        id TEXT PRIMARY KEY,
        operation TEXT NOT NULL,
        state TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        updated_at TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX requests_created ON requests (created_at DESC, id DESC);
      CREATE INDEX requests_requester ON requests (requester_id, created_at DESC);
      CREATE INDEX requests_state ON requests (state, created_at DESC);
      CREATE INDEX requests_pending_expiry ON requests (expires_at) WHERE state = 'pending';

      CREATE TABLE audit_events (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        at TEXT NOT NULL,
        type TEXT NOT NULL,
        actor_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        request_id TEXT,
        event TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_at ON audit_events (at);
      CREATE INDEX audit_actor_op ON audit_events (actor_id, operation, at);
      CREATE INDEX audit_request ON audit_events (request_id);

      CREATE TABLE outbox (
        seq INTEGER PRIMARY KEY REFERENCES audit_events (seq),
        delivered_at TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        not_before TEXT
      );
      CREATE INDEX outbox_pending ON outbox (seq) WHERE delivered_at IS NULL;

      CREATE TABLE deliveries (
        key TEXT PRIMARY KEY,
        at TEXT NOT NULL
      );

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'index deliveries by time, for pruning',
    sql: 'CREATE INDEX deliveries_at ON deliveries (at);',
  },
  {
    version: 3,
    name: 'modal drafts: what a change modal was opened for, kept on the server',
    sql: `
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX drafts_expiry ON drafts (expires_at);
    `,
  },
  {
    version: 4,
    name: 'notification outbox: request changes Slack is to be told about',
    // AUTOINCREMENT: a job ID is never reused, so a late ack by a worker whose lease ran out
    // cannot remove a newer job that took the ID of one already done.
    sql: `
      CREATE TABLE notifications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        request_id TEXT NOT NULL REFERENCES requests (id),
        state TEXT NOT NULL,
        version INTEGER NOT NULL,
        at TEXT NOT NULL,
        lease_owner TEXT,
        lease_until TEXT,
        not_before TEXT
      );
      CREATE INDEX notifications_request ON notifications (request_id, id);
    `,
  },
  {
    version: 5,
    name: 'signed audit checkpoints, and whether each was posted to the audit channel',
    // size is the key: two replicas cannot both write a checkpoint of the same size.
    sql: `
      CREATE TABLE checkpoints (
        size INTEGER PRIMARY KEY,
        head TEXT NOT NULL,
        made_at TEXT NOT NULL,
        note TEXT NOT NULL,
        posted_at TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        not_before TEXT
      );
      CREATE INDEX checkpoints_unposted ON checkpoints (size) WHERE posted_at IS NULL;
    `,
  },
  {
    version: 6,
    name: "delegations: who approves in a lead's place until when",
    // One delegation in force per lead: a second insert while one is not ended fails.
    sql: `
      CREATE TABLE delegations (
        id TEXT PRIMARY KEY,
        lead_id TEXT NOT NULL,
        delegate_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        until TEXT NOT NULL,
        ended_at TEXT,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX delegations_lead_open ON delegations (lead_id) WHERE ended_at IS NULL;
      CREATE INDEX delegations_delegate_open ON delegations (delegate_id) WHERE ended_at IS NULL;
      CREATE INDEX delegations_created ON delegations (created_at DESC);
    `,
  },
  {
    version: 7,
    name: 'the language each person chose with /vidops lang',
    sql: `
      CREATE TABLE language_choices (
        user_id TEXT PRIMARY KEY,
        locale TEXT NOT NULL,
        chosen_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: "DMs that carry a request's buttons, so they lose them once the request is decided",
    sql: `
      CREATE TABLE request_dms (
        request_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        PRIMARY KEY (request_id, channel, ts)
      );
    `,
  },
  {
    version: 9,
    name: 'replay keys without a rowid: one B-tree fewer written per Slack request',
    // The key is the primary key itself (WITHOUT ROWID): a replay key writes its row and the
    // `at` index the daily prune reads, not a rowid table beside a key index (measured with
    // `npm run bench -- wal`; docs/benchmarks.md, "The other benchmarks").
    sql: `
      CREATE TABLE deliveries_v9 (
        key TEXT PRIMARY KEY,
        at TEXT NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO deliveries_v9 (key, at) SELECT key, at FROM deliveries;
      DROP TABLE deliveries;
      ALTER TABLE deliveries_v9 RENAME TO deliveries;
      CREATE INDEX deliveries_at ON deliveries (at);
    `,
  },
  {
    version: 10,
    name: 'time-boxed changes not yet put back, found by the sweep without reading every request',
    sql: `
      CREATE INDEX requests_time_box_open ON requests (json_extract(data, '$.timeBox.state'))
        WHERE json_extract(data, '$.timeBox.state') IN ('waiting', 'running', 'retrying');
    `,
  },
  {
    version: 11,
    name: 'leases: sends that must not overlap, across processes (the whitelist, posted whole)',
    sql: `
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    name: 'time-boxed changes: windows in force by when they are due, and one holder per setting or address',
    sql: `
      CREATE INDEX requests_time_box_due ON requests (
        COALESCE(json_extract(data, '$.timeBox.nextAt'), json_extract(data, '$.timeBox.endsAt'), '')
      ) WHERE state = 'succeeded' AND json_extract(data, '$.timeBox.state') IN ('waiting', 'running', 'retrying');
      CREATE TABLE time_box_holds (
        item TEXT PRIMARY KEY,
        request_id TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 13,
    name: 'open work read through small indexes, and the outbox depth kept as a number',
    // Each index holds only what its look-up returns, so it costs nothing on an unblock's append:
    // break-glass changes awaiting review, and delegation events (read on every Home open and
    // `requests`, written as the look-up asks, a BLOB included). The depth is the chain's head
    // less the events acknowledged, so a metrics scrape reads two rows, not the backlog.
    // See docs/benchmarks.md, "Aging".
    sql: `
      CREATE INDEX requests_break_glass_unreviewed ON requests (created_at DESC, id DESC)
        WHERE json_type(data, '$.breakGlass.review') = 'null';
      CREATE INDEX audit_delegation ON audit_events (seq)
        WHERE operation IN ('delegation', CAST('delegation' AS BLOB));
      CREATE TABLE outbox_acked (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        n INTEGER NOT NULL
      );
      INSERT INTO outbox_acked (one, n) SELECT 1, count(*) FROM outbox WHERE delivered_at IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: "each viewer's audit events, by number: a viewer's history without scanning the log",
    // Filled with each append from now on; the events already in the log are indexed here.
    // `ask`: the event begins an unblock (requested, or denied by the policy).
    sql: `
      CREATE TABLE viewer_events (
        viewer TEXT NOT NULL,
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        request_id TEXT,
        ask INTEGER NOT NULL,
        PRIMARY KEY (viewer, seq)
      ) WITHOUT ROWID;
      INSERT INTO viewer_events (viewer, seq, at, request_id, ask)
        SELECT json_extract(event, '$.params.mobileNumber'), seq, at, request_id, type IN ('requested', 'denied')
        FROM audit_events
        WHERE json_type(event, '$.params.mobileNumber') = 'text'
          AND json_extract(event, '$.params.mobileNumber') <> '';
    `,
  },
  {
    version: 15,
    name: 'batch steps: each number of a batch of unblocks, recorded before it is sent',
    sql: `
      CREATE TABLE batch_steps (
        request_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        mobile TEXT NOT NULL,
        state TEXT NOT NULL,
        error TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (request_id, idx)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 19,
    name: 'open requests by requester, and escalated put-backs, read through indexes of them alone',
    // App Home and `requests` read a person's open requests and their number here, not their whole
    // history; the put-backs gauge counts the few rows of its own index. docs/benchmarks.md, "Aging".
    sql: `
      CREATE INDEX requests_open ON requests (requester_id, created_at DESC, id DESC)
        WHERE state IN ('pending', 'approved', 'executing');
      CREATE INDEX requests_put_back_escalated ON requests (id)
        WHERE json_extract(data, '$.timeBox.leadTold') = 1
          AND json_extract(data, '$.timeBox.state') IN ('waiting', 'retrying');
    `,
  },
  {
    version: 21,
    name: 'sweeps read only what is due: follow-ups, announcements, take-overs and reviews by due time',
    // `follow_up_at`: when the follow-up sweep next owes a pending request something (set by that
    // sweep, as the policy says; a new request is due at once). docs/benchmarks.md, "Aging".
    sql: `
      ALTER TABLE requests ADD COLUMN follow_up_at TEXT;
      UPDATE requests SET follow_up_at = created_at WHERE state = 'pending';
      CREATE INDEX requests_follow_up_due ON requests (follow_up_at, id)
        WHERE state = 'pending' AND follow_up_at IS NOT NULL;
      CREATE INDEX requests_unannounced ON requests (created_at, id)
        WHERE state = 'pending' AND json_type(data, '$.slack') = 'null';
      CREATE INDEX requests_executing_since ON requests (updated_at, id) WHERE state = 'executing';
      CREATE INDEX requests_review_due ON requests (json_extract(data, '$.breakGlass.reviewDueAt'), id)
        WHERE json_type(data, '$.breakGlass.review') = 'null'
          AND json_type(data, '$.breakGlass.overdueAt') = 'null';
      `,
  },
  {
    version: 23,
    name: 'the Reverts asked of a change, found without reading every request',
    sql: `
      CREATE INDEX requests_revert_of ON requests (json_extract(data, '$.revertOf.id'))
        WHERE json_extract(data, '$.revertOf.kind') = 'revert';
    `,
  },
];

/** PostgreSQL keeps timestamps as timestamptz; JSON stays text so it round-trips byte for byte. */
const POSTGRES: readonly Migration[] = [
  {
    version: 1,
    name: 'requests, audit log, outbox, deliveries, settings',
    sql: `
      CREATE TABLE requests (
        id TEXT PRIMARY KEY,
        operation TEXT NOT NULL,
        state TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ,
        updated_at TIMESTAMPTZ NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX requests_created ON requests (created_at DESC, id DESC);
      CREATE INDEX requests_requester ON requests (requester_id, created_at DESC);
      CREATE INDEX requests_state ON requests (state, created_at DESC);
      CREATE INDEX requests_pending_expiry ON requests (expires_at) WHERE state = 'pending';

      CREATE TABLE audit_events (
        seq BIGINT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        at TIMESTAMPTZ NOT NULL,
        type TEXT NOT NULL,
        actor_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        request_id TEXT,
        event TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE INDEX audit_at ON audit_events (at);
      CREATE INDEX audit_actor_op ON audit_events (actor_id, operation, at);
      CREATE INDEX audit_request ON audit_events (request_id);

      CREATE TABLE outbox (
        seq BIGINT PRIMARY KEY REFERENCES audit_events (seq),
        delivered_at TIMESTAMPTZ,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        not_before TIMESTAMPTZ
      );
      CREATE INDEX outbox_pending ON outbox (seq) WHERE delivered_at IS NULL;

      CREATE TABLE deliveries (
        key TEXT PRIMARY KEY,
        at TIMESTAMPTZ NOT NULL
      );

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'index deliveries by time, for pruning',
    sql: 'CREATE INDEX deliveries_at ON deliveries (at);',
  },
  {
    version: 3,
    name: 'modal drafts: what a change modal was opened for, kept on the server',
    sql: `
      CREATE TABLE drafts (
        key TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX drafts_expiry ON drafts (expires_at);
    `,
  },
  {
    version: 4,
    name: 'notification outbox: request changes Slack is to be told about',
    sql: `
      CREATE TABLE notifications (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        request_id TEXT NOT NULL REFERENCES requests (id),
        state TEXT NOT NULL,
        version INTEGER NOT NULL,
        at TIMESTAMPTZ NOT NULL,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        not_before TIMESTAMPTZ
      );
      CREATE INDEX notifications_request ON notifications (request_id, id);
    `,
  },
  {
    version: 5,
    name: 'signed audit checkpoints, and whether each was posted to the audit channel',
    sql: `
      CREATE TABLE checkpoints (
        size BIGINT PRIMARY KEY,
        head TEXT NOT NULL,
        made_at TIMESTAMPTZ NOT NULL,
        note TEXT NOT NULL,
        posted_at TIMESTAMPTZ,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        not_before TIMESTAMPTZ
      );
      CREATE INDEX checkpoints_unposted ON checkpoints (size) WHERE posted_at IS NULL;
    `,
  },
  {
    version: 6,
    name: "delegations: who approves in a lead's place until when",
    sql: `
      CREATE TABLE delegations (
        id TEXT PRIMARY KEY,
        lead_id TEXT NOT NULL,
        delegate_id TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        until TIMESTAMPTZ NOT NULL,
        ended_at TIMESTAMPTZ,
        data TEXT NOT NULL
      );
      CREATE UNIQUE INDEX delegations_lead_open ON delegations (lead_id) WHERE ended_at IS NULL;
      CREATE INDEX delegations_delegate_open ON delegations (delegate_id) WHERE ended_at IS NULL;
      CREATE INDEX delegations_created ON delegations (created_at DESC);
    `,
  },
  {
    version: 7,
    name: 'the language each person chose with /vidops lang',
    sql: `
      CREATE TABLE language_choices (
        user_id TEXT PRIMARY KEY,
        locale TEXT NOT NULL,
        chosen_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: "DMs that carry a request's buttons, so they lose them once the request is decided",
    sql: `
      CREATE TABLE request_dms (
        request_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        posted_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (request_id, channel, ts)
      );
    `,
  },
  {
    version: 9,
    name: 'time-boxed changes not yet put back, found by the sweep without reading every request',
    sql: `
      CREATE INDEX requests_time_box_open ON requests (((data::jsonb) -> 'timeBox' ->> 'state'))
        WHERE ((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'running', 'retrying');
    `,
  },
  {
    version: 10,
    name: 'leases: sends that must not overlap, across replicas (the whitelist, posted whole)',
    sql: `
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    version: 11,
    name: 'time-boxed changes: windows in force by when they are due, and one holder per setting or address',
    sql: `
      CREATE INDEX requests_time_box_due ON requests (
        (COALESCE((data::jsonb) -> 'timeBox' ->> 'nextAt', (data::jsonb) -> 'timeBox' ->> 'endsAt', '') COLLATE "C")
      ) WHERE state = 'succeeded' AND ((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'running', 'retrying');
      CREATE TABLE time_box_holds (
        item TEXT PRIMARY KEY,
        request_id TEXT NOT NULL
      );
    `,
  },
  {
    version: 12,
    name: 'open work read through small indexes, and the outbox depth kept as a number',
    sql: `
      CREATE INDEX requests_break_glass_unreviewed ON requests (created_at DESC, id DESC)
        WHERE (data::jsonb -> 'breakGlass' -> 'review') = 'null'::jsonb;
      CREATE INDEX audit_delegation ON audit_events (seq) WHERE operation = 'delegation';
      CREATE TABLE outbox_acked (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        n BIGINT NOT NULL
      );
      INSERT INTO outbox_acked (one, n) SELECT 1, count(*) FROM outbox WHERE delivered_at IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: "each viewer's audit events, by number: a viewer's history without scanning the log",
    sql: `
      CREATE TABLE viewer_events (
        viewer TEXT NOT NULL,
        seq BIGINT NOT NULL,
        at TIMESTAMPTZ NOT NULL,
        request_id TEXT,
        ask BOOLEAN NOT NULL,
        PRIMARY KEY (viewer, seq)
      );
      INSERT INTO viewer_events (viewer, seq, at, request_id, ask)
        SELECT (event::jsonb) -> 'params' ->> 'mobileNumber', seq, at, request_id, type IN ('requested', 'denied')
        FROM audit_events
        WHERE jsonb_typeof((event::jsonb) -> 'params' -> 'mobileNumber') = 'string'
          AND (event::jsonb) -> 'params' ->> 'mobileNumber' <> '';
    `,
  },
  {
    version: 14,
    name: 'batch steps: each number of a batch of unblocks, recorded before it is sent',
    sql: `
      CREATE TABLE batch_steps (
        request_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        mobile TEXT NOT NULL,
        state TEXT NOT NULL,
        error TEXT,
        updated_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (request_id, idx)
      );
    `,
  },
  {
    version: 18,
    name: 'open requests by requester, and escalated put-backs, read through indexes of them alone',
    sql: `
      CREATE INDEX requests_open ON requests (requester_id, created_at DESC, id DESC)
        WHERE state IN ('pending', 'approved', 'executing');
      CREATE INDEX requests_put_back_escalated ON requests (id)
        WHERE ((data::jsonb) -> 'timeBox' -> 'leadTold') = 'true'::jsonb
          AND ((data::jsonb) -> 'timeBox' ->> 'state') IN ('waiting', 'retrying');
    `,
  },
  {
    version: 20,
    name: 'sweeps read only what is due: follow-ups, announcements, take-overs and reviews by due time',
    sql: `
      ALTER TABLE requests ADD COLUMN follow_up_at TIMESTAMPTZ;
      UPDATE requests SET follow_up_at = created_at WHERE state = 'pending';
      CREATE INDEX requests_follow_up_due ON requests (follow_up_at, id)
        WHERE state = 'pending' AND follow_up_at IS NOT NULL;
      CREATE INDEX requests_unannounced ON requests (created_at, id)
        WHERE state = 'pending' AND (data::jsonb -> 'slack') = 'null'::jsonb;
      CREATE INDEX requests_executing_since ON requests (updated_at, id) WHERE state = 'executing';
      CREATE INDEX requests_review_due ON requests ((((data::jsonb) -> 'breakGlass' ->> 'reviewDueAt') COLLATE "C"), id)
        WHERE (data::jsonb -> 'breakGlass' -> 'review') = 'null'::jsonb
          AND (data::jsonb -> 'breakGlass' -> 'overdueAt') = 'null'::jsonb;
      `,
  },
  {
    version: 22,
    name: 'the Reverts asked of a change, found without reading every request',
    sql: `
      CREATE INDEX requests_revert_of ON requests (((data::jsonb) -> 'revertOf' ->> 'id'))
        WHERE ((data::jsonb) -> 'revertOf' ->> 'kind') = 'revert';
    `,
  },
];

export const MIGRATIONS: Readonly<Record<Dialect, readonly Migration[]>> = {
  sqlite: SQLITE,
  postgres: POSTGRES,
};

/**
 * The migrations of `list` not yet in `applied`, oldest first. Throws when the list itself is out
 * of order, which would make two deployments disagree about what a version means.
 */
export function pendingMigrations(list: readonly Migration[], applied: ReadonlySet<number>): Migration[] {
  let previous = 0;
  for (const m of list) {
    if (m.version <= previous) {
      throw new Error(`migration ${m.version} (${m.name}) is out of order after ${previous}`);
    }
    previous = m.version;
  }
  return list.filter((m) => !applied.has(m.version));
}

/** Versions recorded in the database that this build does not know (a newer build migrated). */
export function unknownVersions(list: readonly Migration[], applied: Iterable<number>): number[] {
  const known = new Set(list.map((m) => m.version));
  return [...applied].filter((v) => !known.has(v)).sort((a, b) => a - b);
}

/**
 * A database a newer vidops has migrated: this build would misread tables it does not know, so it
 * refuses to start on it rather than run.
 * @see docs/operations.md, "Upgrade"
 */
export class DatabaseTooNewError extends VidopsError {
  constructor(
    readonly unknown: readonly number[],
    readonly known: number,
  ) {
    super(
      `The database was written by a newer vidops: it holds schema version ${unknown.join(', ')}, and this build knows versions up to ${known}. Nothing was changed. Run the newer vidops (every replica and the CLI on one version), or restore a backup taken before the upgrade (docs/operations.md, "Upgrade").`,
    );
  }
}

/** Throws {@link DatabaseTooNewError} when `applied` holds a version `list` does not know. */
export function refuseNewer(list: readonly Migration[], applied: Iterable<number>): void {
  const unknown = unknownVersions(list, applied);
  if (unknown.length > 0) throw new DatabaseTooNewError(unknown, list.at(-1)?.version ?? 0);
}
