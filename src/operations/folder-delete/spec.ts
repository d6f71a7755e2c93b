import { z } from 'zod';
import { DELETE_NOTE_FA } from '../../core/operation-spec.js';
import { deleteOperation, Known } from '../common/spec.js';

export const spec = deleteOperation({
  name: 'folder.delete',
  title: 'Delete folder',
  fa: {
    title: 'حذف پوشه',
    cli: 'حذف پوشه',
    summary: `حذف همیشگی پوشه و هرچه در آن است (${DELETE_NOTE_FA}).`,
  },
  endpoint: { specOp: 7, path: '/v1/storage/bucket' },
  resource: 'folder',
  summary: 'Delete a folder and everything in it, for good (typed confirmation and a lead’s approval).',
  found: { title: Known, filesCount: z.number().nullable() },
});
