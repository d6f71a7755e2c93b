import type { FileRecord, FolderRecord, PlaylistRecord, ProtectionConfig, Viewer } from './types.js';

/**
 * The demo data the sandbox starts with and returns to on reset. IDs are fixed so the README,
 * the e2e tests and a person trying the bot can name them.
 * @see docs/architecture.md, "Sandbox"
 */
export const DEMO = {
  apiKey: 'demo-api-key',
  secretKey: 'demo-secret-key',
  folders: {
    lectures: '6710a0000000000000000101',
    podcasts: '6710a0000000000000000102',
    marketing: '6710a0000000000000000103',
  },
  files: {
    lecture1: '6710b0000000000000000201',
    lecture2: '6710b0000000000000000202',
    lecture3: '6710b0000000000000000203',
    lecture4: '6710b0000000000000000204',
    lecture5: '6710b0000000000000000205',
    episode1: '6710b0000000000000000206',
    episode2: '6710b0000000000000000207',
    episode3: '6710b0000000000000000208',
    episode4: '6710b0000000000000000209',
    teaser: '6710b000000000000000020a',
    customerStory: '6710b000000000000000020b',
    trailer: '6710b000000000000000020c',
  },
  /** Files whose conversion failed: op 10 may retry them. */
  failedFileIds: ['6710b0000000000000000203', '6710b0000000000000000208', '6710b000000000000000020b'],
  /** A file still in the conversion queue; it stays there (retry refuses it). */
  waitingFileId: '6710b0000000000000000204',
  playlists: {
    gettingStarted: '6710c0000000000000000301',
    podcastHighlights: '6710c0000000000000000302',
  },
  /** Viewers blocked for anomalous viewing (player error 9910). */
  blockedMobiles: ['09121234567', '09351234567', '09901234567'],
  /** Viewers the analysis knows but has not blocked. */
  unblockedMobiles: ['09123456789', '09129876543', '09381112233', '09171234567', '09011234567'],
} as const;

/** Defaults of op 4 before anyone changes them. */
export function defaultConfig(): ProtectionConfig {
  return {
    speed: 5,
    fontColor: '#ffff00',
    fontSize: 14,
    opacity: 0.6,
    sendProtectionAlert: false,
    faultTolerance: 6,
    preventZoom: false,
    ipValidation: false,
    fixWatermark: false,
    displayTextOnScreen: true,
    enableBeep: false,
    beepVolume: 0.5,
    beepInterval: 30,
    player: { themeColor: '#1e88e5', offlineMode: true, securityProtection: true },
    link: { accessWithMultiIp: false, expireTime: '2h' },
    enableActiveSession: false,
    regenerateLink: true,
    relatedPlaylist: false,
    enablePlaylist: true,
  };
}

/** Everything the sandbox holds. */
export type SandboxData = {
  folders: FolderRecord[];
  files: FileRecord[];
  playlists: PlaylistRecord[];
  viewers: Viewer[];
  whitelist: string[];
  config: ProtectionConfig;
};

/** An empty sandbox: default configuration, no records. */
export function emptyData(): SandboxData {
  return { folders: [], files: [], playlists: [], viewers: [], whitelist: [], config: defaultConfig() };
}

const HOUR = 3_600_000;

/**
 * The demo data. Creation dates are fixed; viewers' `lastSeenAt` is relative to `now` so the
 * `timeSeries` filter (7, 30, 90 days) finds a different set for each window.
 */
