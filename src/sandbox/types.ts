/**
 * Records the sandbox keeps and answers with. Shapes follow the brief of the sandbox, since the
 * spec shows no response bodies; every field is JSON so it can be dumped and compared as is.
 * @see docs/api.md, "Resources and their fields"
 * @see docs/api-extras.md
 */

import type { JsonValue } from '../core/json.js';
import type { FONT_COLORS } from './validation.js';

/** Conversion state of a file (`hlsStatus` in the service's documentation). */
export type HlsStatus = 'waiting' | 'done' | 'failed';

/** Behaviour of a viewer as the anomaly analysis classifies it. */
export type ActionType = 'attacker' | 'risky' | 'normal';

/** A folder as stored; `filesCount` is computed when answering. */
export type FolderRecord = {
  _id: string;
  title: string;
  description: string;
  createdAt: string;
};

/** A folder as answered. */
export type FolderView = FolderRecord & { filesCount: number };

/** The cover image sent with op 8: only its description is kept, never the bytes. */
export type Cover = {
  filename: string;
  size: number;
  contentType: string;
};

/** A stored video or podcast file. */
export type FileRecord = {
  _id: string;
  bucketId: string;
  title: string;
  description: string;
  hlsStatus: HlsStatus;
  size: number;
  createdAt: string;
  cover?: Cover;
};

export type PlaylistEntry = { _id: string; title: string };

export type PlaylistRecord = {
  _id: string;
  title: string;
  files: PlaylistEntry[];
  createdAt: string;
};

/** A viewer known to the anomaly analysis. */
export type Viewer = {
  mobileNumber: string;
  actionType: ActionType;
  blocked: boolean;
  lastSeenAt: string;
  errorCount: number;
};

export type FontColor = (typeof FONT_COLORS)[number];

/** The full storage-wide protection configuration (op 4 answers all of it). */
export type ProtectionConfig = {
  speed: number;
  fontColor: FontColor;
  fontSize: number;
  opacity: number;
  sendProtectionAlert: boolean;
  faultTolerance: number;
  preventZoom: boolean;
  ipValidation: boolean;
  fixWatermark: boolean;
  displayTextOnScreen: boolean;
  enableBeep: boolean;
  beepVolume: number;
  beepInterval: number;
  player: { themeColor: string; offlineMode: boolean; securityProtection: boolean };
  link: { accessWithMultiIp: boolean; expireTime: string };
  enableActiveSession: boolean;
  regenerateLink: boolean;
  relatedPlaylist: boolean;
  enablePlaylist: boolean;
};

/** One page of a list answer. */
export type ListPage<T> = {
  items: T[];
  total: number;
  currentPage: number;
  limit: number;
};

/** Everything the sandbox holds, as `GET /__sandbox/state` answers it. */
export type SandboxState = {
  folders: FolderView[];
  files: FileRecord[];
  playlists: PlaylistRecord[];
  whitelist: string[];
  config: ProtectionConfig;
  /** Mobile numbers of the viewers currently blocked. */
  blockedViewers: string[];
  viewers: Viewer[];
};

/** One `/v1` request as the sandbox received it. */
export type RecordedRequest = {
  /** ISO-8601 UTC time of arrival. */
  at: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Header names in lower case; `api_key`, `secret_key` and `authorization` values redacted. */
  headers: Record<string, string | string[]>;
  /** Parsed JSON, a multipart summary `{fields, files}`, raw text when unparsable, or null. */
  body: JsonValue;
  /** Status answered; null when the connection was reset or never answered. */
  status: number | null;
};
