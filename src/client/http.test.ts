import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  BEFORE_SEND_RETRY,
  type CallInfo,
  IDEMPOTENT_RETRY,
  mayHaveReachedService,
  NO_RETRY,
  parseRetryAfter,
  retryDelay,
} from './http.js';
import {
  ApiError,
  AuthError,
  createVideoClient,
  inProcessSupportMemory,
  NetworkError,
  NotFoundError,
  NotSupportedError,
  RAPID_RETRY,
  RateLimitError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  ValidationError,
  type VideoClientHandle,
  WhitelistConflictError,
} from './index.js';

/**
 * The transport against a scripted node:http server: status mapping, retries, Retry-After,
 * redirects and hooks. Contract behaviour against the sandbox lives in contract.test.ts.
 */

const API_KEY = 'unit-api-key-7f3a';
const SECRET_KEY = 'unit-secret-key-91bc';

interface Scripted {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Instead of `body`: this many bytes of JSON-ish text, sent in 64 KiB chunks as the socket takes them. */
  streamBytes?: number;
  /** Answer this long after the request was read (the service has acted by then). */
  delayMs?: number;
}

/** Bytes the scripted server managed to send of its last streamed answer. */
let streamed = 0;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

let server: http.Server;
let baseUrl: string;
let script: Scripted[] = [];
let seen: Seen[] = [];
let client: VideoClientHandle;
let calls: CallInfo[] = [];

