import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { runCli } from '../src/cli/run.js';
import { createVideoClient } from '../src/client/index.js';
import { createHasher, verifyChain } from '../src/core/audit-chain.js';
import type { Actor, NewAuditEvent, OperationRequest } from '../src/core/model.js';
import { buildPolicy } from '../src/core/policy.js';
import { sealKeyOf } from '../src/core/seal.js';
import { type Emulator, startEmulator } from '../src/emulator/index.js';
import { ENGLISH } from '../src/i18n/index.js';
import { DEMO } from '../src/sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../src/sandbox/server.js';
import { createOperations } from '../src/services/operations.js';
import { announce, appSweeps } from '../src/services/sweeps.js';
import type { Operations } from '../src/services/types.js';
import { openStore, type Store } from '../src/store/index.js';
import { homeView } from '../src/views/home.js';
import { requestsMessage } from '../src/views/requests.js';
import { buildDist, median, ROOT, sandboxClientOptions, startCommand } from './shared.js';

/**
 * Cost as the history grows
 * (`npm run bench -- age [--ops=N] [--measure=N] [--idle=S] [--bulk] [--plans] [--store=postgres --url=postgres://… [--keep]]`):
 * builds a history of N operations (default 100,000) through the real services on the sandbox
 * (documented endpoints only): unblocks by several agents at once, and 1 in 100 a `protect set`
 * left waiting for approval (expired by the sweep a day later); with `--bulk`, each unblock of the
 * history is a real one's request and events written again through the store's `createRequest`
 * (new IDs, number, time, agent), a tenth of the cost. The clock moves 15 s an operation
 * so that each agent stays under the unblock's rate limit, as a team would. Then it measures the
 * aged database against an empty one in the same run and prints the ratios, and with `--plans`
 * the query plan of every statement the store prepared. Notifications and the audit outbox are
 * acknowledged as the Slack workers would, so that what ages is the history, not a backlog.
 * @see docs/benchmarks.md, "Aging"
 */

const AGENTS = 10;
const STEP_MS = 15_000;
const LEAD: Actor = { id: 'U0AGELEAD', name: 'lead' };
const agents: Actor[] = Array.from({ length: AGENTS }, (_, i) => ({ id: `U0AGENT${i}`, name: `agent${i}` }));
const hash = createHasher();

