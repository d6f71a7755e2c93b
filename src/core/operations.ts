/**
 * Names of the operations vidops performs. The numbers are the operation numbers of
 * `docs/api.md`; the extras come from `docs/api-extras.md`.
 */
export const CHANGE_OPERATIONS = [
  'whitelist.set', // op 1
  'protect.set', // op 3
  'folder.create', // op 5
  'folder.edit', // op 6
  'folder.delete', // op 7
  'file.edit', // op 8
  'file.delete', // op 9
  'file.retry', // op 10
  'playlist.edit', // op 11
  'playlist.delete', // op 12
  'viewer.unblock', // op 13
] as const;

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

export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];
export type ReadOperation = (typeof READ_OPERATIONS)[number];
export type OperationName = ChangeOperation | ReadOperation;

export function isChangeOperation(name: string): name is ChangeOperation {
  return (CHANGE_OPERATIONS as readonly string[]).includes(name);
}
