import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEMO, startSandbox } from '../src/sandbox/server.js';
import { startFakeSlack } from '../test/e2e/fake-slack.js';

/**
 * Slash-command load, same run, three targets, each in its own process so the load generator
 * (autocannon, here) does not share an event loop with the server it measures:
 *  (a) a bare Bolt app on our receiver whose `/vidops` handler only acks;
 *  (b) the full vidops doing `unblock <unique valid number>`: ack, look-up and unblock on the
 *      sandbox, response_url post to the fake Slack, audit events, audit channel posts;
 *  (c) the same while the sandbox adds 5 s to every call.
 * Signed requests (fresh timestamp and signature per request), 50 connections, 10 s each, after a
 * 2 s warm-up. The targets run the compiled build (`tsc -p tsconfig.build.json` into dist/, as
 * `npm start` does); sandbox and fake Slack run in a third process.
 * The rate limit of unblock (30 per agent per hour) is lifted with a POLICY_FILE for the run: one
 * agent sends every request.
 * Then (a) and (b) again at a steady 100 requests/s, a rate the full app keeps up with.
 * Goals: (b) p99 ≤ 1.5× (a), (b) throughput ≥ 0.5× (a), (c) p99 about (b)'s, RSS < 150 MB.
 */

const CONNECTIONS = 50;
const DURATION_S = 10;
const WARM_UP_S = 2;
const LATENCY_MS = 5_000;
/** An open-loop rate the full app keeps up with on one core, for the steady-state rows. */
const STEADY_RATE = 100;
const SIGNING_SECRET = 'bench-signing-secret-8c1f2a';
const USER = { id: 'U0BENCHAGENT', name: 'bench' };
const FORM = 'application/x-www-form-urlencoded';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');

type Stats = Record<string, string | number>;

// ---------------------------------------------------------------------------------------------
// Process plumbing: the parent forks this file with a role; children answer requests over IPC.

type Role = 'deps' | 'bare' | 'app';

interface IpcRequest {
  id: number;
  cmd: string;
}

interface IpcReply {
  id: number;
  ok: boolean;
  data?: Stats;
  error?: string;
}

function isIpcRequest(value: unknown): value is IpcRequest {
  return typeof value === 'object' && value !== null && 'id' in value && 'cmd' in value;
}

function isIpcReply(value: unknown): value is IpcReply {
  return typeof value === 'object' && value !== null && 'id' in value && 'ok' in value;
}

