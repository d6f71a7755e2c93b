import type { JsonObject } from '../core/json.js';
import type { createFilesResource } from './files.js';
import type { createFoldersResource } from './folders.js';
import type { createLinksResource } from './links.js';
import type { createPlaylistsResource } from './playlists.js';
import type { createProtectionResource } from './protection.js';
import type { createViewersResource } from './viewers.js';
import type { createWhitelistResource } from './whitelist.js';

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
 * One method per upstream operation (op numbers of the spec) plus the read-only extras, each
 * declared once in its resource module. Every method throws the typed errors of `client/errors`.
 */
export interface VideoClient {
  whitelist: ReturnType<typeof createWhitelistResource>;
  protection: ReturnType<typeof createProtectionResource>;
  folders: ReturnType<typeof createFoldersResource>;
  files: ReturnType<typeof createFilesResource>;
  playlists: ReturnType<typeof createPlaylistsResource>;
  viewers: ReturnType<typeof createViewersResource>;
  links: ReturnType<typeof createLinksResource>;
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
