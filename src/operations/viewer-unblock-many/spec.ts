import { z } from 'zod';
import { DIRECT, operation } from '../../core/operation-spec.js';
import { MobileParamSchema } from '../../core/validate/phone.js';

/** The most numbers one batch takes: a ticket export of a whole school, with room to spare. */
export const MAX_BATCH = 1000;

const Numbers = z
  .array(MobileParamSchema)
  .min(1)
  .max(MAX_BATCH)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a number');

/**
 * Many viewers unblocked at once: one request whose parameters are the whole list (bound by the
 * params hash), decided once by the policy (`bulk.maxWithoutApproval`), each number its own step
 * (src/core/batch.ts). The edges read the list (src/core/validate/phone-list.ts) and give it
 * here merged and in the form sent; it has no words of its own (`/vidops unblock` with several
 * numbers, the Unblock many form, `vidops unblock --file`).
 * @see docs/approvals.md, "Many numbers at once"
 */
export const spec = operation({
  name: 'viewer.unblock-many',
  title: 'Unblock viewers',
  fa: { title: 'رفع مسدودی چند بیننده', cli: 'رفع مسدودی چند بیننده' },
  risk: 'reversible',
  // Op 13 once per number (no number of its own in the spec's table: it is not an endpoint of the
  // service). Each number is sent once by its step; a run taken over goes on with those not yet taken.
  endpoint: {
    specOp: null,
    method: 'POST',
    path: '/v1/analysis/user/video/anomaly',
    body: 'json',
    repeat: 'resume',
  },
  undo: 'none',
  commands: [],
  input: z.strictObject({ mobileNumbers: Numbers }),
  fields: [],
  params: z.strictObject({ mobileNumbers: Numbers }),
  preview: z.object({
    kind: z.literal('unblock-many'),
    count: z.number(),
    /** Numbers a lead is asked about whatever the size (repeat viewers), in the form sent. */
    repeats: z.array(z.string()),
  }),
  target: (p) => ({ kind: 'stored', text: `${p.mobileNumbers.length} viewers` }),
  confirm: (i) => String(i.mobileNumbers.length),
  policy: DIRECT,
});
