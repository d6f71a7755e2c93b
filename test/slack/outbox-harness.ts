import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHasher } from '../../src/core/audit-chain.js';
import type { AuditEvent, NewAuditEvent } from '../../src/core/model.js';
import type { Emulator } from '../../src/emulator/index.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/store.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';

/**
 * What the attacks on the audit channel's publisher and the notification worker share: a proxy in
 * front of the Slack emulator that loses answers, cuts calls and rewrites answers; the stores the
 * replicas share (SQLite, and PostgreSQL with TEST_DATABASE_URL); audit events and ways to count
 * them in the channel.
 */

/** The audit channel the tests post to. */
export const AUDIT = 'C0AUDIT01';
const hash = createHasher();

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A proxy in front of the emulator: it can lose an answer (the call is carried out, the answer cut),
 * cut a call before it reaches Slack, and rewrite Slack's JSON answers; it counts calls by method.
 */
export async function slackProxy(target: string) {
  const upstream = new URL(target);
  const drops = new Map<string, number>();
  const cuts = new Map<string, number>();
  const rewrites = new Map<string, (answer: Record<string, unknown>) => Record<string, unknown>>();
  const calls = new Map<string, number>();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = (req.url ?? '').split('?')[0]?.split('/').pop() ?? '';
    calls.set(method, (calls.get(method) ?? 0) + 1);
    const cut = cuts.get(method) ?? 0;
    if (cut > 0) {
      cuts.set(method, cut - 1);
      req.socket.destroy();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection')
        headers[k] = v;
    }
    const answer = await fetch(new URL(req.url ?? '/', upstream.origin), {
      method: req.method ?? 'POST',
      headers,
      body: Buffer.concat(chunks),
    });
    let body = Buffer.from(await answer.arrayBuffer());
    const left = drops.get(method) ?? 0;
    if (left > 0) {
      drops.set(method, left - 1);
      req.socket.destroy();
      return;
    }
    const rewrite = rewrites.get(method);
    const outHeaders = Object.fromEntries(answer.headers.entries());
    if (rewrite !== undefined && answer.status === 200) {
      body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString('utf8')))));
      delete outHeaders['content-length'];
      delete outHeaders['content-encoding'];
      delete outHeaders['transfer-encoding'];
    }
    res.writeHead(answer.status, outHeaders);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    loseAnswers(method: string, times = 1) {
      drops.set(method, times);
    },
    cutBefore(method: string, times = 1) {
      cuts.set(method, times);
    },
    rewrite(method: string, change: (answer: Record<string, unknown>) => Record<string, unknown>) {
      rewrites.set(method, change);
    },
    callsOf: (method: string) => calls.get(method) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface Backend {
  open(): Promise<Store>;
  done(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'vidops-outbox-'));
  const url = `sqlite:${join(dir, 'vidops.db')}`;
  const stores: Store[] = [];
  return {
    async open() {
      const s = await openStore(url, { hash });
      stores.push(s);
      return s;
    },
    async done() {
      await Promise.all(stores.map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const pgSchemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'outbox_harness');

async function postgresBackend(): Promise<Backend> {
  if (pgSchemas === null) throw new Error('no TEST_DATABASE_URL');
  const url = pgSchemas.url();
  const stores: Store[] = [];
  return {
    async open() {
      const s = await openStore(url, { hash });
      stores.push(s);
      return s;
    },
    async done() {
      await Promise.all(stores.map((s) => s.close()));
    },
  };
}

/** The stores a test runs on: a SQLite file, and a PostgreSQL schema when TEST_DATABASE_URL is set. */
export const BACKENDS: [string, () => Promise<Backend>][] = [
  ['SQLite', sqliteBackend],
  ...(TEST_DATABASE_URL === undefined
    ? []
    : [['PostgreSQL', postgresBackend] as [string, () => Promise<Backend>]]),
];

/** Drops the PostgreSQL schemas the backends made; call in `afterAll`. */
export async function dropBackends(): Promise<void> {
  await pgSchemas?.dropAll();
}

export function auditEvent(n: number, outcome = `unblocked viewer ${n}`): NewAuditEvent {
  return {
    id: randomUUID(),
    type: 'succeeded',
    at: new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString(),
    actor: { id: 'U0AGENT01', name: 'Sara' },
    operation: 'viewer.unblock',
    target: '09123456789',
    params: { mobile: '09123456789' },
    requestId: randomUUID(),
    outcome,
    error: null,
  };
}

/** How many times each event's short hash shows in the channel's accepted posts. */
export function timesShown(fake: Emulator, events: readonly AuditEvent[]): Record<number, number> {
  const text = fake
    .callsTo('chat.postMessage')
    .filter((c) => c.args.channel === AUDIT && c.response.ok === true)
    .map((c) => JSON.stringify(c.args.blocks ?? []))
    .join('\n');
  return Object.fromEntries(events.map((e) => [e.seq, text.split(e.hash.slice(0, 12)).length - 1]));
}

/** How many times each event's short hash shows in the channel as it stands now. */
export function timesInChannel(fake: Emulator, events: readonly AuditEvent[]): Record<number, number> {
  const text = fake
    .messages(AUDIT)
    .map((m) => JSON.stringify(m.blocks ?? []))
    .join('\n');
  return Object.fromEntries(events.map((e) => [e.seq, text.split(e.hash.slice(0, 12)).length - 1]));
}

export const once = (events: readonly AuditEvent[]) => Object.fromEntries(events.map((e) => [e.seq, 1]));

/** The checkpoint posts Slack accepted. */
export function checkpointPosts(fake: Emulator): number {
  return fake
    .callsTo('chat.postMessage')
    .filter((c) => c.response.ok === true && String(c.args.text ?? '').startsWith('vidops audit checkpoint'))
    .length;
}
