import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Vidops } from '../../src/app.js';
import type { JsonObject } from '../../src/core/json.js';
import {
  appHomeOpened,
  postSigned,
  type SlackRequest,
  sign,
  slashCommand,
  urlVerification,
} from '../../src/emulator/index.js';
import { SocketModeHub } from '../../src/emulator/socket-mode.js';
import { TEAM_ID } from '../../src/emulator/workspace.js';
import { DEMO } from '../../src/sandbox/server.js';
import { schemaPool, TEST_DATABASE_URL } from '../store/pg-schema.js';
import { type Harness, SIGNING_SECRET, startHarness, startReplica, USERS } from './app-harness.js';
import { notificationsDone, readable, until, upstream } from './change-helpers.js';

/**
 * vidops' Slack receivers attacked as an adversary and a hostile network would: captured signed
 * requests replayed (to the same replica, to another one sharing the database, while the first
 * still runs), Slack's own retries, bodies too big, too slow or of the wrong type, duplicated
 * form fields, JSON members and signature headers, and in Socket Mode envelopes delivered twice,
 * cut off before their ack, or malformed; and what the operator routes tell anyone who asks.
 * @see docs/security.md, "Trust nothing from the client"; docs/slack.md, "Request signing"
 */

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';

/** Seconds of a harness's clock, which is what vidops measures the five-minute window against. */
function nowS(h: Harness): number {
  return Math.floor(h.clock.now().getTime() / 1000);
}

async function auditCount(h: Harness): Promise<number> {
  return (await h.store.auditHead())?.seq ?? 0;
}

let tagCounter = 0;

/** A `/vidops` command as Slack would send it, with a response URL of its own. */
function command(h: Harness, text: string, userId: string = USERS.agent.id) {
  tagCounter += 1;
  const tag = `attack-${tagCounter}`;
  const responseUrl = h.slack.responseUrl(tag);
  return {
    tag,
    request: slashCommand({ text, userId, responseUrl }),
    replies: () => h.slack.responsePosts.filter((post) => post.tag === tag),
    reply: (timeoutMs = 8000) => h.slack.waitForResponse((post) => post.tag === tag, timeoutMs),
  };
}

/** The exact bytes and headers of one signed request, to be sent again as a replay. */
interface Captured {
  body: string;
  headers: Record<string, string>;
}

/** Slack's three headers for `request` signed at `timestamp`, as a plain record. */
function signedHeaders(request: SlackRequest | string, timestamp: number): Record<string, string> {
  return { ...sign(request, SIGNING_SECRET, timestamp) };
}

function capture(request: SlackRequest | string, timestamp: number): Captured {
  const body = typeof request === 'string' ? request : request.body;
  return { body, headers: signedHeaders(request, timestamp) };
}

async function replay(url: string, captured: Captured, extra: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...captured.headers, ...extra },
    body: captured.body,
  });
  return { status: response.status, text: await response.text() };
}

/** A raw POST over node:http: repeated headers, chunked bodies, whatever fetch would not send. */
function rawPost(
  url: string,
  body: string | Buffer,
  headers: OutgoingHttpHeaders,
  options: { chunked?: boolean } = {},
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    if (options.chunked) {
      // Two writes without a Content-Length: node sends them as chunks.
      const data = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const half = Math.floor(data.length / 2);
      req.write(data.subarray(0, half));
      req.end(data.subarray(half));
    } else {
      req.end(body);
    }
  });
}

