import type { Viewer } from '../../client/types.js';
import { type Said, say } from '../../core/said.js';
import { normalizeDigits } from '../../core/validate/digits.js';
import { lookUpWarning, serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** Compares the last ten digits, so `+98912…`, `0098912…` and `0912…` are one number. */
function sameNumber(a: string, b: string): boolean {
  const tail = (s: string) => normalizeDigits(s).replace(/\D/g, '').slice(-10);
  return tail(a) !== '' && tail(a) === tail(b);
}

export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const { mobileNumber } = input;
    let viewer: Viewer | null = null;
    let looked = false;
    // The look-up is a courtesy: unblocking never depends on it, so any failure is only a warning
    // (even a 404 of a learned route: a search finds nobody, it names no record).
    try {
      const page = await io.client.viewers.lookup([mobileNumber]);
      looked = true;
      viewer = page.items.find((v) => sameNumber(v.mobileNumber, mobileNumber)) ?? null;
    } catch (error) {
      warnings.push(lookUpWarning('viewer', error));
    }
    if (looked && viewer === null) warnings.push(say.warnNoViewingRecord());
    if (viewer?.blocked === false) warnings.push(say.warnNotBlocked());
    return {
      params: { mobileNumber },
      preview: {
        kind: 'unblock',
        mobileNumber,
        blocked: viewer?.blocked ?? null,
        actionType: viewer?.actionType ?? null,
      },
      warnings,
    };
  },
  execute: (p, { client }) => client.viewers.unblock(p),
});
