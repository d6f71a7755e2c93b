import { defineArea } from '../define.js';
import { persianDigits } from '../format.js';

/**
 * Many numbers at once (src/views/batch.ts, the CLI's `vidops unblock --file`): the list as read
 * before anything is sent, the progress of a running batch and its end. Counts arrive as numbers
 * (each language writes its digits); lines, numbers and reasons arrive formatted by the view.
 * @see docs/commands.md, "Many numbers at once"
 */
const n = (value: number) => persianDigits(String(value));

export const batch = defineArea(
  {
    batchPreview: (count: number) => `Unblock ${count} viewers`,
    batchRepeats: 'Repeat viewers (a lead is asked about them)',
  },
  {
    batchPreview: (count) => `رفع مسدودی ${n(count)} بیننده`,
    batchRepeats: 'بیننده‌های تکراری (از سرپرست درباره‌شان پرسیده می‌شود)',
  },
);