describe('replays and retries over HTTP', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(() => h.stop());

  beforeEach(async () => {
    await notificationsDone(h);
    // Past the per-agent rate limit's window of the test before.
    h.clock.advance(2 * 3_600_000);
    h.sandbox.reset();
  });

  it('an attacker replays a captured unblock after it was answered: 200, nothing runs again', async () => {
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[0]}`);
    const captured = capture(cmd.request, nowS(h));
    const first = await replay(h.eventsUrl, captured);
    expect(first.status).toBe(200);
    expect(readable(await cmd.reply())).toContain('is unblocked');
    const audited = await auditCount(h);

    const again = await replay(h.eventsUrl, captured);
    expect(again).toEqual({ status: 200, text: '' });
    // A later command answered shows the replay had its turn.
    await (await h.slash('help')).reply();
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(cmd.replies()).toHaveLength(1);
    expect(await auditCount(h)).toBe(audited);
  });

  it('an attacker replays a signed unblock while the first is still at the service: it runs once', async () => {
    h.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 800 }]);
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[1]}`);
    const captured = capture(cmd.request, nowS(h));
    const first = await replay(h.eventsUrl, captured);
    expect(first.status).toBe(200);
    await until(
      () => (upstream(h, 'POST', UNBLOCK_PATH).length > 0 ? true : undefined),
      'the first at the service',
    );
    // Slack-style retry headers do not make a replay new.
    const replays = await Promise.all([
      replay(h.eventsUrl, captured),
      replay(h.eventsUrl, captured, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' }),
    ]);
    expect(replays).toEqual([
      { status: 200, text: '' },
      { status: 200, text: '' },
    ]);
    expect(readable(await cmd.reply(10_000))).toContain('is unblocked');
    await (await h.slash('help')).reply();
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(cmd.replies()).toHaveLength(1);
  });

  it('Slack retries an event (X-Slack-Retry-Num 1, http_timeout), re-signed, while the first delivery still runs: handled once', async () => {
    const since = h.slack.calls.length;
    const event = appHomeOpened({ userId: USERS.lead.id, eventId: 'Ev0ATTACKRETRY' });
    const [first, retried] = await Promise.all([
      postSigned(h.eventsUrl, event, SIGNING_SECRET, { timestamp: nowS(h) }),
      postSigned(h.eventsUrl, event, SIGNING_SECRET, {
        timestamp: nowS(h) - 1,
        headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
      }),
    ]);
    expect([first.status, retried.status]).toEqual([200, 200]);
    await until(
      () => h.slack.calls.slice(since).find((c) => c.method === 'views.publish'),
      'the Home tab published',
    );
    await (await h.slash('help', { userId: USERS.lead.id })).reply();
    expect(h.slack.calls.slice(since).filter((c) => c.method === 'views.publish')).toHaveLength(1);
  });

  it('url_verification without a valid signature gets 401 and no challenge back', async () => {
    const challenge = urlVerification('attacker-challenge-7d1');
    const forged = await postSigned(h.eventsUrl, challenge, 'not-the-secret', { timestamp: nowS(h) });
    expect(forged).toMatchObject({ status: 401, text: '' });
    const unsigned = await fetch(h.eventsUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: challenge.body,
    });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.text()).not.toContain('attacker-challenge');
  });
});

