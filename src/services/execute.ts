import { ApiError } from '../client/errors.js';
import type { Answer, VideoClient } from '../client/types.js';
import { parseParams } from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest, RecordedError } from '../core/model.js';
import type { CoverRef } from './types.js';

/**
 * The one place where a request becomes an upstream call. Params are parsed again from the stored
 * request (they were validated when asked, but the store is a boundary too).
 * @see docs/api.md, "Endpoints"
 */
export async function runOperation(
  client: VideoClient,
  request: Pick<OperationRequest, 'operation' | 'params'>,
  fetchCover: ((cover: CoverRef) => Promise<Uint8Array>) | undefined,
): Promise<JsonObject> {
  const answer = await call(client, request, fetchCover);
  return answer.raw;
}

async function call(
  client: VideoClient,
  request: Pick<OperationRequest, 'operation' | 'params'>,
  fetchCover: ((cover: CoverRef) => Promise<Uint8Array>) | undefined,
): Promise<Answer> {
  switch (request.operation) {
    case 'whitelist.set': {
      const p = parseParams('whitelist.set', request.params);
      return client.whitelist.replace(p.allowedDNS, { expectBefore: p.expectBefore });
    }
    case 'protect.set': {
      const p = parseParams('protect.set', request.params);
      return client.protection.update(p.changes);
    }
    case 'folder.create': {
      const p = parseParams('folder.create', request.params);
      return client.folders.create(p.description === undefined ? { title: p.title } : p);
    }
    case 'folder.edit':
      return client.folders.edit(parseParams('folder.edit', request.params));
    case 'folder.delete':
      return client.folders.delete(parseParams('folder.delete', request.params));
    case 'file.edit': {
      const { cover, ...p } = parseParams('file.edit', request.params);
      if (cover === undefined) return client.files.edit(p);
      if (!fetchCover) {
        throw new InputError('The cover image cannot be downloaded here, so the file was not edited.');
      }
      const data = await fetchCover(cover);
      return client.files.edit({
        ...p,
        cover: { data, filename: cover.filename, contentType: cover.contentType },
      });
    }
    case 'file.delete':
      return client.files.delete(parseParams('file.delete', request.params));
    case 'file.retry':
      return client.files.retryConversion(parseParams('file.retry', request.params));
    case 'playlist.edit': {
      const { playlistId, title, files } = parseParams('playlist.edit', request.params);
      return client.playlists.edit({
        playlistId,
        ...(title === undefined ? {} : { title }),
        ...(files === undefined
          ? {}
          : {
              files: files.map((f) =>
                f.title === undefined ? { _id: f._id } : { _id: f._id, title: f.title },
              ),
            }),
      });
    }
    case 'playlist.delete':
      return client.playlists.delete(parseParams('playlist.delete', request.params));
    case 'viewer.unblock':
      return client.viewers.unblock(parseParams('viewer.unblock', request.params));
  }
}

const MAX_MESSAGE = 1000;

/**
 * An error as the request and the audit log record it: class name, message, HTTP status. Only
 * these three fields are taken, so nothing else the error carries (bodies, causes) is stored.
 */
export function recordError(error: unknown): RecordedError {
  const name = error instanceof Error ? error.name : 'Error';
  const raw = error instanceof Error ? error.message : String(error);
  const message = raw.length > MAX_MESSAGE ? `${raw.slice(0, MAX_MESSAGE)}…` : raw;
  if (error instanceof ApiError && error.status !== null) return { name, message, status: error.status };
  return { name, message };
}
