import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket } from 'ws';
import type { JsonObject, JsonValue } from '../core/json.js';
import { verifySlackSignature } from '../slack/receiver.js';
import { type Emulator, startEmulator } from './emulator.js';
import { appHomeOpened, slashCommand } from './payloads.js';
import { personOf } from './person.js';

/**
 * How the emulator delivers to an app, the two ways Slack does: signed HTTP posts with the
 * 3-second deadline and retried events (`X-Slack-Retry-Num`), and Socket Mode envelopes over a
 * connection the app opened with its app-level token, acknowledged by envelope ID.
 * @see docs/slack.md, "Request signing" and "Deadlines"
 */

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  verified: boolean;
}

/** A stand-in app on HTTP: answers each request with `answer(n)` (n from 0), or never. */
async function startApp(
  secret: string,
  answer: (n: number) => { status: number; body?: string; type?: string } | 'never',
): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const verified = verifySlackSignature({
        signingSecret: secret,
        rawBody: body,
        signature: header('x-slack-signature'),
        timestamp: header('x-slack-request-timestamp'),
        nowMs: Date.now(),
      }).ok;
      received.push({ headers: req.headers, body, verified });
      const reply = answer(received.length - 1);
      if (reply === 'never') return;
      res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const command = (emulator: Emulator) =>
  slashCommand({ text: 'help', userId: 'U1', responseUrl: emulator.responseUrl() });

