import { request as httpRequest } from 'node:http';
import { DEMO } from './demo-data.js';
import { type Sandbox, startSandbox } from './server.js';

const KEYS = { api_key: DEMO.apiKey, secret_key: DEMO.secretKey };
const HEX24 = /^[0-9a-f]{24}$/;
const F = DEMO.files;

type Reply = { status: number; body: Record<string, unknown>; text: string; headers: Headers };

interface CallOptions {
  json?: unknown;
  form?: FormData;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  keys?: boolean;
}

async function call(sb: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.keys === false ? {} : KEYS), ...options.headers };
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    body = options.form;
  } else if (options.rawBody !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/json';
    body = options.rawBody;
  }
  const response = await fetch(`${sb.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Non-JSON answers are checked through `text`.
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}

function fileForm(
  fields: Record<string, string>,
  cover?: { name: string; type: string; bytes: number },
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (cover !== undefined) {
    form.append('file', new Blob([new Uint8Array(cover.bytes).fill(7)], { type: cover.type }), cover.name);
  }
  return form;
}

/** Polls `check` until it returns true or the deadline passes. */
async function eventually(check: () => Promise<boolean>, deadlineMs = 3000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not met before the deadline');
}

describe('sandbox over HTTP', () => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await startSandbox({ conversionDelayMs: 60 });
  });
  afterAll(async () => {
    await sb.close();
  });
  beforeEach(() => sb.reset());

  test('listens on loopback with a URL without a trailing slash', () => {
    expect(sb.url).toBe(`http://127.0.0.1:${sb.port}`);
    expect(sb.port).toBeGreaterThan(0);
  });

  describe('authentication', () => {
    test.each([
      ['no keys', {}],
      ['only api_key', { api_key: DEMO.apiKey }],
      ['wrong api_key', { api_key: 'nope', secret_key: DEMO.secretKey }],
      ['wrong secret_key', { api_key: DEMO.apiKey, secret_key: 'nope' }],
    ])('a caller with %s gets 401 and nothing changes', async (_label, headers) => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket', {
        keys: false,
        headers,
        json: { title: 'Sneaky' },
      });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('content-type')).toBe('application/json');
      expect(reply.body).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: 'missing or invalid api_key/secret_key',
      });
      expect(sb.state().folders).toHaveLength(3);
    });

    test('control routes need no keys', async () => {
      const reply = await call(sb, 'GET', '/__sandbox/state', { keys: false });
      expect(reply.status).toBe(200);
      expect(reply.body.folders).toHaveLength(3);
    });
  });

  describe('whitelist (ops 1, 2)', () => {
    test('agent replaces the whitelist and reads it back', async () => {
      expect((await call(sb, 'GET', '/v1/storage/dns/whitelist')).body).toEqual({ allowedDNS: [] });
      const set = await call(sb, 'POST', '/v1/storage/dns/whitelist', {
        json: { allowedDNS: ['203.0.113.7', '2001:db8::1', '203.0.113.7'] },
      });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ allowedDNS: ['203.0.113.7', '2001:db8::1'] });
      await call(sb, 'POST', '/v1/storage/dns/whitelist', { json: { allowedDNS: ['198.51.100.1'] } });
      expect((await call(sb, 'GET', '/v1/storage/dns/whitelist')).body).toEqual({
        allowedDNS: ['198.51.100.1'],
      });
      expect(sb.state().whitelist).toEqual(['198.51.100.1']);
    });

    test('a sandbox in append mode adds to the list instead of replacing it', async () => {
      const appending = await startSandbox({ whitelistMode: 'append' });
      try {
        await call(appending, 'POST', '/v1/storage/dns/whitelist', { json: { allowedDNS: ['10.0.0.1'] } });
        const second = await call(appending, 'POST', '/v1/storage/dns/whitelist', {
          json: { allowedDNS: ['10.0.0.2', '10.0.0.1'] },
        });
        expect(second.body).toEqual({ allowedDNS: ['10.0.0.1', '10.0.0.2'] });
        expect(appending.state().whitelist).toEqual(['10.0.0.1', '10.0.0.2']);
      } finally {
        await appending.close();
      }
    });
  });

  describe('protection configuration (ops 3, 4)', () => {
    test('defaults are complete and sensible', async () => {
      const reply = await call(sb, 'GET', '/v1/storage/protect/config');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        faultTolerance: 6,
        opacity: 0.6,
        fontColor: '#ffff00',
        ipValidation: false,
        link: { accessWithMultiIp: false, expireTime: '2h' },
      });
      expect(Object.keys(reply.body)).toHaveLength(19);
    });

    test('lead changes a subset and nested fields merge field by field', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/protect/config', {
        json: {
          opacity: 0.3,
          fontColor: '#e74c3c',
          player: { offlineMode: false },
          link: { expireTime: '1d' },
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        opacity: 0.3,
        fontColor: '#e74c3c',
        faultTolerance: 6,
        player: { themeColor: '#1e88e5', offlineMode: false, securityProtection: true },
        link: { accessWithMultiIp: false, expireTime: '1d' },
      });
      expect(sb.state().config.player.offlineMode).toBe(false);
      expect((await call(sb, 'GET', '/v1/storage/protect/config')).body).toEqual(reply.body);
    });
  });

  describe('folders (ops 5, 6, 7)', () => {
    test('agent creates, edits and deletes a folder', async () => {
      const created = await call(sb, 'POST', '/v1/storage/bucket', { json: { title: 'Webinars' } });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ title: 'Webinars', description: '', filesCount: 0 });
      const id = String(created.body._id);
      expect(id).toMatch(HEX24);
      expect(Number.isNaN(Date.parse(String(created.body.createdAt)))).toBe(false);

      const edited = await call(sb, 'PATCH', '/v1/storage/bucket', {
        json: { bucketId: id, title: 'وبینارها', description: 'Live sessions' },
      });
      expect(edited.body).toMatchObject({ _id: id, title: 'وبینارها', description: 'Live sessions' });

      const deleted = await call(sb, 'DELETE', '/v1/storage/bucket', { json: { bucketId: id } });
      expect(deleted.body).toEqual({ _id: id, deleted: true, deletedFiles: 0 });
      expect(sb.state().folders.map((f) => f._id)).not.toContain(id);
    });

    test('deleting a folder removes its files and their playlist entries', async () => {
      const reply = await call(sb, 'DELETE', '/v1/storage/bucket', {
        json: { bucketId: DEMO.folders.lectures },
      });
      expect(reply.body).toEqual({ _id: DEMO.folders.lectures, deleted: true, deletedFiles: 5 });
      const state = sb.state();
      expect(state.files).toHaveLength(7);
      expect(state.files.some((f) => f.bucketId === DEMO.folders.lectures)).toBe(false);
      const started = state.playlists.find((p) => p._id === DEMO.playlists.gettingStarted);
      expect(started?.files.map((e) => e._id)).toEqual([F.teaser]);
      const gone = await call(sb, 'GET', `/v1/storage/bucket/file/info?fileId=${F.lecture1}`);
      expect(gone.status).toBe(404);
    });
  });

  describe('files (ops 8, 9, 10)', () => {
    test('agent edits a file with a cover image sent as multipart', async () => {
      const reply = await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture2}`, {
        form: fileForm(
          { fileId: F.lecture2, title: 'Lecture 2 (recut)', description: 'Shorter' },
          { name: 'cover.png', type: 'image/png', bytes: 1234 },
        ),
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        _id: F.lecture2,
        bucketId: DEMO.folders.lectures,
        title: 'Lecture 2 (recut)',
        description: 'Shorter',
        hlsStatus: 'done',
        size: 812_646_400,
        createdAt: '2024-10-17T06:01:00.000Z',
        cover: { filename: 'cover.png', size: 1234, contentType: 'image/png' },
      });
      expect(sb.state().files.find((f) => f._id === F.lecture2)?.title).toBe('Lecture 2 (recut)');
    });

    test.each([
      ['a cover that is not an image', { name: 'notes.txt', type: 'text/plain', bytes: 10 }, 'file'],
      ['an empty cover', { name: 'empty.png', type: 'image/png', bytes: 0 }, 'file'],
    ])('file edit with %s is refused naming the cover', async (_label, cover, field) => {
      const reply = await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture2}`, {
        form: fileForm({ fileId: F.lecture2, title: 'x' }, cover),
      });
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe(field);
    });

    test('file edit sent as JSON is refused as the wrong media type', async () => {
      const reply = await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture2}`, {
        json: { fileId: F.lecture2, title: 'x' },
      });
      expect(reply.status).toBe(415);
    });

    test('agent deletes a file and it leaves its playlists', async () => {
      const reply = await call(sb, 'DELETE', '/v1/storage/bucket/file', { json: { fileId: F.lecture1 } });
      expect(reply.body).toEqual({ _id: F.lecture1, deleted: true });
      const state = sb.state();
      expect(state.files.map((f) => f._id)).not.toContain(F.lecture1);
      expect(state.folders.find((f) => f._id === DEMO.folders.lectures)?.filesCount).toBe(4);
      expect(state.playlists[0]?.files.map((e) => e._id)).toEqual([F.lecture2, F.teaser]);
    });

    test.each(['POST', 'PATCH'])(
      'agent retries a failed conversion with %s: failed → waiting → done',
      async (method) => {
        const reply = await call(sb, method, '/v1/storage/bucket/file/queue/retry', {
          json: { fileId: F.customerStory },
        });
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ _id: F.customerStory, hlsStatus: 'waiting' });
        const info = await call(sb, 'GET', `/v1/storage/bucket/file/info?fileId=${F.customerStory}`);
        expect(info.body.hlsStatus).toBe('waiting');
        await eventually(async () => {
          const now = await call(sb, 'GET', `/v1/storage/bucket/file/info?fileId=${F.customerStory}`);
          return now.body.hlsStatus === 'done';
        });
        expect(sb.state().files.find((f) => f._id === F.customerStory)?.hlsStatus).toBe('done');
      },
    );

    test.each([
      ['waiting', DEMO.waitingFileId],
      ['done', F.lecture1],
    ])('retrying a %s conversion is refused naming fileId', async (status, fileId) => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket/file/queue/retry', { json: { fileId } });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        field: 'fileId',
        message: `fileId: conversion is ${status}; only a failed conversion can be retried`,
      });
    });
  });

  describe('playlists (ops 11, 12 and extras)', () => {
    test('agent edits a playlist: title and entries replaced, entry titles default to the file', async () => {
      const reply = await call(sb, 'PUT', '/v1/playlist', {
        json: {
          playlistId: DEMO.playlists.gettingStarted,
          title: 'Start here',
          files: [{ _id: F.trailer }, { _id: F.lecture5, title: 'Exam prep' }],
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        _id: DEMO.playlists.gettingStarted,
        title: 'Start here',
        files: [
          { _id: F.trailer, title: 'Launch trailer' },
          { _id: F.lecture5, title: 'Exam prep' },
        ],
      });
      expect(sb.state().playlists[0]?.title).toBe('Start here');
    });

    test('a playlist entry naming an unknown file is refused naming the entry', async () => {
      const reply = await call(sb, 'PUT', '/v1/playlist', {
        json: { playlistId: DEMO.playlists.gettingStarted, files: [{ _id: F.trailer }, { _id: 'nope' }] },
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        field: 'files[1]._id',
        message: 'files[1]._id: file nope not found',
      });
      expect(sb.state().playlists[0]?.files).toHaveLength(3);
    });

    test('agent creates a playlist, reads it, deletes it; its files stay', async () => {
      const created = await call(sb, 'POST', '/v1/playlist', { json: { title: 'Extras' } });
      expect(created.body).toMatchObject({ title: 'Extras', files: [] });
      const id = String(created.body._id);
      expect(id).toMatch(HEX24);
      expect((await call(sb, 'GET', `/v1/playlist?playlistId=${id}`)).body._id).toBe(id);
      const deleted = await call(sb, 'DELETE', '/v1/playlist', {
        json: { playlistId: DEMO.playlists.podcastHighlights },
      });
      expect(deleted.body).toEqual({ _id: DEMO.playlists.podcastHighlights, deleted: true });
      const state = sb.state();
      expect(state.playlists.map((p) => p._id)).toEqual([DEMO.playlists.gettingStarted, id]);
      expect(state.files).toHaveLength(12);
    });
  });

  describe('unblock (op 13) and viewer look-up', () => {
    test('agent unblocks a blocked viewer, and again finds nothing left to unblock', async () => {
      const first = await call(sb, 'POST', '/v1/analysis/user/video/anomaly', {
        json: { mobileNumber: '09121234567' },
      });
      expect(first.body).toEqual({ mobileNumber: '09121234567', unblocked: true, wasBlocked: true });
      expect(sb.state().blockedViewers).toEqual(['09351234567', '09901234567']);
      const again = await call(sb, 'POST', '/v1/analysis/user/video/anomaly', {
        json: { mobileNumber: '09121234567' },
      });
      expect(again.body).toEqual({ mobileNumber: '09121234567', unblocked: true, wasBlocked: false });
    });

    test('a number in international form unblocks the same viewer', async () => {
      const reply = await call(sb, 'POST', '/v1/analysis/user/video/anomaly', {
        json: { mobileNumber: '+989351234567' },
      });
      expect(reply.body.wasBlocked).toBe(true);
      expect(sb.state().blockedViewers).not.toContain('09351234567');
    });

    test('an unknown number succeeds with nothing to unblock', async () => {
      const reply = await call(sb, 'POST', '/v1/analysis/user/video/anomaly', {
        json: { mobileNumber: '09120000000' },
      });
      expect(reply.body).toEqual({ mobileNumber: '09120000000', unblocked: true, wasBlocked: false });
    });

    test.each(['0912-123-4567', '12345', 9121234567])('mobile number %p is refused', async (mobileNumber) => {
      const reply = await call(sb, 'POST', '/v1/analysis/user/video/anomaly', { json: { mobileNumber } });
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe('mobileNumber');
    });

    test('agent looks viewers up by several numbers', async () => {
      const reply = await call(sb, 'GET', '/v1/analysis/content/video/all?search=09121234567,09123456789');
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ total: 2, currentPage: 1, limit: 20 });
      expect(reply.body.items).toEqual([
        expect.objectContaining({ mobileNumber: '09123456789', actionType: 'normal', blocked: false }),
        expect.objectContaining({ mobileNumber: '09121234567', actionType: 'attacker', blocked: true }),
      ]);
    });

    test.each([
      ['actionType=attacker', 2],
      ['actionType=risky,normal', 6],
      ['timeSeries=7', 4],
      ['timeSeries=30', 6],
      ['timeSeries=90', 7],
    ])('viewer list filtered by %s has %i viewers', async (query, total) => {
      const reply = await call(sb, 'GET', `/v1/analysis/content/video/all?${query}`);
      expect(reply.body.total).toBe(total);
    });
  });

  describe('read-only extras', () => {
    test('folders list sorted and paged', async () => {
      const reply = await call(sb, 'GET', '/v1/storage/bucket/all?sortBy=_id:asc&limit=2&currentPage=2');
      expect(reply.body).toMatchObject({ total: 3, currentPage: 2, limit: 2 });
      expect(reply.body.items).toEqual([
        {
          _id: DEMO.folders.marketing,
          title: 'Marketing clips',
          description: '',
          filesCount: 3,
          createdAt: expect.any(String),
        },
      ]);
    });

    test('folder info shows the Persian title and file count', async () => {
      const reply = await call(sb, 'GET', `/v1/storage/bucket/info?bucketId=${DEMO.folders.podcasts}`);
      expect(reply.body).toMatchObject({ title: 'پادکست‌های هفتگی', filesCount: 4 });
    });

    test('agent lists failed conversions', async () => {
      const reply = await call(sb, 'GET', '/v1/storage/bucket/file/all?hlsStatus=failed&sortBy=_id:asc');
      expect(reply.body.total).toBe(3);
      expect((reply.body.items as { _id: string }[]).map((f) => f._id)).toEqual([...DEMO.failedFileIds]);
    });

    test('files filtered by folder and by a list of IDs', async () => {
      const byFolder = await call(
        sb,
        'GET',
        `/v1/storage/bucket/file/all?bucketId=${DEMO.folders.marketing}`,
      );
      expect(byFolder.body.total).toBe(3);
      const byIds = await call(
        sb,
        'GET',
        `/v1/storage/bucket/file/all?listOfId=${F.teaser},${F.lecture1},nope`,
      );
      expect((byIds.body.items as { _id: string }[]).map((f) => f._id)).toEqual([F.teaser, F.lecture1]);
    });

    test('playlists list', async () => {
      const reply = await call(sb, 'GET', '/v1/playlist/all');
      expect(reply.body.total).toBe(2);
    });

    test.each([
      ['/v1/storage/bucket/info', 'bucketId'],
      ['/v1/storage/bucket/file/info', 'fileId'],
      ['/v1/playlist', 'playlistId'],
    ])('GET %s without its required query is refused naming %s', async (path, field) => {
      const reply = await call(sb, 'GET', path);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ field, message: `${field}: is required` });
    });

    test.each([
      ['/v1/storage/bucket/all?limit=0', 'limit'],
      ['/v1/storage/bucket/all?sortBy=size:desc', 'sortBy'],
      ['/v1/storage/bucket/all?colour=red', 'colour'],
      ['/v1/storage/bucket/file/all?hlsStatus=broken', 'hlsStatus'],
      ['/v1/analysis/content/video/all?timeSeries=14', 'timeSeries'],
      ['/v1/playlist/all?limit=5&limit=6', 'limit'],
    ])('GET %s is refused naming %s', async (path, field) => {
      const reply = await call(sb, 'GET', path);
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe(field);
    });
  });

  describe('playback links and the IP whitelist', () => {
    test('agent creates a playback link for a viewer', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket/file/generate/link', {
        json: { fileId: F.lecture1, mobileNumber: '09123456789', expireTime: '30m' },
      });
      expect(reply.status).toBe(200);
      expect(String(reply.body.url)).toMatch(
        /^https:\/\/player\.sandbox\.invalid\/embed\/6710b0+201\?token=[0-9a-f]{32}$/,
      );
      expect(reply.body.expireTime).toBe('30m');
    });

    test('link creation is refused when ipValidation is on and the caller is not whitelisted', async () => {
      await call(sb, 'POST', '/v1/storage/protect/config', { json: { ipValidation: true } });
      await call(sb, 'POST', '/v1/storage/dns/whitelist', { json: { allowedDNS: ['203.0.113.7'] } });
      const refused = await call(sb, 'POST', '/v1/storage/bucket/file/generate/link', {
        json: { fileId: F.lecture1 },
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        statusCode: 403,
        error: 'Forbidden',
        code: 'IP_NOT_WHITELISTED',
        message: 'caller IP 127.0.0.1 is not in the whitelist (ipValidation is on)',
      });

      await call(sb, 'POST', '/v1/storage/dns/whitelist', {
        json: { allowedDNS: ['203.0.113.7', '127.0.0.1'] },
      });
      const allowed = await call(sb, 'POST', '/v1/storage/bucket/file/generate/link', {
        json: { fileId: F.lecture1 },
      });
      expect(allowed.status).toBe(200);
      expect(allowed.body.expireTime).toBe('2h');
    });

    test('a link to a file whose conversion failed is refused naming fileId', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket/file/generate/link', {
        json: { fileId: F.lecture3 },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe('fileId');
    });
  });

  describe('validation', () => {
    test.each([
      ['an unknown config field', '/v1/storage/protect/config', { opactiy: 0.5 }, 'opactiy', 'unknown field'],
      ['opacity 1.5', '/v1/storage/protect/config', { opacity: 1.5 }, 'opacity', 'must be between 0 and 1'],
      [
        'beepVolume -0.1',
        '/v1/storage/protect/config',
        { beepVolume: -0.1 },
        'beepVolume',
        'must be between 0 and 1',
      ],
      [
        'fontColor #000000',
        '/v1/storage/protect/config',
        { fontColor: '#000000' },
        'fontColor',
        'must be one of',
      ],
      [
        'opacity as a string',
        '/v1/storage/protect/config',
        { opacity: '0.5' },
        'opacity',
        'must be a number, not a string',
      ],
      [
        'a bad expireTime',
        '/v1/storage/protect/config',
        { link: { expireTime: '2 hours' } },
        'link.expireTime',
        'must be a number followed by',
      ],
      [
        'an unknown nested field',
        '/v1/storage/protect/config',
        { player: { colour: 'x' } },
        'player.colour',
        'unknown field',
      ],
      [
        'a bad IP',
        '/v1/storage/dns/whitelist',
        { allowedDNS: ['10.0.0.1', 'example.com'] },
        'allowedDNS[1]',
        'must be an IPv4 or IPv6 address',
      ],
      [
        'a whitelist that is not a list',
        '/v1/storage/dns/whitelist',
        { allowedDNS: '10.0.0.1' },
        'allowedDNS',
        'must be an array',
      ],
      ['a folder without a title', '/v1/storage/bucket', { description: 'x' }, 'title', 'is required'],
      ['a blank folder title', '/v1/storage/bucket', { title: '   ' }, 'title', 'must not be empty'],
      ['a JSON array body', '/v1/storage/bucket', ['x'], 'body', 'must be a JSON object'],
    ])('%s is refused with 400 naming the field', async (_label, path, json, field, why) => {
      const before = sb.state();
      const reply = await call(sb, 'POST', path, { json });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ statusCode: 400, error: 'Bad Request', field });
      expect(String(reply.body.message)).toContain(`${field}: ${why}`);
      expect(sb.state()).toEqual(before);
    });

    test('an ID with a control character is refused, by the rule vidops itself keeps', async () => {
      const before = sb.state();
      const reply = await call(sb, 'DELETE', '/v1/storage/bucket', { json: { bucketId: 'a\u0001b' } });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ field: 'bucketId' });
      expect(String(reply.body.message)).toContain(
        'bucketId: must have no spaces, slashes or control characters',
      );
      expect(sb.state()).toEqual(before);
    });

    test('a file form whose fileId differs from the path is refused naming fileId', async () => {
      const reply = await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture1}`, {
        form: fileForm({ fileId: F.lecture2, title: 'Swapped' }),
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ field: 'fileId' });
      expect(sb.state().files.find((f) => f._id === F.lecture2)?.title).toBe('Lecture 2: Foundations');
    });

    test('an unknown form field is refused naming it', async () => {
      const reply = await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture1}`, {
        form: fileForm({ fileId: F.lecture1, title: 'x', tags: 'a' }),
      });
      expect(reply.body).toMatchObject({ field: 'tags', message: 'tags: unknown field' });
    });

    test('a malformed JSON body is refused', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket', { rawBody: '{"title": ' });
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe('body');
      expect(String(reply.body.message)).toMatch(/^body: malformed JSON/);
    });

    test('a body that is not JSON is refused as the wrong media type', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket', {
        rawBody: 'title=x',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(reply.status).toBe(415);
    });
  });

  describe('unknown IDs, routes and methods', () => {
    test.each([
      ['PATCH', '/v1/storage/bucket', { bucketId: 'f00', title: 'x' }, 'folder f00 not found'],
      ['DELETE', '/v1/storage/bucket/file', { fileId: 'f01' }, 'file f01 not found'],
      ['POST', '/v1/storage/bucket/file/queue/retry', { fileId: 'f02' }, 'file f02 not found'],
      ['PUT', '/v1/playlist', { playlistId: 'p00' }, 'playlist p00 not found'],
      ['DELETE', '/v1/playlist', { playlistId: 'p01' }, 'playlist p01 not found'],
    ])('%s %s with an unknown ID answers 404 NOT_FOUND', async (method, path, json, message) => {
      const reply = await call(sb, method, path, { json });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ statusCode: 404, error: 'Not Found', message, code: 'NOT_FOUND' });
    });

    test('an edit of an unknown file ID answers 404 NOT_FOUND', async () => {
      const reply = await call(sb, 'POST', '/v1/storage/bucket/file/abc', {
        form: fileForm({ fileId: 'abc', title: 'x' }),
      });
      expect(reply.body).toMatchObject({ message: 'file abc not found', code: 'NOT_FOUND' });
    });

    test.each(['/v1/storage/bucket/file/queue/retry/now', '/v1/nothing', '/v2/playlist', '/'])(
      'GET %s is an unknown route',
      async (path) => {
        const reply = await call(sb, 'GET', path);
        expect(reply.status).toBe(404);
        expect(reply.body).toEqual({
          statusCode: 404,
          error: 'Not Found',
          message: 'route not found',
          code: 'ROUTE_NOT_FOUND',
        });
      },
    );

    test.each([
      ['GET', '/v1/storage/bucket', 'POST, PATCH, DELETE'],
      ['DELETE', '/v1/storage/dns/whitelist', 'GET, POST'],
      ['POST', '/v1/storage/bucket/file/all', 'GET'],
      ['GET', `/v1/storage/bucket/file/${F.lecture1}`, 'POST'],
      ['PUT', '/v1/storage/bucket/file/queue/retry', 'POST, PATCH'],
    ])('%s %s answers 405 listing the allowed methods', async (method, path, allowed) => {
      const reply = await call(sb, method, path);
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe(allowed);
      expect(reply.body).toMatchObject({
        statusCode: 405,
        error: 'Method Not Allowed',
        code: 'METHOD_NOT_ALLOWED',
      });
    });
  });

  describe('faults', () => {
    test('latency delays the answer, which then is the normal one', async () => {
      sb.setFaults([{ path: '/v1/playlist/all', latencyMs: 150 }]);
      const started = performance.now();
      const reply = await call(sb, 'GET', '/v1/playlist/all');
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(reply.status).toBe(200);
      expect(reply.body.total).toBe(2);
    });

    test('a status rule answers a JSON error instead of handling, for the next N requests only', async () => {
      const set = await call(sb, 'POST', '/__sandbox/faults', {
        keys: false,
        json: { rules: [{ path: '/v1/analysis/user/video/anomaly', method: 'post', status: 503, times: 2 }] },
      });
      expect(set.status).toBe(200);
      const unblock = () =>
        call(sb, 'POST', '/v1/analysis/user/video/anomaly', { json: { mobileNumber: '09121234567' } });
      const first = await unblock();
      expect(first.status).toBe(503);
      expect(first.body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'injected fault',
        code: 'INJECTED_FAULT',
      });
      expect(sb.state().blockedViewers).toContain('09121234567');
      expect((await unblock()).status).toBe(503);
      const third = await unblock();
      expect(third.status).toBe(200);
      expect(third.body.wasBlocked).toBe(true);
      expect((await call(sb, 'GET', '/__sandbox/faults', { keys: false })).body).toEqual({ rules: [] });
    });

    test('a rule for another method or path leaves the request alone', async () => {
      sb.setFaults([
        { path: '/v1/playlist', method: 'DELETE', status: 500 },
        { path: '/v1/storage/bucket/all', status: 500 },
      ]);
      expect((await call(sb, 'GET', `/v1/playlist?playlistId=${DEMO.playlists.gettingStarted}`)).status).toBe(
        200,
      );
    });

    test('a rule without a path hits every /v1 path but never the control surface', async () => {
      sb.setFaults([{ status: 502 }]);
      expect((await call(sb, 'GET', '/v1/playlist/all')).status).toBe(502);
      expect((await call(sb, 'GET', '/v1/storage/dns/whitelist')).status).toBe(502);
      expect((await call(sb, 'GET', '/__sandbox/state', { keys: false })).status).toBe(200);
      expect((await call(sb, 'DELETE', '/__sandbox/faults', { keys: false })).body).toEqual({ rules: [] });
      expect((await call(sb, 'GET', '/v1/playlist/all')).status).toBe(200);
    });

    test('a raw non-JSON body with headers is sent as is', async () => {
      sb.setFaults([
        { path: '/v1/playlist/all', status: 429, body: 'oops', headers: { 'retry-after': '3' } },
      ]);
      const reply = await call(sb, 'GET', '/v1/playlist/all');
      expect(reply.status).toBe(429);
      expect(reply.text).toBe('oops');
      expect(reply.headers.get('content-type')).toBe('text/plain');
      expect(reply.headers.get('retry-after')).toBe('3');
    });

    test('a reset rule drops the connection without an answer', async () => {
      sb.setFaults([{ path: '/v1/storage/bucket', reset: true, times: 1 }]);
      await expect(call(sb, 'POST', '/v1/storage/bucket', { json: { title: 'Lost' } })).rejects.toThrow();
      expect(sb.requests().at(-1)).toMatchObject({ path: '/v1/storage/bucket', status: null });
      expect(sb.state().folders).toHaveLength(3);
      expect((await call(sb, 'POST', '/v1/storage/bucket', { json: { title: 'Kept' } })).status).toBe(200);
    });

    test('latencyAfterMs answers late after the change has taken effect', async () => {
      const folder = DEMO.folders.lectures;
      sb.setFaults([{ path: '/v1/storage/bucket', method: 'DELETE', latencyAfterMs: 300, times: 1 }]);
      const answer = call(sb, 'DELETE', '/v1/storage/bucket', { json: { bucketId: folder } });
      // The log holds the request as soon as it arrived; the folder is gone before the answer comes.
      let folders = sb.state().folders.map((f) => f._id);
      while (folders.includes(folder)) {
        await new Promise((resolve) => setImmediate(resolve));
        folders = sb.state().folders.map((f) => f._id);
      }
      expect(sb.requests().at(-1)).toMatchObject({ method: 'DELETE', status: null });
      const reply = await answer;
      expect(reply.status).toBe(200);
      expect(sb.requests().at(-1)).toMatchObject({ method: 'DELETE', status: 200 });
    });

    test('resetAfter handles the request, then drops the connection without an answer', async () => {
      sb.setFaults([{ path: '/v1/storage/bucket', method: 'POST', resetAfter: true, times: 1 }]);
      await expect(call(sb, 'POST', '/v1/storage/bucket', { json: { title: 'Made' } })).rejects.toThrow();
      expect(sb.state().folders.map((f) => f.title)).toContain('Made');
      expect(sb.requests().at(-1)).toMatchObject({ path: '/v1/storage/bucket', status: 200 });
    });

    test('rate 0 never applies', async () => {
      sb.setFaults([{ status: 500, rate: 0 }]);
      for (let i = 0; i < 5; i += 1) expect((await call(sb, 'GET', '/v1/playlist/all')).status).toBe(200);
    });

    test.each([
      [{ rules: [{ status: 700 }] }, 'rules[0].status'],
      [{ rules: [{ body: 'oops' }] }, 'rules[0].body'],
      [{ rules: [{ reset: true, status: 500 }] }, 'rules[0].reset'],
      [{ rules: [{ latencyAfterMs: 10, status: 500 }] }, 'rules[0].latencyAfterMs'],
      [{ rules: [{ resetAfter: true, reset: true }] }, 'rules[0].resetAfter'],
      [{ rules: [{ rate: 2 }] }, 'rules[0].rate'],
      [{ rules: [{ pth: '/v1' }] }, 'rules[0].pth'],
      [{}, 'rules'],
    ])('an invalid fault rule set %j is refused naming %s', async (json, field) => {
      const reply = await call(sb, 'POST', '/__sandbox/faults', { keys: false, json });
      expect(reply.status).toBe(400);
      expect(reply.body.field).toBe(field);
    });

    test('setFaults on the object refuses an invalid rule', () => {
      expect(() => sb.setFaults([{ latencyMs: -1 }])).toThrow(/rules\[0\]\.latencyMs/);
    });
  });

  describe('request log', () => {
    test('records /v1 requests oldest first with the keys redacted', async () => {
      await call(sb, 'GET', '/v1/storage/bucket/all?limit=1');
      await call(sb, 'POST', '/v1/analysis/user/video/anomaly', { json: { mobileNumber: '09121234567' } });
      await call(sb, 'GET', '/__sandbox/state', { keys: false });
      const reply = await call(sb, 'GET', '/__sandbox/requests', { keys: false });
      const requests = reply.body.requests as Record<string, unknown>[];
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({
        method: 'GET',
        path: '/v1/storage/bucket/all',
        query: { limit: '1' },
        headers: { api_key: '[redacted]', secret_key: '[redacted]' },
        body: null,
        status: 200,
      });
      expect(requests[1]).toMatchObject({
        method: 'POST',
        body: { mobileNumber: '09121234567' },
        status: 200,
      });
      expect(reply.text).not.toContain(DEMO.apiKey);
      expect(reply.text).not.toContain(DEMO.secretKey);
    });

    test('records a multipart body as fields and file descriptions', async () => {
      await call(sb, 'POST', `/v1/storage/bucket/file/${F.lecture1}`, {
        form: fileForm({ fileId: F.lecture1, title: 'T' }, { name: 'c.jpg', type: 'image/jpeg', bytes: 99 }),
      });
      expect(sb.requests()[0]?.body).toEqual({
        fields: { fileId: F.lecture1, title: 'T' },
        files: [{ field: 'file', filename: 'c.jpg', size: 99, contentType: 'image/jpeg' }],
      });
    });

    test('clearing empties the log', async () => {
      await call(sb, 'GET', '/v1/playlist/all');
      expect((await call(sb, 'DELETE', '/__sandbox/requests', { keys: false })).body).toEqual({ cleared: 1 });
      expect(sb.requests()).toEqual([]);
      await call(sb, 'GET', '/v1/playlist/all');
      sb.clearRequests();
      expect(sb.requests()).toEqual([]);
    });
  });

  describe('reset', () => {
    test('POST /__sandbox/reset restores the demo data and clears faults and the log', async () => {
      const pristine = sb.state();
      await call(sb, 'DELETE', '/v1/storage/bucket', { json: { bucketId: DEMO.folders.podcasts } });
      await call(sb, 'POST', '/v1/storage/protect/config', { json: { opacity: 0.1 } });
      sb.setFaults([{ path: '/v1/nothing', status: 500 }]);
      const reply = await call(sb, 'POST', '/__sandbox/reset', { keys: false });
      expect(reply.body).toEqual({ reset: true });
      const after = sb.state();
      expect(after.folders).toEqual(pristine.folders);
      expect(after.files).toEqual(pristine.files);
      expect(after.config.opacity).toBe(0.6);
      expect(sb.requests()).toEqual([]);
      expect((await call(sb, 'GET', '/__sandbox/faults', { keys: false })).body).toEqual({ rules: [] });
    });
  });
});

describe('sandbox lifecycle', () => {
  test('custom keys are required and an empty sandbox has no demo data', async () => {
    const sb = await startSandbox({ apiKey: 'k1', secretKey: 's1', demoData: false });
    try {
      const wrong = await call(sb, 'GET', '/v1/storage/bucket/all');
      expect(wrong.status).toBe(401);
      const right = await call(sb, 'GET', '/v1/storage/bucket/all', {
        keys: false,
        headers: { api_key: 'k1', secret_key: 's1' },
      });
      expect(right.body).toEqual({ items: [], total: 0, currentPage: 1, limit: 20 });
      expect(sb.state().viewers).toEqual([]);
    } finally {
      await sb.close();
    }
  });

  test('close ends idle keep-alive connections and a request waiting on latency', async () => {
    const sb = await startSandbox();
    sb.setFaults([{ latencyMs: 60_000 }]);
    const pending = new Promise<string>((resolve) => {
      const req = httpRequest(`${sb.url}/v1/playlist/all`, { headers: KEYS }, () => resolve('answered'));
      req.on('error', () => resolve('dropped'));
      req.end();
    });
    await eventually(async () => sb.requests().length === 1);
    const started = performance.now();
    await sb.close();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await pending).toBe('dropped');
  });
});
