import { defineArea } from '../../i18n/define.js';

/** What only a protection change says, in English and Persian (docs/architecture.md, "Languages"). */

export const messages = defineArea(
  {
    apprSettingsChange: (shown: string) => `*Settings that change* (${shown}):`,
    auditAskProtectSet: 'change the protection settings',
    auditProtectionChanged: (fields: string) => `Protection settings changed${fields}`,
    cliNotSet: 'not set',
  },
  {
    apprSettingsChange: (shown) => `*تنظیماتی که تغییر می‌کنند* (${shown}):`,
    auditAskProtectSet: 'تغییر تنظیمات حفاظت',
    auditProtectionChanged: (fields) => `تنظیمات حفاظت تغییر کرد${fields}`,
    cliNotSet: 'تنظیم نشده',
  },
);
