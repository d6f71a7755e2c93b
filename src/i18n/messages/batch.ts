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
    batchCliNoList: 'Give the numbers as words, --file numbers.txt, or - to read them from standard input.',
    batchCliTwoLists: 'Give the numbers one way only: as words, --file, or - (standard input).',
    batchCliUnread: (path: string, why: string) => `Could not read ${path}: ${why}. Nothing was sent.`,
    batchCliAsk: (count: number) => `Ask to unblock these ${count} viewers? [y/N] `,
    batchCliNeedsYes:
      'Not confirmed: there is no terminal to ask on (the list came from standard input, or it is not a terminal). Add --yes to confirm without asking. Nothing was sent.',
    batchCliNotConfirmed: 'Not confirmed: nothing was sent.',
    batchCliTooMany: (count: number, max: number) =>
      `${count} numbers are more than one batch takes (${max}): split the list. Nothing was sent.`,
    batchCliDone: 'done',
    batchCliFailed: 'failed',
    batchCliUnknown: 'unknown: it may have been unblocked, and is not sent again',
    batchCliNotRun: 'not run',
    batchCliEnd: (done: number, failed: number, unknown: number, id: string) =>
      `${done} done, ${failed} failed, ${unknown} unknown (request ${id}).`,
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
    batchCliNoList:
      'شماره‌ها را به‌صورت واژه، با --file numbers.txt یا با - (خواندن از ورودی استاندارد) بدهید.',
    batchCliTwoLists: 'شماره‌ها را فقط از یک راه بدهید: واژه‌ها، --file یا - (ورودی استاندارد).',
    batchCliUnread: (path, why) => `خواندن ${path} ممکن نشد: ${why}. چیزی فرستاده نشد.`,
    batchCliAsk: (count) => `درخواست رفع مسدودی این ${n(count)} بیننده فرستاده شود؟ [y/N] `,
    batchCliNeedsYes:
      'تأیید نشد: پایانه‌ای برای پرسیدن نیست (فهرست از ورودی استاندارد آمد، یا ورودی پایانه نیست). برای تأیید بی‌پرسش --yes بیفزایید. چیزی فرستاده نشد.',
    batchCliNotConfirmed: 'تأیید نشد: چیزی فرستاده نشد.',
    batchCliTooMany: (count, max) =>
      `${n(count)} شماره بیش از گنجایش یک دسته (${n(max)}) است: فهرست را بخش کنید. چیزی فرستاده نشد.`,
    batchCliDone: 'انجام شد',
    batchCliFailed: 'ناموفق',
    batchCliUnknown: 'نامعلوم: شاید رفع مسدودی شده باشد، و دوباره فرستاده نمی‌شود',
    batchCliNotRun: 'اجرا نشد',
    batchCliEnd: (done, failed, unknown, id) =>
      `${n(done)} انجام شد، ${n(failed)} ناموفق، ${n(unknown)} نامعلوم (درخواست \u2068${id}\u2069).`,
  },
);
