import { InputError } from '../../core/errors.js';
import { planWhitelist } from '../../core/put-back.js';
import { type Said, say } from '../../core/said.js';
import { applyIpChange, ipKey } from '../../core/validate/ip.js';
import { serviceOf } from '../common/service.js';
import { spec } from './spec.js';

/** The whole list is sent, with the list as read, so execution refuses if it changed since. */
export const service = serviceOf(spec, {
  async prepare(input, io) {
    const warnings: Said[] = [];
    const current = await io.client.whitelist.get();
    const change =
      input.change === 'set'
        ? applyIpChange(current, {
            remove: current.filter((ip) => !new Set(input.ips.map(ipKey)).has(ipKey(ip))),
            add: input.ips,
          })
        : applyIpChange(current, input.change === 'add' ? { add: input.ips } : { remove: input.ips });
    const { next, added, removed, unchanged } = change;
    if (added.length === 0 && removed.length === 0) {
      if (input.change === 'add') throw new InputError(say.prepWhitelistHas(unchanged));
      if (input.change === 'remove') throw new InputError(say.prepWhitelistLacks(unchanged));
      throw new InputError(say.prepWhitelistSame());
    }
    if (input.change === 'add' && unchanged.length > 0) warnings.push(say.warnWhitelistHas(unchanged));
    if (input.change === 'remove' && unchanged.length > 0) warnings.push(say.warnWhitelistLacks(unchanged));
    if (next.length === 0) warnings.push(say.warnWhitelistEmpty());
    return {
      params: { allowedDNS: next, expectBefore: [...current] },
      preview: { kind: 'whitelist', before: [...current], after: next, added, removed },
      warnings,
    };
  },
  // A resumed run may find its own POST landed: the list as asked is then done, not changed since.
  execute: (p, { client, resumed }) =>
    client.whitelist.replace(p.allowedDNS, {
      expectBefore: p.expectBefore,
      ...(resumed ? { asAskedIsDone: true } : {}),
    }),
  /** No read: execution refuses unless the list is still `expectBefore`, so that is what it replaced. */
  async undo(p) {
    const { added, removed } = applyIpChange(p.expectBefore, {
      remove: p.expectBefore.filter((ip) => !new Set(p.allowedDNS.map(ipKey)).has(ipKey(ip))),
      add: p.allowedDNS,
    });
    return { kind: 'whitelist', before: [...p.expectBefore], added, removed };
  },
  /** The list as it is now, sent as it is: the addresses the change added or removed stay so. */
  async again(undo, io) {
    if (undo.kind !== 'whitelist') throw new InputError(say.revertBeforeUnknown());
    const current = await io.client.whitelist.get();
    return {
      params: { allowedDNS: [...current], expectBefore: [...current] },
      preview: {
        kind: 'whitelist',
        before: [...current],
        after: [...current],
        added: [...undo.added],
        removed: [...undo.removed],
      },
    };
  },
  async inverse(undo, io) {
    if (undo.kind !== 'whitelist') throw new InputError(say.revertBeforeUnknown());
    const plan = planWhitelist(undo, await io.client.whitelist.get());
    return {
      input: plan.next === null ? null : { change: 'set', ips: plan.next },
      conflicts: plan.conflicts,
    };
  },
});
