import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vidops } from '../../src/app.js';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { BatchStep } from '../../src/core/batch.js';
import {
  blockAction,
  type PostSignedResult,
  postSigned,
  type SlackRequest,
  slashCommand,
} from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { ACTIONS } from '../../src/views/ids.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import {
  CHANNELS,
  GROUPS,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  startReplica,
  USERS,
} from './app-harness.js';
import {
  approvalMessage,
  directMessagesNow,
  readable,
  requestIdIn,
  until,
  upstream,
} from './change-helpers.js';

/**
 * A 500-number batch on PostgreSQL with two replicas, end to end: one lead approves it, the
 * replica running it (A) crashes in the middle, and another replica on the same database, sandbox
 * and Slack emulator (B) takes it over with its sweep, past the stale-execution time, and finishes
 * it. The sandbox serves only the documented endpoints, slowly, so the batch is mid-run at the crash.
 *
 * Over HTTP, A is `npm start` in a child process killed with SIGKILL, and B is the harness's
 * vidops. Over Socket Mode (where Slack reaches one connection the harness holds), A is the
 * harness's vidops and its crash is simulated in-process without its shutdown path: its pool is
 * ended, so it records nothing more (its sends in flight still reach the service, as a dying
 * process's would); B is a second instance.
 * @see docs/approvals.md, "Many numbers at once"
 */

const UNBLOCK = '/v1/analysis/user/video/anomaly';
const LATENCY_MS = 40;
const STALE_EXECUTION_MS = 120_000;
const NUMBERS = Array.from({ length: 500 }, (_, i) => `0912${String(1_000_000 + i)}`);

const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'batch_crash');
if (schemas === null) noteSkipped('a batch crashed and taken over on two replicas sharing PostgreSQL');

afterAll(async () => {
  await schemas?.dropAll();
});

/** A button's value in a reply, by its action. */
function buttonValue(body: unknown, actionId: string): string {
  const found = new RegExp(
    `"action_id":"${actionId}","value":"([^"]+)"|"value":"([^"]+)","action_id":"${actionId}"`,
  ).exec(JSON.stringify(body));
  const value = found?.[1] ?? found?.[2];
  if (value === undefined) throw new Error(`no ${actionId} button in the reply`);
  return value;
}

/** The bodies of the unblocks the sandbox was asked for, in the order asked. */
function unblocked(h: Harness): string[] {
  return upstream(h, 'POST', UNBLOCK).map((r) => JSON.stringify(r.body));
}

/**
 * A's simulated death: its pool takes no more queries (a transaction under way commits or not, as
 * at a crash a moment later). Its connections are not terminated by the server: other suites may
 * share the database, and nothing tells A's from theirs.
 */
async function crashInProcess(h: Harness): Promise<void> {
  await h.vidops.store.close();
}

/** Another replica on the harness's database, sandbox and Slack, with the harness's clock. */
async function replica(h: Harness): Promise<Vidops> {
  return (await startReplica(h, { sweepIntervalMs: 3_600_000, batchProgressMs: 50 })).vidops;
}

const byState = (steps: readonly BatchStep[], state: BatchStep['state']) =>
  new Set(steps.filter((s) => s.state === state).map((s) => s.mobileNumber));

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LOADER = `file://${ROOT}/node_modules/tsx/dist/loader.mjs`;
const MAIN = join(ROOT, 'src', 'main.ts');

