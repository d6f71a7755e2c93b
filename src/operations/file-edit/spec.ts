import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import {
  CoverSchema,
  editPreview,
  Known,
  OptionalText,
  ResourceIdSchema,
  TitleField,
  TitleSchema,
  WordsGiven,
} from '../common/spec.js';

export const spec = operation({
  name: 'file.edit',
  title: 'Edit file',
  fa: { title: 'ویرایش فایل', cli: 'ویرایش فایل' },
  endpoint: {
    specOp: 8,
    method: 'POST',
    path: '/v1/storage/bucket/file/{fileId}',
    body: 'multipart',
    repeat: 'resume',
  },
  risk: 'reversible',
  undo: 'revert',
  commands: [
    command({
      kind: 'file.edit',
      words: ['file', 'edit'],
      args: { kind: 'id', resource: 'file' },
      summary: `Change a file’s title, description or cover image (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر عنوان، توضیح یا تصویر کاور فایل (${CHANGE_NOTE_FA}).` },
      example: '/vidops file edit 671018d0403eba579a6f90e2',
      cli: {
        notes: [
          '--cover takes a PNG, JPEG, GIF or WebP file; the approval binds its exact bytes, so the file must be unchanged when the request runs.',
        ],
      },
    }),
  ],
  input: z.strictObject({
    fileId: WordsGiven.id,
    title: TitleField,
    description: OptionalText,
    cover: CoverSchema.optional(),
  }),
  fields: ['title', 'description', 'cover'],
  params: z.strictObject({
    fileId: ResourceIdSchema,
    title: TitleSchema,
    description: z.string().exactOptional(),
    cover: CoverSchema.exactOptional(),
  }),
  preview: editPreview(
    'file',
    { title: Known, description: Known, bucketId: Known, hlsStatus: Known },
    { title: z.string(), description: Known, cover: Known },
  ),
  target: (p) => ({ kind: 'file', id: p.fileId }),
  confirm: (i) => i.fileId,
  policy: ONE_LEAD,
});
