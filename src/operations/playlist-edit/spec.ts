import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import {
  EntryPreview,
  editPreview,
  Known,
  OptionalText,
  PlaylistEntryField,
  PlaylistEntrySchema,
  ResourceIdSchema,
  TitleSchema,
  WordsGiven,
} from '../common/spec.js';

export const spec = operation({
  name: 'playlist.edit',
  title: 'Edit playlist',
  fa: { title: 'ویرایش پلی‌لیست', cli: 'ویرایش پلی‌لیست' },
  endpoint: { specOp: 11, method: 'PUT', path: '/v1/playlist', body: 'json', repeat: 'resume' },
  risk: 'reversible',
  undo: 'revert',
  commands: [
    command({
      kind: 'playlist.edit',
      words: ['playlist', 'edit'],
      args: { kind: 'id', resource: 'playlist' },
      summary: `Change a playlist’s title or files (${CHANGE_NOTE}).`,
      fa: { summary: `تغییر عنوان یا فایل‌های پلی‌لیست (${CHANGE_NOTE_FA}).` },
      example: '/vidops playlist edit 671018d0403eba579a6f90e2',
      cli: {
        notes: [
          'Give --title, --files or both. --files replaces the whole list, in order: --files 6710b…201:Intro,6710b…202',
        ],
      },
    }),
  ],
  input: z.strictObject({
    playlistId: WordsGiven.id,
    title: OptionalText,
    files: z.array(PlaylistEntryField).optional(),
  }),
  fields: ['title', 'files'],
  params: z
    .strictObject({
      playlistId: ResourceIdSchema,
      title: TitleSchema.exactOptional(),
      files: z.array(PlaylistEntrySchema).exactOptional(),
    })
    .refine((p) => p.title !== undefined || p.files !== undefined, 'must change the title or the files'),
  preview: editPreview(
    'playlist',
    { title: Known, files: z.array(EntryPreview) },
    { title: Known, files: z.array(EntryPreview).nullable() },
  ),
  target: (p) => ({ kind: 'playlist', id: p.playlistId }),
  confirm: (i) => i.playlistId,
  policy: ONE_LEAD,
});
