import { createHmac } from 'node:crypto';
import { App } from '@slack/bolt';
import pino from 'pino';
import { postSigned, slashCommand, urlVerification } from '../emulator/index.js';
import { boltLoggerFor } from './app.js';
import { createVidopsMetrics } from './metrics.js';
import { VidopsReceiver } from './receiver.js';

/**
 * The five-minute window of the HTTP receiver at its edges, against an injected clock (so a second
 * ticking over between signing and checking cannot move the edge), and a replayed request while
 * the first is still inside its handler.
 * @see docs/slack.md, "Request signing"; docs/security.md, "Trust nothing from the client"
 */

const SECRET = 'receiver-attacks-signing-secret';
// Half a second into a second, so the edge is measured in whole seconds as Slack's rule is.
const NOW = new Date('2024-05-01T10:00:00.500Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const silent = pino({ level: 'silent' });

let receiver: VidopsReceiver;
let url: string;
let ran: string[];
let release: () => void;

beforeEach(async () => {
  ran = [];
  let gate = Promise.resolve();
  release = () => undefined;
  const seen = new Set<string>();
  receiver = new VidopsReceiver({
    signingSecret: SECRET,
    logger: silent,
    metrics: createVidopsMetrics(),
    clock: () => NOW,
    host: '127.0.0.1',
    port: 0,
    seen: async (key) => {
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  });
  const app = new App({
    token: 'xoxb-receiver-attacks',
    botId: 'B0VIDOPS',
    botUserId: 'U0VIDOPSBOT',
    receiver,
    logger: boltLoggerFor(silent, 'silent'),
  });
  app.command('/vidops', async ({ command, ack }) => {
    await ack();
    ran.push(command.text);
    if (command.text === 'slow') {
      gate = new Promise((resolve) => {
        release = resolve;
      });
      await gate;
    }
  });
  const { port } = await receiver.start();
  url = `http://127.0.0.1:${port}/slack/events`;
});

afterEach(async () => {
  release();
  await receiver.stop();
});

const cmd = (text: string) =>
  slashCommand({ text, userId: 'U0AGENT01', responseUrl: 'http://127.0.0.1:9/response' });

describe('a signed command at the edges of the five-minute window', () => {
  it.each([
    ['exactly five minutes old', -300, 200],
    ['exactly five minutes ahead', +300, 200],
    ['five minutes and one second old', -301, 401],
    ['five minutes and one second ahead', +301, 401],
    ['at second 0 of the epoch', -NOW_S, 401],
  ])('a command signed %s: answered as its row says', async (_what, offset, status) => {
    const answer = await postSigned(url, cmd('help'), SECRET, { timestamp: NOW_S + offset });
    expect(answer.status).toBe(status);
    expect(ran).toEqual(status === 200 ? ['help'] : []);
  });

  it.each([
    ['with a sign', '+1714557600'],
    ['in exponent form', '1.7145576e9'],
    ['as thirteen digits of milliseconds', String(NOW.getTime())],
    ['empty', ''],
  ])(
    'a timestamp %s, correctly signed with it, is refused with 401 before anything runs',
    async (_what, timestamp) => {
      const { body } = cmd('help');
      // Signed over the odd timestamp itself, so only the timestamp's form can refuse it.
      const digest = createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex');
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-signature': `v0=${digest}`,
          'x-slack-request-timestamp': timestamp,
        },
        body,
      });
      const answer = { status: response.status };
      expect(answer.status).toBe(401);
      expect(ran).toEqual([]);
    },
  );

  it('a url_verification signed six minutes ago gets 401, not the challenge', async () => {
    const answer = await postSigned(url, urlVerification('old-challenge'), SECRET, {
      timestamp: NOW_S - 360,
    });
    expect(answer).toMatchObject({ status: 401, text: '' });
  });
});

describe('a replay while the first is still in its handler', () => {
  it('the same signed bytes sent three times while the handler waits: 200 each, the handler ran once', async () => {
    const request = cmd('slow');
    const first = await postSigned(url, request, SECRET, { timestamp: NOW_S });
    expect(first.status).toBe(200);
    const replays = await Promise.all(
      [1, 2, 3].map((n) =>
        postSigned(url, request, SECRET, {
          timestamp: NOW_S,
          headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' },
        }),
      ),
    );
    expect(replays.map((r) => [r.status, r.text])).toEqual([
      [200, ''],
      [200, ''],
      [200, ''],
    ]);
    release();
    expect(ran).toEqual(['slow']);
  });
});
