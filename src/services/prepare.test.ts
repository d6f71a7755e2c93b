import { sandboxClient } from '../../test/sandbox-client.js';
import { inProcessSupportMemory, type SupportMemory, type VideoClientHandle } from '../client/index.js';
import { createHasher } from '../core/audit-chain.js';
import { InputError } from '../core/errors.js';
import { english, messageOf } from '../i18n/said.js';
import { DEMO } from '../sandbox/demo-data.js';
import { type FaultRule, type Sandbox, startSandbox } from '../sandbox/server.js';
import { openStore } from '../store/index.js';
import { prepareRequest } from './catalog.js';
import { storeSupportMemory, supportSetting } from './method-memory.js';
import type { Prepared, PrepareInput } from './types.js';

/**
 * `prepare` against a service whose read-only extras fail in every way the field has seen: the
 * look-up becomes a warning naming the failure, and the request is prepared all the same. Only a
 * route that has answered 200 may later refuse with "does not exist".
 * @see docs/architecture.md, "Client of the video protection API"
 */

const UNKNOWN_FILE = '671018d0403eba579a6f90e2';
const TIMEOUT_MS = 300;
const FILE_INFO = '/v1/storage/bucket/file/info';

let full: Sandbox;
let documented: Sandbox;
const clients: VideoClientHandle[] = [];

beforeAll(async () => {
  [full, documented] = await Promise.all([
    startSandbox({ conversionDelayMs: 60_000 }),
    startSandbox({ conversionDelayMs: 60_000, extras: false }),
  ]);
});

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all([full.close(), documented.close()]);
});

beforeEach(() => {
  full.reset();
  documented.reset();
});

function clientOf(sandbox: Sandbox, supportMemory: SupportMemory = inProcessSupportMemory()) {
  const client = sandboxClient(sandbox.url, {
    timeoutMs: TIMEOUT_MS,
    supportMemory,
  });
  clients.push(client);
  return client;
}

function prepare(client: VideoClientHandle, input: PrepareInput): Promise<Prepared> {
  return prepareRequest({ client, canFetchCover: false, repeatViewers: async () => [] }, input);
}

async function refusal(promise: Promise<unknown>): Promise<InputError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

/** How the extras fail, each with the words the warning must use. */
const FAILURES: { name: string; sandbox: () => Sandbox; faults: FaultRule[]; words: string }[] = [
  {
    name: 'a service without the extras, answering 404 {"message":"not found"}',
    sandbox: () => documented,
    faults: [],
    words: 'the service answered 404',
  },
  {
    name: 'an extra answering 404 NOT_FOUND before it ever answered 200',
    sandbox: () => full,
    faults: [
      {
        method: 'GET',
        status: 404,
        body: JSON.stringify({ statusCode: 404, message: 'not found', code: 'NOT_FOUND' }),
      },
    ],
    words: 'the service answered 404',
  },
  {
    name: 'an extra answering 405',
    sandbox: () => full,
    faults: [{ method: 'GET', status: 405 }],
    words: 'the service answered 405',
  },
  {
    name: 'an extra answering 500',
    sandbox: () => full,
    faults: [{ method: 'GET', status: 500 }],
    words: 'the service answered 500',
  },
  {
    name: 'an extra that does not answer in time',
    sandbox: () => full,
    faults: [{ method: 'GET', latencyMs: TIMEOUT_MS * 4 }],
    words: 'the service did not answer in time',
  },
  {
    name: 'an extra whose connection is reset',
    sandbox: () => full,
    faults: [{ method: 'GET', reset: true }],
    words: 'the service could not be reached (ECONNRESET)',
  },
  {
    name: 'an extra answering 200 with a web page',
    sandbox: () => full,
    faults: [{ method: 'GET', status: 200, body: '<html>login</html>', contentType: 'text/html' }],
    words: 'the service answered in a form vidops cannot read',
  },
];

