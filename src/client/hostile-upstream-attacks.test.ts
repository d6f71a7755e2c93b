import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { judgeFailure } from '../services/execute.js';
import { mayHaveReachedService } from './http.js';
import { ApiError, createVideoClient, RAPID_RETRY, TimeoutError, type VideoClientHandle } from './index.js';

/**
 * The video service answering what it should not (compromised, buggy, or a man in the middle),
 * against a scripted node:http server: keys echoed where the redaction does not look, statuses
 * that do not say whether a change was made, lists vidops cannot read whole, answers that never
 * end or nest without end. End-to-end effects (store, Slack) are in
 * test/e2e/hostile-upstream-attacks.test.ts.
 */

const API_KEY = 'hostile-api-key-5d2e8c';
const SECRET_KEY = 'hostile-secret-key-0a9f4b';

interface Scripted {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Send the headers, then one byte every this many ms, never ending. */
  dripMs?: number;
}

interface Seen {
  method: string;
  url: string;
  body: string;
}

let server: http.Server;
let baseUrl: string;
let script: Scripted[] = [];
let seen: Seen[] = [];
let client: VideoClientHandle;
const drips = new Set<NodeJS.Timeout>();

function json(status: number, body: unknown): Scripted {
  return { status, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const next = script.shift() ?? json(200, {});
      res.writeHead(next.status, next.headers ?? { 'content-type': 'application/json' });
      if (next.dripMs === undefined) {
        res.end(next.body ?? '');
        return;
      }
      res.write('{"_id":"f1","pad":"');
      const timer = setInterval(() => {
        if (res.destroyed) {
          clearInterval(timer);
          drips.delete(timer);
          return;
        }
        res.write('x');
      }, next.dripMs);
      drips.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const timer of drips) clearInterval(timer);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = [];
  seen = [];
  client = createVideoClient({
    baseUrl,
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    timeoutMs: 400,
    retryConversionMethod: 'auto',
    retryPolicy: RAPID_RETRY,
  });
});

afterEach(() => client.close());

describe('the keys echoed back', () => {
  it('the service echoes the API key as a member name of a created folder: the answer vidops stores and audits does not hold it', async () => {
    script = [json(200, { _id: 'b1', title: 'T', grants: { [API_KEY]: 'owner', [SECRET_KEY]: 'signer' } })];
    const folder = await client.folders.create({ title: 'T' });
    const stored = JSON.stringify(folder.raw);
    // Today the member names stay as they came: `{"grants":{"hostile-api-key-5d2e8c":"owner",…}}`,
    // and the unblock/created answer goes whole into the audit log.
    expect({ api: stored.includes(API_KEY), secret: stored.includes(SECRET_KEY) }).toEqual({
      api: false,
      secret: false,
    });
  });
});

describe('statuses that do not say whether the change was made', () => {
  it('a folder create answered 303 See Other (made, and pointing at the new folder) is recorded unknown, not failed', async () => {
    script = [{ status: 303, headers: { location: '/v1/storage/bucket/b-new' } }];
    const error = await client.folders.create({ title: 'T' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
    // Today a 3xx counts as a refusal ("certainly did not act"): the request is recorded failed,
    // and someone may create the folder a second time.
    expect({
      reached: mayHaveReachedService(error),
      outcome: judgeFailure('folder.create', error, false).kind,
    }).toEqual({
      reached: true,
      outcome: 'unknown',
    });
  });

  it('a folder create whose answer starts and then drips forever is cut off at the timeout and recorded unknown', async () => {
    script = [{ status: 200, dripMs: 50 }];
    const started = performance.now();
    const error = await client.folders.create({ title: 'T' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(seen).toHaveLength(1);
    expect(judgeFailure('folder.create', error, false).kind).toBe('unknown');
  });

  it('a folder create answered with JSON nested 5,000 levels deep fails as a call that may have reached the service, without taking the process down', async () => {
    script = [{ status: 200, body: `{"_id":"b1","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}` }];
    const error = await client.folders.create({ title: 'T' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(judgeFailure('folder.create', error, false).kind).toBe('unknown');
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });
});

describe('a whitelist vidops cannot read whole', () => {
  it('a lead adds an address while the service lists an entry vidops cannot read: vidops does not post a list that silently drops it', async () => {
    const held = { allowedDNS: ['1.2.3.4', { cidr: '10.0.0.0/8' }] };
    script = [json(200, held), json(200, { ok: true }), json(200, { allowedDNS: ['1.2.3.4', '5.6.7.8'] })];
    const result = await client.whitelist
      .replace(['1.2.3.4', '5.6.7.8'], { expectBefore: ['1.2.3.4'] })
      .catch((e: unknown) => e);
    const posted = seen.filter((s) => s.method === 'POST').map((s) => s.body);
    // Today the read skips the object it cannot read, the request matches "1.2.3.4", and the POST
    // of the full list `{"allowedDNS":["1.2.3.4","5.6.7.8"]}` removes 10.0.0.0/8 unseen.
    expect({ posted, refused: result instanceof ApiError }).toEqual({ posted: [], refused: true });
  });
});
