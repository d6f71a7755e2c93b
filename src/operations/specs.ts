import { byName } from './common/by-name.js';
import { spec as fileDelete } from './file-delete/spec.js';
import { spec as fileEdit } from './file-edit/spec.js';
import { spec as fileRetry } from './file-retry/spec.js';
import { spec as folderCreate } from './folder-create/spec.js';
import { spec as folderDelete } from './folder-delete/spec.js';
import { spec as folderEdit } from './folder-edit/spec.js';
import { spec as playlistCreate } from './playlist-create/spec.js';
import { spec as playlistDelete } from './playlist-delete/spec.js';
import { spec as playlistEdit } from './playlist-edit/spec.js';
import { spec as protectSet } from './protect-set/spec.js';
import { spec as viewerUnblock } from './viewer-unblock/spec.js';
import { spec as viewerUnblockMany } from './viewer-unblock-many/spec.js';
import { spec as whitelistSet } from './whitelist-set/spec.js';

/**
 * Every change operation's catalog entry, in the order of the spec's endpoint table (the order
 * help and `CHANGE_OPERATIONS` list them), keyed by its name. Pure: src/core reads it, and
 * test/core-imports.test.ts holds every spec file to core's rule.
 * @see docs/architecture.md, "The operation catalog"
 */
export const SPECS = byName([
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