describe.each(FAILURES)('with $name', ({ sandbox, faults, words }) => {
  beforeEach(() => sandbox().setFaults(faults));

  test('an agent retries a conversion: warned that the file could not be looked up, and the retry is prepared', async () => {
    const prepared = await prepare(clientOf(sandbox()), { kind: 'file.retry', fileId: UNKNOWN_FILE });
    expect(prepared.params).toEqual({ fileId: UNKNOWN_FILE });
    expect(prepared.warnings.map(english)).toEqual([`Could not look the file up: ${words}.`]);
    expect(prepared.preview).toEqual({
      kind: 'retry',
      resource: 'file',
      id: UNKNOWN_FILE,
      title: null,
      hlsStatus: null,
    });
  });

  test.each<[string, PrepareInput, string, object]>([
    [
      'folder',
      { kind: 'folder.delete', bucketId: DEMO.folders.podcasts },
      'folder',
      { resource: 'folder', id: DEMO.folders.podcasts, title: null, filesCount: null },
    ],
    [
      'file',
      { kind: 'file.delete', fileId: DEMO.files.episode4 },
      'file',
      { resource: 'file', id: DEMO.files.episode4, title: null, bucketId: null },
    ],
    [
      'playlist',
      { kind: 'playlist.delete', playlistId: DEMO.playlists.podcastHighlights },
      'playlist',
      { resource: 'playlist', id: DEMO.playlists.podcastHighlights, title: null, filesCount: null },
    ],
  ])(
    'an agent asks to delete a %s: only its ID is known, with a warning',
    async (_what, input, what, preview) => {
      const prepared = await prepare(clientOf(sandbox()), input);
      expect(prepared.preview).toEqual({ kind: 'delete', ...preview });
      expect(prepared.warnings.map(english)).toEqual([`Could not look the ${what} up: ${words}.`]);
    },
  );

  test('an agent renames a folder: before is unknown, the edit is prepared', async () => {
    const prepared = await prepare(clientOf(sandbox()), {
      kind: 'folder.edit',
      bucketId: DEMO.folders.marketing,
      title: 'Marketing clips',
    });
    expect(prepared.params).toEqual({ bucketId: DEMO.folders.marketing, title: 'Marketing clips' });
    expect(prepared.preview).toMatchObject({ before: null });
    expect(prepared.warnings.map(english)).toEqual([`Could not look the folder up: ${words}.`]);
  });

  test('an agent edits a playlist: neither it nor its files could be checked, and the edit is prepared', async () => {
    const prepared = await prepare(clientOf(sandbox()), {
      kind: 'playlist.edit',
      playlistId: DEMO.playlists.gettingStarted,
      files: [{ _id: DEMO.files.teaser }, { _id: UNKNOWN_FILE }],
    });
    expect(prepared.params).toEqual({
      playlistId: DEMO.playlists.gettingStarted,
      files: [{ _id: DEMO.files.teaser }, { _id: UNKNOWN_FILE }],
    });
    expect(prepared.warnings.map(english)).toEqual([
      `Could not look the playlist up: ${words}.`,
      `Could not look the playlist's files up: ${words}. Whether they exist was not checked.`,
    ]);
  });

  test('an agent unblocks a viewer: whether they were blocked is unknown, the unblock is prepared', async () => {
    const prepared = await prepare(clientOf(sandbox()), {
      kind: 'viewer.unblock',
      mobileNumber: DEMO.blockedMobiles[0],
    });
    expect(prepared.params).toEqual({ mobileNumber: DEMO.blockedMobiles[0] });
    expect(prepared.preview).toMatchObject({ blocked: null, actionType: null });
    expect(prepared.warnings.map(english)).toEqual([`Could not look the viewer up: ${words}.`]);
  });
});

