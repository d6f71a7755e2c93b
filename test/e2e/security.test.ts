import { sign, slashCommand } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { type Harness, SIGNING_SECRET, startHarness, USERS } from './app-harness.js';
import { notificationsDone, readable, until } from './change-helpers.js';

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';
const TIMEOUT_MS = 400;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { VIDEO_API_TIMEOUT_MS: String(TIMEOUT_MS) } });
});

afterAll(() => h.stop());

beforeEach(async () => {
  await notificationsDone(h);
  h.clock.advance(2 * 3_600_000);
  h.sandbox.reset();
});

async function auditCount(): Promise<number> {
  return (await h.store.auditHead())?.seq ?? 0;
}

describe('requests that are not from Slack reach no handler', () => {
  const sixMinutes = 6 * 60;
  it.each([
    ['a forged signature', { signature: `v0=${'ab'.repeat(32)}` }],
    ['a timestamp six minutes old', { timestamp: Math.floor(Date.now() / 1000) - sixMinutes }],
    ['a timestamp six minutes in the future', { timestamp: Math.floor(Date.now() / 1000) + sixMinutes }],
  ])('%s gets 401 and nothing runs', async (_what, options) => {
    // Signed against the harness clock, which the tests move; shift the bad timestamps with it.
    const skew = Math.floor(h.clock.now().getTime() / 1000) - Math.floor(Date.now() / 1000);
    const sendOptions =
      'timestamp' in options ? { timestamp: options.timestamp + skew } : { signature: options.signature };
    const before = await auditCount();
    const responseUrl = h.slack.responseUrl('forged');
    const request = slashCommand({
      text: `unblock ${DEMO.blockedMobiles[0]}`,
      userId: USERS.agent.id,
      responseUrl,
    });
    const answer = await h.send(request, sendOptions);
    expect(answer.status).toBe(401);
    // A well-signed request right after shows the handler would have answered it.
    const control = await h.slash('explain 9910');
    await control.reply();
    expect(h.slack.responsePosts.filter((p) => p.tag === 'forged')).toEqual([]);
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it('a body changed after signing is refused', async () => {
    const request = slashCommand({
      text: 'help',
      userId: USERS.agent.id,
      responseUrl: h.slack.responseUrl('tampered'),
    });
    const headers = sign(request, SIGNING_SECRET, Math.floor(h.clock.now().getTime() / 1000));
    const tampered = request.body.replace('help', 'unblock+09121234567');
    const response = await fetch(h.eventsUrl, { method: 'POST', headers: { ...headers }, body: tampered });
    expect(response.status).toBe(401);
    expect(h.sandbox.requests()).toEqual([]);
  });
});

describe('the video service down or slow', () => {
  it.each([
    [
      'slower than the timeout',
      { latencyMs: 1500 },
      `did not answer within 0.4 s. If this was a change, it may or may not have been applied`,
      'TimeoutError',
    ],
    ['answering 500', { status: 500 }, 'The video service failed (500)', 'ServerError'],
    [
      'resetting the connection',
      { reset: true },
      'The connection to the video service failed.',
      'NetworkError',
    ],
  ])(
    'with the service %s the agent gets a clear message, the failure is audited and the ack was fast',
    async (_what, fault, message, errorName) => {
      h.sandbox.setFaults([fault]);
      const sent = await h.slash(`unblock ${DEMO.blockedMobiles[1]}`);
      const ackedAt = Date.now();
      expect(sent.status).toBe(200);
      // Far below Slack's 3 s even on a loaded machine; the order check below is the strict one.
      expect(sent.ackMs).toBeLessThan(1000);

      const reply = await sent.reply(10_000);
      const text = readable(reply);
      expect(text).toContain('was not unblocked');
      expect(text).toContain(message);
      expect(text).toContain('Could not look the viewer up: the service');
      expect(text).not.toContain(DEMO.apiKey);
      expect(text).not.toContain(DEMO.secretKey);

      // The upstream call started after the ack had already arrived, and lasted long after it.
      const calls = h.sandbox.requests().filter((r) => r.path === UNBLOCK_PATH);
      expect(calls.length).toBeGreaterThan(0);
      const firstCall = Date.parse(calls[0]?.at ?? '');
      expect(ackedAt).toBeLessThan(firstCall + ('latencyMs' in fault ? TIMEOUT_MS : 1000));

      const requestId = /Request `(R-[0-9A-Z]{8})`/.exec(text)?.[1];
      expect(requestId).toBeDefined();
      const failed = await h.waitForAudit((e) => e.type === 'failed' && e.requestId === requestId);
      expect(failed.error?.name).toBe(errorName);
      expect(failed.operation).toBe('viewer.unblock');
      const blocked = () =>
        h.sandbox.state().viewers.find((v) => v.mobileNumber === DEMO.blockedMobiles[1])?.blocked;
      if ('latencyMs' in fault) {
        // The service acts on the late calls after vidops gave up on them, which is why the reply
        // says "may or may not". Waiting for those answers also keeps them out of the next row.
        await until(
          () => (h.sandbox.requests().every((r) => r.status !== null) ? true : undefined),
          'the late answers of the service',
        );
        expect(blocked()).toBe(false);
      } else {
        expect(blocked()).toBe(true);
      }
    },
  );

  it('the ack comes back while the service is still working on the unblock', async () => {
    h.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 1500 }]);
    const sent = await h.slash(`unblock ${DEMO.blockedMobiles[2]}`);
    const ackedAt = Date.now();
    const reply = await sent.reply(10_000);
    const [call] = h.sandbox.requests().filter((r) => r.path === UNBLOCK_PATH);
    expect(call).toBeDefined();
    // The service was still holding the first attempt when the ack had been received.
    expect(ackedAt).toBeLessThan(Date.parse(call?.at ?? '') + 1500);
    expect(reply.at.getTime() - ackedAt).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(sent.ackMs).toBeLessThan(1000);
  });
});

