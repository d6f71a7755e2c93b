import { DELETE_NOTE_FA } from '../../core/operation-spec.js';
import { deleteOperation, Known } from '../common/spec.js';

export const spec = deleteOperation({
  name: 'file.delete',
  title: 'Delete file',
  fa: {
    title: 'حذف فایل',
    cli: 'حذف فایل',
    summary: `حذف همیشگی فایل (${DELETE_NOTE_FA}).`,
  },
  endpoint: { specOp: 9, path: '/v1/storage/bucket/file' },
  resource: 'file',
  summary: 'Delete a file for good (typed confirmation and a lead’s approval).',
  found: { title: Known, bucketId: Known },
});
