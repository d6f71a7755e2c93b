/**
 * The video service turned hostile (compromised, buggy, or a man in the middle): a proxy in front
 * of the sandbox forges the answers of chosen routes, and the real Bolt app is driven through the
 * Slack emulator. What must hold: a clear message, an outcome recorded (unknown when it is not
 * known), no secret and no live mention in what people read, no long block of the event loop.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEvent } from '../../src/core/model.js';
import type { RecordedCall } from '../../src/emulator/index.js';
import { DEMO } from '../../src/sandbox/server.js';
import { type Harness, seedWorkspace, startHarness } from './app-harness.js';
import { notificationsDone, readable } from './change-helpers.js';

const UNBLOCK_PATH = '/v1/analysis/user/video/anomaly';

interface Forged {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Answers of the hostile service by `METHOD path`; anything else is passed to the sandbox. */
const forged = new Map<string, Forged>();
let target = '';
let proxy: http.Server;
let h: Harness;

function startProxy(): Promise<string> {
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const answer = forged.get(`${req.method ?? ''} ${path}`);
      if (answer !== undefined) {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body);
        return;
      }
      const upstream = http.request(
        `${target}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.end(Buffer.concat(chunks));
    });
  });
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  const url = await startProxy();
  h = await startHarness({ env: { VIDEO_API_URL: url } });
  target = h.sandbox.url;
});

afterAll(async () => {
  await h.stop();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
});

beforeEach(async () => {
  await notificationsDone(h);
  h.clock.advance(2 * 3_600_000);
  forged.clear();
  h.sandbox.reset();
  h.slack.reset();
  seedWorkspace(h.slack);
});

/** Every text Slack parses as mrkdwn in the messages, ephemeral replies and updates sent so far. */
function everythingSlackGot(): string {
  const calls: RecordedCall[] = [
    ...h.slack.callsTo('chat.postMessage'),
    ...h.slack.callsTo('chat.update'),
    ...h.slack.callsTo('chat.postEphemeral'),
  ];
  return JSON.stringify(calls.map((c) => c.args));
}

/** The highest audit sequence number so far, so a test looks only at its own events. */
async function lastSeq(): Promise<number> {
  const [event] = await h.store.listAudit({ last: 1 });
  return event?.seq ?? 0;
}

const SETTLED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'unknown']);

/** The event that settled the first unblock after `after`, or null when none came in time. */
async function settledUnblock(after: number): Promise<AuditEvent | null> {
  return h
    .waitForAudit((e) => e.seq > after && e.operation === 'viewer.unblock' && SETTLED.has(e.type), 4000)
    .catch(() => null);
}

async function unblockReply(): Promise<string> {
  const sent = await h.slash('unblock 0912 123 4567');
  expect(sent.status).toBe(200);
  return readable(await sent.reply(15_000));
}

describe('answers the store cannot hold', () => {
  it('the service answers an unblock with JSON nested 3,000 levels deep: the request still ends in a recorded outcome', async () => {
    const after = await lastSeq();
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    forged.set(`POST ${UNBLOCK_PATH}`, { status: 200, body: `{"unblocked":true,"trace":${deep}}` });
    const reply = await unblockReply();
    const settled = await settledUnblock(after);
    // Today: "Something went wrong inside vidops", SQLite refuses the JSON (depth > 1000) and the
    // request stays `executing` with no outcome in the audit log, though the service acted.
    expect({ reply, settled: settled?.type ?? 'none' }).toEqual({
      reply: expect.not.stringContaining('Something went wrong') as unknown as string,
      settled: expect.stringMatching(/^(succeeded|failed|unknown)$/) as unknown as string,
    });
  });

  it('the service answers an unblock with a number beyond a double (1e400): the request still ends in a recorded outcome', async () => {
    const after = await lastSeq();
    forged.set(`POST ${UNBLOCK_PATH}`, { status: 200, body: '{"unblocked":true,"quota":1e400}' });
    const reply = await unblockReply();
    const settled = await settledUnblock(after);
    // Today: JSON.parse gives Infinity, canonicalJson throws "numbers must be finite", the
    // request stays `executing` and the agent reads "Something went wrong inside vidops".
    expect({ reply, settled: settled?.type ?? 'none' }).toEqual({
      reply: expect.not.stringContaining('Something went wrong') as unknown as string,
      settled: expect.stringMatching(/^(succeeded|failed|unknown)$/) as unknown as string,
    });
  });
});

describe("hostile text in the service's own words", () => {
  it('the service refuses an unblock with mentions, a forged link, the secret key, a mobile number and an override in its message: Slack gets none of them live', async () => {
    forged.set(`POST ${UNBLOCK_PATH}`, {
      status: 400,
      body: JSON.stringify({
        message: `<!channel> <!here> <@U0LEAD1> <https://evil.example|Approve> ${DEMO.secretKey} 09351112233 \u202eevil`,
        detail: { echo: `${DEMO.apiKey} 0935 111 2233` },
      }),
    });
    const reply = await unblockReply();
    await notificationsDone(h);
    const slack = everythingSlackGot();
    expect(reply).toContain('400');
    for (const leak of [
      '<!channel>',
      '<!here>',
      '<@U0LEAD1>',
      '<https://evil',
      DEMO.secretKey,
      DEMO.apiKey,
      '09351112233',
      '\u202e',
    ]) {
      expect({ leak, inReply: reply.includes(leak), inSlack: slack.includes(leak) }).toEqual({
        leak,
        inReply: false,
        inSlack: false,
      });
    }
  });
});

describe('answers as large as the client reads', () => {
  it('the service answers an unblock with 1 MiB of mobile numbers: the agent reads its start, every number masked, and the unblock is recorded', async () => {
    // The reply once scrubbed the whole answer before showing 300 characters of it (half a second
    // of a held event loop); src/views/everyday.test.ts times compactAnswer alone.
    const after = await lastSeq();
    const log = Array.from({ length: 70_000 }, (_, i) => `09121${String(i).padStart(6, '0')}`);
    forged.set(`POST ${UNBLOCK_PATH}`, { status: 200, body: JSON.stringify({ unblocked: true, log }) });
    const reply = await unblockReply();
    expect(reply).toContain('0912***0000');
    expect(reply).not.toMatch(/09121\d{6}/);
    expect((await settledUnblock(after))?.type).toBe('succeeded');
  });
});