describe('operator endpoints', () => {
  it('/healthz, /readyz and /metrics answer', async () => {
    await (await h.slash('explain 9910')).reply();
    const health = await h.get('/healthz');
    expect(health).toEqual({ status: 200, text: JSON.stringify({ ok: true }) });
    const ready = await h.get('/readyz');
    expect(ready.status).toBe(200);
    const metrics = await h.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/vidops_commands_total\{command="explain",outcome="ok"\} [1-9]/);
    expect(metrics.text).toMatch(/vidops_upstream_seconds_count\{operation="viewer.unblock"\} [1-9]/);
    expect(metrics.text).toMatch(
      /vidops_upstream_errors_total\{operation="viewer.unblock",error="TimeoutError"\} [1-9]/,
    );
    expect(metrics.text).toContain('vidops_audit_outbox_depth');
  });
});

describe('/metrics counts how commands ended', () => {
  /** `vidops_commands_total` for a command and outcome, as /metrics shows it now. */
  async function counted(command: string, outcome: string): Promise<number> {
    const { text } = await h.get('/metrics');
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`vidops_commands_total{command="${command}",outcome="${outcome}"} `));
    return line === undefined ? 0 : Number(line.split(' ')[1]);
  }

  /** The count once it has moved past `before` (it is counted when the answer has gone out). */
  function countedAfter(command: string, outcome: string, before: number): Promise<number> {
    return until(async () => {
      const now = await counted(command, outcome);
      return now > before ? now : undefined;
    }, `${command} counted as ${outcome}`);
  }

  it.each([
    [
      'someone outside AGENTS asks to unblock',
      `unblock ${DEMO.blockedMobiles[0]}`,
      USERS.outsider.id,
      'unblock',
    ],
    ['an agent asks for the leads-only audit', 'audit 5', USERS.agent.id, 'audit'],
  ])('%s: counted as denied, not ok', async (_who, text, userId, command) => {
    const [denied, ok] = [await counted(command, 'denied'), await counted(command, 'ok')];
    await (await h.slash(text, { userId })).reply();
    expect(await countedAfter(command, 'denied', denied)).toBe(denied + 1);
    expect(await counted(command, 'ok')).toBe(ok);
  });

  it('a number refused as written is counted as invalid', async () => {
    const before = await counted('unblock', 'invalid');
    await (await h.slash('unblock 021 1234 5678')).reply();
    expect(await countedAfter('unblock', 'invalid', before)).toBe(before + 1);
  });
});

