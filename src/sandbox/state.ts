import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { demoData, emptyData, type SandboxData } from './demo-data.js';
import { badRequest, notFound, SandboxHttpError } from './errors.js';
import type {
  ActionType,
  Cover,
  FileRecord,
  FolderRecord,
  FolderView,
  HlsStatus,
  ListPage,
  PlaylistEntry,
  PlaylistRecord,
  ProtectionConfig,
  SandboxState,
  Viewer,
} from './types.js';
import type { ConfigPatch, ListQuery, SortBy } from './validation.js';

/** Whether op 1 replaces the list or adds to it (the spec leaves it open; both must be testable). */
export type WhitelistMode = 'replace' | 'append';

export interface ModelOptions {
  /** How long a retried conversion stays `waiting` before it is `done`. */
  conversionDelayMs: number;
  whitelistMode: WhitelistMode;
  /** Start (and reset) with the demo data; otherwise empty. */
  demoData: boolean;
  /** Milliseconds since the epoch; injected so tests control time. */
  now?: () => number;
  /** New identifiers; defaults to ObjectId-like 24 hex digits. */
  newId?: () => string;
}

const DAY = 86_400_000;
const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: DAY,
  w: 7 * DAY,
  M: 30 * DAY,
  y: 365 * DAY,
};

/**
 * ObjectId-like identifiers (4 bytes of seconds, 5 random bytes, 3 bytes of counter), so that
 * sorting by `_id` follows creation order as it does on the real service.
 */
export function objectIdGenerator(now: () => number): () => string {
  const middle = randomBytes(5).toString('hex');
  let counter = randomBytes(3).readUIntBE(0, 3);
  return () => {
    counter = (counter + 1) % 0x1000000;
    const seconds = Math.floor(now() / 1000)
      .toString(16)
      .padStart(8, '0')
      .slice(-8);
    return `${seconds}${middle}${counter.toString(16).padStart(6, '0')}`;
  };
}

/** One spelling per address: IPv6 compressed and lower case, IPv4-mapped IPv6 as plain IPv4. */
export function canonicalIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(ip) === 6) return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  return ip;
}

/**
 * The same mobile number however it is written: `+989121234567`, `00989121234567` and
 * `09121234567` are one viewer (Iranian numbers, as in every example of the service).
 */
export function mobileKey(mobile: string): string {
  const digits = mobile.replace(/\D/g, '');
  if (digits.startsWith('0098')) return digits.slice(4);
  if (digits.startsWith('98') && digits.length === 12) return digits.slice(2);
  if (digits.startsWith('0')) return digits.slice(1);
  return digits;
}

/** Milliseconds of an `expireTime` such as `2h`; the format is checked before. */
export function expireTimeMs(expireTime: string): number {
  const unit = expireTime.slice(-1);
  return Number(expireTime.slice(0, -1)) * (UNIT_MS[unit] ?? 0);
}

/**
 * The state of the emulated service and the rules of each operation, with no HTTP in it.
 * Methods throw SandboxHttpError for what the service would refuse (400, 403, 404).
 * The conversion queue settles lazily against the clock, so there is no timer to leak.
 * @see docs/api.md, "Endpoints"
 */
