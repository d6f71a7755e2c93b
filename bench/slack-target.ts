import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/**
 * The measured processes of bench/slack.ts: (a) a bare Bolt app that only acks, (b)/(c) the full
 * vidops, and the floor: a hand-written handler doing only the I/O of an unblock. bench/slack.ts
 * transpiles this file and runs it with plain `node` and the flags of `npm start`, as production
 * does: under tsx's loader a process carries a second V8 isolate (the loader's hooks thread, some
 * 35 MB of RSS) that `npm start` does not. So this file imports only Node's modules, the compiled
 * build (dist/) and packages, all by absolute path from BENCH_ROOT.
 * It answers the parent over IPC: `port`, `stats`, `stop`. Imported without BENCH_ROLE set (as
 * bench/slack.ts does, for the names below), it runs nothing.
 */

/** Figures a target reports; numbers, or text for the ack histogram. */
export type Stats = Record<string, string | number>;

/** Arguments of an IPC command (e.g. the port the deps child drives approvals against). */
export type IpcArgs = Record<string, string | number>;

export interface IpcRequest {
  id: number;
  cmd: string;
  args?: IpcArgs;
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
  /** POLICY_FILE contents for the app; by default unblock's rate limit is lifted. */
  policy: 'BENCH_POLICY',
} as const;

/** The people and channels the app target knows; the deps child seeds the Slack emulator with them. */
export const BENCH_LEAD = { id: 'U0BENCHLEAD', name: 'lead' };
export const BENCH_APPROVAL_CHANNEL = 'C0BENCHAPPROVE';
/** Where vidops and the got floor post completed unblocks. */
const AUDIT_CHANNEL = 'C0BENCHAUDIT';

/**
 * Unblocks completed, counted in each target's own database (the parent opens it read-only):
 * vidops' `succeeded` audit events of unblocks, the floor's `succeeded` result rows. Neither
 * depends on the wording of the reply.
 */
