import { inspect } from 'node:util';
import { sandboxClient } from '../../test/sandbox-client.js';
import type { JsonValue } from '../core/json.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type RecordedRequest, type Sandbox, startSandbox } from '../sandbox/server.js';
import {
  ApiError,
  AuthError,
  EXTRA_ROUTES,
  inProcessSupportMemory,
  NetworkError,
  NotFoundError,
  NotSupportedError,
  RAPID_RETRY,
  ServerError,
  TimeoutError,
  ValidationError,
  type VideoClientHandle,
  type VideoClientOptions,
  WhitelistConflictError,
  WhitelistMismatchError,
} from './index.js';
import type { MethodMemory, VideoClient } from './types.js';

/**
 * Contract of the client against the sandbox over real HTTP: for every operation, the exact
 * request that reaches the service, refusal before sending, wrong keys and unknown IDs; then the
 * faults the service may throw at it.
 * @see docs/api.md, "Endpoints"
 */

const WRONG_API_KEY = 'wrong-api-key-5d1e';
const WRONG_SECRET_KEY = 'wrong-secret-key-a0c7';
const SECRETS = [DEMO.apiKey, DEMO.secretKey, WRONG_API_KEY, WRONG_SECRET_KEY];
const UNKNOWN_ID = '6710ffffffffffffffffffff';
const { files: FILES, folders: FOLDERS, playlists: PLAYLISTS } = DEMO;
const [FAILED_A, FAILED_B] = DEMO.failedFileIds;
const RETRY_PATH = '/v1/storage/bucket/file/queue/retry';

let sandbox: Sandbox;
const clients: VideoClientHandle[] = [];

function makeClient(overrides: Partial<VideoClientOptions> = {}): VideoClientHandle {
  const client = sandboxClient(sandbox.url, overrides);
  clients.push(client);
  return client;
}

/** Awaits the rejection, checks that no key leaks through any view of the error, returns it. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const views = [
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    String(error),
    (error as Error).stack ?? '',
  ];
  for (const view of views) for (const secret of SECRETS) expect(view).not.toContain(secret);
  return error as ApiError;
}

/** The `/v1` requests recorded, without the time of arrival. */
function recorded(): Omit<RecordedRequest, 'at'>[] {
  return sandbox.requests().map(({ at: _at, ...rest }) => rest);
}

function only(): Omit<RecordedRequest, 'at'> {
  const list = recorded();
  expect(list).toHaveLength(1);
  return list[0] as Omit<RecordedRequest, 'at'>;
}

function expectKeysSent(request: Omit<RecordedRequest, 'at'>): void {
  expect(request.headers).toMatchObject({
    api_key: '[redacted]',
    secret_key: '[redacted]',
    accept: 'application/json',
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, conversionDelayMs: 60_000 });
});

afterAll(async () => {
  for (const client of clients) client.close();
  await sandbox.close();
});

beforeEach(() => sandbox.reset());

interface OperationCase {
  name: string;
  call: (client: VideoClient) => Promise<unknown>;
  /** The one request that must reach the service. */
  request: {
    method: string;
    path: string;
    query?: Record<string, string>;
    body: JsonValue;
    /** Sent as multipart/form-data (op 8), not JSON. */
    multipart?: true;
  };
  /** What the client answered, in part. */
  answer?: (result: unknown) => void;
  /** A call the client must refuse before sending, and a field it must name. */
  invalid?: { call: (client: VideoClient) => Promise<unknown>; field: string };
  /** The same call about an ID nobody knows. */
  unknownId?: (client: VideoClient) => Promise<unknown>;
}

const cover = {
  data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]),
  filename: 'cover.png',
  contentType: 'image/png',
};

