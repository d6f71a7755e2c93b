/**
 * Names of the operations vidops performs. The change operations are the keys of the catalog
 * (`./catalog.ts`); the read operations are the calls that only look. The numbers are the
 * operation numbers of `docs/api.md`; the extras come from `docs/api-extras.md`.
 */
export { CHANGE_OPERATIONS, type ChangeOperation, isChangeOperation } from './catalog.js';

import type { ChangeOperation } from './catalog.js';

export const READ_OPERATIONS = [
  'whitelist.get', // op 2
  'protect.get', // op 4
  'folder.list',
  'folder.info',
  'file.list',
  'file.info',
  'playlist.info',
  'playlist.list',
  'viewer.lookup',
] as const;

export type ReadOperation = (typeof READ_OPERATIONS)[number];
export type OperationName = ChangeOperation | ReadOperation;
