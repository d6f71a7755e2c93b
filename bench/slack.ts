import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { DEMO, startSandbox } from '../src/sandbox/server.js';
import { startFakeSlack } from '../test/e2e/fake-slack.js';
import { type IpcReply, type IpcRequest, type Stats, serveIpc, TARGET_ENV } from './slack-target.js';

/**
 * Slash-command load, same run, three targets, each in its own process so the load generator
 * (autocannon, here) does not share an event loop with the server it measures:
 *  (a) a bare Bolt app on our receiver whose `/vidops` handler only acks;
 *  (b) the full vidops doing `unblock <unique valid number>`: ack, look-up and unblock on the
 *      sandbox, response_url post to the fake Slack, audit events, audit channel posts;
 *  (c) the same while the sandbox adds 5 s to every call.
 * Signed requests (fresh timestamp and signature per request), 50 connections, 10 s each, after a
 * 2 s warm-up. The targets run the compiled build (`tsc -p tsconfig.build.json` into dist/) with
 * plain `node` and the node flags of `npm start` (bench/slack-target.ts says why not under tsx);
 * sandbox and fake Slack run in a third process.
 * The rate limit of unblock (30 per agent per hour) is lifted with a POLICY_FILE for the run: one
 * agent sends every request.
 * Then (a) and (b) again at a steady 100 requests/s, a rate the full app keeps up with.
 *
 * Under a flood most of (b)'s answers are "busy" acks from the bounded work queue, so requests/s
 * alone says little: every row also counts the unblocks that completed in its window (answers
 * that reached response_url), and the CPU time the target spent per request.
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
/** What a completed unblock answers through response_url (src/views/everyday.ts, unblockMessage). */
const UNBLOCKED = /^Viewer \S+ is unblocked \(request /;

// ---------------------------------------------------------------------------------------------
// Process plumbing: the parent forks children; children answer requests over IPC.

function isIpcReply(value: unknown): value is IpcReply {
  return typeof value === 'object' && value !== null && 'id' in value && 'ok' in value;
}

interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  call(cmd: string): Promise<Stats>;
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

/** Sandbox and fake Slack: this file again, under tsx like the parent (they are TypeScript sources). */
function spawnDeps(): Child {
  return connect(
    'deps',
    fork(fileURLToPath(import.meta.url), ['--role', 'deps'], {
      execArgv: process.execArgv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
}

/** The node flags of `npm start` (`node <flags> dist/main.js`), so the targets run as production does. */
function startFlags(): string[] {
  const pkg: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const scripts = typeof pkg === 'object' && pkg !== null && 'scripts' in pkg ? pkg.scripts : undefined;
  const start =
    typeof scripts === 'object' && scripts !== null && 'start' in scripts ? String(scripts.start) : '';
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`cannot read the node flags of "npm start": ${start}`);
  return words.slice(1).filter((w) => w.startsWith('--'));
}

interface Targets {
  flags: string[];
  spawn(role: 'bare' | 'app', env: Record<string, string>): Child;
  close(): void;
}

/** bench/slack-target.ts as plain JavaScript in a temp dir, forked with `npm start`'s flags. */
function prepareTargets(): Targets {
  const source = readFileSync(join(ROOT, 'bench', 'slack-target.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
    fileName: 'slack-target.ts',
  });
  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-target-'));
  const file = join(dir, 'slack-target.mjs');
  writeFileSync(file, outputText);
  const flags = startFlags();
  return {
    flags,
    spawn(role, env) {
      return connect(
        role,
        fork(file, [], {
          execPath: process.execPath,
          // --expose-gc: after the run the child also reports the heap that survives a full collection.
          execArgv: [...flags, '--expose-gc'],
          env: {
            ...process.env,
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
    stats: async () => {
      const answered = slack.responsePosts.filter((p) => p.status === 200);
      return {
        responseOk: answered.length,
        unblocked: answered.filter((p) => typeof p.body.text === 'string' && UNBLOCKED.test(p.body.text))
          .length,
        auditPosts: slack.callsTo('chat.postMessage').filter((c) => c.status === 200).length,
      };
    },
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

/**
 * Open loop at `rate` requests/s, evenly spaced, over keep-alive connections (at most 50), each
 * latency counted from when its request was due, so a late generator or a stalled server shows.
 * Not autocannon's `overallRate`: that sends each connection's quota at the top of every second
 * (bursts of 50 at once, not a steady rate), and its coordinated-omission correction assumes an
 * interval of ceil(1/rate) = 1 ms, adding one synthetic sample per millisecond of every answer.
 */
async function steady(
  port: number,
  text: () => string,
  slackUrl: string,
  seconds: number,
  rate: number,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let bad = 0;
  const answers: Promise<void>[] = [];
  const start = performance.now();
  const count = Math.round(rate * seconds);
  for (let i = 0; i < count; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const { body, headers } = nextRequest(text, slackUrl);
    answers.push(
      new Promise<void>((resolve) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/slack/events',
            method: 'POST',
            agent,
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          },
          (response) => {
            response.resume();
            response.on('end', () => {
              if (response.statusCode !== 200) bad += 1;
              latencies.push(performance.now() - due);
              resolve();
            });
          },
        );
        request.on('error', () => {
          bad += 1;
          resolve();
        });
        request.end(body);
      }),
    );
  }
  await Promise.all(answers);
  agent.destroy();
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), total: count, bad };
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
  /** Unblocks answered through response_url during the run ("… is unblocked"); null for (a). */
  unblocked: number | null;
  /** Other answers through response_url during the run (failures, refusals). */
  otherAnswers: number;
  /** CPU time of the target process (user + system) per request of the run. */
  cpuMsPerRequest: number;
  cpuMs: number;
  rssMb: number;
  peakRssMb: number;
  heapMb: number;
  retainedMb: number;
  /** Acknowledgement time measured inside the process (receiver's histogram). */
  inAppAck: string;
  loopP99: number;
  loopMax: number;
}

/** One row: warm up, then load for DURATION_S, with the target's and the deps' counters around it. */
async function measure(
  name: string,
  target: Child,
  load: { deps: Child; text: () => string; slackUrl: string; unblocks: boolean; rate?: number },
): Promise<Row> {
  const { deps, text, slackUrl, rate } = load;
  try {
    await target.ready;
    const { port } = await target.call('port');
    const send = (seconds: number) =>
      rate === undefined
        ? flood(Number(port), text, slackUrl, seconds)
        : steady(Number(port), text, slackUrl, seconds, rate);
    await send(WARM_UP_S);
    const depsBefore = await deps.call('stats');
    const before = await target.call('stats');
    const started = performance.now();
    const result = await send(DURATION_S);
    const seconds = (performance.now() - started) / 1000;
    const after = await target.call('stats');
    const depsAfter = await deps.call('stats');
    const mb = (bytes: string | number | undefined) => Number(bytes ?? 0) / 1024 / 1024;
    const delta = (key: string, from: Stats, to: Stats) => Number(to[key] ?? 0) - Number(from[key] ?? 0);
    const cpuMs = Number(after.cpuMs ?? 0) - Number(before.cpuMsAfterGc ?? 0);
    const answered = delta('responseOk', depsBefore, depsAfter);
    const unblocked = delta('unblocked', depsBefore, depsAfter);
    return {
      name,
      p50: result.p50,
      p99: result.p99,
      rps: result.total / seconds,
      total: result.total,
      bad: result.bad,
      // The counter also moves for requests in flight at the edges of the run: never above the total.
      busy: Math.min(result.total, delta('turnedAway', before, after)),
      unblocked: load.unblocks ? unblocked : null,
      otherAnswers: answered - unblocked,
      cpuMs,
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

function print(rows: readonly Row[]): void {
  const columns: Array<[string, number, (r: Row) => string]> = [
    ['target', -38, (r) => r.name],
    ['p50 ms', 7, (r) => r.p50.toFixed(1)],
    ['p99 ms', 7, (r) => r.p99.toFixed(1)],
    ['req/s', 6, (r) => r.rps.toFixed(0)],
    ['requests', 9, (r) => String(r.total)],
    ['non-2xx', 8, (r) => String(r.bad)],
    ['busy', 6, (r) => String(r.busy)],
    ['unblocked', 10, (r) => (r.unblocked === null ? '-' : String(r.unblocked))],
    ['/s', 5, (r) => (r.unblocked === null ? '-' : (r.unblocked / DURATION_S).toFixed(0))],
    ['CPU ms/req', 11, (r) => r.cpuMsPerRequest.toFixed(2)],
    ['RSS MB', 7, (r) => r.rssMb.toFixed(0)],
    ['peak', 5, (r) => r.peakRssMb.toFixed(0)],
    ['heap', 5, (r) => r.heapMb.toFixed(0)],
    ['kept', 5, (r) => r.retainedMb.toFixed(0)],
    ['in-app ack p99', 15, (r) => r.inAppAck],
    ['loop p99/max', 13, (r) => `${r.loopP99.toFixed(0)}/${r.loopMax.toFixed(0)}`],
  ];
  const cell = (width: number, text: string) => (width < 0 ? text.padEnd(-width) : text.padStart(width));
  console.log(columns.map(([head, width]) => cell(width, head)).join(' '));
  for (const r of rows) console.log(columns.map(([, width, value]) => cell(width, value(r))).join(' '));
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
  const targets = prepareTargets();
  // Load generator, targets and their dependencies share these CPUs: read the tails with that in mind.
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const command = ['node', ...targets.flags, '<script>'].join(' ');
  console.log(
    `machine: ${availableParallelism()} CPUs, load average ${load}; targets run as \`npm start\` does: ${command} (no tsx)`,
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
    const target = (role: 'bare' | 'app') => targets.spawn(role, env);
    const acks = { deps, text: help, slackUrl, unblocks: false };
    const unblocks = { deps, text: unblock, slackUrl, unblocks: true };

    const bare = await measure('(a) bare Bolt, ack only', target('bare'), acks);
    await deps.call('reset');
    const full = await measure('(b) vidops unblock', target('app'), unblocks);
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
      target('app'),
      unblocks,
    );

    // The same targets at a rate the full app keeps up with: what a person sees in practice.
    await deps.call('reset');
    const bareSteady = await measure(`(a) bare Bolt at ${STEADY_RATE}/s`, target('bare'), {
      ...acks,
      rate: STEADY_RATE,
    });
    const fullSteady = await measure(`(b) vidops unblock at ${STEADY_RATE}/s`, target('app'), {
      ...unblocks,
      rate: STEADY_RATE,
    });

    print([bare, full, slow, bareSteady, fullSteady]);
    console.log(
      'busy: acknowledged with "vidops is very busy; nothing was done" because the work queue was full\n' +
        '(16 commands worked on at once, 1,000 waiting); unblocked: answers "… is unblocked" that reached\n' +
        "response_url during the run; CPU ms/req: the target process's CPU time over the run / requests;\n" +
        'peak: the most RSS the process held; kept: heap left after a full GC; in-app ack: from reading\n' +
        'the request to sending the ack, inside the process (vidops_ack_seconds). Fixed-rate rows: open\n' +
        'loop, evenly spaced, latency counted from when each request was due.',
    );
    const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const done = (r: Row) => r.unblocked ?? 0;
    const perSecond = (r: Row) => done(r) / DURATION_S;
    const p99Ratio = ratio(full.p99, bare.p99);
    const rpsRatio = ratio(full.rps, bare.rps);
    const workRatio = ratio(perSecond(full), bare.rps);
    const slowRatio = ratio(slow.p99, full.p99);
    const slowWorkRatio = ratio(perSecond(slow), bare.rps);
    // (c)'s answers are nearly all "busy": its CPU per request prices a busy ack. What (b) spent
    // beyond its busy acks, per unblock completed, prices an unblock (an estimate; see the report).
    const busyAckMs = slow.cpuMsPerRequest;
    const unblockMs = done(full) === 0 ? Number.NaN : (full.cpuMs - full.busy * busyAckMs) / done(full);
    const cores = availableParallelism();
    const ran = (r: Row) =>
      `${done(r)} unblocks completed (${perSecond(r).toFixed(0)}/s), ${r.busy} of ${r.total} answered "busy"` +
      (r.otherAnswers > 0 ? `, ${r.otherAnswers} other answers` : '');
    console.log(
      [
        `(b)/(a) ack p99 ${p99Ratio.toFixed(2)}× (goal ≤ 1.5): ${verdict(p99Ratio <= 1.5)}`,
        `(b)/(a) requests answered per second ${rpsRatio.toFixed(2)}× (goal ≥ 0.5; "busy" answers included): ${verdict(rpsRatio >= 0.5)}`,
        `(b) unblocks completed per second / (a) acks per second: ${workRatio.toFixed(3)}× (${perSecond(full).toFixed(0)}/s vs ${bare.rps.toFixed(0)}/s): ${verdict(workRatio >= 0.5)}`,
        `(c)/(b) ack p99 ${slowRatio.toFixed(2)}× (goal ≈ 1, a slow upstream does not slow the ack): ${verdict(slowRatio <= 1.5)}`,
        `(c) unblocks completed per second / (a) acks per second: ${slowWorkRatio.toFixed(3)}× (each waits ${(2 * LATENCY_MS) / 1000} s upstream; 16 at a time)`,
        `RSS after the run: (b) ${full.rssMb.toFixed(0)} MB (peak ${full.peakRssMb.toFixed(0)}), (c) ${slow.rssMb.toFixed(0)} MB (peak ${slow.peakRssMb.toFixed(0)}) (goal < 150 MB): ${verdict(Math.max(full.rssMb, slow.rssMb) < 150)}`,
        `at ${STEADY_RATE}/s: ack p99 ${ratio(fullSteady.p99, bareSteady.p99).toFixed(2)}× bare (${fullSteady.p99.toFixed(1)} vs ${bareSteady.p99.toFixed(1)} ms), RSS ${fullSteady.rssMb.toFixed(0)} MB, CPU per request ${fullSteady.cpuMsPerRequest.toFixed(2)} ms vs ${bareSteady.cpuMsPerRequest.toFixed(2)} ms bare`,
        `CPU: a bare ack ${bare.cpuMsPerRequest.toFixed(2)} ms, a "busy" ack ${busyAckMs.toFixed(2)} ms, an unblock ≈ ${unblockMs.toFixed(2)} ms ` +
          `(at most ≈ ${((cores * 1000) / unblockMs).toFixed(0)} unblocks/s on all ${cores} CPUs with nothing else running; ` +
          `0.5× (a) would be ${(bare.rps / 2).toFixed(0)}/s)`,
        `(b) ${ran(full)}; ${fullStats.auditPosts} audit channel posts`,
        `(c) ${ran(slow)}`,
        `(b) at ${STEADY_RATE}/s: ${ran(fullSteady)}`,
      ].join('\n'),
    );
  } finally {
    await stopChild(deps);
    targets.close();
  }
}

const roleIndex = process.argv.indexOf('--role');
if (roleIndex !== -1 && process.argv[roleIndex + 1] === 'deps') await runDeps();
