import type { ChangeOperation } from '../core/catalog.js';
import { byName } from './common/by-name.js';
import type { OperationService } from './common/service.js';
import { service as fileDelete } from './file-delete/service.js';
import { service as fileEdit } from './file-edit/service.js';
import { service as fileRetry } from './file-retry/service.js';
import { service as folderCreate } from './folder-create/service.js';
import { service as folderDelete } from './folder-delete/service.js';
import { service as folderEdit } from './folder-edit/service.js';
import { service as playlistCreate } from './playlist-create/service.js';
import { service as playlistDelete } from './playlist-delete/service.js';
import { service as playlistEdit } from './playlist-edit/service.js';
import { service as protectSet } from './protect-set/service.js';
import { service as viewerUnblock } from './viewer-unblock/service.js';
import { service as viewerUnblockMany } from './viewer-unblock-many/service.js';
import { service as whitelistSet } from './whitelist-set/service.js';

export type { ExecuteIo, OperationService, PrepareFn, PrepareIo } from './common/service.js';

/**
 * The services' half of every operation module (prepare, execute, look-up), by operation; the
 * compiler checks that every operation of the catalog has its service.
 * @see docs/architecture.md, "The operation catalog"
 */
export const SERVICES: { readonly [O in ChangeOperation]: OperationService<O> } = byName([
  whitelistSet,
  protectSet,
  folderCreate,
  folderEdit,
  folderDelete,
  fileEdit,
  fileDelete,
  fileRetry,
  playlistCreate,
  playlistEdit,
  playlistDelete,
  viewerUnblock,
  viewerUnblockMany,
]);
