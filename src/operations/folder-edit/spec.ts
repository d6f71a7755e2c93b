import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import {
  editPreview,
  Known,
  OptionalText,
  ResourceIdSchema,
  TitleField,
  TitleSchema,
  WordsGiven,
} from '../common/spec.js';

export const spec = operation({
  name: 'folder.edit',
  title: 'Edit folder',
  fa: { title: 'ویرایش پوشه', cli: 'ویرایش پوشه' },
  endpoint: { specOp: 6, method: 'PATCH', path: '/v1/storage/bucket', body: 'json', repeat: 'resume' },
  risk: 'reversible',
  undo: 'revert',
  commands: [
    command({
      kind: 'folder.edit',
      words: ['folder', 'edit'],
      args: { kind: 'id', resource: 'folder' },
      summary: `Rename a folder or change its description (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر نام یا توضیح پوشه (${CHANGE_NOTE_FA}).` },
      example: '/vidops folder edit 671018d0403eba579a6f90e2',
    }),
  ],
  input: z.strictObject({ bucketId: WordsGiven.id, title: TitleField, description: OptionalText }),
  fields: ['title', 'description'],
  params: z.strictObject({
    bucketId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
  }),
  preview: editPreview(
    'folder',
    { title: Known, description: Known },
    { title: z.string(), description: Known },
  ),
  target: (p) => ({ kind: 'folder', id: p.bucketId }),
  confirm: (i) => i.bucketId,
  policy: ONE_LEAD,
});
