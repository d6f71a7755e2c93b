import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { SocketModeReceiver } from '@slack/bolt';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { createHasher } from '../../src/core/audit-chain.js';
import {
  appHomeOpened,
  type Emulator as FakeSlack,
  postSigned,
  slashCommand,
  startEmulator as startFakeSlack,
} from '../../src/emulator/index.js';
import { createSlackApp, type SlackApp, type SlackAppDeps } from '../../src/slack/app.js';
import { VidopsReceiver } from '../../src/slack/receiver.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/store.js';

const SECRET = 'slack-app-test-signing-secret';
const AUDIT_CHANNEL = 'C0AUDIT01';
const MOBILE = '09123456789';

function env(fake: FakeSlack, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    VIDEO_API_URL: 'http://127.0.0.1:9',
    VIDEO_API_KEY: 'video-api-key-value',
    VIDEO_SECRET_KEY: 'video-secret-key-value',
    AUDIT_CHANNEL,
    LEADS: 'U0LEAD0001',
    LOG_LEVEL: 'debug',
    ...overrides,
  };
}

/** Handlers as another module would register them: unblock appends an audit event, then acks. */
function registerUnblock(store: Store, clock: () => Date) {
  return (app: Parameters<SlackAppDeps['register']>[0]) => {
    app.command('/vidops', async ({ command, ack }) => {
      const [word, arg = ''] = command.text.trim().split(/\s+/);
      if (word === 'fail') throw new Error(`handler failed for ${MOBILE}`);
      await store.appendAudit([
        {
          id: randomUUID(),
          type: 'succeeded',
          at: clock().toISOString(),
          actor: { id: command.user_id, name: command.user_name },
          operation: 'viewer.unblock',
          target: arg,
          params: { mobile: arg },
          requestId: randomUUID(),
          outcome: 'unblocked',
          error: null,
        },
      ]);
      await ack({ response_type: 'ephemeral', text: 'Viewer unblocked.' });
    });
    app.event('app_home_opened', async ({ event }) => {
      homeOpens.push(event.user);
    });
  };
}

let homeOpens: string[] = [];

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Slack app assembly (HTTP mode)', () => {
  let fake: FakeSlack;
  let store: Store;
  let slack: SlackApp;
  let base: string;
  let logLines: string[];
  const clock = () => new Date();

  beforeEach(async () => {
    homeOpens = [];
    logLines = [];
    fake = await startFakeSlack();
    store = await openStore('sqlite::memory:', { hash: createHasher() });
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _enc, done) {
          logLines.push(String(chunk));
          done();
        },
      }),
    );
    slack = createSlackApp({
      config: loadConfig(env(fake)),
      store,
      logger,
      clock,
      register: registerUnblock(store, clock),
      host: '127.0.0.1',
      publisher: { minIntervalMs: 50, idlePollMs: 50 },
      shutdownTimeoutMs: 2000,
    });
    const { port } = await slack.start();
    base = `http://127.0.0.1:${port}`;
  });

  afterEach(async () => {
    await slack.stop();
    await store.close();
    await fake.close();
  });

  it('agent unblocks a viewer: ack answers, the audit channel gets a masked post, metrics count it', async () => {
    expect(slack.receiver).toBeInstanceOf(VidopsReceiver);
    const res = await postSigned(
      `${base}/slack/events`,
      slashCommand({
        text: `unblock ${MOBILE}`,
        userId: 'U0AGENT01',
        userName: 'sara',
        responseUrl: fake.responseUrl(),
      }),
      SECRET,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_type: 'ephemeral', text: 'Viewer unblocked.' });

    const post = await fake.waitFor('chat.postMessage', (c) => c.args.channel === AUDIT_CHANNEL);
    const shown = JSON.stringify(post.args);
    expect(shown).toContain('0912***6789');
    expect(shown).not.toContain(MOBILE);
    const [event] = await store.listAudit();
    expect(shown).toContain(event?.hash.slice(0, 12));
    await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);

    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('vidops_commands_total{command="unblock",outcome="ok"} 1\n');
    expect(metrics).toContain('vidops_audit_posts_total{outcome="ok"} 1\n');
    expect(metrics).toContain('vidops_audit_outbox_depth 0\n');
    expect(metrics).toContain('vidops_ack_seconds_count 1\n');
  });

  it('a failing handler is counted, logged redacted, and answered 500', async () => {
    const res = await postSigned(
      `${base}/slack/events`,
      slashCommand({ text: 'fail', userId: 'U0AGENT01', responseUrl: fake.responseUrl() }),
      SECRET,
    );
    expect(res.status).toBe(500);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('vidops_commands_total{command="other",outcome="error"} 1\n');
    const log = logLines.join('');
    expect(log).toContain('error in a Slack handler');
    expect(log).toContain('handler failed for 0912***6789');
    expect(log).not.toContain(MOBILE);
  });

  it('a retried Events API delivery is processed once (store de-duplication)', async () => {
    const event = appHomeOpened({ userId: 'U0AGENT01', eventId: 'Ev0APPDUP' });
    const first = await postSigned(`${base}/slack/events`, event, SECRET);
    const again = await postSigned(`${base}/slack/events`, event, SECRET, {
      headers: { 'x-slack-retry-num': '1' },
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    await until('the home handler', () => homeOpens.length > 0);
    expect(await store.markDelivered('event:Ev0APPDUP', new Date().toISOString())).toBe(false);
    await postSigned(`${base}/slack/events`, appHomeOpened({ userId: 'U0AGENT02' }), SECRET);
    await until('the second home handler', () => homeOpens.length > 1);
    expect(homeOpens).toEqual(['U0AGENT01', 'U0AGENT02']);
  });

  it('operator probes /healthz and /readyz (store and Slack auth)', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(fake.callsTo('auth.test').length).toBeGreaterThanOrEqual(1);
  });

  it('never logs the bot token, signing secret or video keys, even at debug level', async () => {
    await postSigned(
      `${base}/slack/events`,
      slashCommand({ text: `unblock ${MOBILE}`, userId: 'U0AGENT01', responseUrl: fake.responseUrl() }),
      SECRET,
    );
    await fake.waitFor('chat.postMessage');
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [fake.botToken, SECRET, 'video-api-key-value', 'video-secret-key-value', MOBILE]) {
      expect(log).not.toContain(secret);
    }
  });
});