describe('after an extra has answered 200', () => {
  test('retry of a file the service does not know is refused, once the file look-up has worked', async () => {
    const client = clientOf(full);
    const known = await prepare(client, { kind: 'file.retry', fileId: DEMO.failedFileIds[0] });
    expect(known.warnings.map(english)).toEqual([]);
    const error = await refusal(prepare(client, { kind: 'file.retry', fileId: UNKNOWN_FILE }));
    expect(messageOf(error)).toBe(`File ${UNKNOWN_FILE} does not exist.`);
  });

  test('the same 404 before anything was learned is only a warning (this fails where a 404 always vetoed)', async () => {
    const prepared = await prepare(clientOf(full), { kind: 'file.retry', fileId: UNKNOWN_FILE });
    expect(prepared.warnings.map(english)).toEqual(['Could not look the file up: the service answered 404.']);
  });

  test('a learned route answering a framework\'s "Cannot GET" 404 is missing, not the record: a warning', async () => {
    const client = clientOf(full, inProcessSupportMemory(['folder.info']));
    full.setFaults([
      {
        path: '/v1/storage/bucket/info',
        status: 404,
        body: JSON.stringify({ message: 'Cannot GET /v1/storage/bucket/info' }),
      },
    ]);
    const prepared = await prepare(client, { kind: 'folder.delete', bucketId: DEMO.folders.podcasts });
    expect(prepared.warnings.map(english)).toEqual([
      'Could not look the folder up: the service answered 404.',
    ]);
  });

  test('a learned route answering 500 is still only a warning', async () => {
    const client = clientOf(full, inProcessSupportMemory(['playlist.info']));
    full.setFaults([{ path: '/v1/playlist', method: 'GET', status: 500 }]);
    const prepared = await prepare(client, { kind: 'playlist.delete', playlistId: UNKNOWN_FILE });
    expect(prepared.warnings.map(english)).toEqual([
      'Could not look the playlist up: the service answered 500.',
    ]);
  });

  test('a 200 the client cannot read teaches nothing: a later 404 is still only a warning', async () => {
    const client = clientOf(full);
    full.setFaults([{ path: FILE_INFO, status: 200, body: '{"ok":true}', times: 1 }]);
    const first = await prepare(client, { kind: 'file.retry', fileId: DEMO.failedFileIds[0] });
    expect(first.warnings.map(english)).toEqual([
      'Could not look the file up: the service answered in a form vidops cannot read.',
    ]);
    const second = await prepare(client, { kind: 'file.retry', fileId: UNKNOWN_FILE });
    expect(second.warnings.map(english)).toEqual(['Could not look the file up: the service answered 404.']);
  });

  test('a playlist edit naming files the service does not have is refused, naming each missing one', async () => {
    const client = clientOf(full, inProcessSupportMemory(['file.info']));
    const other = '6710b00000000000000002ee';
    const error = await refusal(
      prepare(client, {
        kind: 'playlist.edit',
        playlistId: DEMO.playlists.gettingStarted,
        files: [{ _id: UNKNOWN_FILE }, { _id: DEMO.files.teaser }, { _id: other }],
      }),
    );
    expect(messageOf(error)).toBe(
      `Files ${UNKNOWN_FILE}, ${other} do not exist; take them out of the playlist or check the IDs.`,
    );
  });

  test('a playlist edit whose files all exist goes through without a warning', async () => {
    const client = clientOf(full);
    const prepared = await prepare(client, {
      kind: 'playlist.edit',
      playlistId: DEMO.playlists.gettingStarted,
      files: [{ _id: DEMO.files.teaser }, { _id: DEMO.files.lecture1 }],
    });
    expect(prepared.warnings.map(english)).toEqual([]);
    expect(
      full
        .requests()
        .filter((r) => r.path === FILE_INFO)
        .map((r) => r.query),
    ).toEqual([{ fileId: DEMO.files.teaser }, { fileId: DEMO.files.lecture1 }]);
  });

  test('a playlist check cut short by a failure names the files left unchecked', async () => {
    const client = clientOf(full, inProcessSupportMemory(['file.info']));
    // The first file answers; from the second on, the service fails.
    let calls = 0;
    const failing: VideoClientHandle = {
      ...client,
      files: {
        ...client.files,
        info: (id) => {
          calls += 1;
          if (calls === 2) full.setFaults([{ path: FILE_INFO, status: 503 }]);
          return client.files.info(id);
        },
      },
    };
    const prepared = await prepare(failing, {
      kind: 'playlist.edit',
      playlistId: DEMO.playlists.gettingStarted,
      files: [{ _id: DEMO.files.teaser }, { _id: DEMO.files.lecture1 }, { _id: DEMO.files.lecture2 }],
    });
    expect(prepared.warnings.map(english)).toEqual([
      `Could not look up files ${DEMO.files.lecture1}, ${DEMO.files.lecture2}: the service answered 503. Whether they exist was not checked.`,
    ]);
    expect(calls).toBe(2);
  });
});

describe('the store-backed support memory', () => {
  test('what one replica learned, another (or the CLI) knows, for the same service only', async () => {
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    try {
      const bot = storeSupportMemory(store, 'https://api.example.test/');
      const cli = storeSupportMemory(store, 'https://api.example.test');
      const elsewhere = storeSupportMemory(store, 'http://127.0.0.1:4010');
      expect(await cli.isSupported('file.info')).toBe(false);
      await bot.markSupported('file.info');
      expect(await cli.isSupported('file.info')).toBe(true);
      expect(await cli.isSupported('folder.info')).toBe(false);
      expect(await elsewhere.isSupported('file.info')).toBe(false);
      expect(await store.getSetting(supportSetting('file.info'))).toBe('https://api.example.test');
    } finally {
      await store.close();
    }
  });

  test('the client learns into the store, so a new client refuses an unknown file at once', async () => {
    const store = await openStore('sqlite::memory:', { hash: createHasher() });
    try {
      const first = clientOf(full, storeSupportMemory(store, full.url));
      await prepare(first, { kind: 'file.retry', fileId: DEMO.failedFileIds[1] });
      const second = clientOf(full, storeSupportMemory(store, full.url));
      const error = await refusal(prepare(second, { kind: 'file.retry', fileId: UNKNOWN_FILE }));
      expect(messageOf(error)).toBe(`File ${UNKNOWN_FILE} does not exist.`);
    } finally {
      await store.close();
    }
  });
});
