import { defineArea } from '../define.js';
import { persianDigits } from '../format.js';

/**
 * Many numbers at once (src/views/batch.ts, the CLI's `vidops unblock --file`): the list as read
 * before anything is sent, the progress of a running batch and its end. Counts arrive as numbers
 * (each language writes its digits); lines, numbers and reasons arrive formatted by the view.
 * @see docs/commands.md, "Many numbers at once"
 */
const n = (value: number) => persianDigits(String(value));
const s = (count: number, one: string, many: string) => (count === 1 ? one : many);

export const batch = defineArea(
  {
    batchPreview: (count: number) => `Unblock ${count} viewers`,
    batchRepeatsBreakGlass: (count: number) =>
      `:warning: *Repeat viewers:* run by break-glass without the lead it needed: ${count} repeat ${s(count, 'viewer', 'viewers')} in this batch, listed above.`,
    batchAsk: (count: number) =>
      `*Unblock ${count} ${s(count, 'viewer', 'viewers')}?* Nothing is sent until you confirm.`,
    batchNumbers: 'Numbers',
    batchMore: (count: number) => `and ${count} more`,
    batchTooMany: (max: number, count: number) =>
      `A batch takes at most ${max} numbers; this list has ${count}. Split it; nothing was sent.`,
    batchConfirm: 'Confirm',
    batchCancel: 'Cancel',
    batchCancelled: 'Cancelled: nothing was sent.',
    batchGone:
      'This preview was confirmed or cancelled already, has expired, or is not yours: nothing was sent. Paste the list again.',
    batchPending: (id: string, channel: string) =>
      `Batch ${id} waits for a lead’s approval in ${channel}; nothing is sent until then.`,
    batchDenied: (why: string) => `Refused by the policy: ${why}. Nothing was sent.`,
    batchRunning: (id: string, done: number, total: number, failed: number, unknown: number) =>
      `Batch ${id}: ${done} of ${total} done, ${failed} failed, ${unknown} unknown`,
    batchFinished: (id: string, done: number, total: number) =>
      `*Batch ${id} finished:* ${done} of ${total} unblocked.`,
    batchFailedCount: (count: number) => `${count} failed`,
    batchUnknownCount: (count: number) =>
      `${count} unknown (the answer was lost: whether ${s(count, 'it was', 'they were')} unblocked is not known; never sent twice)`,
    batchEnded: (id: string, state: string) => `*Batch ${id}* ended: ${state}.`,
    batchFailureLine: (number: string, why: string) => `• ${number}: ${why}`,
    batchUnknownLine: (number: string) => `• ${number}: unknown`,
    batchRetryFailed: 'Retry the failed',
    batchNothingFailed: 'No number of this batch failed: there is nothing to retry.',
    batchNotBatch: 'That button names no batch of unblocks.',
    batchManyTitle: 'Unblock many',
    batchManyLabel: 'Mobile numbers',
    batchManyHint:
      'Paste a ticket export or a spreadsheet column: one number per line, or separated by commas, spaces or ،.',
    batchManySubmit: 'Preview',
    batchManyOpen: 'Unblock many…',
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
    batchRepeatsBreakGlass: (count) =>
      `:warning: *بیننده‌های تکراری:* با شکستن شیشه و بی تأییدی که لازم داشت اجرا شد: ${n(count)} بیننده‌ی تکراری در این دسته، فهرست‌شده در بالا.`,
    batchAsk: (count) => `*رفع مسدودی ${n(count)} بیننده؟* تا تأیید نکنید چیزی فرستاده نمی‌شود.`,
    batchNumbers: 'شماره‌ها',
    batchMore: (count) => `و ${n(count)} شماره‌ی دیگر`,
    batchTooMany: (max, count) =>
      `هر دسته حداکثر ${n(max)} شماره می‌گیرد؛ این فهرست ${n(count)} شماره دارد. آن را تقسیم کنید؛ چیزی فرستاده نشد.`,
    batchConfirm: 'تأیید',
    batchCancel: 'لغو',
    batchCancelled: 'لغو شد: چیزی فرستاده نشد.',
    batchGone:
      'این پیش‌نمایش پیش‌تر تأیید یا لغو شده، منقضی شده یا مال شما نیست: چیزی فرستاده نشد. فهرست را دوباره بچسبانید.',
    batchPending: (id, channel) =>
      `دسته‌ی ${id} در ${channel} منتظر تأیید سرپرست است؛ تا آن زمان چیزی فرستاده نمی‌شود.`,
    batchDenied: (why) => `سیاست آن را رد کرد: ${why}. چیزی فرستاده نشد.`,
    batchRunning: (id, done, total, failed, unknown) =>
      `دسته‌ی ${id}: ${n(done)} از ${n(total)} انجام شد، ${n(failed)} ناموفق، ${n(unknown)} نامعلوم`,
    batchFinished: (id, done, total) => `*دسته‌ی ${id} تمام شد:* ${n(done)} از ${n(total)} رفع مسدودی شد.`,
    batchFailedCount: (count) => `${n(count)} ناموفق`,
    batchUnknownCount: (count) =>
      `${n(count)} نامعلوم (پاسخ گم شد: معلوم نیست رفع مسدودی شده یا نه؛ هرگز دوباره فرستاده نمی‌شود)`,
    batchEnded: (id, state) => `*دسته‌ی ${id}* پایان یافت: ${state}.`,
    batchFailureLine: (number, why) => `• ${number}، دلیل: ${why}`,
    batchUnknownLine: (number) => `• ${number}: نامعلوم`,
    batchRetryFailed: 'تلاش دوباره برای ناموفق‌ها',
    batchNothingFailed: 'هیچ شماره‌ای از این دسته ناموفق نبود: چیزی برای تلاش دوباره نیست.',
    batchNotBatch: 'این دکمه به هیچ دسته‌ی رفع مسدودی اشاره نمی‌کند.',
    batchManyTitle: 'رفع مسدودی چندتایی',
    batchManyLabel: 'شماره‌های موبایل',
    batchManyHint:
      'خروجی تیکت یا ستونی از صفحه‌گسترده را بچسبانید: هر شماره در یک سطر، یا جداشده با ویرگول، فاصله یا ،.',
    batchManySubmit: 'پیش‌نمایش',
    batchManyOpen: 'رفع مسدودی چندتایی…',
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
