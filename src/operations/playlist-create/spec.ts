import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import { createPreview, TitleField, TitleSchema } from '../common/spec.js';

export const spec = operation({
  name: 'playlist.create',
  title: 'Create playlist',
  fa: { title: 'ساخت پلی‌لیست', cli: 'ساخت پلی‌لیست' },
  endpoint: { specOp: null, method: 'POST', path: '/v1/playlist', body: 'json', repeat: 'never' },
  risk: 'reversible',
  undo: 'none',
  commands: [
    command({
      kind: 'playlist.create',
      words: ['playlist', 'create'],
      args: { kind: 'none', why: 'the form asks for the title' },
      summary: `Create a playlist (${CHANGE_NOTE}).`,
      fa: { summary: `ساخت پلی‌لیست (${CHANGE_NOTE_FA}).` },
      example: '/vidops playlist create',
    }),
  ],
  input: z.strictObject({ title: TitleField }),
  fields: ['title'],
  params: z.strictObject({ title: TitleSchema }),
  preview: createPreview('playlist', { title: z.string() }),
  target: (p) => ({ kind: 'new', resource: 'playlist', title: p.title }),
  confirm: (i) => i.title,
  policy: ONE_LEAD,
});
