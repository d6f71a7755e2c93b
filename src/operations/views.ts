import type { ChangeOperation } from '../core/catalog.js';
import { byName } from './common/by-name.js';
import type { OperationViews } from './common/views.js';
import { views as fileDelete } from './file-delete/views.js';
import { views as fileEdit } from './file-edit/views.js';
import { views as fileRetry } from './file-retry/views.js';
import { views as folderCreate } from './folder-create/views.js';
import { views as folderDelete } from './folder-delete/views.js';
import { views as folderEdit } from './folder-edit/views.js';
import { views as playlistCreate } from './playlist-create/views.js';
import { views as playlistDelete } from './playlist-delete/views.js';
import { views as playlistEdit } from './playlist-edit/views.js';
import { views as protectSet } from './protect-set/views.js';
import { views as viewerUnblock } from './viewer-unblock/views.js';
import { views as viewerUnblockMany } from './viewer-unblock-many/views.js';
import { views as whitelistSet } from './whitelist-set/views.js';

export type { CliPreview, OperationViews, PreviewView } from './common/views.js';

/**
 * What people see of each operation (its `views.ts`): the Slack and CLI previews. The compiler
 * checks that every operation of the catalog has its views.
 * @see docs/architecture.md, "The operation catalog"
 */
export const VIEWS: { readonly [O in ChangeOperation]: OperationViews<O> } = byName([
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
