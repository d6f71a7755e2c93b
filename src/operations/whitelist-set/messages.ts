import { defineArea } from '../../i18n/define.js';

const s = (count: number, one: string, many: string): string => (count === 1 ? one : many);

/** What only a whitelist change says, in English and Persian (docs/architecture.md, "Languages"). */
export const messages = defineArea(
  {
    apprAdds: (shown: string) => `*Adds* (${shown})`,
    apprRemoves: (shown: string) => `*Removes* (${shown})`,
    apprWhitelistAfter: (shown: string) => `*Whitelist after* (${shown})`,
    apprWhitelistBefore: (shown: string) => `Whitelist before (${shown})`,
    apprWhitelistEmpty:
      ':warning: The whitelist will be empty: while ipValidation is on, no server can create links.',
    auditAskWhitelistSet: 'update the whitelist',
    auditAddsAddresses: (count: number, shown: string) => `adds ${shown} ${s(count, 'address', 'addresses')}`,
    auditRemovesAddresses: (count: number, shown: string) =>
      `removes ${shown} ${s(count, 'address', 'addresses')}`,
    auditWhitelistUpdated: (now: string) => `Whitelist updated${now}`,
    auditAddressesNow: (count: number, shown: string) =>
      ` (${shown} ${s(count, 'address', 'addresses')} now)`,
    cliNoneWord: 'none',
    cliBefore: (list: string) => `before: ${list}`,
    cliAfter: (list: string) => `after:  ${list}`,
    cliAddedRemoved: (added: string, removed: string) => `added: ${added}; removed: ${removed}`,
  },
  {
    apprAdds: (shown) => `*افزوده می‌شود* (${shown})`,
    apprRemoves: (shown) => `*برداشته می‌شود* (${shown})`,
    apprWhitelistAfter: (shown) => `*لیست سفید پس از تغییر* (${shown})`,
    apprWhitelistBefore: (shown) => `لیست سفید پیش از تغییر (${shown})`,
    apprWhitelistEmpty:
      ':warning: لیست سفید خالی می‌شود: تا وقتی ipValidation روشن است، هیچ سروری نمی‌تواند لینک بسازد.',
    auditAskWhitelistSet: 'به‌روزرسانی لیست سفید',
    auditAddsAddresses: (_count, shown) => `افزودن ${shown} نشانی`,
    auditRemovesAddresses: (_count, shown) => `برداشتن ${shown} نشانی`,
    auditWhitelistUpdated: (now) => `لیست سفید به‌روز شد${now}`,
    auditAddressesNow: (_count, shown) => ` (اکنون ${shown} نشانی)`,
    cliNoneWord: 'هیچ',
    cliBefore: (list: string) => `پیش از تغییر: ${list}`,
    cliAfter: (list: string) => `پس از تغییر: ${list}`,
    cliAddedRemoved: (added: string, removed: string) => `افزوده: ${added}؛ برداشته: ${removed}`,
  },
);
