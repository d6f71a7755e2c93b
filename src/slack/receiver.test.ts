import { request } from 'node:http';
import { App } from '@slack/bolt';
import pino from 'pino';
import {
  appHomeOpened,
  postSigned,
  sign,
  slashCommand,
  urlVerification,
  viewSubmission,
} from '../emulator/index.js';
import { boltLoggerFor } from './app.js';
import { createVidopsMetrics, type VidopsMetrics } from './metrics.js';
import { VidopsReceiver, verifySlackSignature } from './receiver.js';

const SECRET = 'receiver-test-signing-secret';
// A fixed instant, so the timestamp window is measured against the injected clock, not the host's.
const NOW = new Date('2024-05-01T10:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const silent = pino({ level: 'silent' });

interface Harness {
  url: string;
  base: string;
  app: App;
  receiver: VidopsReceiver;
  metrics: VidopsMetrics;
  commands: string[];
  seenKeys: string[];
  errors: Error[];
  setReady(fn: () => Promise<void>): void;
}

async function startHarness(
  options: { unhandledRequestTimeoutMs?: number; shutdownTimeoutMs?: number } = {},
): Promise<Harness> {
  const metrics = createVidopsMetrics();
  const seenKeys: string[] = [];
  let ready: () => Promise<void> = async () => undefined;
  const receiver = new VidopsReceiver({
    signingSecret: SECRET,
    logger: silent,
    metrics,
    clock: () => NOW,
    host: '127.0.0.1',
    port: 0,
    ready: () => ready(),
    seen: async (key) => {
      if (seenKeys.includes(key)) return false;
      seenKeys.push(key);
      return true;
    },
    ...options,
  });
  // botId and botUserId given: Bolt needs no auth.test call, so no Slack API is involved here.
  const app = new App({
    token: 'xoxb-receiver-test',
    botId: 'B0VIDOPS',
    botUserId: 'U0VIDOPSBOT',
    receiver,
    logger: boltLoggerFor(silent, 'silent'),
    extendedErrorHandler: true,
  });
  const commands: string[] = [];
  const errors: Error[] = [];
  app.command('/vidops', async ({ command, ack }) => {
    commands.push(command.text);
    if (command.text === 'boom') throw new Error('handler failed before ack');
    if (command.text === 'silent') return;
    await ack({ response_type: 'ephemeral', text: `got ${command.text}` });
  });
  app.error(async ({ error }: { error: Error }) => {
    errors.push(error);
    throw error;
  });
  const { port } = await receiver.start();
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/slack/events`,
    base,
    app,
    receiver,
    metrics,
    commands,
    seenKeys,
    errors,
    setReady: (fn) => {
      ready = fn;
    },
  };
}

async function until(what: string, check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const command = (text: string) =>
  slashCommand({ text, userId: 'U0AGENT01', responseUrl: 'http://127.0.0.1:9/response' });

describe('Slack request verification', () => {
  it.each([
    ['a valid signature', SECRET, NOW_S, true],
    ['a wrong secret', 'other-secret', NOW_S, false],
    ['a timestamp 6 minutes ago', SECRET, NOW_S - 360, false],
    ['a timestamp 6 minutes ahead', SECRET, NOW_S + 360, false],
    ['a timestamp 4:59 ago', SECRET, NOW_S - 299, true],
    ['a timestamp 4:59 ahead', SECRET, NOW_S + 299, true],
  ])('%s', (_what, secret, ts, ok) => {
    const body = 'a=1&b=2';
    const headers = sign(body, secret, ts);
    const result = verifySlackSignature({
      signingSecret: SECRET,
      rawBody: body,
      signature: headers['x-slack-signature'],
      timestamp: headers['x-slack-request-timestamp'],
      nowMs: NOW.getTime(),
    });
    expect(result.ok).toBe(ok);
  });
});

describe('Slack receiver', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ unhandledRequestTimeoutMs: 300 });
  });

  afterEach(async () => {
    await h.receiver.stop();
  });

  it('agent runs a command: the handler runs and the response is the ack body', async () => {
    const res = await postSigned(h.url, command('unblock 09123456789'), SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_type: 'ephemeral', text: 'got unblock 09123456789' });
    expect(h.commands).toEqual(['unblock 09123456789']);
    expect(await h.metrics.registry.render()).toContain('vidops_ack_seconds_count 1\n');
  });

  it.each([
    ['a forged signature', { timestamp: NOW_S, signature: `v0=${'0'.repeat(64)}` }],
    ['an empty v0= signature', { timestamp: NOW_S, signature: 'v0=' }],
    ['a timestamp 6 minutes old', { timestamp: NOW_S - 360 }],
    ['a timestamp 6 minutes in the future', { timestamp: NOW_S + 360 }],
    ['a signature without the v0= prefix', { timestamp: NOW_S, signature: 'abc' }],
  ])('refuses %s with 401 and runs no handler', async (_what, opts) => {
    const req = command('unblock 09123456789');
    const res = await postSigned(h.url, req, SECRET, opts);
    expect(res.status).toBe(401);
    expect(h.commands).toEqual([]);
  });

  it('refuses a request signed with another secret', async () => {
    const res = await postSigned(h.url, command('retry abc'), 'not-the-secret', { timestamp: NOW_S });
    expect(res.status).toBe(401);
    expect(h.commands).toEqual([]);
  });

  it('refuses a request without signature headers', async () => {
    const res = await fetch(h.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: command('retry abc').body,
    });
    expect(res.status).toBe(401);
    expect(h.commands).toEqual([]);
  });

  it('answers an ssl_check without verifying and without running anything smuggled with it', async () => {
    for (const body of ['ssl_check=1&token=legacy', `ssl_check=1&${command('unblock 09123456789').body}`]) {
      const res = await fetch(h.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    }
    expect(h.commands).toEqual([]);
  });

  it.each(['ssl_check=2', 'ssl_check=1&ssl_check=1', 'ssl_check=1 '])(
    'verifies a body that is not exactly ssl_check=1 (%s)',
    async (body) => {
      const res = await fetch(h.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).toBe(401);
    },
  );

  it('answers url_verification with the challenge', async () => {
    const res = await postSigned(h.url, urlVerification('challenge-abc'), SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ challenge: 'challenge-abc' });
  });

  it('processes an event once when Slack delivers it again', async () => {
    const opened: Array<{ user: string; retryNum: unknown }> = [];
    h.app.event('app_home_opened', async ({ event, context }) => {
      opened.push({ user: event.user, retryNum: context.retryNum });
    });
    const event = appHomeOpened({ userId: 'U0AGENT01', eventId: 'Ev0DUPLICATE1' });
    const first = await postSigned(h.url, event, SECRET, { timestamp: NOW_S });
    const again = await postSigned(h.url, event, SECRET, {
      timestamp: NOW_S,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    await until('the event handler', () => opened.length > 0);
    // A later, different delivery proves the duplicate was not merely slow.
    await postSigned(h.url, appHomeOpened({ userId: 'U0AGENT02', eventId: 'Ev0OTHER' }), SECRET, {
      timestamp: NOW_S,
    });
    await until('the second event', () => opened.length > 1);
    expect(opened.map((o) => o.user)).toEqual(['U0AGENT01', 'U0AGENT02']);
    expect(h.seenKeys).toEqual(['event:Ev0DUPLICATE1', 'event:Ev0OTHER']);
  });

  it('passes Slack retry headers to the handler context', async () => {
    const seen: Array<[unknown, unknown]> = [];
    h.app.event('app_home_opened', async ({ context }) => {
      seen.push([context.retryNum, context.retryReason]);
    });
    await postSigned(h.url, appHomeOpened({ userId: 'U0AGENT01', eventId: 'Ev0RETRY' }), SECRET, {
      timestamp: NOW_S,
      headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' },
    });
    await until('the event handler', () => seen.length > 0);
    expect(seen).toEqual([[2, 'http_timeout']]);
  });

  it('returns response_action errors from a view submission ack as JSON', async () => {
    h.app.view('vidops_test_modal', async ({ ack }) => {
      await ack({ response_action: 'errors', errors: { mobile: 'Not a mobile number' } });
    });
    const res = await postSigned(
      h.url,
      viewSubmission({
        userId: 'U0AGENT01',
        callbackId: 'vidops_test_modal',
        privateMetadata: '{}',
        values: {},
      }),
      SECRET,
      { timestamp: NOW_S },
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_action: 'errors', errors: { mobile: 'Not a mobile number' } });
  });

  it('answers 404 like Bolt when a handler never acknowledges', async () => {
    const res = await postSigned(h.url, command('silent'), SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(404);
    expect(h.commands).toEqual(['silent']);
  });

  it("sends a handler's error to the app's error handler and answers 500", async () => {
    const res = await postSigned(h.url, command('boom'), SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(500);
    expect(h.errors.map((e) => e.message)).toEqual(['handler failed before ack']);
  });

  it('refuses a body over 1 MB with 413', async () => {
    const huge = `command=%2Fvidops&text=${'a'.repeat(1024 * 1024 + 10)}`;
    const res = await postSigned(h.url, huge, SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(413);
    expect(h.commands).toEqual([]);
  });

  it('refuses a signed body that is not JSON with 400', async () => {
    const res = await postSigned(h.url, '{"type": "event_callback",', SECRET, { timestamp: NOW_S });
    expect(res.status).toBe(400);
  });
});

describe('health, readiness and metrics routes', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });

  afterEach(async () => {
    await h.receiver.stop();
  });

  it('operator checks /healthz', async () => {
    const res = await fetch(`${h.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('finds a route whatever query or dot segments its path carries', async () => {
    // Sent as written (fetch would resolve the dot segments itself).
    const statusOf = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${h.base}/`, { path }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/healthz?probe=kubelet', '/ops/../healthz', '/./healthz']) {
      expect({ path, status: await statusOf(path) }).toEqual({ path, status: 200 });
    }
    expect(await statusOf('/healthz/extra')).toBe(404);
  });

  it('operator checks /readyz while ready and while the store is down', async () => {
    const ok = await fetch(`${h.base}/readyz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });

    h.setReady(async () => {
      throw new Error('store unreachable: connect ECONNREFUSED');
    });
    const down = await fetch(`${h.base}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, reason: 'store unreachable: connect ECONNREFUSED' });
  });

  it('operator scrapes /metrics after a command', async () => {
    await postSigned(h.url, command('retry 65a1b2c3d4e5f60718293a4b'), SECRET, { timestamp: NOW_S });
    const res = await fetch(`${h.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE vidops_ack_seconds histogram');
    expect(text).toContain('vidops_ack_seconds_count 1\n');
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  it.each([
    ['GET', '/slack/events', 405],
    ['POST', '/healthz', 405],
    ['GET', '/nowhere', 404],
  ])('%s %s answers %i', async (method, path, status) => {
    const res = await fetch(`${h.base}${path}`, { method });
    expect(res.status).toBe(status);
  });
});

describe('graceful stop', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    const h = await startHarness({ shutdownTimeoutMs: 5000 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = false;
    h.app.command('/slow', async ({ ack }) => {
      entered = true;
      await gate;
      await ack('done');
    });
    const inFlight = postSigned(
      h.url,
      slashCommand({ text: '', userId: 'U0AGENT01', responseUrl: 'http://127.0.0.1:9/r', command: '/slow' }),
      SECRET,
      { timestamp: NOW_S },
    );
    await until('the slow handler', () => entered);
    let stopped = false;
    const stopping = h.receiver.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopped).toBe(false);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.text).toBe('done');
    await stopping;
    await expect(fetch(`${h.base}/healthz`)).rejects.toThrow();
  });

  it('cuts a request that outlives the shutdown bound', async () => {
    const h = await startHarness({ shutdownTimeoutMs: 100, unhandledRequestTimeoutMs: 60_000 });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = false;
    h.app.command('/stuck', async () => {
      entered = true;
      await gate;
    });
    const stuck = postSigned(
      h.url,
      slashCommand({ text: '', userId: 'U0AGENT01', responseUrl: 'http://127.0.0.1:9/r', command: '/stuck' }),
      SECRET,
      { timestamp: NOW_S },
    ).then(
      (res) => res.status,
      () => 'connection cut',
    );
    // Stopped only once the request is in the handler: a refused connection would prove nothing.
    await until('the stuck handler', () => entered);
    const started = Date.now();
    await h.receiver.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await stuck).toBe('connection cut');
    release();
  });
});
