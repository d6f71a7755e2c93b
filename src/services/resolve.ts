import { NotFoundError, NotSupportedError } from '../client/errors.js';
import type { VideoClient } from '../client/types.js';
import { OPERATION_SPECS, parseParams } from '../core/catalog.js';
import type { JsonValue } from '../core/json.js';
import type { OperationRequest } from '../core/model.js';

/**
 * "Check now" on a request whose outcome is unknown: what the service's look-up of its target
 * says. Deletes only; the look-ups are the read-only extras (folder, file and playlist info).
 * @see docs/architecture.md, "Approvals"
 * @see docs/api-extras.md, "Read-only endpoints"
 */

/** What the look-up found: the target is gone, it is still there, or the look-up cannot tell. */
export type CheckFinding = { kind: 'gone' } | { kind: 'present' } | { kind: 'cannot-tell'; reason: string };

/**
 * True when the look-up of this target answered 200 when the request was made: the preview then
 * holds what it found (a title, a file count or a folder). Only then is a 404 now proof that the
 * target is gone, rather than a look-up this service answers in its own way.
 */
export function lookedUpBefore(preview: JsonValue): boolean {
  if (preview === null || typeof preview !== 'object' || Array.isArray(preview)) return false;
  if (preview.kind !== 'delete') return false;
  return (
    typeof preview.title === 'string' ||
    typeof preview.filesCount === 'number' ||
    typeof preview.bucketId === 'string'
  );
}

/** Looks the target of `request` up. Failures of the look-up itself (timeouts…) propagate. */
export async function checkTarget(client: VideoClient, request: OperationRequest): Promise<CheckFinding> {
  const spec = OPERATION_SPECS[request.operation];
  if (spec.repeat !== 'lead') {
    return {
      kind: 'cannot-tell',
      reason: `vidops cannot look up whether a "${spec.title}" was applied. Look at the service, then mark the outcome by hand.`,
    };
  }
  try {
    await lookUp(client, request);
    return { kind: 'present' };
  } catch (error) {
    if (error instanceof NotSupportedError) {
      return {
        kind: 'cannot-tell',
        reason: `This service does not support looking up the ${request.target}. Look at the service, then mark the outcome by hand.`,
      };
    }
    if (error instanceof NotFoundError) {
      if (lookedUpBefore(request.preview)) return { kind: 'gone' };
      return {
        kind: 'cannot-tell',
        reason: `The look-up of the ${request.target} answered 404, but it had not answered for it when the request was made, so that proves nothing. Look at the service, then mark the outcome by hand.`,
      };
    }
    throw error;
  }
}

async function lookUp(client: VideoClient, request: OperationRequest): Promise<void> {
  switch (request.operation) {
    case 'folder.delete':
      await client.folders.info(parseParams('folder.delete', request.params).bucketId);
      return;
    case 'file.delete':
      await client.files.info(parseParams('file.delete', request.params).fileId);
      return;
    case 'playlist.delete':
      await client.playlists.info(parseParams('playlist.delete', request.params).playlistId);
      return;
    default:
      throw new Error(`no look-up for ${request.operation}`);
  }
}