describe('the five-minute window, measured against the app clock', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(() => h.stop());

  it.each([
    ['5 minutes and 1 second old', -301],
    ['5 minutes and 1 second in the future', +302],
    ['a day in the future', +86_400],
  ])('a command signed %s gets 401 and changes nothing', async (_what, offset) => {
    h.sandbox.reset();
    const before = await auditCount(h);
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[2]}`);
    const answer = await postSigned(h.eventsUrl, cmd.request, SIGNING_SECRET, {
      timestamp: nowS(h) + offset,
    });
    expect(answer).toMatchObject({ status: 401, text: '' });
    await (await h.slash('help')).reply();
    expect(cmd.replies()).toEqual([]);
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditCount(h)).toBe(before);
  });

  it('a command signed 4 minutes 58 seconds ago is taken', async () => {
    const cmd = command(h, 'help');
    const answer = await postSigned(h.eventsUrl, cmd.request, SIGNING_SECRET, { timestamp: nowS(h) - 298 });
    expect(answer.status).toBe(200);
    await cmd.reply();
  });
});

describe('bodies: too big, too slow, of the wrong type, with fields twice', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(() => h.stop());

  beforeEach(() => {
    h.sandbox.reset();
  });

  const LIMIT = 1024 * 1024;

  /** A signed `/vidops help` padded to exactly `size` bytes. */
  function paddedCommand(size: number): string {
    const base = command(h, 'help').request.body;
    // Padded with a field vidops never reads; the text stays `help`.
    return `${base}&pad=${'a'.repeat(size - base.length - 5)}`;
  }

  it.each([
    ['with its Content-Length', false],
    ['chunked, without a length', true],
  ])('a signed body one byte over 1 MiB, %s, gets 413 and runs nothing', async (_how, chunked) => {
    const body = paddedCommand(LIMIT + 1);
    expect(Buffer.byteLength(body)).toBe(LIMIT + 1);
    const before = await auditCount(h);
    const answer = await rawPost(h.eventsUrl, body, signedHeaders(body, nowS(h)), { chunked });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(await auditCount(h)).toBe(before);
  });

  it('a signed body of exactly 1 MiB is read and answered', async () => {
    const body = paddedCommand(LIMIT);
    const answer = await rawPost(h.eventsUrl, body, signedHeaders(body, nowS(h)), { chunked: true });
    expect(answer.status).toBe(200);
  });

  /** Opens a POST whose chunked body never ends: the headers and one chunk, then nothing. */
  function slowLoris(url: string, headers: Record<string, string>): Promise<Socket> {
    const { hostname, port, pathname } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        const lines = [
          `POST ${pathname} HTTP/1.1`,
          `Host: ${hostname}:${port}`,
          'Transfer-Encoding: chunked',
          ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        ];
        socket.write(`${lines.join('\r\n')}\r\n\r\n5\r\nhello\r\n`);
        resolve(socket);
      });
      socket.on('error', reject);
    });
  }

  it('ten bodies that never end do not delay anyone else’s ack', async () => {
    const headers = signedHeaders('command=%2Fvidops', nowS(h));
    const sockets = await Promise.all(Array.from({ length: 10 }, () => slowLoris(h.eventsUrl, headers)));
    try {
      const sent = await h.slash('help');
      expect(sent.status).toBe(200);
      expect(sent.ackMs).toBeLessThan(1000);
      await sent.reply();
      const health = await h.get('/healthz');
      expect(health.status).toBe(200);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });

  it('a body that never ends is cut off once Slack’s ack deadline has long passed', async () => {
    // Was a defect: a body that never ended held its socket until Node's default five minutes, with
    // no answer (docs/slack.md, "Deadlines"). A request must now arrive whole within five seconds.
    const socket = await slowLoris(h.eventsUrl, signedHeaders('command=%2Fvidops', nowS(h)));
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
    const outcome = await Promise.race([
      closed,
      new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 8000)),
    ]);
    socket.destroy();
    expect({ outcome, answered: Buffer.concat(received).toString('latin1').split('\r\n')[0] ?? '' }).toEqual({
      outcome: 'closed',
      answered: expect.stringMatching(/^HTTP\/1\.1 (404|408|400)/),
    });
  }, 15_000);

  it.each([
    ['application/json', 400],
    ['text/plain', 400],
    ['multipart/form-data; boundary=x', 400],
  ])('a correctly signed command sent as %s is refused with %i and runs nothing', async (type, status) => {
    const before = await auditCount(h);
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[0]}`);
    const headers = { ...signedHeaders(cmd.request, nowS(h)), 'content-type': type };
    const answer = await rawPost(h.eventsUrl, cmd.request.body, headers);
    expect(answer.status).toBe(status);
    await (await h.slash('help')).reply();
    expect(cmd.replies()).toEqual([]);
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditCount(h)).toBe(before);
  });

  it('a correctly signed command without any Content-Type is refused with 400', async () => {
    const cmd = command(h, 'help');
    const { 'content-type': _dropped, ...headers } = signedHeaders(cmd.request, nowS(h));
    const answer = await rawPost(h.eventsUrl, cmd.request.body, headers);
    expect(answer.status).toBe(400);
    await (await h.slash('help')).reply();
    expect(cmd.replies()).toEqual([]);
  });

  it('two X-Slack-Signature headers, the right one among them, get 401 whichever comes first', async () => {
    const cmd = command(h, 'help');
    const right = signedHeaders(cmd.request, nowS(h));
    const good = right['x-slack-signature'] ?? '';
    const stamp = right['x-slack-request-timestamp'] ?? '';
    const wrong = `v0=${'ab'.repeat(32)}`;
    for (const pair of [
      [good, wrong],
      [wrong, good],
      [good, good],
    ]) {
      const answer = await rawPost(h.eventsUrl, cmd.request.body, { ...right, 'x-slack-signature': pair });
      expect(answer.status).toBe(401);
    }
    const twoTimestamps = await rawPost(h.eventsUrl, cmd.request.body, {
      ...right,
      'x-slack-request-timestamp': [stamp, stamp],
    });
    expect(twoTimestamps.status).toBe(401);
    await (await h.slash('help')).reply();
    expect(cmd.replies()).toEqual([]);
  });

  it('a signed command whose user_id and team_id come twice is read by the first of each, everywhere', async () => {
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[0]}`, USERS.outsider.id);
    // Slack never repeats a field: the first says outsider, the second an agent.
    const body = `${cmd.request.body}&user_id=${USERS.agent.id}`;
    const answer = await rawPost(h.eventsUrl, body, signedHeaders(body, nowS(h)));
    expect(answer.status).toBe(200);
    expect(readable(await cmd.reply())).not.toContain('is unblocked');
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);

    // The first team_id another workspace's, the second ours: refused as another workspace's.
    const other = command(h, `unblock ${DEMO.blockedMobiles[0]}`);
    const twoTeams = other.request.body.replace(
      `team_id=${TEAM_ID}`,
      `team_id=T0OTHERTEAM&team_id=${TEAM_ID}`,
    );
    expect(twoTeams).not.toBe(other.request.body);
    const refused = await rawPost(h.eventsUrl, twoTeams, signedHeaders(twoTeams, nowS(h)));
    expect(refused.status).toBe(200);
    expect(JSON.parse(refused.text)).toMatchObject({
      text: expect.stringContaining('does not serve this workspace'),
    });
    await (await h.slash('help')).reply();
    expect(other.replies()).toEqual([]);
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toEqual([]);
  });

  it('a signed interaction with two payload fields is read by the first; an event with a member twice by the last', async () => {
    // The first payload is another workspace's: the whole request is refused, the second never read.
    const ours = appHomeOpened({ userId: USERS.lead.id, eventId: 'Ev0TWOPAYLOADS' }).payload;
    const theirs = { ...ours, team_id: 'T0OTHERTEAM', authorizations: [{ team_id: 'T0OTHERTEAM' }] };
    const since = h.slack.calls.length;
    // JSON with team_id twice: JSON.parse keeps the last, and so does every check after it.
    const json = JSON.stringify(ours).replace(/^\{/, '{"authorizations":[{"team_id":"T0OTHERTEAM"}],');
    const twice = await postSigned(h.eventsUrl, json, SIGNING_SECRET, { timestamp: nowS(h) });
    expect(twice.status).toBe(200);
    const refusedJson = JSON.stringify(theirs).replace(
      /^\{/,
      `{"authorizations":[{"team_id":"${TEAM_ID}"}],"event_id":"Ev0TWOPAYLOADS2",`,
    );
    const refused = await postSigned(h.eventsUrl, refusedJson, SIGNING_SECRET, { timestamp: nowS(h) });
    expect(refused.status).toBe(200);
    // The first event (ours last) published the Home tab; the second (theirs last) did not.
    await until(
      () => h.slack.calls.slice(since).find((c) => c.method === 'views.publish'),
      'the Home tab published',
    );
    await (await h.slash('help', { userId: USERS.lead.id })).reply();
    expect(h.slack.calls.slice(since).filter((c) => c.method === 'views.publish')).toHaveLength(1);
    expect(h.logs.join('\n')).toContain('refused a Slack request from another workspace');
  });
});

describe('a command turned away as busy', () => {
  let small: Harness;

  beforeAll(async () => {
    small = await startHarness({ work: { concurrency: 1, maxQueued: 1 } });
  });

  afterAll(() => small.stop());

  it('an attacker replays a command vidops answered “busy … Nothing was done” once the queue has room: nothing runs', async () => {
    // Was a defect: the busy answer came before the replay check and recorded nothing, so the same
    // signed bytes sent again once the queue had room ran the command the person was told had not
    // run (docs/security.md, "Trust nothing from the client"). Busy answers are now remembered.
    small.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 800 }]);
    const running = await small.slash(`unblock ${DEMO.blockedMobiles[0]}`);
    const waiting = await small.slash(`unblock ${DEMO.blockedMobiles[1]}`);
    const cmd = command(small, `unblock ${DEMO.blockedMobiles[2]}`);
    const captured = capture(cmd.request, nowS(small));
    const turnedAway = await replay(small.eventsUrl, captured);
    expect(JSON.parse(turnedAway.text)).toMatchObject({ text: expect.stringContaining('Nothing was done') });
    await running.reply(10_000);
    await waiting.reply(10_000);

    // The queue has room again; the attacker sends the captured bytes.
    const replayed = await replay(small.eventsUrl, captured);
    expect(replayed.status).toBe(200);
    await (await small.slash('help')).reply(10_000);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(upstream(small, 'POST', UNBLOCK_PATH).map((r) => r.body)).toEqual([
      { mobileNumber: DEMO.blockedMobiles[0] },
      { mobileNumber: DEMO.blockedMobiles[1] },
    ]);
    expect(cmd.replies()).toEqual([]);
  });
});

const databases: [string, () => string | undefined][] = [['SQLite', () => undefined]];
const schemas = TEST_DATABASE_URL === undefined ? null : schemaPool(TEST_DATABASE_URL, 'receiver_attacks');
if (schemas !== null) databases.push(['PostgreSQL', () => schemas.url()]);

afterAll(async () => {
  await schemas?.dropAll();
});

describe.each(databases)('two replicas on one %s database', (_name, databaseUrl) => {
  let h: Harness;
  let second: Vidops;
  let secondUrl: string;

  beforeAll(async () => {
    const url = databaseUrl();
    h = await startHarness(url === undefined ? {} : { env: { DATABASE_URL: url } });
    ({ vidops: second, eventsUrl: secondUrl } = await startReplica(h));
  });

  afterAll(async () => {
    await second?.stop();
    await h?.stop();
  });

  beforeEach(async () => {
    await notificationsDone(h);
    h.clock.advance(2 * 3_600_000);
    h.sandbox.reset();
  });

  it('a captured unblock answered by one replica, replayed to the other: 200, nothing runs again', async () => {
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[0]}`);
    const captured = capture(cmd.request, nowS(h));
    expect((await replay(h.eventsUrl, captured)).status).toBe(200);
    await cmd.reply();
    expect(await replay(secondUrl, captured)).toEqual({ status: 200, text: '' });
    await (await h.slash('help')).reply();
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(cmd.replies()).toHaveLength(1);
  });

  it('the same signed unblock sent to both replicas at once, five times each, runs once', async () => {
    h.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 300 }]);
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[1]}`);
    const captured = capture(cmd.request, nowS(h));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => replay(i % 2 === 0 ? h.eventsUrl : secondUrl, captured)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(readable(await cmd.reply(10_000))).toContain('is unblocked');
    await (await h.slash('help')).reply();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(cmd.replies()).toHaveLength(1);
  });
});

describe('the operator routes, asked by anyone', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(() => h.stop());

  it('after hostile commands, /metrics and /readyz name no person, number, text typed or secret', async () => {
    const hostile = [
      `unblock ${DEMO.blockedMobiles[0]}`,
      'zzz_label_injection"} 1\nvidops_fake 1',
      `${USERS.outsider.id} ${'x'.repeat(300)}`,
    ];
    for (const text of hostile) await (await h.slash(text, { userId: USERS.outsider.id })).reply();
    const metrics = await h.get('/metrics');
    const ready = await h.get('/readyz');
    const health = await h.get('/healthz');
    expect([metrics.status, ready.status, health.status]).toEqual([200, 200, 200]);
    for (const text of [metrics.text, ready.text, health.text]) {
      for (const secret of [
        DEMO.blockedMobiles[0],
        USERS.outsider.id,
        USERS.agent.id,
        'zzz_label_injection',
        'vidops_fake',
        SIGNING_SECRET,
        h.slack.botToken,
        DEMO.apiKey,
        DEMO.secretKey,
        h.sandbox.url,
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    // Labels stay within their fixed sets.
    const labels = [...metrics.text.matchAll(/vidops_commands_total\{command="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(labels)).toEqual(new Set(['unblock', 'other']));
  });

  it('the operator routes refuse anything but GET, and change nothing', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const answer = await fetch(`${h.url}${path}`, { method: 'POST', body: 'x' });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET');
    }
  });
});

/**
 * Socket Mode, with the emulator's server-side sockets in hand: the hub does not send an envelope
 * ID of one's choosing, so these tests write envelopes on the socket vidops opened and read its
 * acks there.
 */
const serverSockets: WebSocket[] = [];
const acks: JsonObject[] = [];
const hubProto = SocketModeHub.prototype as unknown as { accept(ws: WebSocket): void };
const originalAccept = hubProto.accept;

hubProto.accept = function accept(this: SocketModeHub, ws: WebSocket) {
  serverSockets.push(ws);
  ws.on('message', (data) => {
    try {
      const parsed: unknown = JSON.parse(data.toString());
      if (parsed !== null && typeof parsed === 'object') acks.push(parsed as JsonObject);
    } catch {
      // not JSON; the hub notes it
    }
  });
  originalAccept.call(this, ws);
};

afterAll(() => {
  hubProto.accept = originalAccept;
});

function openSocket(): WebSocket {
  const open = serverSockets.filter((s) => s.readyState === s.OPEN);
  const socket = open[open.length - 1];
  if (socket === undefined) throw new Error('no open Socket Mode connection');
  return socket;
}

function send(socket: WebSocket, envelope: JsonObject): void {
  socket.send(JSON.stringify(envelope));
}

function ackOf(envelopeId: string, timeoutMs = 3000): Promise<JsonObject> {
  return until(() => acks.find((a) => a.envelope_id === envelopeId), `the ack of ${envelopeId}`, timeoutMs);
}

function slashEnvelope(envelopeId: string, request: SlackRequest): JsonObject {
  return {
    envelope_id: envelopeId,
    type: 'slash_commands',
    payload: Object.fromEntries(new URLSearchParams(request.body)),
    accepts_response_payload: true,
  };
}

describe('Socket Mode envelopes', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode: 'socket' });
  });

  afterAll(() => h.stop());

  beforeEach(async () => {
    await notificationsDone(h);
    h.clock.advance(2 * 3_600_000);
    h.sandbox.reset();
  });

  it('Slack delivers the same slash command envelope twice: both acked, it runs once', async () => {
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[0]}`);
    const envelope = slashEnvelope('env-attack-twice', cmd.request);
    const socket = openSocket();
    send(socket, envelope);
    await ackOf('env-attack-twice');
    send(socket, envelope);
    await until(
      () => (acks.filter((a) => a.envelope_id === 'env-attack-twice').length === 2 ? true : undefined),
      'the second ack',
    );
    expect(readable(await cmd.reply())).toContain('is unblocked');
    await (await h.slash('help')).reply();
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(cmd.replies()).toHaveLength(1);
  });

  it('Slack asks for a reconnect (disconnect, refresh_requested) while a command is at the service: it finishes once', async () => {
    h.sandbox.setFaults([{ path: UNBLOCK_PATH, latencyMs: 800 }]);
    const hellos = h.slack.socketMode.helloCount;
    const sent = await h.slash(`unblock ${DEMO.blockedMobiles[1]}`);
    expect(sent.status).toBe(200);
    h.slack.socketMode.requestReconnect();
    expect(readable(await sent.reply(10_000))).toContain('is unblocked');
    await until(() => (h.slack.socketMode.helloCount > hellos ? true : undefined), 'a new hello', 15_000);
    await h.slack.socketMode.waitForConnections(1);
    await (await h.slash('help')).reply();
    expect(upstream(h, 'POST', UNBLOCK_PATH)).toHaveLength(1);
    expect(sent.replies()).toHaveLength(1);
  }, 20_000);

  it('the socket closes before vidops’ ack gets out; Slack redelivers the envelope after the reconnect: the command runs once', async () => {
    // Was a defect: the envelope was recorded as delivered before the ack; when the ack could not go
    // out (the socket closed), the command ran nowhere and Slack's redelivery was dropped as a repeat
    // (docs/security.md, "Trust nothing from the client"). The key is now forgotten when the ack fails.
    const hellos = h.slack.socketMode.helloCount;
    const cmd = command(h, `unblock ${DEMO.blockedMobiles[2]}`);
    const envelope = slashEnvelope('env-attack-cut', cmd.request);
    const socket = openSocket();
    send(socket, envelope);
    // The close frame follows the envelope at once: vidops reads the envelope, then the close.
    socket.close(1001, 'going away');
    await until(() => (h.slack.socketMode.helloCount > hellos ? true : undefined), 'a new hello', 15_000);
    await h.slack.socketMode.waitForConnections(1);
    const ackedBeforeClose = acks.some((a) => a.envelope_id === 'env-attack-cut');
    // Slack had no ack for it, so it sends the envelope again on the new connection.
    send(openSocket(), envelope);
    await ackOf('env-attack-cut');
    // The reply, then a command after it: a second run would have shown by then.
    await cmd.reply(10_000);
    await (await h.slash('help')).reply();
    expect({
      ackedBeforeClose,
      unblocks: upstream(h, 'POST', UNBLOCK_PATH).length,
      replies: cmd.replies().length,
    }).toEqual({ ackedBeforeClose: false, unblocks: 1, replies: 1 });
  }, 20_000);
});

