import { type ChildProcess, fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import ts from 'typescript';
import type { JsonValue } from '../src/core/json.js';
import {
  blockAction,
  type Emulator,
  type SlackRequest,
  sign,
  slashCommand,
  startEmulator,
} from '../src/emulator/index.js';
import { DEMO, startSandbox } from '../src/sandbox/server.js';
import { ACTIONS } from '../src/views/ids.js';
import { buildDist, median, ROOT, roundsOf, startCommand } from './shared.js';
import {
  BENCH_APPROVAL_CHANNEL,
  BENCH_LEAD,
  COMPLETED_SQL,
  type IpcArgs,
  type IpcReply,
  type IpcRequest,
  type Stats,
  serveIpc,
  TARGET_ENV,
} from './slack-target.js';

/**
 * Slash-command load, same run, each target in its own process so the load generator
 * (autocannon) does not share an event loop with the server it measures:
 *  (a) a bare Bolt app on vidops' receiver whose `/vidops` handler only acks;
 *  (b) the full vidops doing `unblock <unique valid number>`: ack, look-up and unblock on the
 *      sandbox, response_url post to the Slack emulator, audit events, audit channel posts;
 *  the Bolt durable got floor: a hand-written unblock (got for its calls, the writes vidops' store
 *      makes, the audit post, the reply) served by Bolt on vidops' receiver: the parts the design
 *      fixes, so vidops / it prices vidops' own code (bench/slack-target.ts, runFloor);
 *  then, for reference, the got floor (the same on node:http with two plain events) and
 *  (c) vidops while the sandbox adds 5 s to every call; last, goal 4's Approve clicks.
 * Signed requests (fresh timestamp and signature each), 50 connections, 10 s each (BENCH_SECONDS
 * shortens it), after 2 s of warm-up. Targets run the compiled build with `npm start`'s node flags.
 * Goals, as ratios in the same run: 1. CPU per completed unblock ≤ 1.5× the Bolt floor's;
 * 2. completed unblocks per second ≥ 0.7× the Bolt floor's; 3. ack p99 ≤ 2× (a)'s; 4. Approve →
 * upstream call p99 ≤ 1.5× the got floor's; 5. RSS after the flood < 150 MB.
 * @see docs/benchmarks.md
 */

const CONNECTIONS = 50;
/** Seconds of each measured run; BENCH_SECONDS shortens it for a smoke run. */
const DURATION_S = durationSeconds(process.env.BENCH_SECONDS);
/** Seconds of load each target gets before its measured run (a fresh process compiles as it goes). */
const WARM_UP_S = 2;
const LATENCY_MS = 5_000;
const SIGNING_SECRET = 'bench-signing-secret-8c1f2a';
const USER = { id: 'U0BENCHAGENT', name: 'bench' };
const FORM = 'application/x-www-form-urlencoded';
/** Approve clicks sent at once, and how many such batches are timed (after one untimed batch). */
const APPROVAL_BATCH = 10;
const APPROVAL_ROUNDS = 10;
/** Every unblock needs a lead's approval, so each seeded `unblock` waits for a click. */
const APPROVAL_POLICY = 'viewer.unblock: { approval: true, rateLimit: null }\n';
/** How long the approvals measurement waits for any one step before it says what is missing. */
const STEP_TIMEOUT_MS = 30_000;
const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
/** `--quick`: only the three flood rows the goals 1–3 compare ((a), (b), the Bolt floor), for iterating. */
const QUICK = process.argv.includes('--quick');
/**
 * `--rounds=N` (1 to 9, default 1): the three flood rows of goals 1-3 measured N times over; each
 * goal is judged on the median of the N ratios, and all N are printed.
 */
const ROUNDS = roundsOf(process.argv, 1);
/** `--approvals`: only goal 4, the Approve click → the upstream call, and the floor's baseline. */
const APPROVALS_ONLY = process.argv.includes('--approvals');
/**
 * `--closed`: (b), the Bolt floor and the got floor sent CLOSED_COUNT unblocks, CLOSED_IN_FLIGHT at
 * a time, each slot taken again only when its reply reached response_url (after as many to warm
 * up): no "busy" answers and no pacing, so the CPU per completed unblock is an unblock's own.
 */
const CLOSED_ONLY = process.argv.includes('--closed');
const CLOSED_COUNT = 1_500;
const CLOSED_IN_FLIGHT = 10;

function durationSeconds(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return 10;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 600) {
    throw new Error(`BENCH_SECONDS must be a whole number of seconds from 1 to 600, not "${text}"`);
  }
  return seconds;
}

// ---------------------------------------------------------------------------------------------
// Process plumbing: the parent forks children; children answer requests over IPC.

function isIpcReply(value: unknown): value is IpcReply {
  return typeof value === 'object' && value !== null && 'id' in value && 'ok' in value;
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  call(cmd: string, args?: IpcArgs): Promise<Stats>;
}

let nextId = 0;

function connect(name: string, child: ChildProcess): Child {
  const pending = new Map<number, { resolve: (d: Stats) => void; reject: (e: Error) => void }>();
  let markReady: () => void = () => undefined;
  let failReady: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  child.on('message', (message: unknown) => {
    if (!isIpcReply(message)) return;
    if (message.id === 0) {
      markReady();
      return;
    }
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.data ?? {});
    else waiter?.reject(new Error(`${name}: ${message.error ?? 'failed'}`));
  });
  child.on('exit', (code) => {
    failReady(new Error(`${name} exited (${code}) before it was ready`));
    for (const waiter of pending.values()) waiter.reject(new Error(`${name} exited (${code})`));
    pending.clear();
  });
  return {
    process: child,
    ready,
    call(cmd, args) {
      nextId += 1;
      const id = nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd, ...(args === undefined ? {} : { args }) } satisfies IpcRequest);
      });
    },
  };
}

