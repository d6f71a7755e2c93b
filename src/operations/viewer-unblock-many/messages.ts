import { defineArea } from '../../i18n/define.js';

/**
 * What only this operation says, in English and Persian: the label of the repeat viewers in its
 * preview. Its views read it as `messages[lang.locale]`; the catalog's test finds it through `VIEWS`.
 * @see docs/architecture.md, "Languages"
 */

export const messages = defineArea(
  { batchRepeats: 'Repeat viewers (a lead is asked about them)' },
  { batchRepeats: 'بیننده‌های تکراری (از سرپرست درباره‌شان پرسیده می‌شود)' },
);