describe('Socket Mode envelopes of the wrong shape', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode: 'socket' });
  });

  afterAll(() => h.stop());

  it.each([
    ['a slash_commands envelope whose payload is null', { type: 'slash_commands', payload: null }],
    ['an interactive envelope whose payload is an array', { type: 'interactive', payload: [1, 2] }],
    ['a slash_commands envelope whose payload is a string', { type: 'slash_commands', payload: 'x' }],
  ])('Slack sends %s: nothing runs and the next command is answered', async (_what, shape) => {
    const before = await auditCount(h);
    const envelopeId = `env-attack-bad-${tagCounter++}`;
    send(openSocket(), { envelope_id: envelopeId, accepts_response_payload: true, ...shape } as JsonObject);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await h.slash('help');
    expect(next.status).toBe(200);
    await next.reply();
    expect(h.sandbox.requests()).toEqual([]);
    expect(await auditCount(h)).toBe(before);
  });
});

describe('an events_api envelope without an event object', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ mode: 'socket' });
  });

  afterAll(() => h.stop());

  it('Slack sends an events_api envelope whose payload holds no event: it is dropped, and vidops keeps serving', async () => {
    // Was a defect: @slack/socket-mode reads `payload.event.type` unchecked and its listener's
    // rejection went unhandled, which ends the process (docs/security.md, "Trust nothing from the
    // client"). Such a message is now logged and dropped.
    const before = await auditCount(h);
    send(openSocket(), {
      envelope_id: 'env-attack-no-event',
      type: 'events_api',
      payload: { type: 'event_callback', team_id: TEAM_ID },
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: '',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await h.slash('help');
    expect(next.status).toBe(200);
    await next.reply();
    expect(await auditCount(h)).toBe(before);
  });
});
