import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import Database from 'better-sqlite3';
import type { VideoClientHandle } from '../../src/client/index.js';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { Actor, OperationRequest } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import type { BoxAsked } from '../../src/core/time-box.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { createOperations } from '../../src/services/operations.js';
import type { Operations, OperationsDeps, PrepareInput } from '../../src/services/types.js';
import { chainEvents } from '../../src/store/codec.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';

/**
 * Someone who can write vidops' database (SQL on the SQLite file, through a connection of their
 * own beside the running store) but does not hold VIDEO_SECRET_KEY, a vidops process on that file,
 * a sandbox as the service, and a clock tests move: the world the database-writer attack tests
 * attack. `useDatabaseWriter` registers the hooks that start the sandbox, and after each test
 * check the world's audit chain (unless a test says otherwise, the writer leaves the audit log
 * alone: the chain still verifies) and close it.
 */

export const hash = createHasher();
export const START = new Date('2026-11-26T08:00:00.000Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** Past the default `staleExecutionMs` (2 minutes): the resume sweep takes what is `executing`. */
export const STALE = 3 * MINUTE;
export const SEAL_KEY = sealKeyOf(DEMO.secretKey);

export const CONFIG = '/v1/storage/protect/config';
export const WHITELIST = '/v1/storage/dns/whitelist';
/** An address of the writer's own, which no lead ever approved. */
export const THEIRS = '5.160.66.66';
/** The sandbox's folders endpoint (a folder delete is a `DELETE` on it). */
export const FOLDER = '/v1/storage/bucket';
/** The office's address, which leads approve. */
export const OFFICE = '185.8.172.1';

export const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
export const bob: Actor = { id: 'U0AGENT2', name: 'Bob' };
export const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };
export const kim: Actor = { id: 'U0LEAD2', name: 'Kim' };
export const max: Actor = { id: 'U0LEAD3', name: 'Max' };

export const whitelistAdd = (ip: string): PrepareInput => ({
  kind: 'whitelist.set',
  change: 'add',
  ips: [ip],
});
export const forMs = (ms: number, text: string): BoxAsked => ({ kind: 'for', ms, text });
export const protect = (changes: JsonObject): PrepareInput =>
  ({ kind: 'protect.set', changes }) as PrepareInput;
/** A delete of the demo's lectures folder. */
export const folderDelete: PrepareInput = { kind: 'folder.delete', bucketId: DEMO.folders.lectures };

/** A `requests` row as the writer reads it with SQL. */
export interface Row {
  id: string;
  operation: string;
  state: string;
  requester_id: string;
  created_at: string;
  expires_at: string | null;
  updated_at: string;
  version: number;
  data: string;
}

/** The database writer: their own connection to the file; SQL only, no key. */
export interface Writer {
  data(id: string): JsonObject;
  /** Rewrites request `id`'s data (as `edit` leaves it) and, when given, its state. */
  edit(id: string, edit: (data: JsonObject) => void, state?: string): void;
  /** Inserts a row of their own making. */
  insert(row: Omit<Row, 'data'>, data: JsonObject): void;
  /** Inserts a delegation of `lead`'s approvals to `delegate`, open for a day. */
  delegate(lead: Actor, delegate: Actor): void;
  /** Any statement of their own. */
  run(sql: string, ...args: unknown[]): void;
  /**
   * Appends a state event for request `id` at the head of the audit log, chained as vidops chains
   * (SHA-256 of canonical JSON: no key is needed when AUDIT_HMAC_KEY is not set).
   */
  appendEvent(request: OperationRequest, type: 'executing', actor: Actor, at: Date): void;
}

export interface World {
  /** The running vidops process. */
  ops: Operations;
  store: Store;
  client: VideoClientHandle;
  writer: Writer;
  /** Another vidops process on the same database (a restart), with some parts replaced. */
  start(overrides?: Partial<OperationsDeps>): Operations;
  advance(ms: number): void;
  now(): Date;
  stored(id: string): Promise<OperationRequest>;
}

/** The sandbox of the running test file (started by {@link useDatabaseWriter}'s `beforeAll`). */
export let sandbox: Sandbox;

export interface DatabaseWriterOptions {
  /** Names the file's temporary directory (`vidops-<prefix>-`) and database files. */
  prefix: string;
  /** The leads of `setup`'s policy when a test names none. */
  leads: string[];
  /** How the sandbox starts (on a free port). */
  sandbox?: Omit<SandboxOptions, 'port'>;
}

/**
 * Registers the test file's hooks: start the sandbox and a temporary directory before all, close
 * them after all, and after each test check the world's audit chain and close it. Returns how to
 * make a world: a new database file, the policy of `policyText` with `leads` as its leads.
 */
export function useDatabaseWriter(options: DatabaseWriterOptions): {
  setup(policyText?: string, leads?: string[]): Promise<World>;
} {
  let dir: string;
  let files = 0;
  let open: { store: Store; client: VideoClientHandle; db: Database.Database } | null = null;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, ...options.sandbox });
    dir = mkdtempSync(join(tmpdir(), `vidops-${options.prefix}-`));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    if (open === null) return;
    const { store, client, db } = open;
    open = null;
    const verdict = await verifyChain(store.iterateAudit(), hash);
    db.close();
    client.close();
    await store.close();
    expect(verdict).toMatchObject({ ok: true });
  });

  async function setup(policyText?: string, leads: string[] = options.leads): Promise<World> {
    sandbox.reset();
    files += 1;
    const file = join(dir, `${options.prefix}-${files}.db`);
    const store = await openStore(`sqlite:${file}`, { hash });
    const db = new Database(file);
    db.pragma('busy_timeout = 5000');
    const client = sandboxClient(sandbox.url);
    open = { store, client, db };
    let now = START;
    const base: OperationsDeps = {
      store,
      client,
      policy: buildPolicy({ leads, fileText: policyText, fileName: 'policy.yaml' }),
      directory: { groupsOf: async () => [], kindOf: async () => 'person' },
      clock: () => now,
      timeZone: 'Asia/Tehran',
      sealKey: SEAL_KEY,
    };
    return {
      ops: createOperations(base),
      store,
      client,
      writer: writerOn(db),
      start: (overrides = {}) => createOperations({ ...base, ...overrides }),
      advance: (ms) => {
        now = new Date(now.getTime() + ms);
      },
      now: () => now,
      async stored(id) {
        const r = await store.getRequest(id);
        if (r === null) throw new Error(`no request ${id}`);
        return r;
      },
    };
  }

  return { setup };
}