export const COMPLETED_SQL = {
  app: "SELECT count(*) AS n FROM audit_events WHERE type = 'succeeded' AND operation = 'viewer.unblock'",
  floor: "SELECT count(*) AS n FROM events WHERE type = 'succeeded'",
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
export function serveIpc(handlers: Record<string, (args: IpcArgs) => Promise<Stats>>): void {
  process.on('message', (message: unknown) => {
    if (!isIpcRequest(message)) return;
    const reply = (r: Omit<IpcReply, 'id'>) => process.send?.({ id: message.id, ...r });
    const handler = handlers[message.cmd];
    if (!handler) {
      reply({ ok: false, error: `unknown command ${message.cmd}` });
      return;
    }
    handler(message.args ?? {}).then(
      (data) => reply({ ok: true, data }),
      (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.send?.({ id: 0, ok: true } satisfies IpcReply);
}

// How late timers fire in the measured process: how long its event loop was busy at a stretch.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

/**
 * CPU ms of the process's main thread, the one that runs JavaScript, from Linux's
 * `/proc/self/task/<pid>/stat` (utime and stime, fields 14 and 15, in USER_HZ ticks: 100 a second
 * on Linux); NaN where there is no such file. `process.cpuUsage()` less this is what V8's helper
 * threads (garbage collection, optimizing compilation) and libuv's pool spent.
 */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * The process's figures. `args.collect` (1, the default) forces a full collection first, for what
 * the process keeps after a run; 0 reads the CPU without one, at the start of a measured window:
 * a forced collection throws away optimized code (V8 deoptimizes what held objects it cleared), so
 * the window after it would pay for compiling it again, which a running bot never does.
 */
function processStats(args: IpcArgs): Stats {
  const rss = process.memoryUsage.rss();
  const heapUsed = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  const mainMs = mainThreadCpuMs();
  if (args.collect === 0) {
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return { rss, heapUsed, cpuMs, cpuMsAfterGc: cpuMs, mainMs, mainMsAfterGc: mainMs };
  }
  // What the process keeps, as opposed to garbage not yet collected and pages V8 keeps committed.
  (globalThis as { gc?: () => void }).gc?.();
  const cpuAfterGc = process.cpuUsage();
  const mainMsAfterGc = mainThreadCpuMs();
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
    mainMs,
    mainMsAfterGc,
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

/**
 * Bolt's App on vidops' receiver, as vidops' app makes them (src/slack/app.ts), with a silent
 * logger: the bare Bolt ack, and the Bolt floor with its replay keys (`seen`) and busy answers.
 */
async function boltOnVidopsReceiver(
  extra: Pick<import('../src/slack/receiver.js').VidopsReceiverOptions, 'seen' | 'shed'> = {},
) {
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
    ...extra,
  });
  const app = new App({
    token: env(TARGET_ENV.botToken),
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: env(TARGET_ENV.slackApiUrl) },
    // As in vidops' own app (src/slack/app.ts), so the two differ only by vidops' work.
    convoStore: false,
  });
  return { app, receiver, metrics };
}

async function runBare(): Promise<void> {
  const { app, receiver, metrics } = await boltOnVidopsReceiver();
  app.command('/vidops', async ({ ack }) => {
    await ack();
  });
  await app.start();
  loopDelay.enable();
  serveIpc({
    port: async () => ({ port: receiver.port }),
    stats: async (args) => ({
      ...processStats(args),
      turnedAway: 0,
      ack: await ackBuckets(metrics.registry),
    }),
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
  // One agent sends every request: lift unblock's per-agent rate limit for the run (the approvals
  // measurement passes its own policy, where every unblock needs a lead).
  writeFileSync(policyFile, process.env[TARGET_ENV.policy] ?? 'viewer.unblock: { rateLimit: null }\n');
  const dbFile = join(dir, 'vidops.db');
  const config = loadConfig({
    SLACK_BOT_TOKEN: env(TARGET_ENV.botToken),
    SLACK_SIGNING_SECRET: env(TARGET_ENV.signingSecret),
    SLACK_API_URL: env(TARGET_ENV.slackApiUrl),
    PORT: '0',
    VIDEO_API_URL: env(TARGET_ENV.sandboxUrl),
    VIDEO_API_KEY: env(TARGET_ENV.apiKey),
    VIDEO_SECRET_KEY: env(TARGET_ENV.secretKey),
    AUDIT_CHANNEL,
    APPROVAL_CHANNEL: BENCH_APPROVAL_CHANNEL,
    LEADS: BENCH_LEAD.id,
    DATABASE_URL: `sqlite:${dbFile}`,
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
    port: async () => ({ port, db: dbFile }),
    stats: async (args) => ({
      ...processStats(args),
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
// The floor: what an unblock costs with nothing but node's http, crypto and better-sqlite3.

/** The bound vidops puts on work after the ack (src/app.ts): 16 at once, 1,000 waiting. */
const FLOOR_CONCURRENCY = 16;
const FLOOR_MAX_QUEUED = 1000;
/** Slack's replay window for signed requests (docs/slack.md, "Request signing"). */
const FIVE_MINUTES_S = 300;
const UPSTREAM_TIMEOUT_MS = 10_000;

/** Canonical JSON of a flat record: keys sorted, no spaces. */
function canonicalFlat(record: Record<string, string | number | boolean | null>): string {
  const keys = Object.keys(record).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    out += `${i > 0 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(record[key])}`;
  }
  return `${out}}`;
}

/**
 * The floor's `call` through one got instance made as vidops' client makes its own: keep-alive
 * agent, a request timeout, no retries, redirects or decompression, the answer as text.
 */
async function gotCaller(
  base: string,
  keys: Record<string, string>,
  agent: http.Agent,
): Promise<
  (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ) => Promise<{ status: number; text: string }>
> {
  const { default: got } = (await import(
    pathToFileURL(createRequire(join(env(TARGET_ENV.root), 'package.json')).resolve('got')).href
  )) as typeof import('got');
  const client = got.extend({
    prefixUrl: base,
    timeout: { request: UPSTREAM_TIMEOUT_MS },
    agent: { http: agent },
    headers: { ...keys, accept: 'application/json' },
    throwHttpErrors: false,
    decompress: false,
    retry: { limit: 0 },
    followRedirect: false,
    responseType: 'text',
  });
  return async (method, url, _headers, body) => {
    const path = url.slice(base.length + 1);
    const answer = await client(path, {
      method: method === 'POST' ? 'POST' : 'GET',
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
    });
    return { status: answer.statusCode, text: answer.body };
  };
}

/**
 * A minimal hand-written slash-command handler doing exactly the I/O of an unblock, so vidops'
 * cost per unblock can be set against the least that I/O can cost: check the signature (HMAC-
 * SHA256 over `v0:{ts}:{body}`, constant-time, five-minute window), ack 200 at once, look the
 * viewer up, append a hash-chained intent event and commit it before the call (WAL, synchronous
 * NORMAL as vidops' SQLite store), unblock, append the result event in a second transaction, and
 * post the reply to `response_url`. Work after the ack is bounded as vidops bounds it; past the
 * bound the ack says "busy". A floor for measuring, not a product: no retries, no policy, a
 * number is digits only. It calls the service through got (vidops keeps got as its client) and
 * posts each completed unblock to the audit channel over node:http, as vidops must. Roles:
 * `floor-bolt`, the baseline of goals 1 and 2: served by Bolt on vidops' receiver ({@link serveBolt})
 * and writing what vidops' store writes ({@link durableWrites}), the parts the design fixes;
 * `floor-got`, the same work by hand on node:http with two plain events, printed for reference;
 * `floor-at-once`, that without the look-up (goal 4's baseline: a Slack request → the unblock call).
 */
async function runFloor(options: { lookUp: boolean; bolt: boolean }): Promise<void> {
  const Database = createRequire(join(env(TARGET_ENV.root), 'package.json'))(
    'better-sqlite3',
  ) as typeof import('better-sqlite3');
  const sandbox = env(TARGET_ENV.sandboxUrl);
  const keys = { api_key: env(TARGET_ENV.apiKey), secret_key: env(TARGET_ENV.secretKey) };
  const agent = new http.Agent({ keepAlive: true });

  const dir = mkdtempSync(join(tmpdir(), 'vidops-bench-floor-'));
  const dbFile = join(dir, 'floor.db');
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, body TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO events (seq, type, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)');
  let head = { seq: 0, hash: '0'.repeat(64) };
  const appendTx = db.transaction((type: string, fields: Record<string, string | boolean | null>) => {
    const seq = head.seq + 1;
    const body = canonicalFlat({ ...fields, seq, type, at: new Date().toISOString(), prevHash: head.hash });
    const hash = createHash('sha256').update(body).digest('hex');
    insert.run(seq, type, body, head.hash, hash);
    return { seq, hash };
  });
  // One transaction each, committed when this returns; the head moves only once it is.
  const append = (type: string, fields: Record<string, string | boolean | null>) => {
    head = appendTx(type, fields);
  };
  // The got floor's writes: two events, no replay key; the Bolt floor makes vidops' writes.
  const plainWrites: FloorWrites<{ id: string }> = {
    firstTime: () => true,
    intent: (actor, mobileNumber, _masked, blocked) => {
      append('intent', { operation: 'viewer.unblock', actor, mobileNumber, blocked });
      // The result names its intent, as vidops' events name their request.
      return { id: String(head.seq) };
    },
    outcome: (request, ok, detail) => {
      append(ok ? 'succeeded' : 'failed', { operation: 'viewer.unblock', intent: request.id, ...detail });
    },
  };

  const call = (
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        {
          method,
          agent,
          headers:
            body === undefined
              ? headers
              : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.setTimeout(UPSTREAM_TIMEOUT_MS, () => request.destroy(new Error('timed out')));
      request.on('error', reject);
      request.end(body);
    });

  // The two calls to the service made through got, configured the cheap way (one instance,
  // keep-alive agent, no retries, no hooks).
  const upstream = await gotCaller(sandbox, keys, agent);

  // The audit channel post of a completed unblock: chat.postMessage over node:http, as vidops'
  // Slack posts go (one message per unblock, a line of text and one section block).
  const slackApi = env(TARGET_ENV.slackApiUrl).replace(/\/?$/, '/');
  const slackAuth = { authorization: `Bearer ${env(TARGET_ENV.botToken)}` };
  const postAudit = (actor: string, masked: string) => {
    const text = `<@${actor}> unblocked viewer ${masked} (event ${head.seq})`;
    return call(
      'POST',
      `${slackApi}chat.postMessage`,
      slackAuth,
      JSON.stringify({
        channel: AUDIT_CHANNEL,
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
        unfurl_links: false,
        unfurl_media: false,
      }),
    );
  };

  /** Whether the viewer is blocked, as the service says; null when it cannot tell. */
  const lookUp = async (mobileNumber: string): Promise<boolean | null> => {
    try {
      const found = await upstream(
        'GET',
        `${sandbox}/v1/analysis/content/video/all?search=${mobileNumber}`,
        keys,
      );
      if (found.status !== 200) return null;
      const page = JSON.parse(found.text) as { items?: Array<{ mobileNumber?: string; blocked?: boolean }> };
      return page.items?.find((v) => v.mobileNumber === mobileNumber)?.blocked ?? null;
    } catch {
      // The look-up only informs the reply, as in vidops.
      return null;
    }
  };

  /** The work after the ack, with these writes. */
  const unblockWith =
    <R extends { id: string }>(writes: FloorWrites<R>) =>
    async (mobileNumber: string, actor: string, responseUrl: string): Promise<void> => {
      // `floor-at-once` skips the look-up: goal 4's baseline, from a Slack request to the unblock call.
      const blocked = options.lookUp ? await lookUp(mobileNumber) : null;
      const masked = `${mobileNumber.slice(0, 4)}***${mobileNumber.slice(-4)}`;
      const request = writes.intent(actor, mobileNumber, masked, blocked);
      let ok = false;
      try {
        const done = await upstream(
          'POST',
          `${sandbox}/v1/analysis/user/video/anomaly`,
          keys,
          JSON.stringify({ mobileNumber }),
        );
        ok = done.status === 200;
        writes.outcome(request, ok, { status: String(done.status) });
      } catch (error) {
        writes.outcome(request, false, { error: error instanceof Error ? error.message : 'error' });
      }
      if (ok) await postAudit(actor, masked).catch(() => undefined);
      const reply = JSON.stringify({
        response_type: 'ephemeral',
        text: ok ? `Viewer ${masked} is unblocked (${request.id}).` : `Viewer ${masked} was not unblocked.`,
      });
      await call('POST', responseUrl, {}, reply).catch(() => undefined);
    };
  const migrations = async () =>
    (await fromDist<typeof import('../src/store/migrations.js')>('store/migrations.js')).MIGRATIONS.sqlite;
  const durable = options.bolt ? durableWrites(db, await migrations()) : null;
  const firstTime = durable?.firstTime ?? plainWrites.firstTime;
  const unblock = durable === null ? unblockWith(plainWrites) : unblockWith(durable);

  // The bounded queue of work after the ack.
  let running = 0;
  let turnedAway = 0;
  const waiting: Array<() => Promise<void>> = [];
  /** The "busy" answer when the queue is full (counted as turned away), else null. */
  const busy = (): string | null => {
    if (running < FLOOR_CONCURRENCY || waiting.length < FLOOR_MAX_QUEUED) return null;
    turnedAway += 1;
    return 'Too busy; nothing was done.';
  };
  const next = (): void => {
    const job = waiting.shift();
    if (job === undefined) return;
    running += 1;
    // A failed append or reply ends that unblock only, as one failed command would.
    job()
      .catch(() => undefined)
      .finally(() => {
        running -= 1;
        next();
      });
  };

  /** A command as the floor meets it: what the ack says (nothing: an empty ack), and the work. */
  const admit: FloorFront['admit'] = (text, responseUrl, user, replayKey) => {
    const words = text.trim().split(/\s+/);
    const mobileNumber = words[1] ?? '';
    if (words[0] !== 'unblock' || !/^\d{8,15}$/.test(mobileNumber) || responseUrl === null) {
      return { reply: 'Usage: /vidops unblock <mobile number>' };
    }
    const refused = busy();
    if (refused !== null) return { reply: refused };
    // The Bolt floor's receiver committed the replay key already (`replayKey` null).
    if (replayKey !== null && !firstTime(replayKey)) return {};
    return { work: () => unblock(mobileNumber, user, responseUrl) };
  };
  const enqueue = (work: () => Promise<void>): void => {
    waiting.push(work);
    if (running < FLOOR_CONCURRENCY) next();
  };
  const serve = options.bolt ? serveBolt : serveHttp;
  const { port, close } = await serve({ admit, enqueue, busy, firstTime });
  loopDelay.enable();
  serveIpc({
    port: async () => ({ port, db: dbFile }),
    stats: async (args) => ({ ...processStats(args), turnedAway, ack: '' }),
    stop: async () => {
      await close();
      agent.destroy();
      db.close();
      rmSync(dir, { recursive: true, force: true });
      setImmediate(() => process.exit(0));
      return {};
    },
  });
}

/** How a floor's front end hands a command to its work, whichever serves it. */
interface FloorFront {
  admit(
    text: string,
    responseUrl: string | null,
    user: string,
    replayKey: string | null,
  ): { reply?: string; work?: () => Promise<void> };
  enqueue(work: () => Promise<void>): void;
  busy(): string | null;
  firstTime(key: string): boolean;
}

/** The floors' front end by hand: the signature checked, the ack sent, on a plain `node:http` server. */
async function serveHttp(front: FloorFront): Promise<{ port: number; close: () => Promise<void> }> {
  const secret = env(TARGET_ENV.signingSecret);
  const expected = (timestamp: string, body: string) =>
    Buffer.from(`v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`);
  const answer = (res: http.ServerResponse, status: number, text?: string) => {
    if (text === undefined) {
      res.writeHead(status, { 'content-length': 0 }).end();
      return;
    }
    const body = JSON.stringify({ response_type: 'ephemeral', text });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = req.headers['x-slack-request-timestamp'];
      const signature = req.headers['x-slack-signature'];
      if (
        req.method !== 'POST' ||
        typeof timestamp !== 'string' ||
        typeof signature !== 'string' ||
        // Negated, so that a timestamp that is not a number (NaN) is refused too.
        !(Math.abs(Date.now() / 1000 - Number(timestamp)) <= FIVE_MINUTES_S)
      ) {
        answer(res, 401);
        return;
      }
      const given = Buffer.from(signature);
      const wanted = expected(timestamp, body);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        answer(res, 401);
        return;
      }
      const form = new URLSearchParams(body);
      const { reply, work } = front.admit(
        form.get('text') ?? '',
        form.get('response_url'),
        form.get('user_id') ?? '',
        `sig:${timestamp}:${signature}`,
      );
      answer(res, 200, reply);
      if (work !== undefined) front.enqueue(work);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const close = async () => {
    server.closeAllConnections();
    server.close();
  };
  return { port: typeof address === 'object' && address !== null ? address.port : 0, close };
}

/**
 * The Bolt floor's front end: Bolt's App on vidops' receiver, as the bare Bolt ack runs it (the
 * signature, the replay key committed by the receiver through `seen`, busy answers shed before
 * Bolt), and one `/vidops` listener that acks and queues the floor's work.
 */
async function serveBolt(front: FloorFront): Promise<{ port: number; close: () => Promise<void> }> {
  const { app, receiver } = await boltOnVidopsReceiver({
    seen: async (key) => front.firstTime(key),
    shed: () => {
      const text = front.busy();
      return text === null ? null : { response_type: 'ephemeral', text };
    },
  });
  app.command('/vidops', async ({ command, ack }) => {
    const { reply, work } = front.admit(command.text, command.response_url, command.user_id, null);
    await ack(reply === undefined ? undefined : { response_type: 'ephemeral', text: reply });
    if (work !== undefined) front.enqueue(work);
  });
  await app.start();
  return { port: receiver.port, close: () => app.stop().then(() => undefined) };
}

/** What a floor writes per unblock: the got floor two events, the Bolt floor vidops' writes. */
export interface FloorWrites<R extends { id: string }> {
  /** Commits a replay key (`sig:{ts}:{signature}`); false when it was there already: nothing is done. */
  firstTime(key: string): boolean;
  /** Commits the request with its `requested` and `executing` events (and their outbox rows). */
  intent(actor: string, mobileNumber: string, masked: string, blocked: boolean | null): R;
  /** Commits the outcome: the request's new state and version, its event and outbox row. */
  outcome(request: R, ok: boolean, detail: { status: string } | { error: string }): void;
}

interface DurableRequest {
  id: string;
  at: string;
  actor: string;
  params: string;
  target: string;
  preview: string;
}

/**
 * The writes of vidops' SQLite store for one direct unblock, made by hand: vidops' own schema (its
 * migrations, so the same tables and indexes), the replay key before the ack, then the request row
 * with its `requested` and `executing` events and their outbox rows in one commit, then the
 * outcome (the row updated, one more event and outbox row) in a second. Rows are written in the
 * shapes vidops writes them (the same columns, JSON of the same size), each event hash-chained.
 * No seals, no policy, no outbox delivery: what is priced is the durability, not vidops' code.
 */
export function durableWrites(
  db: import('better-sqlite3').Database,
  migrations: readonly { sql: string }[],
): FloorWrites<DurableRequest> {
  db.pragma('foreign_keys = ON');
  for (const migration of migrations) db.exec(migration.sql);
  const markKey = db.prepare('INSERT INTO deliveries (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
  const insertRequest = db.prepare(
    `INSERT INTO requests (id, operation, state, requester_id, created_at, expires_at, updated_at, version, data)
     VALUES (?, 'viewer.unblock', 'executing', ?, ?, NULL, ?, 1, ?)`,
  );
  const updateRequest = db.prepare(
    `UPDATE requests SET state = ?, updated_at = ?, version = version + 1, data = ? WHERE id = ? AND version = 1`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO audit_events (seq, id, at, type, actor_id, operation, request_id, event, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, 'viewer.unblock', ?, ?, ?, ?)`,
  );
  const insertOutbox = db.prepare('INSERT INTO outbox (seq) VALUES (?)');
  let head = { seq: 0, hash: '0'.repeat(64) };
  let moved = head;
  const appendEvent = (
    request: DurableRequest,
    type: string,
    actorId: string,
    at: string,
    outcome: string,
  ) => {
    const id = randomUUID();
    const actor =
      actorId === 'system'
        ? '{"id":"system","name":"vidops"}'
        : `{"id":${JSON.stringify(actorId)},"name":"agent"}`;
    const event =
      `{"actor":${actor},"at":"${at}","error":null,"id":"${id}","operation":"viewer.unblock","outcome":${outcome},` +
      `"params":${request.params},"requestId":"${request.id}","target":${request.target},"type":"${type}"}`;
    const seq = moved.seq + 1;
    const hash = createHash('sha256').update(moved.hash).update(event).digest('hex');
    insertEvent.run(seq, id, at, type, actorId, request.id, event, moved.hash, hash);
    insertOutbox.run(seq);
    moved = { seq, hash };
  };
  const data = (request: DurableRequest, result: string, error: string) =>
    `{"approvals":[],"decidedBy":null,"decisionNote":null,"error":${error},"params":${request.params},` +
    `"paramsHash":"${createHash('sha256').update(request.params).digest('hex')}","preview":${request.preview},` +
    `"quorum":0,"reason":null,"requester":{"id":${JSON.stringify(request.actor)},"name":"agent"},` +
    `"result":${result},"slack":null,"target":${request.target}}`;
  // The head moves only once its transaction committed; a failed one leaves it where it was.
  const committed = <A extends unknown[]>(fn: (...args: A) => void) => {
    const tx = db.transaction(fn);
    return (...args: A) => {
      moved = head;
      tx.immediate(...args);
      head = moved;
    };
  };
  const writeIntent = committed((request: DurableRequest) => {
    insertRequest.run(request.id, request.actor, request.at, request.at, data(request, 'null', 'null'));
    const requested = `{"expiresAt":null,"paramsHash":null,"preview":${request.preview},"quorum":0,"reason":null,"state":"executing","why":null}`;
    appendEvent(request, 'requested', request.actor, request.at, requested);
    appendEvent(request, 'executing', request.actor, request.at, 'null');
  });
  const writeOutcome = committed((request: DurableRequest, ok: boolean, error: string | null) => {
    const at = new Date().toISOString();
    const said = error === null ? 'null' : JSON.stringify({ message: error });
    const result = ok ? '{"ok":true}' : 'null';
    const changed = updateRequest.run(
      ok ? 'succeeded' : 'failed',
      at,
      data(request, result, said),
      request.id,
    );
    if (changed.changes !== 1) throw new Error(`request ${request.id} moved meanwhile`);
    appendEvent(request, ok ? 'succeeded' : 'failed', 'system', at, ok ? result : said);
  });
  return {
    firstTime: (key) => markKey.run(key, new Date().toISOString()).changes === 1,
    intent: (actor, mobileNumber, masked, blocked) => {
      const request: DurableRequest = {
        id: `R-${randomBytes(5).toString('hex').toUpperCase()}`,
        at: new Date().toISOString(),
        actor,
        params: `{"mobileNumber":${JSON.stringify(mobileNumber)}}`,
        target: JSON.stringify(`viewer ${masked}`),
        preview: `{"actionType":"block","blocked":${String(blocked ?? true)}}`,
      };
      writeIntent(request);
      return request;
    },
    outcome: (request, ok, detail) =>
      writeOutcome(request, ok, 'error' in detail ? detail.error : ok ? null : `status ${detail.status}`),
  };
}

// Only in the child: bench/slack.ts imports this module for its names and types.
const role = process.env[TARGET_ENV.role];
if (role === 'bare') await runBare();
else if (role === 'app') await runApp();
else if (role === 'floor-got') await runFloor({ lookUp: true, bolt: false });
else if (role === 'floor-at-once') await runFloor({ lookUp: false, bolt: false });
else if (role === 'floor-bolt') await runFloor({ lookUp: true, bolt: true });
else if (role !== undefined) throw new Error(`unknown role ${role}`);
