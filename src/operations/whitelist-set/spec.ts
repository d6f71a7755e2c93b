import { z } from 'zod';
import { CHANGE_NOTE, CHANGE_NOTE_FA, command, ONE_LEAD, operation } from '../../core/operation-spec.js';
import { ipKey } from '../../core/validate/ip.js';
import { IpLiteralSchema, WordsGiven } from '../common/spec.js';

export const spec = operation({
  name: 'whitelist.set',
  title: 'Update whitelist',
  fa: { title: 'به‌روزرسانی لیست سفید', cli: 'به‌روزرسانی لیست سفید IP' },
  specOp: 1,
  risk: 'sensitive',
  repeat: 'resume',
  commands: [
    command({
      kind: 'whitelist.add',
      words: ['whitelist', 'add'],
      args: { kind: 'ips', change: 'add' },
      summary: `Add server IPs to the whitelist (${CHANGE_NOTE}).`,
      fa: { summary: `افزودن IP سرورها به لیست سفید (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist add 1.2.3.4 2a00:1::4',
    }),
    command({
      kind: 'whitelist.remove',
      words: ['whitelist', 'remove'],
      args: { kind: 'ips', change: 'remove' },
      summary: `Remove server IPs from the whitelist (${CHANGE_NOTE}).`,
      fa: { summary: `برداشتن IP سرورها از لیست سفید (${CHANGE_NOTE_FA}).` },
      example: '/vidops whitelist remove 1.2.3.4',
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
