import { defineArea } from '../../i18n/define.js';

/** What only an unblock says, in English and Persian (docs/architecture.md, "Languages"). */

export const messages = defineArea(
  {
    apprUnblocks: (mobile: string, facts: readonly string[]) =>
      `*Unblocks* viewer ${mobile}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}.`,
    apprBlocked: 'blocked',
    apprNotBlocked: 'not listed as blocked',
    apprRisk: (risk: string) => `risk ${risk}`,
    cliViewerPreview: (number: string, state: string) => `viewer ${number}: ${state}`,
    cliBlocked: (actionType: string | null) => `blocked${actionType === null ? '' : ` (${actionType})`}`,
    cliNotListedBlocked: 'not listed as blocked',
    cliBlockUnknown: 'block state unknown',
  },
  {
    apprUnblocks: (mobile, facts) =>
      `*رفع مسدودی* بیننده‌ی ${mobile}${facts.length > 0 ? ` (${facts.join('، ')})` : ''}.`,
    apprBlocked: 'مسدود است',
    apprNotBlocked: 'در فهرست مسدودها نیست',
    apprRisk: (risk) => `سطح خطر ${risk}`,
    cliViewerPreview: (number: string, state: string) => `بیننده‌ی \u2068${number}\u2069: ${state}`,
    cliBlocked: (actionType: string | null) =>
      `مسدود${actionType === null ? '' : ` (\u2068${actionType}\u2069)`}`,
    cliNotListedBlocked: 'در فهرست مسدودها نیست',
    cliBlockUnknown: 'وضعیت مسدودی نامعلوم',
  },
);
