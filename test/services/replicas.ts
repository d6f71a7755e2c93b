import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoClientHandle } from '../../src/client/index.js';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { Actor, AuditEvent, OperationRequest } from '../../src/core/model.js';
import { buildPolicy } from '../../src/core/policy.js';
import { sealKeyOf } from '../../src/core/seal.js';
import type { BoxAsked } from '../../src/core/time-box.js';
import { DEMO } from '../../src/sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { createOperations } from '../../src/services/operations.js';
import type { Operations, OperationsDeps, PrepareInput } from '../../src/services/types.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sandboxClient } from '../sandbox-client.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';

/**
 * Two replicas of vidops' services on one database (two store connections on one SQLite file,
 * or two pools on one PostgreSQL schema), a sandbox as the service, and a clock tests move: the
 * world the service-level race and crash tests attack. `useTwoReplicas` registers the hooks that
 * start the sandbox, and after each test check every world's audit chain and close it.
 */

export const hash = createHasher();
export const START = new Date('2026-11-26T08:00:00.000Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const ava: Actor = { id: 'U0AGENT1', name: 'Ava' };
export const bob: Actor = { id: 'U0AGENT2', name: 'Bob' };
export const lee: Actor = { id: 'U0LEAD1', name: 'Lee' };

export const forMs = (ms: number, text: string): BoxAsked => ({ kind: 'for', ms, text });
export const CONFIG = '/v1/storage/protect/config';
export const WHITELIST = '/v1/storage/dns/whitelist';

/** The sandbox of the running test file (started by {@link useTwoReplicas}'s `beforeAll`). */
export let sandbox: Sandbox;

export const posts = (path: string) =>
  sandbox.requests().filter((r) => r.method === 'POST' && r.path === path);

/** A one-shot gate: `wait()` blocks until `open()`; `arrived` resolves when someone waits. */
export function gate() {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const arrived = new Promise<void>((r) => {
    arrive = r;
  });
  return {
    arrived,
    open: () => open(),
    wait: async () => {
      arrive();
      await opened;
    },
  };
}
export type Gate = ReturnType<typeof gate>;

export interface World {
  /** Replica 0 and replica 1: each its own store connection (pool) and client, one database. */
  stores: [Store, Store];
  ops: Operations;
  other: Operations;
  /** An extra "process" on replica `i`'s store, with some parts replaced. */
  build(i: 0 | 1, overrides?: Partial<OperationsDeps>): Operations;
  client(baseUrl?: string): VideoClientHandle;
  advance(ms: number): void;
  set(at: Date): void;
  now(): Date;
  events(requestId: string): Promise<string[]>;
}

export type Kind = 'SQLite file, two connections' | 'PostgreSQL, two pools';

let worlds: { stores: [Store, Store]; clients: VideoClientHandle[] }[] = [];
let proxies: Server[] = [];

/**
 * Registers the test file's hooks; the kinds of database to run on (PostgreSQL when
 * TEST_DATABASE_URL is set) and how to make a world. `prefix` names the file's temporary files
 * and PostgreSQL schemas; `clientTimeoutMs` is each client's timeout.
 */
export function useTwoReplicas(
  prefix: string,
  clientTimeoutMs: number,
): { kinds: Kind[]; setup(kind: Kind): Promise<World> } {
  const tmp = mkdtempSync(join(tmpdir(), `vidops-${prefix}-`));
  const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, prefix);
  let files = 0;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, extras: false });
  });
  afterAll(async () => {
    await sandbox.close();
    await schemas?.dropAll();
    rmSync(tmp, { recursive: true, force: true });
    // A long exploration leaves a PostgreSQL schema per run to drop: more than Jest's 30 s.
  }, 600_000);
  afterEach(closeWorlds);

  async function openPair(kind: Kind): Promise<[Store, Store]> {
    let url: string;
    if (kind === 'PostgreSQL, two pools') {
      if (schemas === null) throw new Error('TEST_DATABASE_URL is not set');
      url = schemas.url();
    } else {
      files += 1;
      url = `sqlite:${join(tmp, `${prefix}-${files}.db`)}`;
    }
    const first = await openStore(url, { hash });
    return [first, await openStore(url, { hash })];
  }

  async function setup(kind: Kind): Promise<World> {
    sandbox.reset();
    const stores = await openPair(kind);
    const clients: VideoClientHandle[] = [];
    const client = (baseUrl = sandbox.url) => {
      const c = sandboxClient(baseUrl, {
        timeoutMs: clientTimeoutMs,
      });
      clients.push(c);
      return c;
    };
    worlds.push({ stores, clients });
    let now = START;
    const policy = buildPolicy({ leads: [lee.id], fileName: 'policy.yaml' });
    const build = (i: 0 | 1, overrides: Partial<OperationsDeps> = {}) =>
      createOperations({
        store: stores[i],
        client: client(),
        policy,
        directory: { groupsOf: async () => [] },
        clock: () => now,
        sealKey: sealKeyOf(DEMO.secretKey),
        timeZone: 'Asia/Tehran',
        ...overrides,
      });
    return {
      stores,
      ops: build(0),
      other: build(1),
      build,
      client,
      advance: (ms) => {
        now = new Date(now.getTime() + ms);
      },
      set: (at) => {
        now = at;
      },
      now: () => now,
      async events(requestId) {
        const all: AuditEvent[] = await stores[0].listAudit();
        return all.filter((e) => e.requestId === requestId).map((e) => e.type);
      },
    };
  }

  const kinds: Kind[] = ['SQLite file, two connections'];
  if (schemas !== null) kinds.push('PostgreSQL, two pools');
  return { kinds, setup };
}