const OPERATIONS: OperationCase[] = [
  {
    name: 'op 2: agent reads the whitelist',
    call: (c) => c.whitelist.get(),
    request: { method: 'GET', path: '/v1/storage/dns/whitelist', body: null },
  },
  {
    name: 'op 4: agent reads the protection settings',
    call: (c) => c.protection.get(),
    request: { method: 'GET', path: '/v1/storage/protect/config', body: null },
    answer: (r) =>
      expect(r).toMatchObject({ fontColor: '#ffff00', opacity: 0.6, link: { expireTime: '2h' } }),
  },
  {
    name: 'op 3: lead-approved change sends only the changed settings',
    call: (c) => c.protection.update({ opacity: 0.3, fontColor: '#4b0082', link: { expireTime: '1d' } }),
    request: {
      method: 'POST',
      path: '/v1/storage/protect/config',
      body: { opacity: 0.3, fontColor: '#4b0082', link: { expireTime: '1d' } },
    },
    invalid: { call: (c) => c.protection.update({ opacity: 1.5 }), field: 'opacity' },
  },
  {
    name: 'op 5: lead creates a folder',
    call: (c) => c.folders.create({ title: 'Webinars', description: 'Recorded sessions' }),
    request: {
      method: 'POST',
      path: '/v1/storage/bucket',
      body: { title: 'Webinars', description: 'Recorded sessions' },
    },
    answer: (r) =>
      expect(r).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{24}$/), title: 'Webinars' }),
    invalid: { call: (c) => c.folders.create({ title: '   ' }), field: 'title' },
  },
  {
    name: 'op 6: lead renames a folder',
    call: (c) => c.folders.edit({ bucketId: FOLDERS.lectures, title: 'Lectures 2025' }),
    request: {
      method: 'PATCH',
      path: '/v1/storage/bucket',
      body: { bucketId: FOLDERS.lectures, title: 'Lectures 2025' },
    },
    answer: (r) => expect(r).toMatchObject({ id: FOLDERS.lectures, title: 'Lectures 2025', filesCount: 5 }),
    invalid: { call: (c) => c.folders.edit({ bucketId: 'a/b', title: 'x' }), field: 'bucketId' },
    unknownId: (c) => c.folders.edit({ bucketId: UNKNOWN_ID, title: 'x' }),
  },
  {
    name: 'op 7: lead deletes a folder',
    call: (c) => c.folders.delete({ bucketId: FOLDERS.marketing }),
    request: { method: 'DELETE', path: '/v1/storage/bucket', body: { bucketId: FOLDERS.marketing } },
    invalid: { call: (c) => c.folders.delete({ bucketId: '' }), field: 'bucketId' },
    unknownId: (c) => c.folders.delete({ bucketId: UNKNOWN_ID }),
  },
  {
    name: 'op 8: lead edits a file with a new cover (multipart)',
    call: (c) =>
      c.files.edit({ fileId: FILES.lecture1, title: 'Intro, revised', description: 'New cut', cover }),
    request: {
      method: 'POST',
      path: `/v1/storage/bucket/file/${FILES.lecture1}`,
      multipart: true,
      body: {
        fields: { fileId: FILES.lecture1, title: 'Intro, revised', description: 'New cut' },
        files: [{ field: 'file', filename: 'cover.png', size: 8, contentType: 'image/png' }],
      },
    },
    answer: (r) => expect(r).toMatchObject({ id: FILES.lecture1, title: 'Intro, revised' }),
    invalid: {
      call: (c) =>
        c.files.edit({ fileId: FILES.lecture1, title: 'x', cover: { ...cover, contentType: 'text/plain' } }),
      field: 'cover.contentType',
    },
    unknownId: (c) => c.files.edit({ fileId: UNKNOWN_ID, title: 'x' }),
  },
  {
    name: 'op 9: lead deletes a file',
    call: (c) => c.files.delete({ fileId: FILES.trailer }),
    request: { method: 'DELETE', path: '/v1/storage/bucket/file', body: { fileId: FILES.trailer } },
    invalid: { call: (c) => c.files.delete({ fileId: 'two words' }), field: 'fileId' },
    unknownId: (c) => c.files.delete({ fileId: UNKNOWN_ID }),
  },
  {
    name: 'op 10: agent retries a failed conversion (POST first)',
    call: (c) => c.files.retryConversion({ fileId: FAILED_A as string }),
    request: { method: 'POST', path: RETRY_PATH, body: { fileId: FAILED_A as string } },
    answer: (r) => expect(r).toEqual({ raw: { _id: FAILED_A, hlsStatus: 'waiting' } }),
    invalid: { call: (c) => c.files.retryConversion({ fileId: '' }), field: 'fileId' },
    unknownId: (c) => c.files.retryConversion({ fileId: UNKNOWN_ID }),
  },
  {
    name: 'op 11: lead edits a playlist (PUT)',
    call: (c) =>
      c.playlists.edit({
        playlistId: PLAYLISTS.gettingStarted,
        title: 'Start here',
        files: [{ _id: FILES.lecture2 }, { _id: FILES.lecture1, title: 'First' }],
      }),
    request: {
      method: 'PUT',
      path: '/v1/playlist',
      body: {
        playlistId: PLAYLISTS.gettingStarted,
        title: 'Start here',
        files: [{ _id: FILES.lecture2 }, { _id: FILES.lecture1, title: 'First' }],
      },
    },
    answer: (r) =>
      expect(r).toMatchObject({
        id: PLAYLISTS.gettingStarted,
        title: 'Start here',
        files: [{ _id: FILES.lecture2 }, { _id: FILES.lecture1, title: 'First' }],
      }),
    invalid: {
      call: (c) => c.playlists.edit({ playlistId: PLAYLISTS.gettingStarted, files: [{ _id: '' }] }),
      field: 'files.0._id',
    },
    unknownId: (c) => c.playlists.edit({ playlistId: UNKNOWN_ID, title: 'x' }),
  },
  {
    name: 'op 12: lead deletes a playlist',
    call: (c) => c.playlists.delete({ playlistId: PLAYLISTS.podcastHighlights }),
    request: { method: 'DELETE', path: '/v1/playlist', body: { playlistId: PLAYLISTS.podcastHighlights } },
    invalid: { call: (c) => c.playlists.delete({ playlistId: ' ' }), field: 'playlistId' },
    unknownId: (c) => c.playlists.delete({ playlistId: UNKNOWN_ID }),
  },
  {
    name: 'op 13: agent unblocks a viewer',
    call: (c) => c.viewers.unblock({ mobileNumber: '09121234567' }),
    request: {
      method: 'POST',
      path: '/v1/analysis/user/video/anomaly',
      body: { mobileNumber: '09121234567' },
    },
    invalid: { call: (c) => c.viewers.unblock({ mobileNumber: '0912 123 4567' }), field: 'mobileNumber' },
  },
  {
    name: 'extra: agent lists folders',
    call: (c) => c.folders.list({ sortBy: '_id:asc', limit: 2, currentPage: 1 }),
    request: {
      method: 'GET',
      path: '/v1/storage/bucket/all',
      query: { sortBy: '_id:asc', limit: '2', currentPage: '1' },
      body: null,
    },
    answer: (r) =>
      expect(r).toMatchObject({ total: 3, items: [{ id: FOLDERS.lectures }, { id: FOLDERS.podcasts }] }),
    invalid: { call: (c) => c.folders.list({ limit: 0 }), field: 'limit' },
  },
  {
    name: 'extra: agent looks at a folder',
    call: (c) => c.folders.info(FOLDERS.podcasts),
    request: {
      method: 'GET',
      path: '/v1/storage/bucket/info',
      query: { bucketId: FOLDERS.podcasts },
      body: null,
    },
    answer: (r) => expect(r).toMatchObject({ id: FOLDERS.podcasts, filesCount: 4 }),
    invalid: { call: (c) => c.folders.info(''), field: 'bucketId' },
    unknownId: (c) => c.folders.info(UNKNOWN_ID),
  },
  {
    name: 'extra: agent lists failed conversions',
    call: (c) => c.files.list({ hlsStatus: 'failed', listOfId: [...DEMO.failedFileIds] }),
    request: {
      method: 'GET',
      path: '/v1/storage/bucket/file/all',
      query: { hlsStatus: 'failed', listOfId: DEMO.failedFileIds.join(',') },
      body: null,
    },
    answer: (r) =>
      expect(r).toMatchObject({
        total: 3,
        items: expect.arrayContaining([expect.objectContaining({ hlsStatus: 'failed' })]),
      }),
    invalid: { call: (c) => c.files.list({ listOfId: [] }), field: 'listOfId' },
  },
  {
    name: 'extra: agent looks at a file',
    call: (c) => c.files.info(FILES.lecture3),
    request: {
      method: 'GET',
      path: '/v1/storage/bucket/file/info',
      query: { fileId: FILES.lecture3 },
      body: null,
    },
    answer: (r) =>
      expect(r).toMatchObject({ id: FILES.lecture3, bucketId: FOLDERS.lectures, hlsStatus: 'failed' }),
    invalid: { call: (c) => c.files.info('a b'), field: 'fileId' },
    unknownId: (c) => c.files.info(UNKNOWN_ID),
  },
  {
    name: 'extra: lead creates a playlist',
    call: (c) => c.playlists.create({ title: 'Onboarding' }),
    request: { method: 'POST', path: '/v1/playlist', body: { title: 'Onboarding' } },
    answer: (r) => expect(r).toMatchObject({ title: 'Onboarding', files: [] }),
    invalid: { call: (c) => c.playlists.create({ title: '' }), field: 'title' },
  },
  {
    name: 'extra: agent lists playlists',
    call: (c) => c.playlists.list(),
    request: { method: 'GET', path: '/v1/playlist/all', body: null },
    answer: (r) => expect(r).toMatchObject({ total: 2 }),
    invalid: { call: (c) => c.playlists.list({ sortBy: 'title desc' }), field: 'sortBy' },
  },
  {
    name: 'extra: agent looks at a playlist',
    call: (c) => c.playlists.info(PLAYLISTS.gettingStarted),
    request: {
      method: 'GET',
      path: '/v1/playlist',
      query: { playlistId: PLAYLISTS.gettingStarted },
      body: null,
    },
    answer: (r) => expect(r).toMatchObject({ id: PLAYLISTS.gettingStarted }),
    invalid: { call: (c) => c.playlists.info(''), field: 'playlistId' },
    unknownId: (c) => c.playlists.info(UNKNOWN_ID),
  },
  {
    name: 'extra: agent looks viewers up before unblocking',
    call: (c) => c.viewers.lookup(['09121234567', '09123456789']),
    request: {
      method: 'GET',
      path: '/v1/analysis/content/video/all',
      query: { search: '09121234567,09123456789' },
      body: null,
    },
    answer: (r) =>
      expect(r).toMatchObject({
        total: 2,
        items: expect.arrayContaining([
          expect.objectContaining({ mobileNumber: '09121234567', actionType: 'attacker', blocked: true }),
        ]),
      }),
    invalid: { call: (c) => c.viewers.lookup([]), field: 'search' },
  },
  {
    name: 'extra: support makes a test playback link',
    call: (c) => c.links.generate({ fileId: FILES.lecture1, mobileNumber: '09123456789', expireTime: '30m' }),
    request: {
      method: 'POST',
      path: '/v1/storage/bucket/file/generate/link',
      body: { fileId: FILES.lecture1, mobileNumber: '09123456789', expireTime: '30m' },
    },
    answer: (r) => expect(r).toMatchObject({ url: expect.stringMatching(/^https:\/\//) }),
    invalid: {
      call: (c) => c.links.generate({ fileId: FILES.lecture1, expireTime: '2 hours' }),
      field: 'expireTime',
    },
    unknownId: (c) => c.links.generate({ fileId: UNKNOWN_ID }),
  },
];

describe.each(OPERATIONS)('$name', (op) => {
  test('sends exactly the request of the spec, with the keys', async () => {
    const client = makeClient();
    const result = await op.call(client);
    const request = only();
    // toEqual on query and body: nothing more and nothing less than the spec's request.
    expect({ method: request.method, path: request.path, status: request.status }).toEqual({
      method: op.request.method,
      path: op.request.path,
      status: 200,
    });
    expect(request.query).toEqual(op.request.query ?? {});
    expect(request.body).toEqual(op.request.body);
    expectKeysSent(request);
    const contentType = String(request.headers['content-type'] ?? '');
    if (op.request.body === null) expect(contentType).toBe('');
    else if (op.request.multipart) expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    else expect(contentType).toBe('application/json');
    op.answer?.(result);
  });

  test('wrong keys give an AuthError', async () => {
    const client = makeClient({ apiKey: WRONG_API_KEY, secretKey: WRONG_SECRET_KEY });
    const error = await failure(op.call(client));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.status).toBe(401);
    expect(recorded().map((r) => r.status)).toEqual([401]);
  });

  const { invalid, unknownId } = op;
  if (invalid) {
    test('an invalid request is refused before anything is sent', async () => {
      const error = await failure(invalid.call(makeClient()));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields).toContain(invalid.field);
      expect(error.status).toBeNull();
      expect(recorded()).toEqual([]);
    });
  }
  if (unknownId) {
    test('an unknown ID gives a NotFoundError (once the service has shown its extras work)', async () => {
      const error = await failure(
        unknownId(makeClient({ supportMemory: inProcessSupportMemory(EXTRA_ROUTES) })),
      );
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).not.toBeInstanceOf(NotSupportedError);
      expect(error.body).toMatchObject({ code: 'NOT_FOUND' });
      expect(recorded()).toHaveLength(1);
    });
  }
});

