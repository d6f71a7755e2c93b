import { defineArea } from '../../i18n/define.js';

/** What only a batch of unblocks says, in English and Persian (docs/architecture.md, "Languages"). */

export const messages = defineArea(
  { batchRepeats: 'Repeat viewers (a lead is asked about them)' },
  { batchRepeats: 'بیننده‌های تکراری (از سرپرست درباره‌شان پرسیده می‌شود)' },
);