/** Sandbox and Slack emulator: this file again, under tsx like the parent (they are TypeScript sources). */
function spawnDeps(): Child {
  return connect(
    'deps',
    fork(fileURLToPath(import.meta.url), ['--role', 'deps'], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
}

type Role = 'bare' | 'app' | 'floor-got' | 'floor-at-once' | 'floor-bolt';

interface Targets {
  flags: string[];
  /** `npm start`'s environment settings (`MALLOC_ARENA_MAX`), given to every target. */
  startEnv: Record<string, string>;
  spawn(role: Role, env: Record<string, string>): Child;
  close(): void;
}

/**
 * bench/slack-target.ts as plain JavaScript in a temp dir, forked with `npm start`'s flags and
 * environment settings.
 */
function prepareTargets(): Targets {
  const source = readFileSync(join(ROOT, 'bench', 'slack-target.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
    fileName: 'slack-target.ts',
  });
  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-target-'));
  const file = join(dir, 'slack-target.mjs');
  writeFileSync(file, outputText);
  const { env: startEnv, flags } = startCommand();
  return {
    flags,
    startEnv,
    spawn(role, env) {
      return connect(
        role,
        fork(file, [], {
          execPath: process.execPath,
          // --expose-gc: after the run the child also reports the heap that survives a full collection.
          execArgv: [...flags, '--expose-gc'],
          env: {
            ...process.env,
            ...startEnv,
            ...env,
            [TARGET_ENV.role]: role,
            [TARGET_ENV.root]: ROOT,
            [TARGET_ENV.signingSecret]: SIGNING_SECRET,
            [TARGET_ENV.apiKey]: DEMO.apiKey,
            [TARGET_ENV.secretKey]: DEMO.secretKey,
          },
          // The app logs at info as in production; its lines go nowhere rather than into the report.
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        }),
      );
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  await child.call('stop').catch(() => undefined);
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** The bucket bound under which 99% of the acks of the run fell (from two bucket snapshots). */
function ackP99(before: string, after: string): string {
  const parse = (text: string) =>
    new Map(
      text
        .split(';')
        .filter(Boolean)
        .map((pair) => pair.split('=') as [string, string]),
    );
  const b = parse(before);
  const a = parse(after);
  const total = Number(a.get('+Inf') ?? 0) - Number(b.get('+Inf') ?? 0);
  if (total <= 0) return '-';
  for (const [le, count] of a) {
    if (Number(count) - Number(b.get(le) ?? 0) >= total * 0.99) {
      return le === '+Inf' ? '>5 s' : `≤${Number(le) * 1000} ms`;
    }
  }
  return '-';
}

/** The request ID a reply mentions (`R-` and eight Crockford base-32 characters). */
function requestIdIn(text: string): string {
  const id = /R-[0-9A-HJKMNP-TV-Z]{8}/.exec(text)?.[0];
  if (id === undefined) throw new Error(`no request ID in the reply: ${text.slice(0, 300)}`);
  return id;
}

/** Resolves with `promise`, or rejects naming `what` after STEP_TIMEOUT_MS. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${STEP_TIMEOUT_MS} ms waiting for ${what}`)),
      STEP_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The value at quantile `q` of sorted figures (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

let approvalSequence = 0;
let floorSequence = 0;
let closedSequence = 0;

/**
 * `--closed`: `count` signed unblocks, CLOSED_IN_FLIGHT at a time; a slot is taken again when the
 * reply of its unblock reached response_url (whatever it says). Latency: from the send to the reply.
 */
async function driveClosed(port: number, slack: Emulator, count: number): Promise<Stats> {
  const url = `http://127.0.0.1:${port}/slack/events`;
  const latencies: number[] = [];
  let sent = 0;
  let bad = 0;
  const slot = async (): Promise<void> => {
    while (sent < count) {
      sent += 1;
      closedSequence += 1;
      // Tags `b…` are the load's replies (stats); each unblock a different viewer.
      const tag = `b-closed-${closedSequence}`;
      const request = slashCommand({
        text: `unblock 0912${String(closedSequence % 10_000_000).padStart(7, '0')}`,
        userId: USER.id,
        userName: USER.name,
        responseUrl: slack.responseUrl(tag),
      });
      const sentAt = performance.now();
      const reply = slack.waitForResponse((p) => p.tag === tag, STEP_TIMEOUT_MS);
      const answer = await fetch(url, {
        method: 'POST',
        headers: { ...sign(request, SIGNING_SECRET) },
        body: request.body,
      });
      await answer.arrayBuffer();
      if (answer.status !== 200) {
        bad += 1;
        reply.catch(() => undefined);
        continue;
      }
      await reply;
      latencies.push(performance.now() - sentAt);
    }
  };
  await Promise.all(Array.from({ length: CLOSED_IN_FLIGHT }, slot));
  latencies.sort((x, y) => x - y);
  return { total: count, bad, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** A Slack request ready to send, signed, and the mobile number its unblock call will carry. */
interface TimedSend {
  mobile: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Names it in a failure: "the Approve click on R-…". */
  what: string;
}

type UnblockCallListener = (listener: ((mobile: string, at: number) => void) | undefined) => void;

/**
 * Sends batches of {@link APPROVAL_BATCH} requests at once, {@link APPROVAL_ROUNDS} timed batches
 * after an untimed one, and times each from just before it is sent to the moment the sandbox
 * receives its unblock call (the number in the call's body names the request). `batch` prepares
 * (and signs, as Slack signs before it sends) the next batch; its own work is not timed.
 */
async function timeUnblockCalls(
  onUnblockCall: UnblockCallListener,
  batch: () => Promise<TimedSend[]>,
): Promise<Stats> {
  const arrivals = new Map<string, (at: number) => void>();
  onUnblockCall((mobile, at) => arrivals.get(mobile)?.(at));
  const latencies: number[] = [];
  try {
    for (let round = 0; round <= APPROVAL_ROUNDS; round += 1) {
      const sends = await batch();
      const timed = await Promise.all(
        sends.map(async ({ mobile, url, headers, body, what }) => {
          const arrived = new Promise<number>((resolve) => arrivals.set(mobile, resolve));
          const sentAt = performance.now();
          const answer = await fetch(url, { method: 'POST', headers, body });
          await answer.arrayBuffer();
          if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}`);
          const at = await within(arrived, `the unblock call after ${what}`);
          arrivals.delete(mobile);
          return at - sentAt;
        }),
      );
      if (round > 0) latencies.push(...timed);
    }
  } finally {
    onUnblockCall(undefined);
  }
  latencies.sort((x, y) => x - y);
  return {
    count: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

/**
 * A lead's Approve click → the upstream call starts. An agent asks for unblocks that each need a
 * lead (signed `/vidops unblock` requests, as Slack sends them); once each approval message is
 * posted, the lead clicks Approve on 10 of them at once (signed `block_actions`), timed by
 * {@link timeUnblockCalls}. Runs here, beside the approval sandbox and the Slack emulator, so both
 * times come from one clock.
 */
async function driveApprovals(
  port: number,
  slack: Emulator,
  onUnblockCall: UnblockCallListener,
): Promise<Stats> {
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  const post = async (request: SlackRequest): Promise<void> => {
    const answer = await fetch(eventsUrl, {
      method: 'POST',
      headers: { ...sign(request, SIGNING_SECRET) },
      body: request.body,
    });
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the bot answered ${answer.status}`);
  };

  /** An agent's unblock that needs approval, then the lead's signed Approve click on it. */
  const seed = async (): Promise<TimedSend> => {
    approvalSequence += 1;
    const mobile = `0935${String(approvalSequence).padStart(7, '0')}`;
    const tag = `seed-${approvalSequence}`;
    await post(
      slashCommand({
        text: `unblock ${mobile}`,
        userId: USER.id,
        userName: USER.name,
        responseUrl: slack.responseUrl(tag),
      }),
    );
    const reply = await slack.waitForResponse((p) => p.tag === tag, STEP_TIMEOUT_MS);
    const id = requestIdIn(JSON.stringify(reply.body));
    const posted = await slack.waitFor(
      'chat.postMessage',
      (c) => c.args.channel === BENCH_APPROVAL_CHANNEL && JSON.stringify(c.args.blocks ?? []).includes(id),
      STEP_TIMEOUT_MS,
    );
    const message = slack.message(BENCH_APPROVAL_CHANNEL, String(posted.response.ts));
    if (message === undefined) throw new Error(`the approval message of ${id} is not stored`);
    const click = blockAction({
      userId: BENCH_LEAD.id,
      userName: BENCH_LEAD.name,
      actionId: ACTIONS.approve,
      value: id,
      message,
      responseUrl: slack.responseUrl(`approve-${id}`),
    });
    return {
      mobile,
      url: eventsUrl,
      headers: { ...sign(click, SIGNING_SECRET) },
      body: click.body,
      what: `the Approve click on ${id}`,
    };
  };
  return timeUnblockCalls(onUnblockCall, () => Promise.all(Array.from({ length: APPROVAL_BATCH }, seed)));
}

/**
 * Goal 4's baseline: the floor's `/vidops unblock` → its upstream unblock call starts, 10 at once,
 * timed the same way. The least a handler does between a Slack request and that call: check the
 * signature, ack, look the viewer up, commit the intent.
 */
async function driveFloorCommands(
  port: number,
  slack: Emulator,
  onUnblockCall: UnblockCallListener,
): Promise<Stats> {
  const url = `http://127.0.0.1:${port}/slack/events`;
  const command = (): TimedSend => {
    floorSequence += 1;
    const mobile = `0936${String(floorSequence).padStart(7, '0')}`;
    const request = slashCommand({
      text: `unblock ${mobile}`,
      userId: USER.id,
      userName: USER.name,
      responseUrl: slack.responseUrl(`floor-${floorSequence}`),
    });
    return {
      mobile,
      url,
      headers: { ...sign(request, SIGNING_SECRET) },
      body: request.body,
      what: `the floor's unblock ${mobile}`,
    };
  };
  return timeUnblockCalls(onUnblockCall, async () => Array.from({ length: APPROVAL_BATCH }, command));
}

async function runDeps(): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  // A second sandbox for the approvals measurement, reporting when each unblock call arrives
  // (a listener on the flood's sandbox would copy every one of its requests).
  let unblockListener: ((mobile: string, at: number) => void) | undefined;
  const approvalSandbox = await startSandbox({
    port: 0,
    onRequest: (request, durationMs) => {
      if (request.method !== 'POST' || request.path !== UNBLOCK_PATH) return;
      const body: JsonValue = request.body;
      const mobile =
        typeof body === 'object' && body !== null && !Array.isArray(body) ? body.mobileNumber : undefined;
      // Called once answered; received `durationMs` ago.
      if (typeof mobile === 'string') unblockListener?.(mobile, performance.now() - durationMs);
    },
  });
  const slack = await startEmulator();
  const people = () => slack.setUsers([USER, BENCH_LEAD]);
  people();
  serveIpc({
    urls: async () => ({
      sandbox: sandbox.url,
      approvalSandbox: approvalSandbox.url,
      slackApi: slack.apiUrl,
      slack: slack.url,
      botToken: slack.botToken,
    }),
    stats: async () => ({
      // Every post to a load request's response URL (tags `b…`), whatever it says.
      replies: slack.responsePosts.filter((p) => p.status === 200 && p.tag.startsWith('b')).length,
      auditPosts: slack.callsTo('chat.postMessage').filter((c) => c.status === 200).length,
    }),
    closed: async (args) => driveClosed(Number(args.port), slack, Number(args.count)),
    approvals: async (args) =>
      driveApprovals(Number(args.port), slack, (listener) => {
        unblockListener = listener;
      }),
    floorCommands: async (args) =>
      driveFloorCommands(Number(args.port), slack, (listener) => {
        unblockListener = listener;
      }),
    reset: async () => {
      slack.reset();
      people();
      sandbox.reset();
      approvalSandbox.reset();
      return {};
    },
    stop: async () => {
      await Promise.allSettled([sandbox.close(), approvalSandbox.close(), slack.close()]);
      setImmediate(() => process.exit(0));
      return {};
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Load generation.

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    method: string;
    headers: Record<string, string>;
    requests: Array<{ setupRequest: (request: AutocannonRequest) => AutocannonRequest }>;
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

// autocannon ships no type declarations; the part used here is described above.
const autocannon: Autocannon = createRequire(import.meta.url)('autocannon');

let sequence = 0;

/** A unique valid Iranian mobile number per request, so each unblock is a different viewer. */
function nextMobile(): string {
  return `0912${String(sequence % 10_000_000).padStart(7, '0')}`;
}

function signedSlash(text: string, responseUrl: string): { body: string; headers: Record<string, string> } {
  const body = new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0VIDOPS',
    team_domain: 'vidops-bench',
    channel_id: 'C0BENCH',
    channel_name: 'support',
    user_id: USER.id,
    user_name: USER.name,
    command: '/vidops',
    text,
    api_app_id: 'A0VIDOPS',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: `${Date.now()}.${sequence}.${randomBytes(8).toString('hex')}`,
  }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    body,
    headers: {
      'content-type': FORM,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': `v0=${signature}`,
    },
  };
}

/** The next signed request: a fresh timestamp, signature, number and response URL every time. */
function nextRequest(
  text: () => string,
  slackUrl: string,
): { body: string; headers: Record<string, string> } {
  sequence += 1;
  return signedSlash(text(), `${slackUrl}/response/b${sequence}`);
}

interface LoadResult {
  p50: number;
  p99: number;
  total: number;
  bad: number;
}

/** Closed loop: 50 connections, each sending its next request when the answer came. */
function flood(port: number, text: () => string, slackUrl: string, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/slack/events`,
        connections: CONNECTIONS,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': FORM },
        requests: [
          {
            setupRequest: (request) => {
              const signed = nextRequest(text, slackUrl);
              return {
                ...request,
                method: 'POST',
                path: '/slack/events',
                body: signed.body,
                headers: signed.headers,
              };
            },
          },
        ],
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              p50: result.latency.p50,
              p99: result.latency.p99,
              total: result.requests.total,
              bad: result.non2xx + result.errors + result.timeouts,
            }),
    );
  });
}

interface Row {
  name: string;
  p50: number;
  p99: number;
  /** Requests answered per second (acks, "busy" ones included). */
  rps: number;
  total: number;
  bad: number;
  /** Commands answered "busy" in the ack during the measured run: acknowledged, not run. */
  busy: number;
  /** Length of the measured run, seconds. */
  seconds: number;
  /** Unblocks completed during the run, counted in the target's own database; null for (a). */
  completed: number | null;
  /** Posts that reached response_url during the run, whatever they say (a cross-check of `completed`). */
  replies: number;
  /** CPU time of the target process (user + system) over the run. */
  cpuMs: number;
  /** Of it, the main thread's (JavaScript); the rest is V8's helper threads and libuv's pool. NaN off Linux. */
  mainCpuMs: number;
  cpuMsPerRequest: number;
  rssMb: number;
  peakRssMb: number;
  heapMb: number;
  retainedMb: number;
  /** Acknowledgement time measured inside the process (receiver's histogram); "-" for the floor. */
  inAppAck: string;
  loopP99: number;
  loopMax: number;
}

/** Completed unblocks in a target's database, read-only beside the target's own connection. */
function countCompleted(file: string, sql: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row: unknown = db.prepare(sql).get();
    const n = typeof row === 'object' && row !== null && 'n' in row ? Number(row.n) : Number.NaN;
    if (!Number.isFinite(n)) throw new Error(`could not count completed unblocks in ${file}`);
    return n;
  } finally {
    db.close();
  }
}

/** One row: warm up, then load for DURATION_S, with the target's and the deps' counters around it. */
async function measure(
  name: string,
  target: Child,
  load: {
    deps: Child;
    text: () => string;
    slackUrl: string;
    /** Where the target counts completed unblocks; none for (a). */
    completed?: keyof typeof COMPLETED_SQL;
    /** `--closed`: CLOSED_COUNT unblocks to warm up, then CLOSED_COUNT measured, instead of seconds. */
    closed?: boolean;
  },
): Promise<Row> {
  const { deps, text, slackUrl } = load;
  try {
    await target.ready;
    const { port, db } = await target.call('port');
    const completed = () =>
      load.completed === undefined ? 0 : countCompleted(String(db), COMPLETED_SQL[load.completed]);
    const send = async (seconds: number, count = CLOSED_COUNT): Promise<LoadResult> => {
      if (load.closed === true) {
        const r = await deps.call('closed', { port: Number(port), count });
        return { p50: Number(r.p50), p99: Number(r.p99), total: Number(r.total), bad: Number(r.bad) };
      }
      return flood(Number(port), text, slackUrl, seconds);
    };
    await send(WARM_UP_S);
    const depsBefore = await deps.call('stats');
    // No forced collection before the window: it would throw optimized code away (V8 deoptimizes
    // what held objects it cleared) and the window would pay for compiling it again.
    const before = await target.call('stats', { collect: 0 });
    const completedBefore = completed();
    const started = performance.now();
    const result = await send(DURATION_S);
    const seconds = (performance.now() - started) / 1000;
    const after = await target.call('stats');
    const completedAfter = completed();
    const depsAfter = await deps.call('stats');
    const mb = (bytes: string | number | undefined) => Number(bytes ?? 0) / 1024 / 1024;
    const delta = (key: string, from: Stats, to: Stats) => Number(to[key] ?? 0) - Number(from[key] ?? 0);
    const cpuMs = Number(after.cpuMs ?? 0) - Number(before.cpuMsAfterGc ?? 0);
    const mainCpuMs = Number(after.mainMs ?? Number.NaN) - Number(before.mainMsAfterGc ?? Number.NaN);
    return {
      name,
      p50: result.p50,
      p99: result.p99,
      rps: result.total / seconds,
      total: result.total,
      bad: result.bad,
      // The counter also moves for requests in flight at the edges of the run: never above the total.
      busy: Math.min(result.total, delta('turnedAway', before, after)),
      seconds,
      completed: load.completed === undefined ? null : completedAfter - completedBefore,
      replies: delta('replies', depsBefore, depsAfter),
      cpuMs,
      mainCpuMs,
      cpuMsPerRequest: result.total === 0 ? 0 : cpuMs / result.total,
      rssMb: mb(after.rss),
      peakRssMb: mb(after.peakRss),
      heapMb: mb(after.heapUsed),
      retainedMb: mb(after.retained),
      inAppAck: ackP99(String(before.ack ?? ''), String(after.ack ?? '')),
      loopP99: Number(after.loopP99 ?? 0),
      loopMax: Number(after.loopMax ?? 0),
    };
  } finally {
    await stopChild(target);
  }
}

/** Unblocks completed per second of the run (acks per second for (a), which completes none). */
function completedPerSecond(r: Row): number {
  return r.completed === null ? r.rps : r.completed / r.seconds;
}

/** CPU ms per completed unblock (per ack for (a)); NaN when none completed. */
function cpuPerCompleted(r: Row): number {
  return perCompleted(r, r.cpuMs);
}

/** `ms` per completed unblock (per ack for (a)); NaN when none completed. */
function perCompleted(r: Row, ms: number): number {
  const n = r.completed ?? r.total;
  return n === 0 ? Number.NaN : ms / n;
}

const cell = (width: number, text: string) => (width < 0 ? text.padEnd(-width) : text.padStart(width));

function table<T>(columns: Array<[string, number, (r: T) => string]>, rows: readonly T[]): void {
  console.log(columns.map(([head, width]) => cell(width, head)).join(' '));
  for (const r of rows) console.log(columns.map(([, width, value]) => cell(width, value(r))).join(' '));
}

const ratio = (a: number, b: number) =>
  b === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? Number.NaN : a / b;
const verdict = (r: number, ok: (r: number) => boolean) =>
  Number.isNaN(r) ? 'unknown (nothing to compare)' : ok(r) ? 'met' : 'NOT met';
const times = (r: number) => (Number.isNaN(r) ? '-' : `${r.toFixed(2)}×`);

/** One line of the goals table. */
interface Goal {
  goal: string;
  vidops: string;
  baseline: string;
  ratio: number;
  target: string;
  met: string;
}

function printGoals(goals: readonly Goal[]): void {
  console.log('\nGoals, measured in this run:');
  table<Goal>(
    [
      ['goal', -52, (g) => g.goal],
      ['vidops', 10, (g) => g.vidops],
      ['baseline', 10, (g) => g.baseline],
      ['ratio', 7, (g) => times(g.ratio)],
      ['goal', 7, (g) => g.target],
      ['', -1, (g) => g.met],
    ],
    goals,
  );
}

/** Goal 4 (vidops' Approve clicks) and its baseline (the floor's commands), each timed to the upstream call. */
interface Approvals {
  vidops: Stats | Error;
  floor: Stats | Error;
}

/**
 * Goal 4 as two lines of the goals table, p50 and p99, vidops / the got floor: p99 ≤ 1.5×, p50
 * reported.
 */
function approvalGoals({ vidops, floor }: Approvals): Goal[] {
  return (['p50', 'p99'] as const).map((q) => {
    const a = vidops instanceof Error ? Number.NaN : Number(vidops[q]);
    const b = floor instanceof Error ? Number.NaN : Number(floor[q]);
    const r = ratio(a, b);
    return {
      goal: `4. Approve → upstream call ${q} (10 at once), / got floor`,
      vidops: Number.isNaN(a) ? 'unknown' : `${a.toFixed(1)} ms`,
      baseline: Number.isNaN(b) ? 'unknown' : `${b.toFixed(1)} ms`,
      ratio: r,
      target: q === 'p99' ? '≤ 1.5×' : 'report',
      met: Number.isNaN(r)
        ? 'unknown (a measurement failed, see below)'
        : q === 'p99'
          ? verdict(r, (x) => x <= 1.5)
          : '',
    };
  });
}

/** What each side of goal 4 measured, or why it is unknown. */
function printApprovalsDetail(approvals: Approvals): void {
  const said = (name: string, s: Stats | Error) =>
    s instanceof Error
      ? `${name}: unknown, the measurement failed: ${s.message}`
      : `${name}: p50 ${Number(s.p50).toFixed(1)} ms, p99 ${Number(s.p99).toFixed(1)} ms, max ${Number(s.max).toFixed(1)} ms ` +
        `(${s.count} in ${APPROVAL_ROUNDS} batches of ${APPROVAL_BATCH} after a warm-up batch)`;
  console.log(
    [
      said("4. a lead's Approve click → the upstream unblock call starts", approvals.vidops),
      said(
        "   baseline: the got floor's /vidops unblock → its upstream unblock call starts",
        approvals.floor,
      ),
    ].join('\n'),
  );
}

/** One round of the three flood rows the goals 1-3 compare; `bolt` is the Bolt durable got floor. */
interface FloodRound {
  bare: Row;
  full: Row;
  bolt: Row;
  /** Audit channel posts during (b). */
  auditPosts: number;
}

const cpuRatioOf = (r: FloodRound) => ratio(cpuPerCompleted(r.full), cpuPerCompleted(r.bolt));
const doneRatioOf = (r: FloodRound) => ratio(completedPerSecond(r.full), completedPerSecond(r.bolt));
const ackRatioOf = (r: FloodRound) => ratio(r.full.p99, r.bare.p99);

/** The round whose goal 1 ratio is the median one. */
function medianRound(rounds: readonly FloodRound[]): FloodRound {
  const sorted = [...rounds].sort((x, y) => cpuRatioOf(x) - cpuRatioOf(y));
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (middle === undefined) throw new Error('no flood round was measured');
  return middle;
}

/**
 * Goals 1-3: each ratio is taken within a round (vidops and its baseline measured one after the
 * other), and with several rounds (`--rounds`) the goal is judged on the median of those ratios;
 * the figures beside it are the medians of each side, and every round's ratio is listed.
 */
function floodGoals(rounds: readonly FloodRound[]): Goal[] {
  const each = (of: (r: FloodRound) => number) => rounds.map(of);
  const listed = (ratios: readonly number[]) =>
    ratios.length < 2 ? '' : ` (rounds: ${ratios.map((r) => times(r)).join(', ')})`;
  const goal = (
    name: string,
    of: (r: FloodRound) => number,
    side: (r: FloodRound, which: 'full' | 'baseline') => number,
    shown: (value: number) => string,
    target: string,
    ok: (r: number) => boolean,
  ): Goal => {
    const ratios = each(of);
    const r = median(ratios);
    return {
      goal: name,
      vidops: shown(median(rounds.map((x) => side(x, 'full')))),
      baseline: shown(median(rounds.map((x) => side(x, 'baseline')))),
      ratio: r,
      target,
      met: verdict(r, ok) + listed(ratios),
    };
  };
  return [
    goal(
      '1. CPU per completed unblock, vidops / Bolt floor',
      cpuRatioOf,
      (x, w) => cpuPerCompleted(w === 'full' ? x.full : x.bolt),
      (v) => `${v.toFixed(2)} ms`,
      '≤ 1.5×',
      (r) => r <= 1.5,
    ),
    goal(
      '2. completed unblocks/s (flood), vidops / Bolt floor',
      doneRatioOf,
      (x, w) => completedPerSecond(w === 'full' ? x.full : x.bolt),
      (v) => `${v.toFixed(0)}/s`,
      '≥ 0.7×',
      (r) => r >= 0.7,
    ),
    goal(
      '3. ack p99 (flood), vidops / bare Bolt ack',
      ackRatioOf,
      (x, w) => (w === 'full' ? x.full.p99 : x.bare.p99),
      (v) => `${v.toFixed(1)} ms`,
      '≤ 2×',
      (r) => r <= 2,
    ),
  ];
}

/** Goal 5: vidops' RSS after the flood ((b) of the median round, and (c)) under 150 MB. */
function rssGoal(full: Row, slow: Row): Goal {
  const mb = Math.max(full.rssMb, slow.rssMb);
  return {
    goal: '5. RSS after the flood, vidops',
    vidops: `${mb.toFixed(0)} MB`,
    baseline: '-',
    ratio: Number.NaN,
    target: '< 150 MB',
    met: mb < 150 ? 'met' : 'NOT met',
  };
}

function print(rows: readonly Row[]): void {
  table<Row>(
    [
      ['target', -38, (r) => r.name],
      ['p50 ms', 7, (r) => r.p50.toFixed(1)],
      ['p99 ms', 7, (r) => r.p99.toFixed(1)],
      ['req/s', 6, (r) => r.rps.toFixed(0)],
      ['requests', 9, (r) => String(r.total)],
      ['non-2xx', 8, (r) => String(r.bad)],
      ['busy', 6, (r) => String(r.busy)],
      ['done', 6, (r) => (r.completed === null ? '-' : String(r.completed))],
      ['/s', 5, (r) => (r.completed === null ? '-' : completedPerSecond(r).toFixed(0))],
      ['replies', 8, (r) => (r.completed === null ? '-' : String(r.replies))],
      ['CPU ms/req', 11, (r) => r.cpuMsPerRequest.toFixed(2)],
      ['CPU ms/done', 12, (r) => (r.completed === null ? '-' : cpuPerCompleted(r).toFixed(2))],
      ['main', 5, (r) => (Number.isNaN(r.mainCpuMs) ? '-' : `${Math.round((100 * r.mainCpuMs) / r.cpuMs)}%`)],
      ['RSS MB', 7, (r) => r.rssMb.toFixed(0)],
      ['peak', 5, (r) => r.peakRssMb.toFixed(0)],
      ['heap', 5, (r) => r.heapMb.toFixed(0)],
      ['kept', 5, (r) => r.retainedMb.toFixed(0)],
      ['in-app ack p99', 15, (r) => r.inAppAck],
      ['loop p99/max', 13, (r) => `${r.loopP99.toFixed(0)}/${r.loopMax.toFixed(0)}`],
    ],
    rows,
  );
}

export async function run(): Promise<void> {
  buildDist();
  const targets = prepareTargets();
  // Load generator, targets and their dependencies share these CPUs: read the tails with that in mind.
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const command = [
    ...Object.entries(targets.startEnv).map(([name, value]) => `${name}=${value}`),
    'node',
    ...targets.flags,
    '<script>',
  ].join(' ');
  console.log(
    `machine: ${availableParallelism()} CPUs, load average ${load}; targets run as \`npm start\` does: ${command} (no tsx); ` +
      (CLOSED_ONLY
        ? `${CLOSED_COUNT} unblocks per run, ${CLOSED_IN_FLIGHT} at a time, after as many to warm up`
        : `${DURATION_S} s per run${DURATION_S === 10 ? '' : ' (BENCH_SECONDS)'} after ${WARM_UP_S} s of warm-up`),
  );
  const deps = spawnDeps();
  await deps.ready;
  try {
    const urls = await deps.call('urls');
    const env = {
      [TARGET_ENV.slackApiUrl]: String(urls.slackApi),
      [TARGET_ENV.sandboxUrl]: String(urls.sandbox),
      [TARGET_ENV.botToken]: String(urls.botToken),
    };
    const slackUrl = String(urls.slack);
    const unblock = () => `unblock ${nextMobile()}`;
    const help = () => 'help';
    const target = (role: Role) => targets.spawn(role, env);
    const acks = { deps, text: help, slackUrl };
    const unblocks = { deps, text: unblock, slackUrl, completed: 'app' as const };
    const gotFloor = { ...unblocks, completed: 'floor' as const };

    /** Makes the sandbox take LATENCY_MS over every call, so the work queue stays full. */
    const slowUpstream = async () => {
      const faults = await fetch(`${String(urls.sandbox)}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rules: [{ latencyMs: LATENCY_MS }] }),
      });
      if (!faults.ok) throw new Error(`could not set the sandbox latency (${faults.status})`);
    };

    /**
     * Goal 4 and its baseline on an otherwise idle machine: a lead approves pending unblocks, 10
     * at a time, on vidops; then the got floor is sent 10 unblocks at a time. Both against the
     * approval sandbox, which reports when each unblock call arrives. A failure is reported with
     * the figures rather than losing the whole run.
     */
    const measureApprovals = async (): Promise<Approvals> => {
      const timeOn = async (
        role: Role,
        extra: Record<string, string>,
        cmd: string,
      ): Promise<Stats | Error> => {
        await deps.call('reset');
        const child = targets.spawn(role, {
          ...env,
          [TARGET_ENV.sandboxUrl]: String(urls.approvalSandbox),
          ...extra,
        });
        try {
          await child.ready;
          const { port } = await child.call('port');
          return await deps.call(cmd, { port: Number(port) });
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        } finally {
          await stopChild(child);
        }
      };
      const vidops = await timeOn('app', { [TARGET_ENV.policy]: APPROVAL_POLICY }, 'approvals');
      const floor = await timeOn('floor-at-once', {}, 'floorCommands');
      return { vidops, floor };
    };

    if (APPROVALS_ONLY) {
      const approvals = await measureApprovals();
      printGoals(approvalGoals(approvals));
      printApprovalsDetail(approvals);
      return;
    }
    if (CLOSED_ONLY) {
      // An unblock's own CPU at full speed: ROUNDS triples, vidops, the Bolt floor, the got floor.
      const triples: Array<{ full: Row; bolt: Row; got: Row }> = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const named = (name: string) => (ROUNDS === 1 ? name : `${name} #${round}`);
        const closed = { ...unblocks, closed: true };
        await deps.call('reset');
        const full = await measure(named('(b) vidops, closed loop'), target('app'), closed);
        await deps.call('reset');
        const bolt = await measure(
          named('Bolt durable got floor, closed loop'),
          target('floor-bolt'),
          closed,
        );
        await deps.call('reset');
        const got = await measure(named('got floor, closed loop'), target('floor-got'), {
          ...gotFloor,
          closed: true,
        });
        triples.push({ full, bolt, got });
      }
      print(triples.flatMap((t) => [t.full, t.bolt, t.got]));
      const against = (side: 'full' | 'bolt', baseline: 'bolt' | 'got') => {
        const ratios = triples.map((t) => ratio(cpuPerCompleted(t[side]), cpuPerCompleted(t[baseline])));
        return (
          times(median(ratios)) + (ROUNDS === 1 ? '' : ` (median; rounds ${ratios.map(times).join(', ')})`)
        );
      };
      console.log(
        `closed loop, ${CLOSED_COUNT} unblocks ${CLOSED_IN_FLIGHT} at a time after as many to warm up: ` +
          `CPU per completed unblock, vidops / Bolt durable got floor ${against('full', 'bolt')} (goal 1's bound, 1.5×, read without the flood); ` +
          `Bolt durable got floor / got floor (reference) ${against('bolt', 'got')}`,
      );
      return;
    }
    // The three flood rows the goals 1-3 compare, ROUNDS times over.
    const rounds: FloodRound[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const named = (name: string) => (ROUNDS === 1 ? name : `${name} #${round}`);
      await deps.call('reset');
      const bare = await measure(named('(a) bare Bolt, ack only'), target('bare'), acks);
      await deps.call('reset');
      const full = await measure(named('(b) vidops unblock'), target('app'), unblocks);
      const auditPosts = Number((await deps.call('stats')).auditPosts);
      await deps.call('reset');
      const bolt = await measure(named('Bolt durable got floor'), target('floor-bolt'), unblocks);
      rounds.push({ bare, full, bolt, auditPosts });
    }
    // The round whose goal 1 is the median one stands for all in the lines below the goals.
    const { bare, full, bolt, auditPosts } = medianRound(rounds);
    const floodRows = rounds.flatMap((r) => [r.bare, r.full, r.bolt]);
    // With --quick, only the rows the first three goals compare.
    let rest: { got: Row; slow: Row; approvals: Approvals } | null = null;
    if (!QUICK) {
      await deps.call('reset');
      const got = await measure('got floor (reference)', target('floor-got'), gotFloor);
      await deps.call('reset');
      await slowUpstream();
      const slow = await measure(
        `(c) vidops unblock, upstream +${LATENCY_MS / 1000} s`,
        target('app'),
        unblocks,
      );
      rest = { got, slow, approvals: await measureApprovals() };
    }
    print(rest === null ? floodRows : [...floodRows, rest.got, rest.slow]);
    console.log(
      'busy: acknowledged with "vidops is very busy; nothing was done" because the work queue was full\n' +
        '(16 commands worked on at once, 1,000 waiting; the floors bound their work the same way); done:\n' +
        "unblocks completed during the run, counted in the target's own database; replies: posts that\n" +
        "reached response_url during the run; CPU ms/req and /done: the target process's CPU time over the\n" +
        'run per request and per completed unblock; main: the share of it on the main thread, the rest\n' +
        "being V8's helper threads and libuv's pool (Linux only); peak: the most RSS the process held;\n" +
        'kept: heap left after a full GC; in-app ack: from reading the request to sending the ack.',
    );

    console.log('\nPer completed unblock, closed-loop flood (for (a), per ack):');
    table<{ name: string; row: Row }>(
      [
        ['target', -30, (s) => s.name],
        ['CPU ms/done', 12, (s) => cpuPerCompleted(s.row).toFixed(2)],
        ['main thread', 12, (s) => perCompleted(s.row, s.row.mainCpuMs).toFixed(2)],
        ['helpers', 8, (s) => perCompleted(s.row, s.row.cpuMs - s.row.mainCpuMs).toFixed(2)],
        ['done/s', 8, (s) => completedPerSecond(s.row).toFixed(0)],
        ['ack p50 ms', 11, (s) => s.row.p50.toFixed(1)],
        ['ack p99 ms', 11, (s) => s.row.p99.toFixed(1)],
      ],
      [
        { name: 'Bolt durable got floor', row: bolt },
        { name: '(b) vidops unblock', row: full },
        { name: '(a) bare Bolt ack', row: bare },
      ],
    );

    const goals = floodGoals(rounds);
    printGoals(
      rest === null ? goals : [...goals, ...approvalGoals(rest.approvals), rssGoal(full, rest.slow)],
    );
    const ran = (r: Row) =>
      `${r.completed ?? 0} unblocks completed (${completedPerSecond(r).toFixed(0)}/s), ${r.replies} replies reached response_url, ` +
      `${r.busy} of ${r.total} answered "busy"`;
    const lines = [
      '',
      `(b) ${ran(full)}; ${auditPosts} audit channel posts`,
      `Bolt durable got floor ${ran(bolt)}`,
    ];
    if (rest !== null) {
      const { got, slow, approvals } = rest;
      printApprovalsDetail(approvals);
      lines.push(
        // Not a goal: the got floor, hand-written on node:http, prices what Bolt and durability add.
        `got floor (reference): CPU per completed unblock ${cpuPerCompleted(got).toFixed(2)} ms; the Bolt floor ` +
          `${times(ratio(cpuPerCompleted(bolt), cpuPerCompleted(got)))} that, vidops ${times(ratio(cpuPerCompleted(full), cpuPerCompleted(got)))}`,
        `(c)/(b) ack p99 ${times(ratio(slow.p99, full.p99))} (a slow upstream does not slow the ack)`,
        `RSS after the run: (b) ${full.rssMb.toFixed(0)} MB (peak ${full.peakRssMb.toFixed(0)}), (c) ${slow.rssMb.toFixed(0)} MB (peak ${slow.peakRssMb.toFixed(0)})`,
      );
    }
    console.log(lines.join('\n'));
  } finally {
    await stopChild(deps);
    targets.close();
  }
}

const roleIndex = process.argv.indexOf('--role');
if (roleIndex !== -1 && process.argv[roleIndex + 1] === 'deps') await runDeps();