describe('op 1: whitelist replace', () => {
  test('lead replaces the list: read, post the full list, read back', async () => {
    const client = makeClient();
    const before = await client.whitelist.get();
    sandbox.clearRequests();
    const change = await client.whitelist.replace(['10.0.0.1', '10.0.0.2', '10.0.0.1'], {
      expectBefore: before,
    });
    expect(change).toEqual({
      before,
      after: ['10.0.0.1', '10.0.0.2'],
      raw: { allowedDNS: ['10.0.0.1', '10.0.0.2'] },
    });
    const requests = recorded();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/storage/dns/whitelist',
      'POST /v1/storage/dns/whitelist',
      'GET /v1/storage/dns/whitelist',
    ]);
    expect(requests[1]?.body).toEqual({ allowedDNS: ['10.0.0.1', '10.0.0.2'] });
    expect(requests[1]?.headers['content-type']).toBe('application/json');
    for (const request of requests) expectKeysSent(request);
    expect(sandbox.state().whitelist).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  test('a list changed since the request is refused without posting', async () => {
    const client = makeClient();
    await client.whitelist.replace(['10.0.0.9']);
    sandbox.clearRequests();
    const error = await failure(client.whitelist.replace(['10.0.0.1'], { expectBefore: ['10.0.0.8'] }));
    expect(error).toBeInstanceOf(WhitelistConflictError);
    expect(error).toMatchObject({ expected: ['10.0.0.8'], actual: ['10.0.0.9'] });
    expect(recorded().map((r) => r.method)).toEqual(['GET']);
  });

  test('a resumed send finds the list already as asked (its POST had landed): not posted again', async () => {
    const client = makeClient();
    await client.whitelist.replace(['10.0.0.1', '10.0.0.2']);
    sandbox.clearRequests();
    const change = await client.whitelist.replace(['10.0.0.2', '10.0.0.1'], {
      expectBefore: ['10.0.0.1'],
      asAskedIsDone: true,
    });
    expect(change).toEqual({
      before: ['10.0.0.1', '10.0.0.2'],
      after: ['10.0.0.1', '10.0.0.2'],
      raw: { alreadyAsAsked: true, allowedDNS: ['10.0.0.1', '10.0.0.2'] },
    });
    expect(recorded().map((r) => r.method)).toEqual(['GET']);
  });

  test('a first send that finds the list as asked by someone else is refused as changed since', async () => {
    const client = makeClient();
    await client.whitelist.replace(['10.0.0.1', '10.0.0.2']);
    sandbox.clearRequests();
    const error = await failure(
      client.whitelist.replace(['10.0.0.1', '10.0.0.2'], { expectBefore: ['10.0.0.1'] }),
    );
    expect(error).toBeInstanceOf(WhitelistConflictError);
    expect(recorded().map((r) => r.method)).toEqual(['GET']);
  });

  test('the same addresses in another order are no conflict', async () => {
    const client = makeClient();
    await client.whitelist.replace(['10.0.0.1', '2001:db8::1']);
    await expect(
      client.whitelist.replace(['10.0.0.3'], { expectBefore: ['2001:DB8:0::1', '10.0.0.1'] }),
    ).resolves.toMatchObject({ after: ['10.0.0.3'] });
  });

  test('an address that is not an IP is refused before anything is sent', async () => {
    const error = await failure(makeClient().whitelist.replace(['10.0.0.1', 'example.com']));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual(['allowedDNS.1']);
    expect(recorded()).toEqual([]);
  });

  test('wrong keys give an AuthError on the first read', async () => {
    const client = makeClient({ apiKey: WRONG_API_KEY, secretKey: WRONG_SECRET_KEY });
    expect(await failure(client.whitelist.replace(['10.0.0.1']))).toBeInstanceOf(AuthError);
    expect(recorded().map((r) => `${r.method} ${r.status}`)).toEqual(['GET 401']);
  });

  test('a service that appends is caught: removing an address reports the mismatch', async () => {
    const appending = await startSandbox({ port: 0, whitelistMode: 'append', conversionDelayMs: 60_000 });
    try {
      const client = makeClient({ baseUrl: appending.url });
      await client.whitelist.replace(['10.0.0.1', '10.0.0.2']);
      const error = await failure(client.whitelist.replace(['10.0.0.2']));
      expect(error).toBeInstanceOf(WhitelistMismatchError);
      expect(error).toMatchObject({ intended: ['10.0.0.2'], actual: ['10.0.0.1', '10.0.0.2'] });
      expect(error.message).toContain('unexpected 10.0.0.1');
      expect(error.message).toContain('seems to append');
    } finally {
      await appending.close();
    }
  });
});

