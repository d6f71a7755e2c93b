import { sandboxClient } from '../../test/sandbox-client.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type Sandbox, startSandbox } from '../sandbox/server.js';
import {
  type ApiError,
  EXTRA_ROUTES,
  type ExtraRoute,
  failureInWords,
  inProcessSupportMemory,
  NotFoundError,
  NotSupportedError,
  type SupportMemory,
  UnexpectedAnswerError,
  type VideoClientHandle,
} from './index.js';

/**
 * What the client learns of the read-only extras: a 404 means "no such record" only once the
 * route has answered 200 with a readable answer; until then it, and a 405, mean "not supported".
 * @see docs/architecture.md, "Client of the video protection API"
 */

const UNKNOWN = '6710ffffffffffffffffffff';
const FOLDER_INFO = '/v1/storage/bucket/info';

let full: Sandbox;
let documented: Sandbox;
const clients: VideoClientHandle[] = [];

beforeAll(async () => {
  [full, documented] = await Promise.all([startSandbox(), startSandbox({ extras: false })]);
});

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all([full.close(), documented.close()]);
});

beforeEach(() => {
  full.reset();
  documented.reset();
});

function clientOf(sandbox: Sandbox, supportMemory: SupportMemory): VideoClientHandle {
  const client = sandboxClient(sandbox.url, {
    supportMemory,
  });
  clients.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as ApiError,
  );
}

/** A memory that records what it is asked, to see what was learned. */
function watched(): SupportMemory & { learned: Set<ExtraRoute> } {
  const learned = new Set<ExtraRoute>();
  return {
    learned,
    async isSupported(route) {
      return learned.has(route);
    },
    async markSupported(route) {
      learned.add(route);
    },
  };
}

test('a 404 NOT_FOUND before the route ever answered 200 is "not supported", and then, once it has, "no such record"', async () => {
  const memory = watched();
  const client = clientOf(full, memory);
  const before = await failure(client.folders.info(UNKNOWN));
  expect(before).toBeInstanceOf(NotSupportedError);
  expect(before.message).toBe(
    'folder.info may not be offered by this service (GET /v1/storage/bucket/info answered 404 before it ever answered 200)',
  );
  expect(failureInWords(before)).toBe('the service answered 404');

  await client.folders.info(DEMO.folders.lectures);
  expect([...memory.learned]).toEqual(['folder.info']);
  const after = await failure(client.folders.info(UNKNOWN));
  expect(after).toBeInstanceOf(NotFoundError);
  expect(after).not.toBeInstanceOf(NotSupportedError);
});

test.each<[string, { status: number; body?: string; contentType?: string }]>([
  [
    'a framework\'s "Cannot GET"',
    { status: 404, body: JSON.stringify({ statusCode: 404, message: 'Cannot GET /v1/storage/bucket/info' }) },
  ],
  [
    'ROUTE_NOT_FOUND',
    { status: 404, body: JSON.stringify({ code: 'ROUTE_NOT_FOUND', message: 'no route' }) },
  ],
  ['an HTML page', { status: 404, body: '<h1>Not Found</h1>', contentType: 'text/html' }],
  ['405', { status: 405 }],
])('a learned route answering %s is still "not supported"', async (_what, fault) => {
  const client = clientOf(full, inProcessSupportMemory(['folder.info']));
  full.setFaults([{ path: FOLDER_INFO, ...fault }]);
  expect(await failure(client.folders.info(DEMO.folders.lectures))).toBeInstanceOf(NotSupportedError);
});

test('a 200 that is not a record teaches nothing and is an unexpected answer', async () => {
  const memory = watched();
  const client = clientOf(full, memory);
  for (const body of ['"ok"', '{"status":true}', '<html>login</html>']) {
    full.setFaults([{ path: FOLDER_INFO, status: 200, body, times: 1 }]);
    const error = await failure(client.folders.info(DEMO.folders.lectures));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(failureInWords(error)).toBe('the service answered in a form vidops cannot read');
  }
  expect(memory.learned.size).toBe(0);
});

test('every extra of a service that has none is "not supported", and nothing is learned', async () => {
  const memory = watched();
  const client = clientOf(documented, memory);
  const calls = [
    client.folders.info(DEMO.folders.lectures),
    client.folders.list(),
    client.files.info(DEMO.files.lecture1),
    client.files.list({ bucketId: DEMO.folders.lectures }),
    client.playlists.info(DEMO.playlists.gettingStarted),
    client.playlists.list(),
    client.viewers.lookup(['09121234567']),
  ];
  for (const call of calls) expect(await failure(call)).toBeInstanceOf(NotSupportedError);
  expect(memory.learned.size).toBe(0);
  expect(documented.requests().map((r) => r.status)).toEqual(Array(calls.length).fill(404));
});

test('every extra that answers 200 is learned, each under its own name', async () => {
  const memory = watched();
  const client = clientOf(full, memory);
  await client.folders.info(DEMO.folders.lectures);
  await client.folders.list();
  await client.files.info(DEMO.files.lecture1);
  await client.files.list({ bucketId: DEMO.folders.lectures });
  await client.playlists.info(DEMO.playlists.gettingStarted);
  await client.playlists.list();
  await client.viewers.lookup(['09121234567']);
  expect([...memory.learned].sort()).toEqual([...EXTRA_ROUTES].sort());
});

test('a memory that cannot be read or written never turns a look-up into a failure or a refusal', async () => {
  const broken: SupportMemory = {
    isSupported: () => Promise.reject(new Error('database is locked')),
    markSupported: () => Promise.reject(new Error('database is locked')),
  };
  const client = clientOf(full, broken);
  await expect(client.files.info(DEMO.files.lecture1)).resolves.toMatchObject({ id: DEMO.files.lecture1 });
  expect(await failure(client.files.info(UNKNOWN))).toBeInstanceOf(NotSupportedError);
});