/** The writer on their own connection `db` to the database file. */
function writerOn(db: Database.Database): Writer {
  const row = (id: string): Row => {
    const found = db.prepare<[string], Row>('SELECT * FROM requests WHERE id = ?').get(id);
    if (found === undefined) throw new Error(`no row ${id}`);
    return found;
  };
  return {
    data: (id) => JSON.parse(row(id).data) as JsonObject,
    edit(id, edit, state) {
      const current = row(id);
      const data = JSON.parse(current.data) as JsonObject;
      edit(data);
      db.prepare('UPDATE requests SET state = ?, data = ? WHERE id = ?').run(
        state ?? current.state,
        JSON.stringify(data),
        id,
      );
    },
    insert(r, data) {
      db.prepare(
        `INSERT INTO requests
           (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        r.id,
        r.operation,
        r.state,
        r.requester_id,
        r.created_at,
        r.expires_at,
        r.updated_at,
        r.version,
        JSON.stringify(data),
      );
    },
    delegate(lead, delegate) {
      const until = new Date(START.getTime() + 24 * HOUR).toISOString();
      const d = { id: 'D-F0RGED01', lead, delegate, reason: null, createdAt: START.toISOString(), until };
      db.prepare(
        `INSERT INTO delegations (id, lead_id, delegate_id, created_at, until, ended_at, data)
         VALUES (?, ?, ?, ?, ?, NULL, ?)`,
      ).run(
        d.id,
        lead.id,
        delegate.id,
        d.createdAt,
        until,
        JSON.stringify({ ...d, endedAt: null, endedBy: null, ending: null }),
      );
    },
    run(sql, ...args) {
      db.prepare(sql).run(...args);
    },
    appendEvent(request, type, actor, at) {
      const head = db
        .prepare<[], { seq: number; hash: string }>(
          'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
        )
        .get();
      const event = {
        id: `E-F0RGED-${type}`,
        type,
        at: at.toISOString(),
        actor: { id: actor.id, name: actor.name },
        operation: request.operation,
        target: request.target,
        params: request.params as JsonValue,
        requestId: request.id,
        outcome: null,
        error: null,
      };
      const [chained] = chainEvents(head ?? null, [event], hash, '0'.repeat(64));
      if (chained === undefined) throw new Error('nothing chained');
      const e = chained.event;
      db.prepare(
        `INSERT INTO audit_events (seq, id, at, type, actor_id, operation, request_id, event, prev_hash, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        e.seq,
        e.id,
        chained.at,
        e.type,
        e.actor.id,
        e.operation,
        e.requestId,
        chained.json,
        e.prevHash,
        e.hash,
      );
    },
  };
}

/** `by` asks for a change (for a while, or not) and leaves it waiting for a lead. */
export async function pending(
  ops: Operations,
  input: PrepareInput,
  timeBox?: BoxAsked,
  by: Actor = ava,
): Promise<OperationRequest> {
  const submitted = await ops.submit(by, await ops.prepare(by, input), timeBox ? { timeBox } : {});
  if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
  return submitted.request;
}

/** Has `by` (Lee unless named) approve request `id`; the request as it ended. */
export async function approveNow(ops: Operations, id: string, by: Actor = lee): Promise<OperationRequest> {
  const decided = await ops.approve(id, by);
  if (decided.kind !== 'executed') throw new Error(`expected executed, got ${decided.kind}`);
  return decided.request;
}

/** Ava asks to revert change `id`; the Revert, waiting for a lead. */
export async function revertPending(ops: Operations, id: string): Promise<OperationRequest> {
  const submitted = await ops.submit(ava, await ops.prepareRevert(id, ava));
  if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
  return submitted.request;
}

/** Asks for a change and has Lee approve it; it succeeded. */
export async function approved(
  ops: Operations,
  input: PrepareInput,
  timeBox?: BoxAsked,
): Promise<OperationRequest> {
  const done = await approveNow(ops, (await pending(ops, input, timeBox)).id);
  expect(done.state).toBe('succeeded');
  return done;
}

/** The office address whitelisted for an hour by Lee, and put back by the sweep at its end. */
export async function wentBack(w: World): Promise<OperationRequest> {
  const change = await approved(w.ops, whitelistAdd(OFFICE), forMs(HOUR, '1h'));
  w.advance(HOUR);
  await w.ops.sweepTimeBoxes();
  return change;
}

/** The sandbox's protection settings. */
export const config = () => sandbox.state().config as unknown as Record<string, JsonValue>;
/** How many `method` requests to `path` the sandbox received. */
export const calls = (method: string, path: string) =>
  sandbox.requests().filter((r) => r.method === method && r.path === path).length;
/** The sandbox's folder `id`, if it still has it. */
export const folder = (id: string) => sandbox.state().folders.find((f) => f._id === id);