describe('faults', () => {
  test('a slow service gives a TimeoutError after each attempt times out', async () => {
    const client = makeClient({ timeoutMs: 100 });
    sandbox.setFaults([{ path: '/v1/storage/dns/whitelist', latencyMs: 1_000 }]);
    const started = Date.now();
    const error = await failure(client.whitelist.get());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.status).toBeNull();
    expect(Date.now() - started).toBeLessThan(900);
    expect(recorded()).toHaveLength(RAPID_RETRY.maxAttempts);
  });

  test.each<[string, string, string, (c: VideoClient) => Promise<unknown>]>([
    ['a read', 'GET', '/v1/storage/dns/whitelist', (c) => c.whitelist.get()],
    [
      'an unblock',
      'POST',
      '/v1/analysis/user/video/anomaly',
      (c) => c.viewers.unblock({ mobileNumber: '09121234567' }),
    ],
    [
      'a settings change',
      'POST',
      '/v1/storage/protect/config',
      (c) => c.protection.update({ preventZoom: true }),
    ],
  ])('%s answered 500 once is retried and succeeds', async (_what, method, path, call) => {
    sandbox.setFaults([{ path, method, status: 500, times: 1 }]);
    await call(makeClient());
    expect(recorded().map((r) => r.status)).toEqual([500, 200]);
  });

  test.each<[string, string, string, (c: VideoClient) => Promise<unknown>]>([
    ['a folder create', 'POST', '/v1/storage/bucket', (c) => c.folders.create({ title: 'Once only' })],
    // A repeated DELETE after one that worked answers 404 and would hide the delete.
    [
      'a folder delete',
      'DELETE',
      '/v1/storage/bucket',
      (c) => c.folders.delete({ bucketId: FOLDERS.marketing }),
    ],
    [
      'a conversion retry',
      'POST',
      RETRY_PATH,
      (c) => c.files.retryConversion({ fileId: FAILED_A as string }),
    ],
  ])('%s answered 500 is not repeated: exactly one request', async (_what, method, path, call) => {
    sandbox.setFaults([{ path, method, status: 500, times: 1 }]);
    const error = await failure(call(makeClient()));
    expect(error).toBeInstanceOf(ServerError);
    expect(recorded()).toHaveLength(1);
  });

  test('a reset connection gives a NetworkError', async () => {
    sandbox.setFaults([{ path: '/v1/storage/dns/whitelist', reset: true }]);
    const error = await failure(makeClient().whitelist.get());
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNRESET');
    expect(recorded()).toHaveLength(RAPID_RETRY.maxAttempts);
  });

  test('a non-JSON error answer gives an ApiError with the text', async () => {
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'POST', status: 502, body: 'upstream hiccup' }]);
    const error = await failure(makeClient().folders.create({ title: 'x' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.body).toBe('upstream hiccup');
    expect(error.message).toContain('upstream hiccup');
  });

  test('a non-JSON success is kept as text in raw', async () => {
    sandbox.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', status: 200, body: 'deleted' }]);
    await expect(makeClient().folders.delete({ bucketId: FOLDERS.marketing })).resolves.toEqual({
      raw: { value: 'deleted' },
    });
  });
});