describe('secrets and mobile numbers', () => {
  it('no Slack call, response or log line holds a whole mobile number or a secret', async () => {
    await (await h.slash('unblock +98 912 123 4567')).reply();
    await (await h.slash('unblock ۰۹۳۵۱۲۳۴۵۶۷')).reply();
    await (await h.slash('unblock 0990-123-4567', { userId: USERS.outsider.id })).reply();
    await (await h.slash('unblock 09121234567 09351234567')).reply();
    // Wait for every event to reach the audit channel, so its posts are checked too.
    const deadline = Date.now() + 10_000;
    while ((await h.store.outboxDepth()) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await h.store.outboxDepth()).toBe(0);

    const slackText = JSON.stringify([
      h.slack.calls.map((c) => c.args),
      h.slack.responsePosts.map((p) => p.body),
    ]);
    const logText = h.logs.join('\n');
    expect(h.logs.length).toBeGreaterThan(10);
    for (const whole of [
      '09121234567',
      '9121234567',
      '09351234567',
      '9351234567',
      '09901234567',
      '9901234567',
      '0912+123+4567',
      '۰۹۳۵۱۲۳۴۵۶۷',
    ]) {
      expect(slackText).not.toContain(whole);
      expect(logText).not.toContain(whole);
    }
    for (const secret of [DEMO.apiKey, DEMO.secretKey, SIGNING_SECRET, h.slack.botToken]) {
      expect(slackText).not.toContain(secret);
      expect(logText).not.toContain(secret);
    }
    // The store keeps the numbers whole, as the design says.
    const events = await h.store.listAudit({ last: 100 });
    expect(events.some((e) => e.target === 'viewer 09121234567')).toBe(true);
  });
});

describe('a flood of commands', () => {
  let small: Harness;

  beforeAll(async () => {
    small = await startHarness({ work: { concurrency: 1, maxQueued: 1 } });
  });

  afterAll(() => small.stop());

  it('past the queue the ack itself says vidops is busy, and that command is not run or audited', async () => {
    small.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 800 }]);
    const running = await small.slash(`unblock ${DEMO.blockedMobiles[0]}`);
    const waiting = await small.slash(`unblock ${DEMO.blockedMobiles[1]}`);
    const turnedAway = await small.slash(`unblock ${DEMO.blockedMobiles[2]}`);
    expect([running.status, waiting.status, turnedAway.status]).toEqual([200, 200, 200]);
    expect(running.text).toBe('');
    expect(waiting.text).toBe('');
    expect(JSON.parse(turnedAway.text)).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('very busy right now and did not run this. Nothing was done'),
    });

    // The two queued commands finish one after the other; the third never starts.
    expect(readable(await running.reply(10_000))).toContain('is unblocked');
    expect(readable(await waiting.reply(10_000))).toContain('is unblocked');
    expect(turnedAway.replies()).toEqual([]);
    const unblocked = small.sandbox.requests().filter((r) => r.path === UNBLOCK_PATH);
    expect(unblocked.map((r) => r.body)).toEqual([
      { mobileNumber: DEMO.blockedMobiles[0] },
      { mobileNumber: DEMO.blockedMobiles[1] },
    ]);
    const targets = (await small.store.listAudit()).map((e) => e.target);
    expect(targets).not.toContain(`viewer ${DEMO.blockedMobiles[2]}`);
    const metrics = await small.get('/metrics');
    expect(metrics.text).toContain('vidops_work_turned_away_total{command="unblock"} 1');
    expect(metrics.text).toMatch(/^vidops_commands_total\{command="unblock",outcome="busy"\} 1$/m);
  });
});
