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
  specOp: 9,
  resource: 'file',
  summary: 'Delete a file for good (typed confirmation and a lead’s approval).',
  found: { title: Known, bucketId: Known },
});