describe('op 10: the method of retry-conversion', () => {
  function memory(initial: 'POST' | 'PATCH' | null = null): MethodMemory & { saved: ('POST' | 'PATCH')[] } {
    let current = initial;
    const saved: ('POST' | 'PATCH')[] = [];
    return {
      saved,
      async get() {
        return current;
      },
      async set(method) {
        saved.push(method);
        current = method;
      },
    };
  }

  test.each<[string, { status: number; body?: string }]>([
    ['405', { status: 405 }],
    [
      '404 ROUTE_NOT_FOUND',
      {
        status: 404,
        body: JSON.stringify({ statusCode: 404, message: 'route not found', code: 'ROUTE_NOT_FOUND' }),
      },
    ],
    ['404 in plain text', { status: 404, body: 'Not Found' }],
  ])('POST answered %s: PATCH is used and remembered', async (_label, fault) => {
    const methods = memory();
    const client = makeClient({ methodMemory: methods });
    sandbox.setFaults([{ path: RETRY_PATH, method: 'POST', ...fault }]);
    await expect(client.files.retryConversion({ fileId: FAILED_A as string })).resolves.toMatchObject({
      raw: { hlsStatus: 'waiting' },
    });
    expect(recorded().map((r) => `${r.method} ${r.status}`)).toEqual([`POST ${fault.status}`, 'PATCH 200']);
    expect(recorded()[1]?.body).toEqual({ fileId: FAILED_A });
    expect(methods.saved).toEqual(['PATCH']);
    sandbox.clearRequests();
    await client.files.retryConversion({ fileId: FAILED_B as string });
    expect(recorded().map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH 200']);
  });

  test('a 404 for an unknown file is not a wrong method: no PATCH', async () => {
    const methods = memory();
    const error = await failure(
      makeClient({ methodMemory: methods }).files.retryConversion({ fileId: UNKNOWN_ID }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(recorded().map((r) => r.method)).toEqual(['POST']);
    expect(methods.saved).toEqual([]);
  });

  test('neither method answering means not supported by this service', async () => {
    sandbox.setFaults([{ path: RETRY_PATH, status: 405 }]);
    const error = await failure(makeClient().files.retryConversion({ fileId: FAILED_A as string }));
    expect(error).toBeInstanceOf(NotSupportedError);
    expect(recorded().map((r) => r.method)).toEqual(['POST', 'PATCH']);
  });

  test('a fixed method is used as configured, with no fallback', async () => {
    sandbox.setFaults([{ path: RETRY_PATH, method: 'PATCH', status: 405 }]);
    const error = await failure(
      makeClient({ retryConversionMethod: 'PATCH' }).files.retryConversion({ fileId: FAILED_A as string }),
    );
    expect(error.status).toBe(405);
    expect(recorded().map((r) => r.method)).toEqual(['PATCH']);
  });

  test('a remembered PATCH is tried first', async () => {
    await makeClient({ methodMemory: memory('PATCH') }).files.retryConversion({ fileId: FAILED_A as string });
    expect(recorded().map((r) => r.method)).toEqual(['PATCH']);
  });
});

describe('extras missing on the live service', () => {
  test.each<[string, { status: number; body?: string }]>([
    [
      '404 ROUTE_NOT_FOUND',
      {
        status: 404,
        body: JSON.stringify({ statusCode: 404, message: 'route not found', code: 'ROUTE_NOT_FOUND' }),
      },
    ],
    ['405', { status: 405 }],
  ])('a folder list answered %s is not supported by this service', async (_label, fault) => {
    sandbox.setFaults([{ path: '/v1/storage/bucket/all', ...fault }]);
    const error = await failure(makeClient().folders.list());
    expect(error).toBeInstanceOf(NotSupportedError);
    expect(error.message).toBe(
      `folder.list is not supported by this service (GET /v1/storage/bucket/all answered ${fault.status})`,
    );
    expect(recorded()).toHaveLength(1);
  });

  test('a link request answered 405 is not supported either', async () => {
    sandbox.setFaults([{ path: '/v1/storage/bucket/file/generate/link', status: 405 }]);
    expect(await failure(makeClient().links.generate({ fileId: FILES.lecture1 }))).toBeInstanceOf(
      NotSupportedError,
    );
  });
});

test('every exchange is reported once, with no query and no keys', async () => {
  const calls: unknown[] = [];
  const client = makeClient({ onCall: (info) => calls.push(info) });
  sandbox.setFaults([{ path: '/v1/analysis/content/video/all', status: 503, times: 1 }]);
  await client.viewers.lookup(['09121234567']);
  expect(calls).toEqual([
    expect.objectContaining({
      operation: 'viewer.lookup',
      method: 'GET',
      path: '/v1/analysis/content/video/all',
      status: 503,
      attempt: 1,
      error: expect.stringMatching(/^ServerError: /),
    }),
    expect.objectContaining({ status: 200, attempt: 2, durationMs: expect.any(Number) }),
  ]);
  expect(JSON.stringify(calls)).not.toContain('0912');
});
