import { ApiError, isMissingRouteError, NotFoundError } from '../client/errors.js';
import { mayHaveReachedService } from '../client/http.js';
import type { Answer, VideoClient } from '../client/types.js';
import { OPERATION_SPECS, parseParams } from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest, RecordedError } from '../core/model.js';
import type { ChangeOperation } from '../core/operations.js';
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

/**
 * How one send of a request ended, as the request records it:
 * - `applied`: the service answered 2xx;
 * - `already-deleted`: a delete sent again (never the first send) answered 404;
 * - `unknown`: it may or may not have been applied (see {@link judgeFailure});
 * - `failed`: the service certainly did not apply it.
 */
export type SendOutcome =
  | { kind: 'applied'; result: JsonObject }
  | { kind: 'already-deleted'; error: RecordedError }
  | { kind: 'unknown'; error: RecordedError }
  | { kind: 'failed'; error: RecordedError };

/**
 * Sends the request once (the client's retry policy decides what "once" allows) and says how it
 * ended. `repeat`: this is a send after an earlier one whose outcome is unknown.
 * @see docs/architecture.md, "Approvals"
 */
export async function sendRequest(
  client: VideoClient,
  request: Pick<OperationRequest, 'operation' | 'params'>,
  fetchCover: ((cover: CoverRef) => Promise<Uint8Array>) | undefined,
  options: { repeat: boolean },
): Promise<SendOutcome> {
  try {
    return { kind: 'applied', result: await runOperation(client, request, fetchCover) };
  } catch (error) {
    return judgeFailure(request.operation, error, options.repeat);
  }
}

/**
 * What a failed send says about the request:
 * - a repeated delete answered 404 (the record, not the route, is missing): already deleted;
 * - any other failure of a repeat says nothing about the earlier send: still unknown;
 * - operations vidops repeats by itself (`repeat: resume`) keep `failed`, with the client's own
 *   words when the answer was lost (asking again gives the same end state);
 * - otherwise a failure after which the service may have acted is `unknown`: no answer in time, a
 *   connection lost after sending, an unreadable answer, and for deletes a 5xx; the rest (a
 *   refusal before sending, a 4xx, 429 included; a 5xx to a create) is `failed`.
 */
export function judgeFailure(operation: ChangeOperation, error: unknown, repeat: boolean): SendOutcome {
  const recorded = recordError(error);
  const rule = OPERATION_SPECS[operation].repeat;
  if (repeat) {
    const gone = rule === 'lead' && error instanceof NotFoundError && !isMissingRouteError(error);
    return { kind: gone ? 'already-deleted' : 'unknown', error: recorded };
  }
  if (rule === 'resume' || !mayHaveReachedService(error)) return { kind: 'failed', error: recorded };
  const answered5xx = error instanceof ApiError && error.status !== null;
  if (answered5xx && rule === 'never') return { kind: 'failed', error: recorded };
  return { kind: 'unknown', error: recorded };
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
