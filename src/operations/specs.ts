import type { Endpoint } from '../core/operation-spec.js';
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

type Specs = typeof SPECS;
type ReadsOf<S> = S extends { reads?: infer R } ? keyof R & string : never;
/** Every endpoint vidops sends to: each operation's own, and the reads that belong to one. */
export type EndpointName = { [K in keyof Specs]: K | ReadsOf<Specs[K]> }[keyof Specs];

/**
 * The endpoint table, gathered from the operations' modules (nothing here is written twice): the
 * client calls from it, and the number of documented operations is counted from it.
 */
export const ENDPOINTS = Object.fromEntries(
  Object.values(SPECS).flatMap((spec): [string, Endpoint][] => [
    [spec.name, spec.endpoint],
    ...Object.entries<Endpoint>(spec.reads ?? {}),
  ]),
) as Readonly<Record<EndpointName, Endpoint>>;

/** How many of the spec's operations vidops covers: the documented endpoints of the table. */
export const DOCUMENTED_OPERATIONS = Object.values(ENDPOINTS).filter((e) => e.specOp !== null).length;
