import { z } from 'zod';
import { command, DIRECT, operation } from '../../core/operation-spec.js';
import { MobileParamSchema } from '../../core/validate/phone.js';
import { RepeatShownSchema } from '../../core/viewer-history.js';
import { Known, WordsGiven } from '../common/spec.js';

export const spec = operation({
  name: 'viewer.unblock',
  title: 'Unblock viewer',
  fa: { title: 'رفع مسدودی بیننده', cli: 'رفع مسدودی بیننده' },
  endpoint: {
    specOp: 13,
    method: 'POST',
    path: '/v1/analysis/user/video/anomaly',
    body: 'json',
    repeat: 'resume',
  },
  risk: 'reversible',
  undo: 'none',
  commands: [
    command({
      kind: 'unblock',
      words: ['unblock'],
      args: { kind: 'mobile' },
      summary: 'Unblock a viewer blocked for suspicious behaviour (player error 9910).',
      fa: { summary: `رفع مسدودی بیننده‌ای که به‌خاطر رفتار مشکوک مسدود شده است (خطای پخش‌کننده‌ی ۹۹۱۰).` },
      example: '/vidops unblock 0912 345 6789',
      cli: {
        notes: [
          'The number may be written with spaces, dashes, +98/0098, or Persian and Arabic-Indic digits.',
          'Runs at once; over the rate limit of the policy it needs a lead’s approval instead.',
          'Many at once: several numbers, --file numbers.txt, or - (standard input, also read when it is not a terminal): one per line or separated by commas, spaces or ،. The list is shown first (lines refused with their reasons, duplicates merged, repeat viewers) and asked for only once you confirm; --yes confirms without asking, and is required when there is no terminal to ask on.',
        ],
        flags: ['file', 'yes'],
        // One number spans up to 6 words; a batch takes up to 1000 numbers.
        words: [0, 6000],
      },
    }),
  ],
  // As parseMobile gives it: national digits (`09123456789`) or E.164 for another region.
  input: z.strictObject({ mobileNumber: WordsGiven.mobileNumber }),
  fields: [],
  params: z.strictObject({ mobileNumber: MobileParamSchema }),
  preview: z.object({
    kind: z.literal('unblock'),
    mobileNumber: z.string(),
    blocked: z.boolean().nullable(),
    actionType: Known,
    /** Set when the repeat rule sent it to a lead (docs/approvals.md, "Repeat unblocks"). */
    repeat: RepeatShownSchema.exactOptional(),
  }),
  target: (p) => ({ kind: 'viewer', id: p.mobileNumber }),
  confirm: (i) => i.mobileNumber,
  policy: { ...DIRECT, rateLimit: { max: 30, per: '1h' } },
});
