import { DEMO } from './demo-data.js';
import { type Sandbox, startSandbox } from './server.js';

/**
 * The documented-endpoints-only sandbox: the 13 operations of the spec answer as in the full
 * sandbox; every other method and path answers 404 `{"message":"not found"}`, keys or not; the
 * control surface stays.
 * @see docs/architecture.md, "Sandbox"
 */

const KEYS = { api_key: DEMO.apiKey, secret_key: DEMO.secretKey };
const F = DEMO.files;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ extras: false, conversionDelayMs: 60_000 });
});

afterAll(() => sandbox.close());

beforeEach(() => sandbox.reset());

async function call(
  method: string,
  path: string,
  options: { json?: unknown; form?: FormData; keys?: boolean } = {},
): Promise<{ status: number; text: string; type: string | null }> {
  const headers: Record<string, string> = options.keys === false ? {} : { ...KEYS };
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    body = options.form;
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, ...(body ? { body } : {}) });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

function editForm(): FormData {
  const form = new FormData();
  form.append('fileId', F.lecture2);
  form.append('title', 'Renamed');
  return form;
}

test('it says which mode it is in', () => {
  expect(sandbox.extras).toBe(false);
});

test.each<[string, string, string, { json?: unknown; form?: FormData }]>([
  ['1', 'POST', '/v1/storage/dns/whitelist', { json: { allowedDNS: ['203.0.113.1'] } }],
  ['2', 'GET', '/v1/storage/dns/whitelist', {}],
  ['3', 'POST', '/v1/storage/protect/config', { json: { opacity: 0.3 } }],
  ['4', 'GET', '/v1/storage/protect/config', {}],
  ['5', 'POST', '/v1/storage/bucket', { json: { title: 'New' } }],
  ['6', 'PATCH', '/v1/storage/bucket', { json: { bucketId: DEMO.folders.marketing, title: 'Renamed' } }],
  ['7', 'DELETE', '/v1/storage/bucket', { json: { bucketId: DEMO.folders.marketing } }],
  ['8', 'POST', `/v1/storage/bucket/file/${F.lecture2}`, { form: editForm() }],
  ['9', 'DELETE', '/v1/storage/bucket/file', { json: { fileId: F.episode4 } }],
  ['10 (POST)', 'POST', '/v1/storage/bucket/file/queue/retry', { json: { fileId: DEMO.failedFileIds[0] } }],
  ['10 (PATCH)', 'PATCH', '/v1/storage/bucket/file/queue/retry', { json: { fileId: DEMO.failedFileIds[1] } }],
  ['11', 'PUT', '/v1/playlist', { json: { playlistId: DEMO.playlists.gettingStarted, title: 'Renamed' } }],
  ['12', 'DELETE', '/v1/playlist', { json: { playlistId: DEMO.playlists.podcastHighlights } }],
  ['13', 'POST', '/v1/analysis/user/video/anomaly', { json: { mobileNumber: DEMO.blockedMobiles[0] } }],
])('op %s (%s %s) answers 200 as in the full sandbox', async (_op, method, path, options) => {
  const answer = await call(method, path, options);
  expect(answer.status).toBe(200);
  expect(answer.type).toBe('application/json');
  expect(sandbox.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
    `${method} ${path} 200`,
  ]);
});

test('the documented routes keep their own errors: an unknown file to retry is 404 NOT_FOUND', async () => {
  const answer = await call('POST', '/v1/storage/bucket/file/queue/retry', {
    json: { fileId: '6710ffffffffffffffffffff' },
  });
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.text)).toMatchObject({ code: 'NOT_FOUND' });
});

test.each([
  ['GET', '/v1/storage/bucket/all'],
  ['GET', `/v1/storage/bucket/info?bucketId=${DEMO.folders.lectures}`],
  ['GET', '/v1/storage/bucket/file/all'],
  ['GET', `/v1/storage/bucket/file/info?fileId=${F.lecture1}`],
  ['GET', `/v1/playlist?playlistId=${DEMO.playlists.gettingStarted}`],
  ['POST', '/v1/playlist'],
  ['GET', '/v1/playlist/all'],
  ['GET', '/v1/analysis/content/video/all?search=09121234567'],
  ['POST', '/v1/storage/bucket/file/generate/link'],
  ['GET', '/v1/storage/bucket'],
  ['PUT', '/v1/storage/dns/whitelist'],
  ['GET', '/v1/storage/bucket/file/queue/retry'],
  ['GET', '/v1/nowhere'],
  ['GET', '/healthz'],
])('%s %s answers 404 {"message":"not found"} as JSON', async (method, path) => {
  const body = method === 'POST' ? { json: { title: 'x', fileId: F.lecture1 } } : {};
  for (const keys of [true, false]) {
    const answer = await call(method, path, { ...body, keys });
    expect(answer.status).toBe(404);
    expect(answer.type).toBe('application/json');
    expect(answer.text).toBe('{"message":"not found"}');
  }
});

test('the control surface stays: faults, request log and state', async () => {
  const faults = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: [{ path: '/v1/storage/dns/whitelist', status: 503, times: 1 }] }),
  });
  expect(faults.status).toBe(200);
  expect((await call('GET', '/v1/storage/dns/whitelist')).status).toBe(503);
  expect((await call('GET', '/v1/storage/dns/whitelist')).status).toBe(200);
  const log = (await (await fetch(`${sandbox.url}/__sandbox/requests`)).json()) as { requests: unknown[] };
  expect(log.requests).toHaveLength(2);
  const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as { files: unknown[] };
  expect(state.files.length).toBeGreaterThan(0);
});

test('the full sandbox (the default) still serves the extras', async () => {
  const full = await startSandbox();
  try {
    expect(full.extras).toBe(true);
    const answer = await fetch(`${full.url}/v1/storage/bucket/info?bucketId=${DEMO.folders.lectures}`, {
      headers: KEYS,
    });
    expect(answer.status).toBe(200);
  } finally {
    await full.close();
  }
});