describe('over HTTP', () => {
  let slack: Emulator;

  beforeEach(async () => {
    slack = await startEmulator({ ackTimeoutMs: 300, eventRetryDelaysMs: [0, 0, 0] });
  });

  afterEach(() => slack.close());

  it('a slash command arrives signed with the signing secret; the ack body is its reply', async () => {
    const app = await startApp(slack.signingSecret, () => ({ status: 200, body: '{"text":"hello"}' }));
    slack.setRequestUrl(app.url);
    try {
      const delivery = await slack.deliver('slash_commands', command(slack));
      expect(delivery).toMatchObject({ ok: true, via: 'http', payload: { text: 'hello' }, attempts: 1 });
      expect(app.received).toHaveLength(1);
      expect(app.received[0]?.verified).toBe(true);
      expect(app.received[0]?.headers['x-slack-retry-num']).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('an app that does not answer in time fails the command once (operation_timeout), never retried', async () => {
    const app = await startApp(slack.signingSecret, () => 'never');
    slack.setRequestUrl(app.url);
    try {
      const delivery = await slack.deliver('slash_commands', command(slack));
      expect(delivery).toMatchObject({ ok: false, error: 'operation_timeout', attempts: 1 });
      expect(app.received).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('an event is retried up to 3 times, numbered and with the reason, until the app answers 200', async () => {
    const app = await startApp(slack.signingSecret, (n) =>
      n === 0 ? 'never' : n < 3 ? { status: 500 } : { status: 200 },
    );
    slack.setRequestUrl(app.url);
    try {
      const delivery = await slack.deliver('events_api', appHomeOpened({ userId: 'U1' }));
      expect(delivery).toMatchObject({ ok: true, attempts: 4 });
      expect(
        app.received.map((r) => [r.headers['x-slack-retry-num'], r.headers['x-slack-retry-reason']]),
      ).toEqual([
        [undefined, undefined],
        ['1', 'http_timeout'],
        ['2', 'http_error'],
        ['3', 'http_error'],
      ]);
      expect(app.received.every((r) => r.verified)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('a reply in the ack is shown to the person alone, and leaves the response URL its five posts', async () => {
    const app = await startApp(slack.signingSecret, () => ({
      status: 200,
      body: '{"response_type":"ephemeral","text":"busy"}',
    }));
    slack.setRequestUrl(app.url);
    try {
      const result = await personOf(slack, 'U1').command('help', { channel: 'C1' });
      expect(slack.ephemerals('U1', 'C1').map((e) => [e.from, e.text])).toEqual([
        ['echo', '/vidops help'],
        ['app', 'busy'],
      ]);
      for (let i = 0; i < 5; i += 1) {
        const post = await fetch(result.responseUrl, {
          method: 'POST',
          body: JSON.stringify({ text: `reply ${i}` }),
          headers: { 'content-type': 'application/json' },
        });
        expect(post.status).toBe(200);
      }
    } finally {
      await app.close();
    }
  });

  it('with no app connected anywhere, the command fails with dispatch_failed', async () => {
    await expect(slack.deliver('slash_commands', command(slack))).resolves.toMatchObject({
      ok: false,
      via: 'none',
      error: 'dispatch_failed',
    });
  });
});

/** A bare Socket Mode client: opens the connection as Bolt does, records every message. */
async function connect(
  emulator: Emulator,
): Promise<{ socket: WebSocket; messages: JsonObject[]; next(type: string): Promise<JsonObject> }> {
  const opened = await fetch(`${emulator.apiUrl}apps.connections.open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.appToken}` },
  });
  const { url } = (await opened.json()) as { url: string };
  const socket = new WebSocket(url);
  const messages: JsonObject[] = [];
  const waiting: { type: string; resolve: (m: JsonObject) => void }[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as JsonValue;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return;
    messages.push(message);
    const i = waiting.findIndex((w) => w.type === message.type);
    if (i >= 0) waiting.splice(i, 1)[0]?.resolve(message);
  });
  const next = (type: string) =>
    new Promise<JsonObject>((resolve) => {
      const found = messages.find((m) => m.type === type && !seen.has(m));
      if (found) {
        seen.add(found);
        resolve(found);
      } else {
        waiting.push({
          type,
          resolve: (m) => {
            seen.add(m);
            resolve(m);
          },
        });
      }
    });
  const seen = new Set<JsonObject>();
  await next('hello');
  return { socket, messages, next };
}

describe('over Socket Mode', () => {
  let slack: Emulator;

  beforeEach(async () => {
    slack = await startEmulator({ ackTimeoutMs: 300, eventRetryDelaysMs: [0, 0, 0] });
  });

  afterEach(() => slack.close());

  it('a command comes as a slash_commands envelope; the ack with a payload is the reply', async () => {
    const client = await connect(slack);
    expect(slack.socketMode.connections).toBe(1);
    const delivering = slack.deliver('slash_commands', command(slack));
    const envelope = await client.next('slash_commands');
    expect(envelope).toMatchObject({
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: { command: '/vidops', text: 'help', user_id: 'U1' },
    });
    client.socket.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: 'hello' } }));
    await expect(delivering).resolves.toMatchObject({ ok: true, via: 'socket', payload: { text: 'hello' } });
    client.socket.close();
  });

  it('an envelope not acked in 3 seconds fails; an event is sent again with retry_attempt', async () => {
    const client = await connect(slack);
    const silent = await slack.deliver('slash_commands', command(slack));
    expect(silent).toMatchObject({ ok: false, via: 'socket', error: 'operation_timeout' });

    const delivering = slack.deliver('events_api', appHomeOpened({ userId: 'U1', eventId: 'Ev1' }));
    const first = await client.next('events_api');
    const second = await client.next('events_api');
    expect([first.retry_attempt, second.retry_attempt]).toEqual([0, 1]);
    expect(second.retry_reason).toBe('timeout');
    expect(second.payload).toEqual(first.payload);
    client.socket.send(JSON.stringify({ envelope_id: second.envelope_id }));
    await expect(delivering).resolves.toMatchObject({ ok: true, attempts: 2 });
    client.socket.close();
  });

  it('asks its clients to reconnect with a disconnect message; a used ticket opens nothing', async () => {
    const client = await connect(slack);
    slack.socketMode.requestReconnect();
    await expect(client.next('disconnect')).resolves.toMatchObject({
      type: 'disconnect',
      reason: 'refresh_requested',
    });
    const reused = new WebSocket(client.socket.url);
    const refused = await new Promise<string>((resolve) => {
      reused.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
      reused.on('open', () => resolve('open'));
      reused.on('error', () => resolve('error'));
    });
    expect(refused).toBe('401');
    client.socket.close();
  });
});