export class SandboxModel {
  private data: SandboxData;
  /** fileId → time (ms) at which its retried conversion is done. */
  private readonly conversions = new Map<string, number>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: ModelOptions) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? objectIdGenerator(this.now);
    this.data = this.initialData();
  }

  /** Back to the data the sandbox started with. */
  reset(): void {
    this.data = this.initialData();
    this.conversions.clear();
  }

  /** A deep copy of everything, for `GET /__sandbox/state` and tests. */
  snapshot(): SandboxState {
    this.settle();
    const { data } = this;
    return structuredClone({
      folders: data.folders.map((folder) => this.folderView(folder)),
      files: data.files,
      playlists: data.playlists,
      whitelist: data.whitelist,
      config: data.config,
      blockedViewers: data.viewers.filter((v) => v.blocked).map((v) => v.mobileNumber),
      viewers: data.viewers,
    });
  }

  // --- whitelist (ops 1, 2) ---

  /** op 2 */
  getWhitelist(): { allowedDNS: string[] } {
    return { allowedDNS: [...this.data.whitelist] };
  }

  /** op 1: replaces the list, or appends to it in `append` mode; repeated addresses are folded. */
  setWhitelist(allowedDNS: readonly string[]): { allowedDNS: string[] } {
    const base = this.options.whitelistMode === 'append' ? this.data.whitelist : [];
    const seen = new Set(base.map(canonicalIp));
    const next = [...base];
    for (const ip of allowedDNS) {
      const key = canonicalIp(ip);
      if (seen.has(key)) continue;
      seen.add(key);
      next.push(ip);
    }
    this.data.whitelist = next;
    return this.getWhitelist();
  }

  // --- protection configuration (ops 3, 4) ---

  /** op 4 */
  getConfig(): ProtectionConfig {
    return structuredClone(this.data.config);
  }

  /** op 3: merges the given fields, nested `player` and `link` field by field. */
  updateConfig(patch: ConfigPatch): ProtectionConfig {
    const config = this.data.config;
    const { player, link, ...top } = patch;
    this.data.config = {
      ...config,
      ...definedOnly(top),
      player: { ...config.player, ...definedOnly(player ?? {}) },
      link: { ...config.link, ...definedOnly(link ?? {}) },
    };
    return this.getConfig();
  }

  // --- folders (ops 5, 6, 7 and extras) ---

  /** op 5 */
  createFolder(input: { title: string; description?: string | undefined }): FolderView {
    const folder = {
      _id: this.newId(),
      title: input.title,
      description: input.description ?? '',
      createdAt: this.isoNow(),
    };
    this.data.folders.push(folder);
    return this.folderView(folder);
  }

  /** op 6: the description is kept when not given. */
  editFolder(input: { bucketId: string; title: string; description?: string | undefined }): FolderView {
    const folder = this.findFolder(input.bucketId);
    folder.title = input.title;
    if (input.description !== undefined) folder.description = input.description;
    return this.folderView(folder);
  }

  /** op 7: the folder's files go with it, and out of every playlist. */
  deleteFolder(bucketId: string): { _id: string; deleted: true; deletedFiles: number } {
    const folder = this.findFolder(bucketId);
    const doomed = new Set(this.data.files.filter((f) => f.bucketId === folder._id).map((f) => f._id));
    this.data.folders = this.data.folders.filter((f) => f._id !== folder._id);
    this.removeFiles(doomed);
    return { _id: folder._id, deleted: true, deletedFiles: doomed.size };
  }

  /** extra: GET /v1/storage/bucket/info */
  folderInfo(bucketId: string): FolderView {
    return this.folderView(this.findFolder(bucketId));
  }

  /** extra: GET /v1/storage/bucket/all */
  listFolders(query: ListQuery): ListPage<FolderView> {
    const views = this.data.folders.map((folder) => this.folderView(folder));
    return paginate(views, query, { field: '_id', direction: 'desc' });
  }

  // --- files (ops 8, 9, 10 and extras) ---

  /** op 8: the description and cover are kept when not given. */
  editFile(input: {
    fileId: string;
    title: string;
    description?: string | undefined;
    cover?: Cover | undefined;
  }): FileRecord {
    const file = this.findFile(input.fileId);
    file.title = input.title;
    if (input.description !== undefined) file.description = input.description;
    if (input.cover !== undefined) file.cover = { ...input.cover };
    return structuredClone(file);
  }

  /** op 9: the file goes out of every playlist too. */
  deleteFile(fileId: string): { _id: string; deleted: true } {
    const file = this.findFile(fileId);
    this.removeFiles(new Set([file._id]));
    return { _id: file._id, deleted: true };
  }

  /** op 10: only a failed conversion can be queued again. */
  retryConversion(fileId: string): { _id: string; hlsStatus: 'waiting' } {
    const file = this.findFile(fileId);
    if (file.hlsStatus !== 'failed') {
      throw badRequest('fileId', `conversion is ${file.hlsStatus}; only a failed conversion can be retried`);
    }
    file.hlsStatus = 'waiting';
    this.conversions.set(file._id, this.now() + this.options.conversionDelayMs);
    return { _id: file._id, hlsStatus: 'waiting' };
  }

  /** extra: GET /v1/storage/bucket/file/info */
  fileInfo(fileId: string): FileRecord {
    return structuredClone(this.findFile(fileId));
  }

  /** extra: GET /v1/storage/bucket/file/all */
  listFiles(
    query: ListQuery & {
      bucketId?: string | undefined;
      hlsStatus?: HlsStatus | undefined;
      listOfId?: string[] | undefined;
    },
  ): ListPage<FileRecord> {
    this.settle();
    if (query.bucketId !== undefined) this.findFolder(query.bucketId);
    const ids = query.listOfId === undefined ? null : new Set(query.listOfId);
    const files = this.data.files.filter(
      (file) =>
        (query.bucketId === undefined || file.bucketId === query.bucketId) &&
        (query.hlsStatus === undefined || file.hlsStatus === query.hlsStatus) &&
        (ids === null || ids.has(file._id)),
    );
    return paginate(structuredClone(files), query, { field: '_id', direction: 'desc' });
  }

  // --- playlists (ops 11, 12 and extras) ---

  /** extra: POST /v1/playlist */
  createPlaylist(title: string): PlaylistRecord {
    const playlist = { _id: this.newId(), title, files: [], createdAt: this.isoNow() };
    this.data.playlists.push(playlist);
    return structuredClone(playlist);
  }

  /**
   * op 11: `files` replaces the entries; each must name a known file, once. An entry without a
   * title takes the file's title.
   */
  editPlaylist(input: {
    playlistId: string;
    title?: string | undefined;
    files?: { _id: string; title?: string | undefined }[] | undefined;
  }): PlaylistRecord {
    const playlist = this.findPlaylist(input.playlistId);
    let entries: PlaylistEntry[] | undefined;
    if (input.files !== undefined) {
      const seen = new Set<string>();
      entries = input.files.map((entry, i) => {
        const file = this.data.files.find((f) => f._id === entry._id);
        if (file === undefined) throw badRequest(`files[${i}]._id`, `file ${entry._id} not found`);
        if (seen.has(entry._id)) throw badRequest(`files[${i}]._id`, 'appears more than once');
        seen.add(entry._id);
        return { _id: entry._id, title: entry.title ?? file.title };
      });
    }
    if (input.title !== undefined) playlist.title = input.title;
    if (entries !== undefined) playlist.files = entries;
    return structuredClone(playlist);
  }

  /** op 12: the playlist and its entries go; the files stay in their folders. */
  deletePlaylist(playlistId: string): { _id: string; deleted: true } {
    const playlist = this.findPlaylist(playlistId);
    this.data.playlists = this.data.playlists.filter((p) => p._id !== playlist._id);
    return { _id: playlist._id, deleted: true };
  }

  /** extra: GET /v1/playlist */
  playlistInfo(playlistId: string): PlaylistRecord {
    return structuredClone(this.findPlaylist(playlistId));
  }

  /** extra: GET /v1/playlist/all */
  listPlaylists(query: ListQuery): ListPage<PlaylistRecord> {
    return paginate(structuredClone(this.data.playlists), query, { field: '_id', direction: 'desc' });
  }

  // --- viewers (op 13 and extra) ---

  /** op 13: unknown numbers succeed too (nothing to unblock); a blocked viewer starts afresh. */
  unblock(mobileNumber: string): { mobileNumber: string; unblocked: true; wasBlocked: boolean } {
    const key = mobileKey(mobileNumber);
    const viewer = this.data.viewers.find((v) => mobileKey(v.mobileNumber) === key);
    const wasBlocked = viewer?.blocked ?? false;
    if (viewer !== undefined && wasBlocked) {
      viewer.blocked = false;
      viewer.errorCount = 0;
    }
    return { mobileNumber, unblocked: true, wasBlocked };
  }

  /** extra: GET /v1/analysis/content/video/all */
  listViewers(
    query: ListQuery & {
      search?: string[] | undefined;
      actionType?: ActionType[] | undefined;
      timeSeries?: number | undefined;
    },
  ): ListPage<Viewer> {
    const keys = query.search === undefined ? null : new Set(query.search.map(mobileKey));
    const types = query.actionType === undefined ? null : new Set(query.actionType);
    const since = query.timeSeries === undefined ? null : this.now() - query.timeSeries * DAY;
    const viewers = this.data.viewers.filter(
      (v) =>
        (keys === null || keys.has(mobileKey(v.mobileNumber))) &&
        (types === null || types.has(v.actionType)) &&
        (since === null || Date.parse(v.lastSeenAt) >= since),
    );
    return paginate(
      structuredClone(viewers),
      query,
      { field: 'lastSeenAt', direction: 'desc' },
      'mobileNumber',
    );
  }

  // --- playback links (extra) ---

  /**
   * extra: POST /v1/storage/bucket/file/generate/link. With `ipValidation` on, only callers in
   * the whitelist are answered (403 otherwise), as the spec's Authentication section says.
   */
  generateLink(
    input: { fileId: string; mobileNumber?: string | undefined; expireTime?: string | undefined },
    callerIp: string,
  ): { url: string; fileId: string; expireTime: string; expiresAt: string } {
    this.checkLinkCaller(callerIp);
    const file = this.findFile(input.fileId);
    if (file.hlsStatus !== 'done') {
      throw badRequest('fileId', `conversion is ${file.hlsStatus}; only a converted file can be played`);
    }
    const expireTime = input.expireTime ?? this.data.config.link.expireTime;
    const expiresAt = new Date(this.now() + expireTimeMs(expireTime)).toISOString();
    const token = randomBytes(16).toString('hex');
    // A reserved domain: the sandbox has no player, and the link must not look like a real one.
    const url = `https://player.sandbox.invalid/embed/${encodeURIComponent(file._id)}?token=${token}`;
    return { url, fileId: file._id, expireTime, expiresAt };
  }

  /** Refuses a link-creation caller outside the whitelist when `ipValidation` is on. */
  checkLinkCaller(callerIp: string): void {
    if (!this.data.config.ipValidation) return;
    const caller = canonicalIp(callerIp);
    if (this.data.whitelist.some((ip) => canonicalIp(ip) === caller)) return;
    throw new SandboxHttpError(403, `caller IP ${caller} is not in the whitelist (ipValidation is on)`, {
      code: 'IP_NOT_WHITELISTED',
    });
  }

  // --- internals ---

  private initialData(): SandboxData {
    return this.options.demoData ? demoData(this.now()) : emptyData();
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  /** Finishes every retried conversion whose time has come. */
  private settle(): void {
    const now = this.now();
    for (const [fileId, doneAt] of this.conversions) {
      if (doneAt > now) continue;
      const file = this.data.files.find((f) => f._id === fileId);
      if (file !== undefined && file.hlsStatus === 'waiting') file.hlsStatus = 'done';
      this.conversions.delete(fileId);
    }
  }

  private removeFiles(ids: ReadonlySet<string>): void {
    this.data.files = this.data.files.filter((f) => !ids.has(f._id));
    for (const playlist of this.data.playlists) {
      playlist.files = playlist.files.filter((entry) => !ids.has(entry._id));
    }
    for (const id of ids) this.conversions.delete(id);
  }

  private folderView(folder: FolderRecord): FolderView {
    const filesCount = this.data.files.filter((f) => f.bucketId === folder._id).length;
    return { ...folder, filesCount };
  }

  // The look-ups: the live record, or the spec's 404. A route changes it in place and answers a
  // copy (`structuredClone`), so a new endpoint is one entry in routes.ts.

  findFolder(bucketId: string): FolderRecord {
    const folder = this.data.folders.find((f) => f._id === bucketId);
    if (folder === undefined) throw notFound('folder', bucketId);
    return folder;
  }

  findFile(fileId: string): FileRecord {
    this.settle();
    const file = this.data.files.find((f) => f._id === fileId);
    if (file === undefined) throw notFound('file', fileId);
    return file;
  }

  findPlaylist(playlistId: string): PlaylistRecord {
    const playlist = this.data.playlists.find((p) => p._id === playlistId);
    if (playlist === undefined) throw notFound('playlist', playlistId);
    return playlist;
  }
}

/** Drops members whose value is undefined (zod's optional fields), so a merge keeps the old value. */
function definedOnly<T extends object>(value: T): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Sorts (`tieKey` breaking ties, so pages never overlap) and cuts one page. */
function paginate<T extends Record<string, unknown>>(
  items: T[],
  query: ListQuery,
  defaultSort: SortBy,
  tieKey = '_id',
): ListPage<T> {
  const sort = query.sortBy ?? defaultSort;
  const sign = sort.direction === 'desc' ? -1 : 1;
  const sorted = [...items].sort(
    (a, b) => sign * (compareValues(a[sort.field], b[sort.field]) || compareValues(a[tieKey], b[tieKey])),
  );
  const limit = query.limit ?? 20;
  const currentPage = query.currentPage ?? 1;
  const start = (currentPage - 1) * limit;
  return { items: sorted.slice(start, start + limit), total: items.length, currentPage, limit };
}
