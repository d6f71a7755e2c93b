import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import { createPreview, OptionalText, TitleField, TitleSchema } from '../common/spec.js';

export const spec = operation({
  name: 'folder.create',
  title: 'Create folder',
  fa: { title: 'ساخت پوشه', cli: 'ساخت پوشه' },
  endpoint: { specOp: 5, method: 'POST', path: '/v1/storage/bucket', body: 'json', repeat: 'never' },
  risk: 'reversible',
  undo: 'none',
  commands: [
    command({
      kind: 'folder.create',
      words: ['folder', 'create'],
      args: { kind: 'none', why: 'the form asks for the title' },
      summary: `Create a folder (${CHANGE_NOTE}).`,
      fa: { summary: `ساخت پوشه (${CHANGE_NOTE_FA}).` },
      example: '/vidops folder create',
    }),
  ],
  input: z.strictObject({ title: TitleField, description: OptionalText }),
  fields: ['title', 'description'],
  params: z.strictObject({ title: TitleSchema, description: z.string().exactOptional() }),
  preview: createPreview('folder', { title: z.string(), description: z.string().exactOptional() }),
  target: (p) => ({ kind: 'new', resource: 'folder', title: p.title }),
  confirm: (i) => i.title,
  policy: ONE_LEAD,
});
