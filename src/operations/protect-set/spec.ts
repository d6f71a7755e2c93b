import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import { flattenProtection, ProtectionConfigSchema } from '../../core/validate/protection.js';
import { ProtectionScalar, WordsGiven } from '../common/spec.js';

export const spec = operation({
  name: 'protect.set',
  title: 'Change protection settings',
  fa: { title: 'تغییر تنظیمات حفاظت', cli: 'تغییر تنظیمات محافظت' },
  endpoint: { specOp: 3, method: 'POST', path: '/v1/storage/protect/config', body: 'json', repeat: 'resume' },
  reads: {
    'protect.get': {
      specOp: 4,
      method: 'GET',
      path: '/v1/storage/protect/config',
      body: 'none',
      repeat: 'read',
    },
  },
  risk: 'sensitive',
  undo: 'time-box',
  commands: [
    command({
      kind: 'protect.modal',
      words: ['protect'],
      args: { kind: 'none' },
      summary: `Open the protection settings to change them (${CHANGE_NOTE}).`,
      fa: { summary: `باز کردن تنظیمات حفاظت برای تغییرشان (${CHANGE_NOTE_FA}).` },
      example: '/vidops protect',
      cli: false,
    }),
    command({
      kind: 'protect.set',
      words: ['protect', 'set'],
      args: { kind: 'assignments' },
      summary: `Change protection settings; nested ones by dotted name; \`for 2h\` puts them back (${CHANGE_NOTE}).`,
      fa: {
        summary: `تغییر تنظیمات حفاظت؛ تنظیم‌های تودرتو با نام نقطه‌دار؛ با \`for 2h\` برمی‌گردند (${CHANGE_NOTE_FA}).`,
      },
      example: '/vidops protect set player.offlineMode=true opacity=0.5 fontColor=red for 2h',
      cli: {
        summary: `Change protection settings; nested ones by dotted name; --for 2h puts them back (${CHANGE_NOTE}).`,
        notes: [
          'Example: vidops protect set opacity=0.4 player.offlineMode=true link.expireTime=2h fontColor=red',
          'Only the settings that differ from the current ones are sent.',
          'With --for 2h (or --for 1405/09/07T18:00, an end) vidops puts them back by itself at the end.',
        ],
      },
    }),
  ],
  input: z.strictObject({ changes: WordsGiven.changes }),
  fields: [],
  params: z.strictObject({
    changes: ProtectionConfigSchema.refine(
      (changes) => flattenProtection(changes).length > 0,
      'must change at least one setting',
    ),
  }),
  preview: z.object({
    kind: z.literal('protection'),
    rows: z.array(
      z.object({ field: z.string(), before: ProtectionScalar.nullable(), after: ProtectionScalar }),
    ),
  }),
  target: () => ({ kind: 'protection' }),
  confirm: () => 'protect.set',
  policy: ONE_LEAD,
});
