import { createFilesResource, inProcessMethodMemory, type RetryConversionMethod } from './files.js';
import { createFoldersResource } from './folders.js';
import { type CallInfo, createTransport, IDEMPOTENT_RETRY, type RetryPolicy } from './http.js';
import { createLinksResource } from './links.js';
import { createPlaylistsResource } from './playlists.js';
import { createProtectionResource } from './protection.js';
import { inProcessSupportMemory } from './support.js';
import type { MethodMemory, SupportMemory, VideoClient } from './types.js';
import { createViewersResource } from './viewers.js';
import { createWhitelistResource } from './whitelist.js';

/**
 * Entry point of the video protection API client.
 * @see docs/architecture.md, "Client of the video protection API"
 */

export * from './errors.js';
export { inProcessMethodMemory, type RetryConversionMethod } from './files.js';
export {
  type CallInfo,
  IDEMPOTENT_RETRY,
  NO_RETRY,
  RAPID_RETRY,
  type RetryPolicy,
  type RetryReason,
} from './http.js';
export { inProcessSupportMemory } from './support.js';
export type * from './types.js';
export { EXTRA_ROUTES, FONT_COLORS } from './types.js';

export interface VideoClientOptions {
  /** VIDEO_API_URL: the paths add `/v1/…` to it. */
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Method of op 10: fixed, or `auto` (POST, else PATCH, learned and remembered). */
  retryConversionMethod: RetryConversionMethod;
  /** Policy of the idempotent calls (IDEMPOTENT_RETRY by default); creates and op 10 never retry. */
  retryPolicy?: RetryPolicy;
  /** Where the learned method of op 10 is kept; in process when absent. */
  methodMemory?: MethodMemory;
  /** Which extras have answered 200 so far (their 404 may then mean "no such record"); in process when absent. */
  supportMemory?: SupportMemory;
  /** Called after every HTTP exchange (each retry too), for metrics and logs. */
  onCall?: (info: CallInfo) => void;
}

/** The client, plus `close()` to free its keep-alive sockets on shutdown. */
export type VideoClientHandle = VideoClient & { close(): void };

/** Builds a client with its own got instance and keep-alive agents. */
export function createVideoClient(options: VideoClientOptions): VideoClientHandle {
  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    secretKey: options.secretKey,
    timeoutMs: options.timeoutMs,
    ...(options.onCall ? { onCall: options.onCall } : {}),
  });
  const retry = options.retryPolicy ?? IDEMPOTENT_RETRY;
  const support = options.supportMemory ?? inProcessSupportMemory();
  return {
    whitelist: createWhitelistResource(transport, retry),
    protection: createProtectionResource(transport, retry),
    folders: createFoldersResource(transport, retry, support),
    files: createFilesResource(transport, {
      retry,
      retryConversionMethod: options.retryConversionMethod,
      methodMemory: options.methodMemory ?? inProcessMethodMemory(),
      support,
    }),
    playlists: createPlaylistsResource(transport, retry, support),
    viewers: createViewersResource(transport, retry, support),
    links: createLinksResource(transport),
    close: () => transport.close(),
  };
}
