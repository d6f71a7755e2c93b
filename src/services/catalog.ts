import { NotFoundError, NotSupportedError } from '../client/errors.js';
import type { Answer, VideoClient } from '../client/types.js';
import {
  type ChangeOperation,
  type CoverRef,
  OPERATION_SPECS,
  type OperationParams,
  type Spec,
} from '../core/catalog.js';
import { InputError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import type { OperationRequest } from '../core/model.js';
import {
  type PrepareFn,
  type PrepareIo,
  prepareFileDelete,
  prepareFileEdit,
  prepareFileRetry,
  prepareFolderCreate,
  prepareFolderDelete,
  prepareFolderEdit,
  preparePlaylistDelete,
  preparePlaylistEdit,
  prepareProtection,
  prepareUnblock,
  prepareWhitelist,
} from './prepare.js';
import type { Prepared, PrepareInput } from './types.js';

/**
 * The services' half of the operation catalog: for each change operation, how it is prepared
 * (reading the upstream, ./prepare.ts), how it is sent (the one place a request becomes an
 * upstream call), and for deletes how "Check now" looks its target up. The compiler checks that
 * every operation of the catalog has its entry.
 * @see docs/architecture.md, "The operation catalog"
 * @see docs/api.md, "Endpoints"
 */

/** What execution may use: the API client, and the download of a cover image (Slack or a file). */
export interface ExecuteIo {
  client: VideoClient;
  fetchCover: ((cover: CoverRef) => Promise<Uint8Array>) | undefined;
}

export interface OperationService<O extends ChangeOperation> {
  prepare: PrepareFn<O>;
  /** Sends the typed parameters (parsed once, when the request was read from the store). */
  execute(params: OperationParams[O], io: ExecuteIo): Promise<Answer>;
  /**
   * Looks the target up for "Check now" on an unknown outcome: resolves when it is still there,
   * throws NotFoundError when it is gone. Absent where a look-up cannot tell (creates, edits).
   */
  lookUp?(params: OperationParams[O], client: VideoClient): Promise<unknown>;
}

export const SERVICES: { readonly [O in ChangeOperation]: OperationService<O> } = {
  'whitelist.set': {
    prepare: prepareWhitelist,
    execute: (p, { client }) => client.whitelist.replace(p.allowedDNS, { expectBefore: p.expectBefore }),
  },
  'protect.set': {
    prepare: prepareProtection,
    execute: (p, { client }) => client.protection.update(p.changes),
  },
  'folder.create': {
    prepare: prepareFolderCreate,
    execute: (p, { client }) => client.folders.create(p),
  },
  'folder.edit': {
    prepare: prepareFolderEdit,
    execute: (p, { client }) => client.folders.edit(p),
  },
  'folder.delete': {
    prepare: prepareFolderDelete,
    execute: (p, { client }) => client.folders.delete(p),
    lookUp: (p, client) => client.folders.info(p.bucketId),
  },
  'file.edit': {
    prepare: prepareFileEdit,
    async execute({ cover, ...p }, { client, fetchCover }) {
      if (cover === undefined) return client.files.edit(p);
      if (!fetchCover) {
        throw new InputError('The cover image cannot be downloaded here, so the file was not edited.');
      }
      const data = await fetchCover(cover);
      return client.files.edit({
        ...p,
        cover: { data, filename: cover.filename, contentType: cover.contentType },
      });
    },
  },
  'file.delete': {
    prepare: prepareFileDelete,
    execute: (p, { client }) => client.files.delete(p),
    lookUp: (p, client) => client.files.info(p.fileId),
  },
  'file.retry': {
    prepare: prepareFileRetry,
    execute: (p, { client }) => client.files.retryConversion(p),
  },
  'playlist.create': {
    prepare: async (input) => ({
      params: { title: input.title },
      preview: { kind: 'create', resource: 'playlist', after: { title: input.title } },
      warnings: [],
    }),
    async execute(p, { client }) {
      try {
        return await client.playlists.create(p);
      } catch (error) {
        // A create names no record, so any 404 means the service has no such endpoint.
        if (!(error instanceof NotFoundError || error instanceof NotSupportedError)) throw error;
        const { status, body, operation, method, path } = error;
        throw new NotSupportedError(
          `This service does not support creating playlists (${method} ${path} answered ${status ?? 'nothing'})`,
          { status, body, operation, method, path },
        );
      }
    },
  },
  'playlist.edit': {
    prepare: preparePlaylistEdit,
    execute: (p, { client }) => client.playlists.edit(p),
  },
  'playlist.delete': {
    prepare: preparePlaylistDelete,
    execute: (p, { client }) => client.playlists.delete(p),
    lookUp: (p, client) => client.playlists.info(p.playlistId),
  },
  'viewer.unblock': {
    prepare: prepareUnblock,
    execute: (p, { client }) => client.viewers.unblock(p),
  },
};

/** @see Operations.prepare */
export async function prepareRequest<O extends ChangeOperation>(
  io: PrepareIo,
  input: PrepareInput<O>,
): Promise<Prepared<O>> {
  const operation: O = input.kind;
  const service: OperationService<O> = SERVICES[operation];
  const spec: Spec<O> = OPERATION_SPECS[operation];
  const { params, preview, warnings } = await service.prepare(input, io);
  const prepared: Prepared<O> = { operation, params, target: spec.target(params), preview, warnings };
  return prepared;
}

/** Sends a request's typed parameters; the upstream's answer as recorded. */
export async function runOperation<O extends ChangeOperation>(
  request: Pick<OperationRequest<O>, 'operation' | 'params'>,
  io: ExecuteIo,
): Promise<JsonObject> {
  const service: OperationService<O> = SERVICES[request.operation];
  const answer = await service.execute(request.params, io);
  return answer.raw;
}

/** The look-up of "Check now" for `request`, or null when its operation has none. */
export function targetLookUp<O extends ChangeOperation>(
  request: Pick<OperationRequest<O>, 'operation' | 'params'>,
  client: VideoClient,
): (() => Promise<unknown>) | null {
  const service: OperationService<O> = SERVICES[request.operation];
  const lookUp = service.lookUp;
  return lookUp === undefined ? null : () => lookUp(request.params, client);
}
