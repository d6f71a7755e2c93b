import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/**
 * The measured processes of bench/slack.ts: (a) a bare Bolt app that only acks, and (b)/(c) the
 * full vidops. bench/slack.ts transpiles this file and runs it with plain `node` and the flags of
 * `npm start`, as production does: under tsx's loader a process carries a second V8 isolate (the
 * loader's hooks thread, some 35 MB of RSS) that `npm start` does not. So this file imports only
 * Node's modules, the compiled build (dist/) and packages, all by absolute path from BENCH_ROOT.
 * It answers the parent over IPC: `port`, `stats`, `stop`. Imported without BENCH_ROLE set (as
 * bench/slack.ts does, for the names below), it runs nothing.
 */

/** Figures a target reports; numbers, or text for the ack histogram. */
export type Stats = Record<string, string | number>;

export interface IpcRequest {
  id: number;
  cmd: string;
}

export interface IpcReply {
  id: number;
  ok: boolean;
  data?: Stats;
  error?: string;
}

/** What the parent passes in the environment. */
export const TARGET_ENV = {
  root: 'BENCH_ROOT',
  role: 'BENCH_ROLE',
  signingSecret: 'BENCH_SIGNING_SECRET',
  botToken: 'BENCH_BOT_TOKEN',
  slackApiUrl: 'BENCH_SLACK_API_URL',
  sandboxUrl: 'BENCH_SANDBOX_URL',
  apiKey: 'BENCH_API_KEY',
  secretKey: 'BENCH_SECRET_KEY',
} as const;

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
}

function isIpcRequest(value: unknown): value is IpcRequest {
  return typeof value === 'object' && value !== null && 'id' in value && 'cmd' in value;
}

/** Serves IPC requests, then says it is ready (message 0); bench/slack.ts's deps child serves with it too. */
export function serveIpc(handlers: Record<string, () => Promise<Stats>>): void {
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

// How late timers fire in the measured process: how long its event loop was busy at a stretch.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

function processStats(): Stats {
  const rss = process.memoryUsage.rss();
  const heapUsed = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  // What the process keeps, as opposed to garbage not yet collected and pages V8 keeps committed.
  (globalThis as { gc?: () => void }).gc?.();
  const cpuAfterGc = process.cpuUsage();
  return {
    rss,
    // The most the process ever held (resourceUsage gives KiB): each target is a fresh process.
    peakRss: process.resourceUsage().maxRSS * 1024,
    heapUsed,
    retained: process.memoryUsage().heapUsed,
    // CPU time so far, and after the forced collection: a run is measured from the second of its
    // first snapshot to the first of its last, so that no forced collection counts in it.
    cpuMs: (cpu.user + cpu.system) / 1000,
    cpuMsAfterGc: (cpuAfterGc.user + cpuAfterGc.system) / 1000,
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

/** A module of the compiled build, typed as its source. */
async function fromDist<T>(path: string): Promise<T> {
  return import(pathToFileURL(join(env(TARGET_ENV.root), 'dist', path)).href);
}

async function runBare(): Promise<void> {
  // Bolt resolved from the project, as the app resolves it (this file runs from a temp dir).
  const { App, LogLevel } = createRequire(join(env(TARGET_ENV.root), 'package.json'))(
    '@slack/bolt',
  ) as typeof import('@slack/bolt');
  const { createLogger } = await fromDist<typeof import('../src/logger.js')>('logger.js');
  const { createVidopsMetrics } =
    await fromDist<typeof import('../src/slack/metrics.js')>('slack/metrics.js');
  const { VidopsReceiver } = await fromDist<typeof import('../src/slack/receiver.js')>('slack/receiver.js');
  const metrics = createVidopsMetrics();
  const receiver = new VidopsReceiver({
    signingSecret: env(TARGET_ENV.signingSecret),
    logger: createLogger({ level: 'silent' }),
    metrics,
    port: 0,
    host: '127.0.0.1',
  });
  const app = new App({
    token: env(TARGET_ENV.botToken),
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: env(TARGET_ENV.slackApiUrl) },
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
    SLACK_BOT_TOKEN: env(TARGET_ENV.botToken),
    SLACK_SIGNING_SECRET: env(TARGET_ENV.signingSecret),
    SLACK_API_URL: env(TARGET_ENV.slackApiUrl),
    PORT: '0',
    VIDEO_API_URL: env(TARGET_ENV.sandboxUrl),
    VIDEO_API_KEY: env(TARGET_ENV.apiKey),
    VIDEO_SECRET_KEY: env(TARGET_ENV.secretKey),
    AUDIT_CHANNEL: 'C0BENCHAUDIT',
    LEADS: 'U0BENCHLEAD',
    DATABASE_URL: `sqlite:${join(dir, 'vidops.db')}`,
    POLICY_FILE: policyFile,
    // As in production; the lines go to stdout, which the parent sends nowhere.
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

// Only in the child: bench/slack.ts imports this module for its names and types.
const role = process.env[TARGET_ENV.role];
if (role === 'bare') await runBare();
else if (role === 'app') await runApp();
else if (role !== undefined) throw new Error(`unknown role ${role}`);
