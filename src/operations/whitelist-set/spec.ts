import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import { ipKey } from '../../core/validate/ip.js';
import { IpLiteralSchema, WordsGiven } from '../common/spec.js';

export const spec = operation({
  name: 'whitelist.set',
  title: 'Update whitelist',
  fa: { title: 'به‌روزرسانی لیست سفید', cli: 'به‌روزرسانی لیست سفید IP' },
  endpoint: { specOp: 1, method: 'POST', path: '/v1/storage/dns/whitelist', body: 'json', repeat: 'resume' },
  reads: {
    'whitelist.get': {
      specOp: 2,
      method: 'GET',
      path: '/v1/storage/dns/whitelist',
      body: 'none',
      repeat: 'read',
    },
  },
  risk: 'sensitive',
  undo: 'time-box',
  sendsAlone: true,
  commands: [
    command({
      kind: 'whitelist.add',
      words: ['whitelist', 'add'],
      args: { kind: 'ips', change: 'add' },
      summary: `Add server IPs to the whitelist, or only for a while: \`for 30m\` (${CHANGE_NOTE}).`,
      fa: { summary: `افزودن IP سرورها به لیست سفید، یا فقط برای مدتی: \`for 30m\` (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist add 1.2.3.4 2a00:1::4 for 30m',
      cli: {
        summary: `Add server IPs to the whitelist, or only for a while: --for 30m (${CHANGE_NOTE}).`,
        notes: ['With --for 30m (or --for 1405/09/07T18:00, an end) vidops takes them off again at the end.'],
      },
    }),
    command({
      kind: 'whitelist.remove',
      words: ['whitelist', 'remove'],
      args: { kind: 'ips', change: 'remove' },
      summary: `Remove server IPs from the whitelist, or only for a while: \`for 2h\` (${CHANGE_NOTE}).`,
      fa: { summary: `برداشتن IP سرورها از لیست سفید، یا فقط برای مدتی: \`for 2h\` (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist remove 1.2.3.4 for 2h',
      cli: {
        summary: `Remove server IPs from the whitelist, or only for a while: --for 2h (${CHANGE_NOTE}).`,
        notes: [
          'With --for 2h (or --for 1405/09/07T18:00, an end) vidops adds them back by itself at the end.',
        ],
      },
    }),
  ],
  input: z.strictObject({
    /** `set`: the whole list at once (e.g. an edit form). */
    change: z.enum(['add', 'remove', 'set']),
    ips: WordsGiven.ips,
  }),
  fields: [],
  params: z.strictObject({
    allowedDNS: z
      .array(IpLiteralSchema)
      .refine((ips) => new Set(ips.map(ipKey)).size === ips.length, 'must not list an address twice'),
    /** The list as read when the request was made; execution refuses if it changed since. */
    expectBefore: z.array(z.string()),
  }),
  preview: z.object({
    kind: z.literal('whitelist'),
    before: z.array(z.string()),
    after: z.array(z.string()),
    added: z.array(z.string()),
    removed: z.array(z.string()),
  }),
  target: () => ({ kind: 'whitelist' }),
  confirm: () => 'whitelist.set',
  policy: ONE_LEAD,
});
