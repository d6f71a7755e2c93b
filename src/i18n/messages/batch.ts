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
    batchSummary: (toUnblock: number, refused: number, needLead: number) =>
      `${toUnblock} to unblock, ${refused} refused, ${needLead} need${needLead === 1 ? 's' : ''} a lead`,
    batchLeadSize: (size: number, max: number) =>
      `A lead approves the whole list: ${size} numbers, over ${max} without approval.`,
    batchLeadRepeats: (count: number) =>
      `A lead approves the whole list: it holds ${count} repeat viewer${count === 1 ? '' : 's'}.`,
    batchDuplicates: (count: number) => `${count} duplicate${count === 1 ? '' : 's'} merged.`,
    batchRefusedLine: (line: string, read: string, reason: string) => `line ${line}: ${read}: ${reason}`,
    batchRepeatLine: (viewer: string, ordinal: string, span: string) =>
      `${viewer}: the ${ordinal} unblock in ${span}`,
    batchNone: 'No number to unblock was found: nothing will be sent.',
  },
  {
    batchPreview: (count) => `رفع مسدودی ${n(count)} بیننده`,
    batchRepeats: 'بیننده‌های تکراری (از سرپرست درباره‌شان پرسیده می‌شود)',
    batchSummary: (toUnblock, refused, needLead) =>
      `${n(toUnblock)} برای رفع مسدودی، ${n(refused)} ردشده، ${n(needLead)} نیازمند سرپرست`,
    batchLeadSize: (size, max) =>
      `یک سرپرست کل فهرست را تأیید می‌کند: ${n(size)} شماره، بیش از ${n(max)} بدون تأیید.`,
    batchLeadRepeats: (count) => `یک سرپرست کل فهرست را تأیید می‌کند: ${n(count)} بیننده‌ی تکراری در آن است.`,
    batchDuplicates: (count) => `${n(count)} شماره‌ی تکراری یکی شد.`,
    batchRefusedLine: (line, read, reason) => `خط ${line}: ${read}: ${reason}`,
    batchRepeatLine: (viewer, ordinal, span) => `${viewer}: ${ordinal} رفع مسدودی در ${span}`,
    batchNone: 'هیچ شماره‌ای برای رفع مسدودی پیدا نشد: چیزی فرستاده نمی‌شود.',
  },
);
