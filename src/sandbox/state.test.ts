import { DEMO } from './demo-data.js';
import { SandboxHttpError } from './errors.js';
import {
  canonicalIp,
  expireTimeMs,
  type ModelOptions,
  mobileKey,
  objectIdGenerator,
  SandboxModel,
} from './state.js';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');

function clock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function model(overrides: Partial<ModelOptions> = {}) {
  const time = clock();
  const m = new SandboxModel({
    conversionDelayMs: 1000,
    whitelistMode: 'replace',
    demoData: true,
    now: time.now,
    ...overrides,
  });
  return { m, time };
}

function refusal(action: () => unknown): SandboxHttpError {
  try {
    action();
  } catch (error) {
    if (error instanceof SandboxHttpError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('demo data', () => {
  test('has the folders, files, playlists and viewers the docs name', () => {
    const state = model().m.snapshot();
    expect(state.folders.map((f) => f._id)).toEqual(Object.values(DEMO.folders));
    expect(state.folders.map((f) => f.filesCount)).toEqual([5, 4, 3]);
    expect(state.folders.some((f) => /[\u0600-\u06ff]/.test(f.title))).toBe(true);
    expect(state.files.map((f) => f._id)).toEqual(Object.values(DEMO.files));
    expect(state.files.filter((f) => f.hlsStatus === 'failed').map((f) => f._id)).toEqual([
      ...DEMO.failedFileIds,
    ]);
    expect(state.files.filter((f) => f.hlsStatus === 'waiting').map((f) => f._id)).toEqual([
      DEMO.waitingFileId,
    ]);
    expect(state.playlists.map((p) => p._id)).toEqual(Object.values(DEMO.playlists));
    expect(state.blockedViewers).toEqual([...DEMO.blockedMobiles]);
    expect(state.viewers.filter((v) => !v.blocked).map((v) => v.mobileNumber)).toEqual([
      ...DEMO.unblockedMobiles,
    ]);
    expect(state.whitelist).toEqual([]);
    const ids = [...state.folders, ...state.files, ...state.playlists].map((x) => x._id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });

  test('a sandbox without demo data starts empty with the default configuration', () => {
    const state = model({ demoData: false }).m.snapshot();
    expect(state).toMatchObject({ folders: [], files: [], playlists: [], viewers: [], blockedViewers: [] });
    expect(state.config.faultTolerance).toBe(6);
  });

  test('a snapshot is a copy: changing it changes nothing', () => {
    const { m } = model();
    const state = m.snapshot();
    state.files.length = 0;
    state.config.opacity = 0.1;
    expect(m.snapshot().files).toHaveLength(12);
    expect(m.getConfig().opacity).toBe(0.6);
  });
});

describe('conversion queue', () => {
  test('a retried conversion is done exactly when its delay has passed', () => {
    const { m, time } = model();
    const fileId = DEMO.failedFileIds[0];
    expect(m.retryConversion(fileId)).toEqual({ _id: fileId, hlsStatus: 'waiting' });
    time.advance(999);
    expect(m.fileInfo(fileId).hlsStatus).toBe('waiting');
    time.advance(1);
    expect(m.fileInfo(fileId).hlsStatus).toBe('done');
    expect(m.listFiles({ hlsStatus: 'failed' }).total).toBe(2);
  });

  test('the demo file already waiting stays waiting', () => {
    const { m, time } = model();
    time.advance(86_400_000);
    expect(m.fileInfo(DEMO.waitingFileId).hlsStatus).toBe('waiting');
  });

  test('reset forgets conversions in flight', () => {
    const { m, time } = model();
    const fileId = DEMO.failedFileIds[1];
    m.retryConversion(fileId);
    m.reset();
    time.advance(5000);
    expect(m.fileInfo(fileId).hlsStatus).toBe('failed');
  });
});

describe('whitelist', () => {
  test('one address written two ways is kept once, in the first spelling', () => {
    const { m } = model();
    expect(m.setWhitelist(['::1', '0:0:0:0:0:0:0:1', '10.0.0.1']).allowedDNS).toEqual(['::1', '10.0.0.1']);
  });

  test('append mode keeps what was there', () => {
    const { m } = model({ whitelistMode: 'append' });
    m.setWhitelist(['10.0.0.1']);
    expect(m.setWhitelist(['10.0.0.2']).allowedDNS).toEqual(['10.0.0.1', '10.0.0.2']);
  });

  test('link callers are checked against the whitelist only with ipValidation on', () => {
    const { m } = model();
    expect(() => m.checkLinkCaller('192.0.2.1')).not.toThrow();
    m.updateConfig({ ipValidation: true });
    expect(refusal(() => m.checkLinkCaller('192.0.2.1')).status).toBe(403);
    m.setWhitelist(['2001:db8:0:0:0:0:0:1', '192.0.2.1']);
    expect(() => m.checkLinkCaller('192.0.2.1')).not.toThrow();
    expect(() => m.checkLinkCaller('2001:DB8::1')).not.toThrow();
  });
});

describe('playlists', () => {
  test('a file listed twice is refused naming the second entry', () => {
    const { m } = model();
    const error = refusal(() =>
      m.editPlaylist({
        playlistId: DEMO.playlists.gettingStarted,
        files: [{ _id: DEMO.files.teaser }, { _id: DEMO.files.teaser }],
      }),
    );
    expect(error.message).toBe('files[1]._id: appears more than once');
  });
});

describe('links', () => {
  test('expiry follows the request, else the configured link expiry', () => {
    const { m } = model();
    const own = m.generateLink({ fileId: DEMO.files.lecture1, expireTime: '1d' }, '127.0.0.1');
    expect(own.expiresAt).toBe('2025-03-02T10:00:00.000Z');
    const configured = m.generateLink({ fileId: DEMO.files.lecture1 }, '127.0.0.1');
    expect(configured).toMatchObject({ expireTime: '2h', expiresAt: '2025-03-01T12:00:00.000Z' });
  });
});

describe('helpers', () => {
  test.each([
    ['09121234567', '9121234567'],
    ['+989121234567', '9121234567'],
    ['00989121234567', '9121234567'],
    ['989121234567', '9121234567'],
    ['9121234567', '9121234567'],
    ['+14155550100', '14155550100'],
  ])('mobile %s is the viewer %s', (input, key) => {
    expect(mobileKey(input)).toBe(key);
  });

  test.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['10.1.2.3', '10.1.2.3'],
  ])('IP %s is spelt %s', (input, canonical) => {
    expect(canonicalIp(input)).toBe(canonical);
  });

  test.each([
    ['30s', 30_000],
    ['2h', 7_200_000],
    ['1w', 604_800_000],
    ['1M', 2_592_000_000],
    ['1y', 31_536_000_000],
  ])('expireTime %s lasts %i ms', (input, ms) => {
    expect(expireTimeMs(input)).toBe(ms);
  });

  test('new IDs are 24 hex digits that sort in creation order', () => {
    const time = clock();
    const next = objectIdGenerator(time.now);
    const first = next();
    const second = next();
    time.advance(2000);
    const third = next();
    for (const id of [first, second, third]) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(first.slice(0, 8)).toBe((T0 / 1000).toString(16));
    expect([third, first, second].sort()).toEqual([first, second, third]);
  });
});
