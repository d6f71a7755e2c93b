import pg from 'pg';
import { createVidops, type Vidops } from '../../src/app.js';
import { RAPID_RETRY } from '../../src/client/index.js';
import { createHasher, verifyChain } from '../../src/core/audit-chain.js';
import type { BatchStep } from '../../src/core/batch.js';
import { ACTIONS } from '../../src/views/ids.js';
import { noteSkipped, schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { type Harness, startHarness, USERS } from './app-harness.js';
import {
  approvalMessage,
  click,
  directMessagesNow,
  readable,
  requestIdIn,
  until,
  upstream,
} from './change-helpers.js';

/**
 * A 500-number batch on PostgreSQL with two replicas, end to end: one lead approves it, the
 * replica running it (the harness's vidops, A) crashes in the middle, and another replica on the
 * same database, sandbox and Slack emulator (B) takes it over with its sweep and finishes it. The
 * sandbox serves only the documented endpoints, slowly, so the batch is mid-run at the crash.
 *
 * The crash is simulated in-process, without A's shutdown path: its connection pool is ended and
 * its database connections are terminated by the server, so A records nothing more (its sends in
 * flight still reach the service, as a dying process's would). A is stopped only after the test.
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

/** The numbers the sandbox was asked to unblock, in the order asked. */
function unblocked(h: Harness): string[] {
  return upstream(h, 'POST', UNBLOCK).map((r) => JSON.stringify(r.body));
}

/** A's death: no new query on its pool, and the server drops the connections it holds. */
async function crash(h: Harness, databaseUrl: string): Promise<void> {
  void h.vidops.store.close().catch(() => undefined);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'vidops' AND pid <> pg_backend_pid()`,
    );
  } finally {
    await admin.end();
  }
}

/** Replica B: vidops on the harness's database, sandbox and Slack, with the harness's clock. */
async function replica(h: Harness): Promise<Vidops> {
  const second = await createVidops({
    config: h.config,
    clock: h.clock.now,
    logDestination: { write: () => undefined },
    host: '127.0.0.1',
    strictBlockKit: true,
    clientRetryPolicy: RAPID_RETRY,
    publisher: { minIntervalMs: 50, backoffBaseMs: 50, backoffMaxMs: 400, idlePollMs: 100 },
    shutdownTimeoutMs: 3000,
    flushTimeoutMs: 3000,
    sweepIntervalMs: 3_600_000,
    batchProgressMs: 50,
  });
  await second.start();
  return second;
}

const byState = (steps: readonly BatchStep[], state: BatchStep['state']) =>
  new Set(steps.filter((s) => s.state === state).map((s) => s.mobileNumber));

describe.each(['http', 'socket'] as const)('a batch crashed mid-run on PostgreSQL over %s', (mode) => {
  let h: Harness;
  let b: Vidops | null = null;
  const pg15 = schemas === null ? it.skip : it;

  beforeEach(async () => {
    if (schemas === null) return;
    h = await startHarness({
      mode,
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
    'an agent unblocks 500 numbers, a lead approves once, the replica running it crashes, and the other finishes it: each number sent once',
    async () => {
      const databaseUrl = TEST_DATABASE_URL ?? '';
      h.sandbox.setFaults([{ method: 'POST', path: UNBLOCK, latencyMs: LATENCY_MS }]);
      const preview = await (await h.slash(`unblock ${NUMBERS.join('\n')}`)).reply();
      expect(readable(preview)).toContain('500 to unblock, 0 refused, 0 need a lead');
      await h.action({
        userId: USERS.agent.id,
        actionId: ACTIONS.batchConfirm,
        value: buttonValue(preview.body, ACTIONS.batchConfirm),
        responseUrl: h.slack.responseUrl('confirm'),
      });
      const asked = readable(await h.slack.waitForResponse((p) => p.tag === 'confirm', 20_000));
      expect(asked).toMatch(/waits for a lead/);
      const id = requestIdIn(asked);

      const message = await approvalMessage(h, id);
      await click(h, { userId: USERS.lead.id, actionId: ACTIONS.approve, requestId: id, message });
      await until(
        async () =>
          (await h.store.listSteps(id)).filter((s) => s.state === 'done').length >= 150 ? true : undefined,
        'the batch to be well under way',
        30_000,
      );

      await crash(h, databaseUrl);
      // A's sends in flight reach the service after its death; nothing of them is recorded.
      await new Promise((resolve) => setTimeout(resolve, 4 * LATENCY_MS + 200));
      b = await replica(h);
      const atCrash = await b.store.listSteps(id);
      const doneByA = byState(atCrash, 'done');
      const inFlight = byState(atCrash, 'sending');
      expect(doneByA.size).toBeGreaterThanOrEqual(150);
      expect(inFlight.size).toBeGreaterThan(0);
      expect(doneByA.size + inFlight.size).toBeLessThan(500);
      expect((await b.store.getRequest(id))?.state).toBe('executing');
      const sentByA = unblocked(h).length;

      // Past the stale-execution time, B's sweep takes the batch over.
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
        .messages('C0APPROVALS')
        .filter((m) => JSON.stringify(m.blocks ?? []).includes('request_approve'));
      expect(approvals).toHaveLength(1);
      const done = doneByA.size + neverTaken.length;
      expect(done + inFlight.size).toBe(500);
      expect(end?.result).toMatchObject({ total: 500, done, unknown: inFlight.size, failed: 0 });
      await until(
        () =>
          directMessagesNow(h, USERS.agent.id).some(
            (m) =>
              m.includes(`${done} of 500 unblocked`) &&
              (inFlight.size === 0 || m.includes(`${inFlight.size} unknown`)),
          )
            ? true
            : undefined,
        'the batch message to show the end',
      );

      const chain = await verifyChain(b.store.iterateAudit(), createHasher(h.config.auditHmacKey));
      expect(chain).toMatchObject({ ok: true });
    },
    60_000,
  );
});