describe('Slack app start and readiness', () => {
  it('start fails clearly when Slack refuses the bot token', async () => {
    const fake = await startFakeSlack();
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    const slack = createSlackApp({
      config: loadConfig(env(fake, { LOG_LEVEL: 'silent' })),
      store,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
      register: () => undefined,
      host: '127.0.0.1',
    });
    try {
      fake.failNext('auth.test', { error: 'invalid_auth' });
      await expect(slack.start()).rejects.toThrow(/^Slack auth.test failed at start: .*invalid_auth/);
    } finally {
      await slack.stop();
      await store.close();
      await fake.close();
    }
  });

  it('operator sees 503 with the reason until auth works', async () => {
    const fake = await startFakeSlack();
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    const slack = createSlackApp({
      config: loadConfig(env(fake, { LOG_LEVEL: 'silent' })),
      store,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
      register: () => undefined,
      host: '127.0.0.1',
    });
    try {
      const { port } = await slack.start();
      fake.failNext('auth.test', { error: 'invalid_auth' });
      const down = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({
        ok: false,
        reason: expect.stringMatching(/^Slack auth failed: .*invalid_auth/),
      });
      const up = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(up.status).toBe(200);
    } finally {
      await slack.stop();
      await store.close();
      await fake.close();
    }
  });

  it('operator sees 503 when the store cannot be reached', async () => {
    const fake = await startFakeSlack();
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    const slack = createSlackApp({
      config: loadConfig(env(fake, { LOG_LEVEL: 'silent' })),
      store,
      logger: pino({ level: 'silent' }),
      clock: () => new Date(),
      register: () => undefined,
      host: '127.0.0.1',
    });
    try {
      const { port } = await slack.start();
      await slack.publisher.stop();
      await store.close();
      const down = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(down.status).toBe(503);
      expect(((await down.json()) as { reason: string }).reason).toMatch(/^store unreachable/);
    } finally {
      await slack.stop();
      await fake.close();
    }
  });
});

describe('the audit publisher is woken by the store', () => {
  it('an event appended while the publisher sleeps is posted at once, not at its next poll', async () => {
    const fake = await startFakeSlack();
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    const clock = () => new Date();
    const slack = createSlackApp({
      config: loadConfig(env(fake, { LOG_LEVEL: 'silent' })),
      store,
      logger: pino({ level: 'silent' }),
      clock,
      register: () => undefined,
      host: '127.0.0.1',
      // Asleep far longer than the test may take: only a wake-up from the store posts in time.
      publisher: { minIntervalMs: 10, idlePollMs: 600_000 },
    });
    const unblocked = (target: string) => ({
      id: randomUUID(),
      type: 'succeeded' as const,
      at: clock().toISOString(),
      actor: { id: 'U0AGENT01', name: 'sara' },
      operation: 'viewer.unblock',
      target,
      params: {},
      requestId: randomUUID(),
      outcome: 'unblocked',
      error: null,
    });
    const posted = (target: string) =>
      fake.waitFor(
        'chat.postMessage',
        (c) => c.args.channel === AUDIT_CHANNEL && JSON.stringify(c.args).includes(target),
        3000,
      );
    try {
      await slack.start();
      await store.appendAudit([unblocked('viewer-first')]);
      await posted('viewer-first');
      await until('the outbox to drain', async () => (await store.outboxDepth()) === 0);
      // The publisher has gone back to sleep; the next append must wake it.
      await store.appendAudit([unblocked('viewer-second')]);
      await posted('viewer-second');
    } finally {
      await slack.stop();
      await store.close();
      await fake.close();
    }
  });
});

describe('Slack app assembly (Socket Mode)', () => {
  it('uses the Socket Mode receiver when an app token is set, without calling Slack before start', async () => {
    const fake = await startFakeSlack();
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    try {
      const slack = createSlackApp({
        config: loadConfig(env(fake, { SLACK_APP_TOKEN: 'xapp-1-A0VIDOPS-1-abc', LOG_LEVEL: 'silent' })),
        store,
        logger: pino({ level: 'silent' }),
        clock: () => new Date(),
        register: () => undefined,
        host: '127.0.0.1',
      });
      expect(slack.receiver).toBeInstanceOf(SocketModeReceiver);
      // Nothing connects or listens before start(); the fake has no Socket Mode endpoint to go further.
      expect(fake.calls).toEqual([]);
      await slack.stop();
    } finally {
      await store.close();
      await fake.close();
    }
  });
});