/** Closes the proxies and worlds of the test that ended, after checking each world's audit chain. */
async function closeWorlds(): Promise<void> {
  for (const p of proxies) {
    p.closeAllConnections();
    await new Promise((r) => p.close(r));
  }
  proxies = [];
  const open = worlds;
  worlds = [];
  for (const w of open) {
    const verdict = await verifyChain(w.stores[0].iterateAudit(), hash);
    for (const c of w.clients) c.close();
    for (const s of w.stores) await s.close();
    expect(verdict).toMatchObject({ ok: true });
  }
}

/** Asks for a change (for a while, or not); the request waiting for the lead. */
export async function pending(
  w: World,
  input: PrepareInput,
  asked: BoxAsked | null,
  by = ava,
  ops = w.ops,
): Promise<OperationRequest> {
  const prepared = await ops.prepare(by, input);
  const submitted = await ops.submit(by, prepared, asked === null ? {} : { timeBox: asked });
  if (submitted.kind !== 'pending') throw new Error(`expected pending, got ${submitted.kind}`);
  return submitted.request;
}

/** Asks for a change (for a while, or not) and has the lead approve it; the approved request. */
export async function approved(
  w: World,
  input: PrepareInput,
  asked: BoxAsked | null,
  by = ava,
  ops = w.ops,
): Promise<OperationRequest> {
  const request = await pending(w, input, asked, by, ops);
  const decided = await ops.approve(request.id, lee);
  if (decided.kind !== 'executed') throw new Error(`expected executed, got ${decided.kind}`);
  expect(decided.request.state).toBe('succeeded');
  return decided.request;
}

/**
 * An HTTP proxy to the sandbox that holds the first matching request at `g` before passing it on;
 * closed after the test.
 */
export async function holdingProxy(
  match: (method: string, path: string) => boolean,
  g: Gate,
): Promise<Server> {
  let held = false;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!held && match(req.method ?? 'GET', path)) {
      held = true;
      await g.wait();
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) continue;
      if (typeof v === 'string') headers[k] = v;
    }
    const body = Buffer.concat(chunks);
    try {
      const answer = await fetch(`${sandbox.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!['content-encoding', 'transfer-encoding', 'connection', 'content-length'].includes(k))
          out[k] = v;
      });
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxies.push(server);
  return server;
}

export const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