function json(status: number, body: unknown, headers: Record<string, string> = {}): Scripted {
  return { status, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
}

function makeClient(overrides: Partial<Parameters<typeof createVideoClient>[0]> = {}): VideoClientHandle {
  return createVideoClient({
    baseUrl,
    apiKey: API_KEY,
    secretKey: SECRET_KEY,
    timeoutMs: 2_000,
    retryConversionMethod: 'auto',
    retryPolicy: RAPID_RETRY,
    onCall: (info) => calls.push(info),
    ...overrides,
  });
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const next = script.shift() ?? json(200, { allowedDNS: [] });
      const answer = (): void => {
        if (res.destroyed) return;
        res.writeHead(next.status, next.headers ?? {});
        if (next.streamBytes === undefined) {
          res.end(next.body ?? '');
          return;
        }
        const total = next.streamBytes;
        const chunk = Buffer.alloc(64 * 1024, 'x');
        streamed = 0;
        const pump = (): void => {
          while (streamed < total && !res.destroyed) {
            streamed += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end();
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      };
      if (next.delayMs === undefined) answer();
      else setTimeout(answer, next.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = [];
  seen = [];
  calls = [];
  client = makeClient();
});

afterEach(() => client.close());

function expectNoSecrets(error: unknown): void {
  const views = [JSON.stringify(error), inspect(error, { depth: 10 }), String(error)];
  if (error instanceof Error) views.push(error.stack ?? '');
  for (const view of views) {
    expect(view).not.toContain(API_KEY);
    expect(view).not.toContain(SECRET_KEY);
  }
}

describe('status mapping', () => {
  test.each([
    [401, 'AuthError', AuthError],
    [403, 'AuthError', AuthError],
    [404, 'NotFoundError', NotFoundError],
    [400, 'ValidationError', ValidationError],
    [422, 'ValidationError', ValidationError],
    [429, 'RateLimitError', RateLimitError],
    [500, 'ServerError', ServerError],
    [503, 'ServerError', ServerError],
    [409, 'ApiError', ApiError],
  ])('an answer %i becomes %s with the service message', async (status, _name, kind) => {
    // Enough answers for every retry of the idempotent policy.
    script = [0, 1, 2].map(() =>
      json(status, { statusCode: status, message: `says ${status}`, code: 'NOT_FOUND' }),
    );
    const error = await client.whitelist.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(kind);
    expect(error).toMatchObject({
      name: kind.name,
      status,
      operation: 'whitelist.get',
      method: 'GET',
      path: '/v1/storage/dns/whitelist',
    });
    expect((error as ApiError).message).toContain(`says ${status}`);
    expectNoSecrets(error);
  });

  test('a 400 naming a field gives that field to the caller', async () => {
    script = [json(400, { statusCode: 400, message: 'title: required', field: 'title' })];
    const error = await client.folders.create({ title: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual(['title']);
    expect((error as ValidationError).issues).toEqual(['title: required']);
  });

  test('a non-JSON error answer keeps its text in the body and the message', async () => {
    script = [
      {
        status: 502,
        body: '<html>Bad gateway from the proxy</html>',
        headers: { 'content-type': 'text/html' },
      },
    ];
    const error = await client.folders.create({ title: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ApiError).body).toBe('<html>Bad gateway from the proxy</html>');
    expect((error as ApiError).message).toContain('Bad gateway from the proxy');
  });

  test('an error answer echoing a key or a mobile number is cleaned before anyone sees it', async () => {
    script = [
      json(400, {
        message: `bad key ${API_KEY} for 09123456789`,
        detail: { secret: SECRET_KEY },
      }),
    ];
    const error = await client.viewers.unblock({ mobileNumber: '09123456789' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ApiError).body).toEqual({
      message: 'bad key [redacted] for 0912***6789',
      detail: { secret: '[redacted]' },
    });
    expect(inspect(error, { depth: 10 })).not.toContain('09123456789');
    expectNoSecrets(error);
  });

  test.each([
    ['405', { status: 405, body: '' }],
    [
      '404 ROUTE_NOT_FOUND',
      json(404, { statusCode: 404, message: 'route not found', code: 'ROUTE_NOT_FOUND' }),
    ],
    [
      '404 in HTML',
      { status: 404, body: 'Cannot GET /v1/playlist/all', headers: { 'content-type': 'text/html' } },
    ],
    ['404 "Cannot GET" of NestJS', json(404, { statusCode: 404, message: 'Cannot GET /v1/playlist/all' })],
  ])('an extra answered %s is not supported by this service', async (_label, answer) => {
    script = [answer];
    const error = await client.playlists.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotSupportedError);
    expect((error as Error).message).toContain('playlist.list is not supported by this service');
    expect(seen).toHaveLength(1);
  });

  test('a successful answer echoing the keys is stored and shown without them', async () => {
    script = [
      json(200, {
        _id: 'f1',
        title: `made with ${API_KEY}`,
        api_key: API_KEY,
        owner: { secretKey: 'a-value-that-is-not-ours', apiKey: 'another', Secret_Key: 7 },
        log: [`headers: api_key=${API_KEY} secret_key=${SECRET_KEY}`],
        viewer: '09123456789',
      }),
    ];
    const answer = await client.folders.create({ title: 'x' });
    expect(answer.raw).toEqual({
      _id: 'f1',
      title: 'made with [redacted]',
      api_key: '[redacted]',
      owner: { secretKey: '[redacted]', apiKey: '[redacted]', Secret_Key: '[redacted]' },
      log: ['headers: api_key=[redacted] secret_key=[redacted]'],
      // The store keeps numbers whole; they are masked where people read them.
      viewer: '09123456789',
    });
  });

  test('a text answer echoing a key loses it too', async () => {
    script = [{ status: 200, body: `ok ${SECRET_KEY}`, headers: { 'content-type': 'text/plain' } }];
    const answer = await client.folders.create({ title: 'x' });
    expect(JSON.stringify(answer.raw)).not.toContain(SECRET_KEY);
  });

  test('an error answer with a key member loses its value', async () => {
    script = [json(400, { message: 'bad', echo: { api_key: 'whatever-was-sent' } })];
    const error = await client.folders.create({ title: 'x' }).catch((e: unknown) => e);
    expect((error as ApiError).body).toEqual({ message: 'bad', echo: { api_key: '[redacted]' } });
  });

  test('an extra that has answered 200 before and now answers 404 NOT_FOUND: an unknown ID, not a missing feature', async () => {
    script = [json(404, { statusCode: 404, message: 'playlist p1 not found', code: 'NOT_FOUND' })];
    const learned = makeClient({ supportMemory: inProcessSupportMemory(['playlist.info']) });
    await expect(learned.playlists.info('p1')).rejects.toBeInstanceOf(NotFoundError);
    learned.close();
  });

  test('a redirect is not followed, so the keys never travel to another host', async () => {
    script = [{ status: 302, headers: { location: 'http://127.0.0.2:9/elsewhere' } }];
    const error = await client.folders.create({ title: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(302);
    expect(seen).toHaveLength(1);
  });
});

describe('answers larger than 1 MiB', () => {
  const FIFTY_MB = 50 * 1024 * 1024;

  test.each([
    ['with its length announced', { 'content-type': 'application/json', 'content-length': String(FIFTY_MB) }],
    ['sent in chunks without a length', { 'content-type': 'application/json' }],
  ])(
    'a 50 MB answer %s is cut off unread, and a create is told its outcome is unknown',
    async (_how, headers) => {
      script = [{ status: 200, headers, streamBytes: FIFTY_MB }];
      const error = await client.folders.create({ title: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      // A TimeoutError: the request was sent, so whether a change was applied is not known.
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toBe(
        "The service's answer to POST /v1/storage/bucket (folder.create) was larger than 1 MiB; not read",
      );
      expect(seen).toHaveLength(1);
      // The client stopped reading: the server could not push much past the cap into the socket.
      expect(streamed).toBeLessThan(16 * 1024 * 1024);
      expectNoSecrets(error);
    },
  );

  test('an oversized answer to a read is not fetched again: the same answer would come back', async () => {
    script = [
      { status: 200, headers: { 'content-type': 'application/json' }, streamBytes: 2 * 1024 * 1024 },
      json(200, { allowedDNS: [] }),
    ];
    await expect(client.whitelist.get()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(seen).toHaveLength(1);
  });

  test('an answer just under 1 MiB is read', async () => {
    const big = JSON.stringify({ allowedDNS: [], pad: 'x'.repeat(1024 * 1024 - 100) });
    script = [{ status: 200, body: big, headers: { 'content-type': 'application/json' } }];
    await expect(client.whitelist.get()).resolves.toEqual([]);
  });
});

describe('retries', () => {
  test('a read answered 500 then 200 is retried and reported per attempt', async () => {
    script = [json(500, { message: 'boom' }), json(200, { allowedDNS: ['10.0.0.1'] })];
    await expect(client.whitelist.get()).resolves.toEqual(['10.0.0.1']);
    expect(seen).toHaveLength(2);
    expect(calls.map((c) => [c.attempt, c.status, c.error?.split(':')[0]])).toEqual([
      [1, 500, 'ServerError'],
      [2, 200, undefined],
    ]);
    expect(calls[0]).toMatchObject({
      operation: 'whitelist.get',
      method: 'GET',
      path: '/v1/storage/dns/whitelist',
    });
  });

  test('a 429 with Retry-After within the cap is waited for, then retried', async () => {
    script = [json(429, { message: 'slow down' }, { 'retry-after': '0' }), json(200, ['10.0.0.2'])];
    await expect(client.whitelist.get()).resolves.toEqual(['10.0.0.2']);
    expect(seen).toHaveLength(2);
  });

  test('a 429 asking for longer than the cap goes straight to the caller with the hint', async () => {
    script = [json(429, { message: 'slow down' }, { 'retry-after': '120' })];
    const error = await client.whitelist.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(120);
    expect(seen).toHaveLength(1);
  });

  test('a 4xx other than 429 is never retried', async () => {
    script = [json(401, { message: 'bad keys' })];
    await expect(client.whitelist.get()).rejects.toBeInstanceOf(AuthError);
    expect(seen).toHaveLength(1);
  });

  test('a refused connection is a NetworkError, retried up to the policy and then reported', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = makeClient({ baseUrl: `http://127.0.0.1:${port}` });
    const error = await offline.whitelist.get().catch((e: unknown) => e);
    offline.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    expect(calls).toHaveLength(RAPID_RETRY.maxAttempts);
    expectNoSecrets(error);
  });

  test('the hook failing does not fail the call', async () => {
    const noisy = makeClient({
      onCall: () => {
        throw new Error('metrics down');
      },
    });
    script = [json(200, { allowedDNS: ['10.0.0.3'] })];
    await expect(noisy.whitelist.get()).resolves.toEqual(['10.0.0.3']);
    noisy.close();
  });
});

/** A port nothing listens on: connecting to it is refused before a byte is sent. */
async function refusedUrl(): Promise<string> {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('deletes are repeated only when they certainly did not reach the service', () => {
  const deletes = [
    ['folder', () => client.folders.delete({ bucketId: 'b1' }), '/v1/storage/bucket'],
    ['file', () => client.files.delete({ fileId: 'f1' }), '/v1/storage/bucket/file'],
    ['playlist', () => client.playlists.delete({ playlistId: 'p1' }), '/v1/playlist'],
  ] as const;

  test.each(deletes)('a %s delete whose answer comes after the timeout is sent once', async (_k, run) => {
    client.close();
    client = makeClient({ timeoutMs: 100 });
    script = [0, 1, 2].map(() => ({ ...json(200, { deleted: true }), delayMs: 400 }));
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(mayHaveReachedService(error)).toBe(true);
    expect(seen.filter((s) => s.method === 'DELETE')).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  test.each(deletes)('a %s delete answered 500 or 503 is sent once', async (_k, run) => {
    script = [json(503, { message: 'busy' }), json(200, { deleted: true })];
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(mayHaveReachedService(error)).toBe(true);
    expect(seen).toHaveLength(1);
  });

  test.each(deletes)(
    'a %s delete answered 429 is sent again, and its second answer counts',
    async (_k, run, path) => {
      script = [json(429, { message: 'slow down' }, { 'retry-after': '0' }), json(200, { deleted: true })];
      await expect(run()).resolves.toEqual({ raw: { deleted: true } });
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`DELETE ${path}`, `DELETE ${path}`]);
    },
  );

  test('a delete whose connection is refused is tried again up to the policy, then reported', async () => {
    const offline = makeClient({ baseUrl: await refusedUrl() });
    const error = await offline.folders.delete({ bucketId: 'b1' }).catch((e: unknown) => e);
    offline.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    expect(mayHaveReachedService(error)).toBe(false);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
  });

  test('a delete whose connection drops after sending is not repeated', async () => {
    const dropping = http.createServer((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    const reset = makeClient({ baseUrl: url });
    const error = await reset.folders.delete({ bucketId: 'b1' }).catch((e: unknown) => e);
    reset.close();
    await new Promise<void>((resolve) => dropping.close(() => resolve()));
    expect(error).toBeInstanceOf(NetworkError);
    expect(mayHaveReachedService(error)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  test('an edit whose answer comes after the timeout keeps its retries (same end state)', async () => {
    client.close();
    client = makeClient({ timeoutMs: 100 });
    script = [{ ...json(200, {}), delayMs: 400 }, json(200, { _id: 'b1', title: 'T' })];
    await expect(client.folders.edit({ bucketId: 'b1', title: 'T' })).resolves.toMatchObject({ id: 'b1' });
    expect(seen.filter((s) => s.method === 'PATCH')).toHaveLength(2);
  });
});

describe('retry policy rules', () => {
  const at = (status: number, retryAfterSeconds: number | null = null) => {
    const details = { status, body: null, operation: 'op', method: 'GET', path: '/v1/x' };
    if (status === 429) return new RateLimitError('', { ...details, retryAfterSeconds });
    return status >= 500 ? new ServerError('', details) : new AuthError('', details);
  };
  const base = { status: null, body: null, operation: 'op', method: 'DELETE', path: '/v1/x' };
  const network = (code: string) => new NetworkError('', { ...base, code });
  const timeout = () => new TimeoutError('', base);

  test.each([
    ['a timeout', true, timeout()],
    ['a reset connection', true, network('ECONNRESET')],
    ['a refused connection', false, network('ECONNREFUSED')],
    ['a name that does not resolve', false, network('EAI_AGAIN')],
    ['a 503', true, at(503)],
    ['a 429', false, at(429)],
    ['a 401', false, at(401)],
    ['a request refused before sending', false, new ValidationError('', base)],
    [
      'a whitelist changed since the request',
      false,
      new WhitelistConflictError('', { ...base, expected: [], actual: [] }),
    ],
    ['an answer that could not be read', true, new ApiError('', base)],
    ['something that is no call', false, new Error('bug')],
  ])('after %s the service may have acted: %s', (_label, may, error) => {
    expect(mayHaveReachedService(error)).toBe(may);
  });

  test.each([
    ['idempotent, 500, first attempt', IDEMPOTENT_RETRY, at(500), 1, [100, 200]],
    ['idempotent, 500, second attempt', IDEMPOTENT_RETRY, at(500), 2, [200, 400]],
    ['idempotent, 500, last attempt', IDEMPOTENT_RETRY, at(500), 3, null],
    ['idempotent, 401', IDEMPOTENT_RETRY, at(401), 1, null],
    ['idempotent, 429 Retry-After 3 s', IDEMPOTENT_RETRY, at(429, 3), 1, [3000, 3000]],
    ['idempotent, 429 Retry-After 60 s (over the cap)', IDEMPOTENT_RETRY, at(429, 60), 1, null],
    ['none, 500', NO_RETRY, at(500), 1, null],
    ['before-send only, 500', BEFORE_SEND_RETRY, at(500), 1, null],
    ['before-send only, 429 Retry-After 3 s', BEFORE_SEND_RETRY, at(429, 3), 1, [3000, 3000]],
    ['before-send only, refused', BEFORE_SEND_RETRY, network('ECONNREFUSED'), 1, [100, 200]],
    ['before-send only, name not resolved', BEFORE_SEND_RETRY, network('ENOTFOUND'), 2, [200, 400]],
    ['before-send only, reset', BEFORE_SEND_RETRY, network('ECONNRESET'), 1, null],
    ['before-send only, timeout', BEFORE_SEND_RETRY, timeout(), 1, null],
    ['idempotent, reset', IDEMPOTENT_RETRY, network('ECONNRESET'), 1, [100, 200]],
    ['idempotent, timeout', IDEMPOTENT_RETRY, timeout(), 1, [100, 200]],
  ] as const)('%s', (_label, policy, error, attempt, range) => {
    const low = retryDelay(policy, attempt, error, () => 0);
    const high = retryDelay(policy, attempt, error, () => 1);
    if (range === null) {
      expect(low).toBeNull();
      expect(high).toBeNull();
    } else {
      expect([low, high]).toEqual(range);
    }
  });

  test.each([
    ['5', 5],
    ['0', 0],
    ['Wed, 21 Oct 2015 07:28:10 GMT', 10],
    ['soon', null],
    [undefined, null],
  ])('Retry-After %p is %p seconds', (header, seconds) => {
    expect(parseRetryAfter(header, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(seconds);
  });
});
