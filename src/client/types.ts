import type { JsonObject } from '../core/json.js';
import type { ProtectionConfig } from '../core/protection.js';

/**
 * Typed interface of the video protection API client. Responses are parsed permissively: the
 * typed fields are the ones vidops uses, and `raw` keeps everything the service sent so it can be
 * shown to the user.
 * @see docs/api.md
 */

// The protection configuration is the core's (it validates and diffs it); the client sends it.
export {
  FONT_COLORS,
  type FontColor,
  type LinkSettings,
  type PlayerSettings,
  type ProtectionConfig,
} from '../core/protection.js';

/** What the service answered, as JSON (object, or `{ value }` when it sent something else). */
export interface Answer {
  raw: JsonObject;
}

export interface Folder extends Answer {
  id: string;
  title: string | null;
  description: string | null;
  /** Files in the folder, when the service says. */
  filesCount: number | null;
}

export type ConversionStatus = 'waiting' | 'done' | 'failed';

export interface VideoFile extends Answer {
  id: string;
  title: string | null;
  description: string | null;
  bucketId: string | null;
  hlsStatus: ConversionStatus | null;
}

export interface PlaylistEntry {
  _id: string;
  title?: string;
}

export interface Playlist extends Answer {
  id: string;
  title: string | null;
  files: PlaylistEntry[];
}

export interface Viewer extends Answer {
  mobileNumber: string;
  /** `attacker`, `risky`, `normal`, when the service says. */
  actionType: string | null;
  blocked: boolean | null;
}

export interface Page<T> {
  items: T[];
  total: number | null;
}

export interface ListQuery {
  sortBy?: string;
  limit?: number;
  currentPage?: number;
}

export interface CoverImage {
  data: Uint8Array;
  filename: string;
  contentType: string;
}

export interface WhitelistChange {
  before: string[];
  after: string[];
  raw: JsonObject;
}

/**
 * One method per upstream operation (op numbers of the spec) plus the read-only extras.
 * Every method throws the typed errors of `client/errors`.
 */
export interface VideoClient {
  whitelist: {
    /** op 2 */
    get(): Promise<string[]>;
    /**
     * op 1 done safely: reads the list (and, with `expectBefore`, refuses with
     * WhitelistConflictError if it changed since the request was made; with `asAskedIsDone` too,
     * a list that already is `list`, as after a resumed send that had landed, is answered without
     * posting, `raw.alreadyAsAsked`), posts the full `list`,
     * reads again and throws WhitelistMismatchError when the service did not end up with `list`
     * (e.g. it appended).
     */
    replace(
      list: readonly string[],
      options?: { expectBefore?: readonly string[]; asAskedIsDone?: boolean },
    ): Promise<WhitelistChange>;
  };
  protection: {
    /** op 4 */
    get(): Promise<ProtectionConfig & Answer>;
    /** op 3: sends only the given fields. */
    update(changes: ProtectionConfig): Promise<Answer>;
  };
  folders: {
    /** op 5 (never retried) */
    create(input: { title: string; description?: string }): Promise<Folder>;
    /** op 6 */
    edit(input: { bucketId: string; title: string; description?: string }): Promise<Folder>;
    /** op 7 */
    delete(input: { bucketId: string }): Promise<Answer>;
    /** extra: GET /v1/storage/bucket/all */
    list(query?: ListQuery): Promise<Page<Folder>>;
    /** extra: GET /v1/storage/bucket/info */
    info(bucketId: string): Promise<Folder>;
  };
  files: {
    /** op 8, multipart/form-data */
    edit(input: {
      fileId: string;
      title: string;
      description?: string;
      cover?: CoverImage;
    }): Promise<VideoFile>;
    /** op 9 */
    delete(input: { fileId: string }): Promise<Answer>;
    /** op 10 (never retried; method auto-detected) */
    retryConversion(input: { fileId: string }): Promise<Answer>;
    /** extra: GET /v1/storage/bucket/file/all */
    list(
      query?: ListQuery & { bucketId?: string; hlsStatus?: ConversionStatus; listOfId?: string[] },
    ): Promise<Page<VideoFile>>;
    /** extra: GET /v1/storage/bucket/file/info */
    info(fileId: string): Promise<VideoFile>;
  };
  playlists: {
    /** op 11 */
    edit(input: { playlistId: string; title?: string; files?: PlaylistEntry[] }): Promise<Playlist>;
    /** op 12 */
    delete(input: { playlistId: string }): Promise<Answer>;
    /** extra: POST /v1/playlist */
    create(input: { title: string }): Promise<Playlist>;
    /** extra: GET /v1/playlist/all */
    list(query?: ListQuery): Promise<Page<Playlist>>;
    /** extra: GET /v1/playlist */
    info(playlistId: string): Promise<Playlist>;
  };
  viewers: {
    /** op 13 */
    /**
     * `once`: repeated only when the service certainly did not act on it (never sent, or a 429),
     * for a batch that records each number's step and must never send one twice.
     */
    unblock(input: { mobileNumber: string }, options?: { once?: boolean }): Promise<Answer>;
    /** extra: GET /v1/analysis/content/video/all?search=… */
    lookup(mobileNumbers: readonly string[]): Promise<Page<Viewer>>;
  };
  links: {
    /** extra: POST /v1/storage/bucket/file/generate/link */
    generate(input: {
      fileId: string;
      mobileNumber?: string;
      expireTime?: string;
    }): Promise<Answer & { url: string | null }>;
  };
}

/** Where the client remembers the learned method of op 10 (shared by replicas through the store). */
export interface MethodMemory {
  get(): Promise<'POST' | 'PATCH' | null>;
  set(method: 'POST' | 'PATCH'): Promise<void>;
}

/**
 * The read-only extras whose support is learned: each is named like its call (`folder.info`…).
 * @see docs/api-extras.md, "Read-only endpoints"
 */
export const EXTRA_ROUTES = [
  'folder.info',
  'folder.list',
  'file.info',
  'file.list',
  'playlist.info',
  'playlist.list',
  'viewer.lookup',
] as const;
export type ExtraRoute = (typeof EXTRA_ROUTES)[number];

/**
 * What the client has learned of the service's extras (shared by replicas through the store).
 * A route is supported once it answered 200 with a readable answer; only then may its 404 mean
 * "no such record". Until then a 404 (or 405) means the service may not offer it at all.
 * @see docs/architecture.md, "Client of the video protection API"
 */
export interface SupportMemory {
  isSupported(route: ExtraRoute): Promise<boolean>;
  markSupported(route: ExtraRoute): Promise<void>;
}