/** Serves IPC requests in a child, then says it is ready (message 0). */
function serveIpc(handlers: Record<string, () => Promise<Stats>>): void {
  process.on('message', (message: unknown) => {
    if (!isIpcRequest(message)) return;
    const reply = (r: Omit<IpcReply, 'id'>) => process.send?.({ id: message.id, ...r });
    const handler = handlers[message.cmd];
    if (!handler) {
      reply({ ok: false, error: `unknown command ${message.cmd}` });
      return;
    }
    handler().then(
      (data) => reply({ ok: true, data }),
      (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.send?.({ id: 0, ok: true } satisfies IpcReply);
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  call(cmd: string): Promise<Stats>;
}

let nextId = 0;

function spawn(role: Role, env: Record<string, string> = {}): Child {
  const child = fork(fileURLToPath(import.meta.url), ['--role', role], {
    // --expose-gc: after the run the child also reports the heap that survives a full collection.
    execArgv: [...process.execArgv, '--expose-gc'],
    env: { ...process.env, ...env },
    // The app logs at info as in production; its lines go nowhere rather than into the report.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
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
    else waiter?.reject(new Error(`${role}: ${message.error ?? 'failed'}`));
  });
  child.on('exit', (code) => {
    failReady(new Error(`${role} exited (${code}) before it was ready`));
    for (const waiter of pending.values()) waiter.reject(new Error(`${role} exited (${code})`));
    pending.clear();
  });
  return {
    process: child,
    ready,
    call(cmd) {
      nextId += 1;
      const id = nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, cmd } satisfies IpcRequest);
      });
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

// How late timers fire in the measured process: how long its event loop was busy at a stretch.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

function processStats(): Stats {
  const rss = process.memoryUsage.rss();
  const heapUsed = process.memoryUsage().heapUsed;
  // What the process keeps, as opposed to garbage not yet collected and pages V8 keeps committed.
  (globalThis as { gc?: () => void }).gc?.();
  return {
    rss,
    heapUsed,
    retained: process.memoryUsage().heapUsed,
    loopP99: loopDelay.percentile(99) / 1e6,
    loopMax: loopDelay.max / 1e6,
  };
}

/** `vidops_ack_seconds` buckets as `le=count;…`: how long the process itself took to acknowledge. */
async function ackBuckets(registry: { render(): Promise<string> }): Promise<string> {
  const text = await registry.render();
  return [...text.matchAll(/^vidops_ack_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm)]
    .map((m) => `${m[1]}=${m[2]}`)
    .join(';');
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

/** A module of the compiled build, typed as its source. */
async function fromDist<T>(path: string): Promise<T> {
  return import(pathToFileURL(join(DIST, path)).href);
}

async function runDeps(): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  const slack = await startFakeSlack();
  slack.setUsers([USER]);
  serveIpc({
    urls: async () => ({
      sandbox: sandbox.url,
      slackApi: slack.apiUrl,
      slack: slack.url,
      botToken: slack.botToken,
    }),
    stats: async () => ({
      responseOk: slack.responsePosts.filter((p) => p.status === 200).length,
      auditPosts: slack.callsTo('chat.postMessage').filter((c) => c.status === 200).length,
    }),
    reset: async () => {
      slack.reset();
      slack.setUsers([USER]);
      sandbox.reset();
      return {};
    },
    stop: async () => {
      await Promise.allSettled([sandbox.close(), slack.close()]);
      setImmediate(() => process.exit(0));
      return {};
    },
  });
}

async function runBare(): Promise<void> {
  const { App, LogLevel } = await import('@slack/bolt');
  const { createLogger } = await fromDist<typeof import('../src/logger.js')>('logger.js');
  const { createVidopsMetrics } =
    await fromDist<typeof import('../src/slack/metrics.js')>('slack/metrics.js');
  const { VidopsReceiver } = await fromDist<typeof import('../src/slack/receiver.js')>('slack/receiver.js');
  const metrics = createVidopsMetrics();
  const receiver = new VidopsReceiver({
    signingSecret: SIGNING_SECRET,
    logger: createLogger({ level: 'silent' }),
    metrics,
    port: 0,
    host: '127.0.0.1',
  });
  const app = new App({
    token: process.env.BENCH_BOT_TOKEN ?? '',
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: process.env.BENCH_SLACK_API_URL ?? '' },
    // As in vidops' own app (src/slack/app.ts), so the two differ only by vidops' work.
    convoStore: false,
  });
  app.command('/vidops', async ({ ack }) => {
    await ack();
  });
  await app.start();
  loopDelay.enable();
  serveIpc({
    port: async () => ({ port: receiver.port }),
    stats: async () => ({ ...processStats(), turnedAway: 0, ack: await ackBuckets(metrics.registry) }),
    stop: async () => {
      await app.stop();
      setImmediate(() => process.exit(0));
      return {};
    },
  });
}

async function runApp(): Promise<void> {
  const { createVidops } = await fromDist<typeof import('../src/app.js')>('app.js');
  const { loadConfig } = await fromDist<typeof import('../src/config.js')>('config.js');
  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-'));
  const policyFile = join(dir, 'policy.yml');
  // One agent sends every request: lift unblock's per-agent rate limit for the run.
  writeFileSync(policyFile, 'viewer.unblock: { rateLimit: null }\n');
  const config = loadConfig({
    SLACK_BOT_TOKEN: process.env.BENCH_BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: process.env.BENCH_SLACK_API_URL,
    PORT: '0',
    VIDEO_API_URL: process.env.BENCH_SANDBOX_URL,
    VIDEO_API_KEY: DEMO.apiKey,
    VIDEO_SECRET_KEY: DEMO.secretKey,
    AUDIT_CHANNEL: 'C0BENCHAUDIT',
    LEADS: 'U0BENCHLEAD',
    DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
    POLICY_FILE: policyFile,
    LOG_LEVEL: 'info',
  });
  const vidops = await createVidops({
    config,
    host: '127.0.0.1',
    shutdownTimeoutMs: 2_000,
    flushTimeoutMs: 1_000,
  });
  const { port } = await vidops.start();
  loopDelay.enable();
  const counter = async (name: string): Promise<number> => {
    const text = await vidops.metrics.registry.render();
    const pattern = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'gm');
    return [...text.matchAll(pattern)].reduce((n, m) => n + Number(m[1]), 0);
  };
  serveIpc({
    port: async () => ({ port }),
    stats: async () => ({
      ...processStats(),
      ack: await ackBuckets(vidops.metrics.registry),
      turnedAway: await counter('vidops_work_turned_away_total'),
      upstreamCalls: await counter('vidops_upstream_seconds_count'),
    }),
    stop: async () => {
      await vidops.stop();
      rmSync(dir, { recursive: true, force: true });
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
    /** Requests per second over all connections (open loop); as fast as answers come when absent. */
    overallRate?: number;
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

function load(
  port: number,
  text: () => string,
  slackUrl: string,
  seconds: number,
  rate: number | undefined,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}/slack/events`,
        connections: CONNECTIONS,
        duration: seconds,
        ...(rate === undefined ? {} : { overallRate: rate }),
        method: 'POST',
        headers: { 'content-type': FORM },
        requests: [
          {
            // A fresh timestamp, signature, number and response URL for every request.
            setupRequest: (request) => {
              sequence += 1;
              const signed = signedSlash(text(), `${slackUrl}/response/b${sequence}`);
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
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

interface Row {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  total: number;
  bad: number;
  /** Commands answered "busy" in the ack during the measured run: acknowledged, not run. */
  busy: number;
  rssMb: number;
  heapMb: number;
  retainedMb: number;
  /** Acknowledgement time measured inside the process (receiver's histogram). */
  inAppAck: string;
  loopP99: number;
  loopMax: number;
}

async function measure(
  name: string,
  role: 'bare' | 'app',
  env: Record<string, string>,
  text: () => string,
  slackUrl: string,
  rate?: number,
): Promise<Row> {
  const child = spawn(role, env);
  try {
    await child.ready;
    const { port } = await child.call('port');
    await load(Number(port), text, slackUrl, WARM_UP_S, rate);
    const before = await child.call('stats');
    const result = await load(Number(port), text, slackUrl, DURATION_S, rate);
    const after = await child.call('stats');
    const mb = (bytes: string | number | undefined) => Number(bytes ?? 0) / 1024 / 1024;
    return {
      name,
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: result.requests.average,
      total: result.requests.total,
      bad: result.non2xx + result.errors + result.timeouts,
      // The counter also moves for requests in flight at the edges of the run: never above the total.
      busy: Math.min(result.requests.total, Number(after.turnedAway ?? 0) - Number(before.turnedAway ?? 0)),
      rssMb: mb(after.rss),
      heapMb: mb(after.heapUsed),
      retainedMb: mb(after.retained),
      inAppAck: ackP99(String(before.ack ?? ''), String(after.ack ?? '')),
      loopP99: Number(after.loopP99 ?? 0),
      loopMax: Number(after.loopMax ?? 0),
    };
  } finally {
    await stopChild(child);
  }
}

function print(rows: readonly Row[]): void {
  const head = [
    'target'.padEnd(34),
    'p50 ms',
    'p99 ms',
    'req/s',
    'requests',
    'non-2xx',
    'busy',
    'RSS MB',
    'heap MB',
    'kept MB',
  ];
  const tail = 'in-app ack p99  loop p99/max ms';
  console.log(
    `${head[0]}${head
      .slice(1)
      .map((h) => h.padStart(9))
      .join('')}  ${tail}`,
  );
  for (const r of rows) {
    const cells = [
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      r.rps.toFixed(0),
      String(r.total),
      String(r.bad),
      String(r.busy),
      r.rssMb.toFixed(0),
      r.heapMb.toFixed(0),
      r.retainedMb.toFixed(0),
    ];
    console.log(
      `${r.name.padEnd(34)}${cells.map((c) => c.padStart(9)).join('')}  ${r.inAppAck.padStart(14)}  ${r.loopP99.toFixed(0)}/${r.loopMax.toFixed(0)}`,
    );
  }
}

/** Builds the app as `npm start` does, then runs the three measurements and prints the ratios. */
export async function run(): Promise<void> {
  console.log('building dist/ (tsc -p tsconfig.build.json) …');
  execFileSync(
    process.execPath,
    [createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  // Load generator, targets and their dependencies share these CPUs: read the tails with that in mind.
  console.log(
    `machine: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const deps = spawn('deps');
  await deps.ready;
  try {
    const urls = await deps.call('urls');
    const env = {
      BENCH_SLACK_API_URL: String(urls.slackApi),
      BENCH_SANDBOX_URL: String(urls.sandbox),
      BENCH_BOT_TOKEN: String(urls.botToken),
    };
    const slackUrl = String(urls.slack);
    const unblock = () => `unblock ${nextMobile()}`;

    const bare = await measure('(a) bare Bolt, ack only', 'bare', env, () => 'help', slackUrl);
    await deps.call('reset');
    const full = await measure('(b) vidops unblock', 'app', env, unblock, slackUrl);
    const fullStats = await deps.call('stats');
    await deps.call('reset');
    const faults = await fetch(`${String(urls.sandbox)}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ latencyMs: LATENCY_MS }] }),
    });
    if (!faults.ok) throw new Error(`could not set the sandbox latency (${faults.status})`);
    const slow = await measure(
      `(c) vidops unblock, upstream +${LATENCY_MS / 1000} s`,
      'app',
      env,
      unblock,
      slackUrl,
    );
    const slowStats = await deps.call('stats');

    // The same targets at a rate the full app keeps up with: what a person sees in practice.
    await deps.call('reset');
    const bareSteady = await measure(
      `(a) bare Bolt at ${STEADY_RATE}/s`,
      'bare',
      env,
      () => 'help',
      slackUrl,
      STEADY_RATE,
    );
    const fullSteady = await measure(
      `(b) vidops unblock at ${STEADY_RATE}/s`,
      'app',
      env,
      unblock,
      slackUrl,
      STEADY_RATE,
    );
    const steadyStats = await deps.call('stats');

    print([bare, full, slow, bareSteady, fullSteady]);
    console.log(
      'busy: acknowledged with "vidops is very busy; nothing was done" because the work queue was full\n' +
        '(16 commands worked on at once, 1,000 waiting); kept MB: heap left after a full GC;\n' +
        'in-app ack: from reading the request to sending the ack, inside the process (vidops_ack_seconds).',
    );
    const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
    const p99Ratio = ratio(full.p99, bare.p99);
    const rpsRatio = ratio(full.rps, bare.rps);
    const slowRatio = ratio(slow.p99, full.p99);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const ran = (r: Row) => `${r.total - r.busy} of ${r.total} ran, ${r.busy} answered "busy"`;
    console.log(
      [
        `(b)/(a) ack p99 ${p99Ratio.toFixed(2)}× (goal ≤ 1.5): ${verdict(p99Ratio <= 1.5)}`,
        `(b)/(a) throughput ${rpsRatio.toFixed(2)}× (goal ≥ 0.5): ${verdict(rpsRatio >= 0.5)}`,
        `(c)/(b) ack p99 ${slowRatio.toFixed(2)}× (goal ≈ 1, a slow upstream does not slow the ack): ${verdict(slowRatio <= 1.5)}`,
        `RSS after the run: (b) ${full.rssMb.toFixed(0)} MB, (c) ${slow.rssMb.toFixed(0)} MB (goal < 150 MB): ${verdict(Math.max(full.rssMb, slow.rssMb) < 150)}`,
        `at ${STEADY_RATE}/s: ack p99 ${ratio(fullSteady.p99, bareSteady.p99).toFixed(2)}× bare, RSS ${fullSteady.rssMb.toFixed(0)} MB`,
        `(b) ${ran(full)}; ${fullStats.responseOk} answers reached response_url, ${fullStats.auditPosts} audit channel posts`,
        `(c) ${ran(slow)}; ${slowStats.responseOk} answers reached response_url before the stop`,
        `(b) at ${STEADY_RATE}/s: ${ran(fullSteady)}; ${steadyStats.responseOk} answers reached response_url`,
      ].join('\n'),
    );
  } finally {
    await stopChild(deps);
  }
}

const roleIndex = process.argv.indexOf('--role');
const role = roleIndex === -1 ? undefined : process.argv[roleIndex + 1];
if (role === 'deps') await runDeps();
else if (role === 'bare') await runBare();
else if (role === 'app') await runApp();