function option(name: string): string | undefined {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`));
  return given?.slice(name.length + 3);
}

const OPS = Number(option('ops') ?? 100_000);
const STORE = option('store') ?? 'sqlite';
const PG_URL = option('url') ?? process.env.TEST_DATABASE_URL;
const PLANS = process.argv.includes('--plans');
const BULK = process.argv.includes('--bulk');
/** Bulk unblocks only while the history is built: what is measured runs through the services. */
let building = false;
/** Operations measured on each database (`--measure=N`), after a fifth as many to warm up. */
const MEASURED = Number(option('measure') ?? 1_000);

interface World {
  store: Store;
  ops: Operations;
  sandbox: Sandbox;
  /** Operations made so far; the clock is `start + made × STEP_MS`. */
  made: number;
  /** The world's time: `start + made × STEP_MS`, or real time once caught up (before vidops starts on it). */
  clock(): Date;
  caughtUp: boolean;
  mobile: number;
  /** A real unblock, written again for each bulk one (`--bulk`). */
  template?: { text: string; mobile: string; requestId: string; agent: Actor; eventIds: string[] };
  close(): Promise<void>;
}

/** Every SQL text the store prepares (SQLite) or sends (PostgreSQL), for `--plans`. */
const seen = new Map<string, number>();
function recordStatements(): void {
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    seen.set(sql, (seen.get(sql) ?? 0) + 1);
    return prepare.call(this, sql);
  } as typeof prepare;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
    if (text !== undefined) seen.set(text, (seen.get(text) ?? 0) + 1);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}

let folder = '';
/** The database URL of world `name` (`empty`, `aged`). */
function urlOf(name: string): string {
  return STORE === 'postgres'
    ? `${PG_URL ?? ''}${PG_URL?.includes('?') ? '&' : '?'}schema=age_${name}_${process.pid}`
    : `sqlite:${join(folder, `${name}.db`)}`;
}

async function openWorld(name: string): Promise<World> {
  const url = urlOf(name);
  if (STORE === 'postgres' && PG_URL === undefined)
    throw new Error('--store=postgres needs --url=postgres://…');
  const store = await openStore(url, { hash });
  const sandbox = await startSandbox({ port: 0, extras: false });
  const client = createVideoClient(sandboxClientOptions(sandbox.url));
  const start = Date.parse('2026-01-01T00:00:00Z');
  const world: World = {
    store,
    sandbox,
    made: 0,
    caughtUp: false,
    clock: () => (world.caughtUp ? new Date() : new Date(start + world.made * STEP_MS)),
    mobile: 0,
    ops: createOperations({
      store,
      client,
      policy: buildPolicy({ leads: [LEAD.id] }),
      directory: { groupsOf: async () => [], kindOf: async () => 'person' },
      clock: () => world.clock(),
      sealKey: sealKeyOf(DEMO.secretKey),
      // A sweep logs what it could not do and goes on: said here, or the history is not what it seems.
      logger: {
        info() {},
        warn: (obj, msg) => console.warn(msg, obj),
        error: (obj, msg) => console.error(msg, obj),
      },
    }),
    async close() {
      await store.close();
      await sandbox.close();
      client.close();
    },
  };
  return world;
}

/** One operation by `agent`: an unblock, or every 100th a `protect set` left waiting. */
async function operate(w: World, agent: Actor): Promise<void> {
  w.made += 1;
  const n = w.made;
  if (!(await w.store.markDelivered(`age:${n}`, new Date(Date.now()).toISOString())))
    throw new Error('replay');
  if (n % 100 === 0) {
    const prepared = await w.ops.prepare(agent, {
      kind: 'protect.set',
      changes: { opacity: (n % 9) / 10 + 0.05 },
    });
    await w.ops.submit(agent, prepared, { reason: 'aging' });
    return;
  }
  w.mobile += 1;
  const mobile = `0912${String(w.mobile % 10_000_000).padStart(7, '0')}`;
  // Bulk unblocks finish unevenly: each goes to agent n mod 10, so none passes the rate limit.
  const owner = agents[n % AGENTS] ?? agent;
  if (BULK && building && w.template !== undefined) return bulkUnblock(w, w.template, owner, mobile, n);
  const prepared = await w.ops.prepare(agent, { kind: 'viewer.unblock', mobileNumber: mobile });
  const result = await w.ops.submit(agent, prepared);
  if (BULK && w.template === undefined && result.kind === 'executed') {
    const { request } = result;
    const events = await w.store.listAudit({ requestId: request.id });
    const done = await w.store.getRequest(request.id);
    w.template = {
      text: JSON.stringify({ request: done, events: events.map(({ seq, prevHash, hash, ...e }) => e) }),
      mobile,
      requestId: request.id,
      agent,
      eventIds: events.map((e) => e.id),
    };
  }
}

/** The template unblock again: its request and events with new IDs, number, agent and time. */
async function bulkUnblock(
  w: World,
  t: NonNullable<World['template']>,
  agent: Actor,
  mobile: string,
  n: number,
): Promise<void> {
  const at = w.clock().toISOString();
  const mask = (m: string) => `${m.slice(0, 4)}***${m.slice(-4)}`;
  let text = t.text
    .replaceAll(t.mobile, mobile)
    .replaceAll(mask(t.mobile), mask(mobile))
    .replaceAll(t.requestId, `R-AGE-${n}`)
    .replaceAll(t.agent.id, agent.id)
    .replaceAll(`"${t.agent.name}"`, `"${agent.name}"`)
    .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, `"${at}"`);
  for (const id of t.eventIds) text = text.replaceAll(id, randomUUID());
  const { request, events } = JSON.parse(text) as { request: OperationRequest; events: NewAuditEvent[] };
  await w.store.createRequest(request, events);
}

/** What the Slack workers and the sweeps do meanwhile: acknowledge, expire, prune. */
async function keepUp(w: World): Promise<void> {
  const now = w.clock().toISOString();
  for (;;) {
    const jobs = await w.store.claimNotifications({
      worker: 'age',
      requests: 500,
      leaseMs: 60_000,
      now,
      settledAt: now,
    });
    if (jobs.length === 0) break;
    // A new request's approval message is posted: the sweep would announce it again otherwise.
    const posted = jobs.filter((j) => j.state === 'pending' && j.version === 1);
    for (const j of posted)
      await w.ops.attachSlackMessage(j.requestId, { channel: 'C0AGE', ts: `${j.id}.0` });
    await w.store.ackNotifications(jobs.map((j) => j.id));
  }
  for (;;) {
    const events = await w.store.claimOutbox('age', 1_000, 60_000, now);
    if (events.length === 0) break;
    await w.store.ackOutbox(events.map((e) => e.seq));
  }
  await w.ops.expireDue();
}

/** `count` operations, `AGENTS` at a time; each agent's latency recorded. */
async function drive(w: World, count: number, latencies?: number[]): Promise<void> {
  let left = count;
  await Promise.all(
    agents.map(async (agent) => {
      while (left > 0) {
        left -= 1;
        const t0 = performance.now();
        await operate(w, agent);
        latencies?.push(performance.now() - t0);
      }
    }),
  );
}

async function build(w: World, total: number): Promise<void> {
  const t0 = performance.now();
  building = true;
  const chunk = 2_000;
  for (let done = 0; done < total; done += chunk) {
    await drive(w, Math.min(chunk, total - done));
    await keepUp(w);
    if ((done + chunk) % 20_000 === 0) {
      const s = (performance.now() - t0) / 1000;
      console.log(`  aged by ${done + chunk} operations in ${s.toFixed(0)} s`);
    }
  }
  building = false;
}

/** Median ms of `fn` over `rounds`. */
async function timed(fn: () => Promise<unknown>, rounds = 21): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

interface Figures {
  cpuPerOp: number;
  p99: number;
  homeAgent: number;
  homeLead: number;
  requestsAgent: number;
  requestsLead: number;
  audit: number;
  sweep: number;
  depth: number;
  pending: number;
  /** How many requests were pending when measured: the open work the sweeps read. */
  pendingCount: number;
  delegations: number;
}

async function measure(w: World): Promise<Figures> {
  await drive(w, Math.ceil(MEASURED / 5));
  await keepUp(w);
  const latencies: number[] = [];
  const before = process.cpuUsage();
  await drive(w, MEASURED, latencies);
  const used = process.cpuUsage(before);
  await keepUp(w);
  latencies.sort((a, b) => a - b);
  const agent = agents[0] as Actor;
  const sweeps = appSweeps({
    ops: w.ops,
    store: w.store,
    clock: () => w.clock(),
    log: { info() {}, debug() {}, error() {} },
    intervalMs: 30_000,
    queued() {},
  });
  const sweepOnce = async () => {
    for (const task of sweeps) await task.run();
    await announce({ store: w.store, clock: () => new Date(), queued() {} });
  };
  return {
    cpuPerOp: (used.user + used.system) / 1000 / MEASURED,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
    homeAgent: await timed(() => homeOpen(w, agent, false)),
    homeLead: await timed(() => homeOpen(w, LEAD, true)),
    requestsAgent: await timed(() => requestsOpen(w, agent, false)),
    requestsLead: await timed(() => requestsOpen(w, LEAD, true)),
    audit: await timed(() => w.ops.recentAudit(LEAD, 10)),
    sweep: await timed(sweepOnce, 5),
    depth: await timed(() => w.store.outboxDepth()),
    pendingCount: (await w.store.listRequests({ states: ['pending'], limit: 100_000 })).length,
    pending: await timed(() =>
      w.store.listDue({ kind: 'followUp', by: w.clock().toISOString(), limit: 100 }),
    ),
    delegations: await timed(() => w.store.listAudit({ operation: 'delegation' })),
  };
}

/** What an App Home open reads and builds (src/commands/changes/home.ts), without Slack. */
async function homeOpen(w: World, actor: Actor, lead: boolean): Promise<void> {
  const [{ overview, audit }, delegations, breakGlass, timeBoxes] = await Promise.all([
    w.ops.homeRecords(actor, 10),
    w.ops.delegations(actor),
    lead ? w.ops.unreviewedBreakGlass() : Promise.resolve([]),
    w.ops.timeBoxesInForce(),
  ]);
  const model = { userId: actor.id, isLead: lead, overview, audit, delegations, breakGlass, timeBoxes };
  homeView({ ...model, protection: { error: 'not read' }, builtAt: w.clock().toISOString() }, ENGLISH);
}

/** What `/vidops requests` reads and builds, without Slack. */
async function requestsOpen(w: World, actor: Actor, lead: boolean): Promise<void> {
  requestsMessage(await w.ops.listRequests(actor), { isLead: lead, now: w.clock() }, ENGLISH);
}

/** The aged log read back as `audit verify` reads it (in this process) and exported by the CLI's `audit export`. */
async function readLog(w: World, name: string) {
  const events = (await w.store.auditHead())?.seq ?? 0;
  const t0 = performance.now();
  const result = await verifyChain(w.store.iterateStoredAudit(), hash);
  if (!result.ok) throw new Error(`the ${name} chain does not verify`);
  const verifyMs = performance.now() - t0;
  const sink = { write: () => true };
  const exported = async (format: 'jsonl' | 'csv') => {
    const out = join(folder, `${name}.${format}`);
    const t = performance.now();
    const code = await runCli(['audit', 'export', '--format', format, '--out', out], {
      stdout: sink,
      stderr: sink,
      env: { DATABASE_URL: urlOf(name) },
      cwd: folder,
      osUser: 'bench',
    });
    if (code !== 0) throw new Error(`audit export --format ${format} exited with ${code}`);
    const ms = performance.now() - t;
    const bytes = statSync(out).size;
    rmSync(out);
    return { ms, bytes };
  };
  return { events, verifyMs, jsonl: await exported('jsonl'), csv: await exported('csv') };
}

/**
 * Everything measured on one world: through the services, its log read back, then (once what
 * falls due by real time is done, so that idle is idle) vidops started on it and left idle.
 */
async function measureWorld(w: World, name: string, slack: Emulator) {
  const figures = await measure(w);
  const log = await readLog(w, name);
  w.caughtUp = true;
  await keepUp(w);
  await keepUp(w);
  return { ...figures, ...log, ...(await startAndIdle(urlOf(name), w.sandbox, slack)) };
}

async function printPlans(dir: string): Promise<void> {
  console.log('\nquery plans of every statement the store prepared:');
  if (STORE === 'postgres') return; // The PostgreSQL plans: `EXPLAIN (ANALYZE, BUFFERS)` by hand, docs/benchmarks.md.
  const db = new Database(join(dir, 'aged.db'), { readonly: true });
  for (const sql of seen.keys()) {
    if (!/^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)/i.test(sql) || /schema_migrations|sqlite_/.test(sql))
      continue;
    const params = (sql.match(/\?/g) ?? []).map(() => null);
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => (r as { detail: string }).detail);
      console.log(`\n${sql.replace(/\s+/g, ' ').slice(0, 160)}\n  ${plan.join('\n  ')}`);
    } catch (error) {
      console.log(`\n${sql.slice(0, 120)}: ${(error as Error).message}`);
    }
  }
  db.close();
}

/** Seconds vidops is watched after `/readyz` (`--idle=S`, at least 40): the first 20 and what follows 30. */
const IDLE_S = Math.max(40, Number(option('idle') ?? 90));
const IDLE_WINDOW_S = 10;

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** CPU ms the process `pid` has used (utime + stime of /proc, 100 ticks a second). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Idle {
  readyMs: number;
  /** CPU ms a second over the first 20 s after `/readyz`: start-up's JIT and garbage linger there. */
  first: number;
  /** The median and the mean of the 10 s windows from 30 s on, CPU ms a second. */
  settled: number;
  settledMean: number;
  /** Statements the store ran a minute from 30 s on (bench/count-queries.js). */
  queriesPerMinute: number;
}

/**
 * vidops as `npm start` runs it (dist/main.js with its node flags, HTTP mode) on database `url`, against the sandbox and
 * the Slack emulator: ms from the spawn to `/readyz` answering 200, then CPU ms a second with
 * nothing happening, over {@link IDLE_S} seconds in 10 s windows (/proc counts in 10 ms ticks).
 */
async function startAndIdle(url: string, sandbox: Sandbox, slack: Emulator): Promise<Idle> {
  const port = await freePort();
  const queries = join(folder, 'queries');
  const t0 = performance.now();
  const { env: startEnv, flags } = startCommand();
  const counter = ['--import', pathToFileURL(join(ROOT, 'bench', 'count-queries.js')).href];
  const child = spawn(process.execPath, [...flags, ...counter, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...startEnv,
      DATABASE_URL: url,
      PORT: String(port),
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: 'age-signing-secret',
      SLACK_API_URL: slack.apiUrl,
      VIDEO_API_URL: sandbox.url,
      VIDEO_API_KEY: DEMO.apiKey,
      VIDEO_SECRET_KEY: DEMO.secretKey,
      AUDIT_CHANNEL: 'C0AGEAUDIT',
      LEADS: LEAD.id,
      LOG_LEVEL: 'warn',
      VIDOPS_BENCH_QUERIES: queries,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const queriesSoFar = async () => {
    rmSync(queries, { force: true });
    child.kill('SIGUSR2');
    while (!existsSync(queries)) await sleep(20);
    return Number(readFileSync(queries, 'utf8'));
  };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`vidops exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(20);
    }
    const readyMs = performance.now() - t0;
    // CPU read every 10 s (stamped, as the query count at 30 s takes a moment); windows from 30 s on are settled.
    const reads = [{ at: performance.now(), ms: cpuMsOf(child.pid ?? 0) }];
    let counted = { at: 0, n: 0 };
    for (let s = IDLE_WINDOW_S; s <= IDLE_S; s += IDLE_WINDOW_S) {
      await sleep(IDLE_WINDOW_S * 1000);
      reads.push({ at: performance.now(), ms: cpuMsOf(child.pid ?? 0) });
      if (s === 30) counted = { at: performance.now(), n: await queriesSoFar() };
    }
    const queriesPerMinute =
      ((await queriesSoFar()) - counted.n) / ((performance.now() - counted.at) / 60_000);
    const rate = (from: number, to: number) => {
      const [a, b] = [reads[from], reads[to]];
      return a && b ? ((b.ms - a.ms) / (b.at - a.at)) * 1000 : Number.NaN;
    };
    const settled = reads.slice(4).map((_, i) => rate(i + 3, i + 4));
    return {
      readyMs,
      first: rate(0, 2),
      settled: median(settled),
      settledMean: rate(3, reads.length - 1),
      queriesPerMinute,
    };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