/** A port free now, for the child to listen on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Replica A as `npm start` runs it, in its own process, configured as the harness's vidops. */
async function childReplica(h: Harness, databaseUrl: string) {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'vidops-crash-'));
  const proc = spawn(process.execPath, ['--import', LOADER, MAIN], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      SLACK_BOT_TOKEN: h.slack.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: h.slack.apiUrl,
      PORT: String(port),
      VIDEO_API_URL: h.sandbox.url,
      VIDEO_API_KEY: DEMO.apiKey,
      VIDEO_SECRET_KEY: DEMO.secretKey,
      VIDEO_API_TIMEOUT_MS: '2000',
      AUDIT_CHANNEL: CHANNELS.audit,
      APPROVAL_CHANNEL: CHANNELS.approvals,
      LEADS: `${USERS.lead.id},${GROUPS.leads}`,
      AGENTS: `${USERS.agent.id},${GROUPS.agents}`,
      DATABASE_URL: databaseUrl,
      PHONE_REGION: 'IR',
      LOG_LEVEL: 'warn',
    },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const closed = new Promise<void>((done) => proc.on('close', () => done()));
  const url = `http://127.0.0.1:${port}`;
  await until(
    async () => ((await fetch(`${url}/healthz`).catch(() => null))?.ok ? true : undefined),
    'the child replica to listen',
    30_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; its stderr: ${stderr}`);
  });
  return {
    send: (request: SlackRequest): Promise<PostSignedResult> =>
      postSigned(`${url}/slack/events`, request, SIGNING_SECRET),
    /** SIGKILL: no shutdown path runs. */
    async kill(): Promise<void> {
      if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) {
        process.kill(-proc.pid, 'SIGKILL');
      }
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The agent types `/vidops unblock` with 500 numbers and confirms, a lead approves once, all sent
 * by `send` to replica A; returns once A has unblocked 150 of them (as `h.store` sees them).
 */
async function batchUnderWay(h: Harness, send: (request: SlackRequest) => Promise<unknown>): Promise<string> {
  h.sandbox.setFaults([{ method: 'POST', path: UNBLOCK, latencyMs: LATENCY_MS }]);
  const responseUrl = (tag: string) => h.slack.responseUrl(tag);
  const answer = (tag: string) => h.slack.waitForResponse((p) => p.tag === tag, 20_000);
  await send(
    slashCommand({
      text: `unblock ${NUMBERS.join('\n')}`,
      userId: USERS.agent.id,
      responseUrl: responseUrl('ask'),
    }),
  );
  const preview = await answer('ask');
  expect(readable(preview)).toContain('500 to unblock, 0 refused, 0 need a lead');
  await send(
    blockAction({
      userId: USERS.agent.id,
      actionId: ACTIONS.batchConfirm,
      value: buttonValue(preview.body, ACTIONS.batchConfirm),
      responseUrl: responseUrl('confirm'),
    }),
  );
  const asked = readable(await answer('confirm'));
  expect(asked).toMatch(/waits for a lead/);
  const id = requestIdIn(asked);
  const message = await approvalMessage(h, id);
  await send(
    blockAction({
      userId: USERS.lead.id,
      actionId: ACTIONS.approve,
      value: id,
      message,
      responseUrl: responseUrl('approve'),
    }),
  );
  await until(
    async () =>
      (await h.store.listSteps(id)).filter((s) => s.state === 'done').length >= 150 ? true : undefined,
    'the batch to be well under way',
    30_000,
  );
  return id;
}

/**
 * After A's death: B's sweep, past the stale-execution time, takes the batch over and finishes it;
 * each number was asked of the service at most once, A's in flight at the crash end `unknown`.
 */
async function takenOverOnce(h: Harness, b: Vidops, id: string): Promise<void> {
  // A's sends in flight reach the service after its death; nothing of them is recorded.
  await new Promise((done) => setTimeout(done, 4 * LATENCY_MS + 300));
  const atCrash = await b.store.listSteps(id);
  const doneByA = byState(atCrash, 'done');
  const inFlight = byState(atCrash, 'sending');
  expect(doneByA.size).toBeGreaterThanOrEqual(150);
  expect(inFlight.size).toBeGreaterThan(0);
  expect(doneByA.size + inFlight.size).toBeLessThan(500);
  expect((await b.store.getRequest(id))?.state).toBe('executing');
  const sentByA = unblocked(h).length;

  h.clock.advance(STALE_EXECUTION_MS + 60_000);
  await b.ops.resumeInterrupted();
  const end = await b.store.getRequest(id);
  expect(end?.state).toBe('succeeded');

  // Every number was asked of the service once, at most: A's before and at the crash, B's the rest.
  const asks = unblocked(h);
  expect(new Set(asks).size).toBe(asks.length);
  const sentByB = new Set(asks.slice(sentByA).map((body) => String(JSON.parse(body).mobileNumber)));
  const neverTaken = NUMBERS.filter((n) => !doneByA.has(n) && !inFlight.has(n));
  expect(sentByB).toEqual(new Set(neverTaken));

  // Each number one step in the log; those in flight at the crash unknown, never sent by B.
  const steps = await b.store.listSteps(id);
  expect(byState(steps, 'unknown')).toEqual(inFlight);
  expect(byState(steps, 'done')).toEqual(new Set([...doneByA, ...neverTaken]));
  const events = (await b.store.listAudit()).filter((e) => e.requestId === id && e.type === 'step');
  expect(events.map((e) => e.target).sort()).toEqual(NUMBERS.map((n) => `viewer ${n}`).sort());

  // One approval message, and the batch's summary adds up to 500.
  const approvals = h.slack
    .messages(CHANNELS.approvals)
    .filter((m) => JSON.stringify(m.blocks ?? []).includes('request_approve'));
  expect(approvals).toHaveLength(1);
  const done = doneByA.size + neverTaken.length;
  expect(done + inFlight.size).toBe(500);
  expect(end?.result).toMatchObject({ total: 500, done, unknown: inFlight.size, failed: 0 });
  await until(
    () =>
      directMessagesNow(h, USERS.agent.id).some(
        (m) => m.includes(`${done} of 500 unblocked`) && m.includes(`${inFlight.size} unknown`),
      )
        ? true
        : undefined,
    'the batch message to show the end',
  );

  const chain = await verifyChain(b.store.iterateAudit(), createHasher(h.config.auditHmacKey));
  expect(chain).toMatchObject({ ok: true });
}

const pg15 = schemas === null ? it.skip : it;
const TITLE =
  'an agent unblocks 500 numbers, a lead approves once, the replica running it crashes, and the other finishes it: each number sent once';

describe('a batch whose replica is killed mid-run, on PostgreSQL over HTTP', () => {
  let h: Harness;

  beforeEach(async () => {
    if (schemas === null) return;
    h = await startHarness({
      sandbox: { extras: false },
      sweepIntervalMs: 3_600_000,
      batchProgressMs: 50,
      env: { DATABASE_URL: schemas.url() },
    });
  });

  afterEach(async () => {
    if (schemas !== null) await h.stop();
  });

  pg15(
    TITLE,
    async () => {
      const a = await childReplica(h, h.config.databaseUrl);
      try {
        const id = await batchUnderWay(h, a.send);
        await a.kill();
        await takenOverOnce(h, h.vidops, id);
      } finally {
        await a.kill();
      }
    },
    // The child starts through tsx: slow on a busy machine.
    90_000,
  );
});

describe('a batch whose replica dies mid-run, on PostgreSQL over Socket Mode', () => {
  let h: Harness;
  let b: Vidops | null = null;

  beforeEach(async () => {
    if (schemas === null) return;
    h = await startHarness({
      mode: 'socket',
      sandbox: { extras: false },
      sweepIntervalMs: 3_600_000,
      batchProgressMs: 50,
      env: { DATABASE_URL: schemas.url() },
    });
  });

  afterEach(async () => {
    if (schemas === null) return;
    await b?.stop();
    b = null;
    // A's store is gone: its stop fails there, so the sandbox and the emulator are closed here too.
    await h.stop().catch(() => undefined);
    await Promise.allSettled([h.sandbox.close(), h.slack.close()]);
  });

  pg15(
    TITLE,
    async () => {
      const id = await batchUnderWay(h, (request) => h.send(request));
      await crashInProcess(h);
      b = await replica(h);
      await takenOverOnce(h, b, id);
    },
    60_000,
  );
});
