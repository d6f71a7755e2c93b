import { z } from 'zod';
import { command, DIRECT, operation } from '../../core/operation-spec.js';
import { Known, ResourceIdSchema, WordsGiven } from '../common/spec.js';

export const spec = operation({
  name: 'file.retry',
  title: 'Retry conversion',
  fa: { title: 'تبدیل دوباره', cli: 'تبدیل دوباره‌ی فایل' },
  endpoint: {
    specOp: 10,
    method: 'POST',
    alsoMethods: ['PATCH'],
    path: '/v1/storage/bucket/file/queue/retry',
    body: 'json',
    repeat: 'never',
  },
  risk: 'reversible',
  undo: 'none',
  commands: [
    command({
      kind: 'retry',
      words: ['retry'],
      args: { kind: 'id', resource: 'file' },
      summary: 'Queue a file whose conversion failed for conversion again.',
      fa: { summary: `فرستادن دوباره‌ی فایلی که تبدیلش ناموفق بوده به صف تبدیل.` },
      example: '/vidops retry 671018d0403eba579a6f90e2',
    }),
  ],
  input: z.strictObject({ fileId: WordsGiven.id }),
  fields: [],
  params: z.strictObject({ fileId: ResourceIdSchema }),
  preview: z.object({
    kind: z.literal('retry'),
    resource: z.literal('file'),
    id: z.string(),
    title: Known,
    hlsStatus: Known,
  }),
  target: (p) => ({ kind: 'file', id: p.fileId }),
  confirm: (i) => i.fileId,
  policy: DIRECT,
});