export function demoData(now: number): SandboxData {
  const { folders: F, files: f } = DEMO;
  const folders: FolderRecord[] = [
    {
      _id: F.lectures,
      title: 'Course lectures',
      description: 'Recorded lectures of the spring course',
      createdAt: '2024-10-17T05:26:24.000Z',
    },
    {
      _id: F.podcasts,
      title: 'پادکست‌های هفتگی',
      description: 'پادکست هفتگی تیم محتوا',
      createdAt: '2024-10-17T05:30:00.000Z',
    },
    {
      _id: F.marketing,
      title: 'Marketing clips',
      description: '',
      createdAt: '2024-10-17T05:35:00.000Z',
    },
  ];
  const file = (
    _id: string,
    bucketId: string,
    title: string,
    hlsStatus: FileRecord['hlsStatus'],
    size: number,
    minute: number,
  ): FileRecord => ({
    _id,
    bucketId,
    title,
    description: '',
    hlsStatus,
    size,
    createdAt: new Date(Date.UTC(2024, 9, 17, 6, minute)).toISOString(),
  });
  const files: FileRecord[] = [
    {
      ...file(f.lecture1, F.lectures, 'Lecture 1: Introduction', 'done', 734_003_200, 0),
      description: 'Welcome and course overview',
      cover: { filename: 'lecture-1.jpg', size: 48_213, contentType: 'image/jpeg' },
    },
    file(f.lecture2, F.lectures, 'Lecture 2: Foundations', 'done', 812_646_400, 1),
    file(f.lecture3, F.lectures, 'Lecture 3: Practice session', 'failed', 905_969_664, 2),
    file(f.lecture4, F.lectures, 'Lecture 4: Review', 'waiting', 650_117_120, 3),
    file(f.lecture5, F.lectures, 'Lecture 5: Exam preparation', 'done', 702_545_920, 4),
    file(f.episode1, F.podcasts, 'قسمت ۱: آغاز راه', 'done', 41_943_040, 5),
    file(f.episode2, F.podcasts, 'قسمت ۲: گفت‌وگو با تیم پشتیبانی', 'done', 52_428_800, 6),
    file(f.episode3, F.podcasts, 'قسمت ۳: پرسش و پاسخ', 'failed', 47_185_920, 7),
    file(f.episode4, F.podcasts, 'Episode 4: Interview', 'done', 60_817_408, 8),
    file(f.teaser, F.marketing, 'Product teaser', 'done', 20_971_520, 9),
    file(f.customerStory, F.marketing, 'Customer story', 'failed', 157_286_400, 10),
    file(f.trailer, F.marketing, 'Launch trailer', 'done', 94_371_840, 11),
  ];
  const titleOf = (id: string): string => files.find((x) => x._id === id)?.title ?? id;
  const entries = (...ids: string[]) => ids.map((id) => ({ _id: id, title: titleOf(id) }));
  const playlists: PlaylistRecord[] = [
    {
      _id: DEMO.playlists.gettingStarted,
      title: 'Getting started',
      files: entries(f.lecture1, f.lecture2, f.teaser),
      createdAt: '2024-10-17T07:00:00.000Z',
    },
    {
      _id: DEMO.playlists.podcastHighlights,
      title: 'Podcast highlights',
      files: entries(f.episode1, f.episode2, f.episode4),
      createdAt: '2024-10-17T07:05:00.000Z',
    },
  ];
  const seen = (hoursAgo: number) => new Date(now - hoursAgo * HOUR).toISOString();
  const [b1 = '', b2 = '', b3 = ''] = DEMO.blockedMobiles;
  const [n1 = '', n2 = '', n3 = '', n4 = '', n5 = ''] = DEMO.unblockedMobiles;
  const viewers: Viewer[] = [
    { mobileNumber: b1, actionType: 'attacker', blocked: true, lastSeenAt: seen(2), errorCount: 9 },
    { mobileNumber: b2, actionType: 'attacker', blocked: true, lastSeenAt: seen(26), errorCount: 7 },
    { mobileNumber: b3, actionType: 'risky', blocked: true, lastSeenAt: seen(24 * 12), errorCount: 6 },
    { mobileNumber: n1, actionType: 'normal', blocked: false, lastSeenAt: seen(1), errorCount: 0 },
    { mobileNumber: n2, actionType: 'risky', blocked: false, lastSeenAt: seen(30), errorCount: 3 },
    { mobileNumber: n3, actionType: 'normal', blocked: false, lastSeenAt: seen(24 * 10), errorCount: 1 },
    { mobileNumber: n4, actionType: 'normal', blocked: false, lastSeenAt: seen(24 * 40), errorCount: 0 },
    { mobileNumber: n5, actionType: 'risky', blocked: false, lastSeenAt: seen(24 * 100), errorCount: 4 },
  ];
  return { folders, files, playlists, viewers, whitelist: [], config: defaultConfig() };
}