function fileSize(dir: string, name: string): number {
  let bytes = 0;
  for (const suffix of ['', '-wal'])
    bytes += statSync(join(dir, `${name}${suffix}`), { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

export async function run(): Promise<void> {
  buildDist();
  if (PLANS) recordStatements();
  const dir = mkdtempSync(join(tmpdir(), 'vidops-age-'));
  folder = dir;
  const empty = await openWorld('empty');
  const aged = await openWorld('aged');
  try {
    console.log(
      `aging a ${STORE} database by ${OPS} operations (${AGENTS} agents, 1 in 100 a protect set) …`,
    );
    const t0 = performance.now();
    await build(aged, OPS);
    const buildS = (performance.now() - t0) / 1000;
    console.log(`  built in ${buildS.toFixed(0)} s (${(OPS / buildS).toFixed(0)} operations/s)`);
    const slack = await startEmulator();
    const [e, a] = await (async () => {
      try {
        return [await measureWorld(empty, 'empty', slack), await measureWorld(aged, 'aged', slack)];
      } finally {
        await slack.close();
      }
    })();
    const row = (what: string, x: number, y: number, unit: string) =>
      console.log(
        `  ${what.padEnd(34)} ${x.toFixed(2).padStart(9)} ${y.toFixed(2).padStart(9)} ${unit.padEnd(4)} ${(y / x).toFixed(2)}×`,
      );
    console.log(`\naged by ${OPS} operations (${a.events} audit events) against an empty database:`);
    console.log(`  ${'figure'.padEnd(34)} ${'empty'.padStart(9)} ${'aged'.padStart(9)}`);
    row('CPU per operation', e.cpuPerOp, a.cpuPerOp, 'ms');
    row('operation p99 (10 agents at once)', e.p99, a.p99, 'ms');
    row('App Home open, agent', e.homeAgent, a.homeAgent, 'ms');
    row('App Home open, lead', e.homeLead, a.homeLead, 'ms');
    row('requests, agent', e.requestsAgent, a.requestsAgent, 'ms');
    row('requests, lead', e.requestsLead, a.requestsLead, 'ms');
    row('audit 10', e.audit, a.audit, 'ms');
    row('one sweep (every periodic task)', e.sweep, a.sweep, 'ms');
    row('outbox depth (a metrics scrape)', e.depth, a.depth, 'ms');
    row('  of which: follow-ups due read (one page)', e.pending, a.pending, 'ms');
    row('  of which: delegation events read', e.delegations, a.delegations, 'ms');
    row('requests pending when measured', e.pendingCount, a.pendingCount, '');
    row('start to /readyz (dist/main.js)', e.readyMs, a.readyMs, 'ms');
    row('idle CPU, first 20 s after /readyz', e.first, a.first, 'ms/s');
    row('idle CPU settled, median of 10 s', e.settled, a.settled, 'ms/s');
    row('idle CPU settled, mean', e.settledMean, a.settledMean, 'ms/s');
    row('idle statements a minute, settled', e.queriesPerMinute, a.queriesPerMinute, '');
    const per100k = (ms: number) => `${(((ms / a.events) * 100_000) / 1000).toFixed(1)} s per 100,000 events`;
    console.log(
      `  audit verify (read and chain): ${a.events} events in ${a.verifyMs.toFixed(0)} ms, ${per100k(a.verifyMs)}`,
    );
    for (const [format, x] of [
      ['jsonl', a.jsonl],
      ['csv', a.csv],
    ] as const)
      console.log(
        `  audit export --format ${format}: ${x.ms.toFixed(0)} ms, ${per100k(x.ms)}, ` +
          `${(((x.bytes / a.events) * 100_000) / 1e6).toFixed(0)} MB per 100,000 events`,
      );
    if (STORE === 'sqlite') {
      console.log(
        `  database size: ${(((fileSize(dir, 'aged.db') / OPS) * 100_000) / 1e6).toFixed(0)} MB per 100,000 operations`,
      );
    }
    if (PLANS) await printPlans(dir);
  } finally {
    await empty.close();
    await aged.close();
    rmSync(dir, { recursive: true, force: true });
    if (STORE === 'postgres' && !process.argv.includes('--keep')) await dropSchemas();
  }
}

/** The run's schemas on PostgreSQL, dropped unless `--keep` asks to look at them afterwards. */
async function dropSchemas(): Promise<void> {
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  try {
    for (const name of ['empty', 'aged'])
      await db.query(`DROP SCHEMA IF EXISTS age_${name}_${process.pid} CASCADE`);
  } finally {
    await db.end();
  }
}
