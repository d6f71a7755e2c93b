import { z } from 'zod';
import { DELETE_NOTE_FA } from '../../core/operation-spec.js';
import { deleteOperation, Known } from '../common/spec.js';

export const spec = deleteOperation({
  name: 'playlist.delete',
  title: 'Delete playlist',
  fa: {
    title: 'حذف پلی‌لیست',
    cli: 'حذف پلی‌لیست',
    summary: `حذف همیشگی پلی‌لیست و محتوای آن (${DELETE_NOTE_FA}).`,
  },
  endpoint: { specOp: 12, path: '/v1/playlist' },
  resource: 'playlist',
  summary: 'Delete a playlist and its contents, for good (typed confirmation and a lead’s approval).',
  found: { title: Known, filesCount: z.number().nullable() },
});
