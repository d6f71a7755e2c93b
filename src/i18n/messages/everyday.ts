import { defineArea } from '../define.js';
import { FSI, PDI, persianDigits } from '../format.js';

/**
 * The agent's everyday commands (src/views/everyday.ts): help, the refusals before anything runs,
 * unblock, retry, the whitelist, protection settings, explain and its two small modals.
 * Parameters come formatted and isolated already (IDs and code spans through `ltr`), except the
 * counts the English side needs as numbers to choose its plural.
 * @see docs/architecture.md, "Languages"
 */

function iso(token: string): string {
  return `${FSI}${token}${PDI}`;
}

export const everyday = defineArea(
  {
    helpHeader: 'vidops: what you can run',
    helpEntry: (usage: string, summary: string, example: string) => `${usage}\n${summary}  _e.g._ ${example}`,
    helpText: (count: string, usages: string) => `vidops: ${count} commands you can run. ${usages}`,
    helpLeadNote: 'You are a lead: you approve other people’s requests in the approval channel.',
    helpAgentNote: 'Changes marked “needs a lead’s approval” are posted for a team lead to approve.',
    notAllowed:
      'Sorry, vidops is only for the support team. Nothing was done. If you need it, ask a team lead to add you to AGENTS.',
    checkLate:
      'vidops could not check just now that you are on the support team. Nothing was done; try again in a moment.',
    busy: 'vidops is very busy right now and did not run this. Nothing was done; try again in a minute.',
    usageLine: (usage: string) => `Usage: ${usage}`,
    serviceAnswered: (answer: string) => `Service answered: ${answer}`,
    requestLine: (id: string) => `Request ${id}`,
    requestSentence: (id: string) => `Request ${id}.`,
    policyAsks: 'the policy asks for it',
    viewerBefore: (status: string) => `Before: ${status}`,
    viewerBlocked: 'blocked',
    viewerNotBlocked: 'not blocked',
    unblockedWatch: (who: string) => `Viewer ${who} is unblocked; they can watch again.`,
    unblockedAnyway: (who: string) => `Viewer ${who} was not blocked; the unblock was sent anyway.`,
    unblockedUnknown: (who: string) =>
      `The unblock of viewer ${who} was sent; whether they were blocked is unknown.`,
    unblockFailedHead: (who: string, error: string) => `Viewer ${who} was not unblocked. ${error}`,
    unblockRefused: (who: string, why: string) => `Viewer ${who} was not unblocked: ${why}`,
    unblockPendingHead: (who: string, why: string, id: string, channel: string) =>
      `Unblocking ${who} needs approval (${why}): request ${id} posted to ${channel}.`,
    unblockPendingText: (who: string, id: string) =>
      `Unblocking ${who} needs approval, request ${id} posted to the approval channel.`,
    unblockOtherHead: (who: string, state: string) =>
      `Unblocking ${who} ended as “${state}”; check the viewer before trying again.`,
    unblockOtherText: (who: string, state: string, id: string) =>
      `Unblocking ${who} ended as ${state} (request ${id}).`,
    retryFile: (id: string) => `file ${id}`,
    retryQueuedHead: (name: string) => `Conversion of ${name} is queued again.`,
    retryQueuedText: (name: string, id: string) => `Conversion of ${name} is queued again (request ${id}).`,
    retryFailedHead: (name: string, error: string) => `Conversion of ${name} was not retried. ${error}`,
    retryRefused: (name: string, why: string) => `Conversion of ${name} was not retried: ${why}`,
    retryPendingHead: (name: string, why: string, id: string, channel: string) =>
      `Retrying ${name} needs approval (${why}): request ${id} posted to ${channel}.`,
    retryPendingText: (name: string, id: string) =>
      `Retrying ${name} needs approval, request ${id} posted to the approval channel.`,
    retryOtherHead: (name: string, state: string) =>
      `Retrying ${name} ended as “${state}”; look at the file before trying again.`,
    retryOtherText: (name: string, state: string, id: string) =>
      `Retrying ${name} ended as ${state} (request ${id}).`,
    retryStatusBefore: (status: string) => `Conversion status before: ${status}`,
    whitelistCount: (count: number) => (count === 1 ? '1 address' : `${count} addresses`),
    whitelistEmpty: 'The whitelist is empty: while IP validation is on, no server can create playback links.',
    whitelistMore: (count: string) => `… and ${count} more.`,
    whitelistAddButton: 'Add addresses…',
    whitelistRemoveButton: 'Remove addresses…',
    whitelistText: (count: string) => `IP whitelist: ${count}.`,
    whitelistTitle: (count: string) => `*IP whitelist* · ${count}`,
    whitelistNeedsLead: 'Adding or removing addresses needs a lead’s approval.',
    protectTitle: '*Protection settings* (storage-wide)',
    protectText: 'Protection settings:',
    protectAlsoSent: (shown: string) => `Also sent by the service: ${shown}`,
    protectHowToChange:
      'Change them with `/vidops protect` or `/vidops protect set field=value` (a lead approves).',
    explainHead: (code: string, meaning: string, fix: string) =>
      `*Player error ${code}*: ${meaning}\n*Fix:* ${fix}`,
    explainText: (code: string, meaning: string, fix: string) =>
      `Player error ${code}: ${meaning} Fix: ${fix}`,
    explainUnblockButton: 'Unblock a viewer…',
    explainRetryButton: 'Retry a conversion…',
    unknownCodeText: (code: string, codes: string) =>
      `${code} is not a player error code vidops knows. Known codes: ${codes}.`,
    unknownCodeHead: (code: string) => `*${code}* is not a player error code vidops knows.`,
    unknownCodeList: (lines: string) => `Known codes:\n${lines}`,
    unblockModalTitle: 'Unblock viewer',
    unblockModalSubmit: 'Unblock',
    unblockModalIntro: 'The viewer sees player error *9910*: they were blocked for suspicious behaviour.',
    unblockModalLabel: 'Viewer’s mobile number',
    unblockModalHint: 'As the viewer gave it: 0912 345 6789, +98 912 345 6789 or with Persian digits.',
    retryModalTitle: 'Retry conversion',
    retryModalSubmit: 'Retry',
    retryModalIntro: 'Queue the file for conversion again. Only a file whose conversion *failed* is retried.',
    retryModalLabel: 'File ID',
    retryModalHint: 'The 24-character ID of the file, e.g. 671018d0403eba579a6f90e2.',
  },
  {
    helpHeader: 'دستورهای vidops که می‌توانید اجرا کنید',
    helpEntry: (usage, summary, example) => `${usage}\n${summary}  _مثلاً_ ${example}`,
    helpText: (count, usages) => `می‌توانید ${count} دستور vidops را اجرا کنید. ${usages}`,
    helpLeadNote: 'شما سرپرست هستید: درخواست‌های دیگران را در کانال تأییدها بررسی و تأیید می‌کنید.',
    helpAgentNote: 'تغییرهایی که «با تأیید سرپرست» دارند، برای تأیید یک سرپرست تیم فرستاده می‌شوند.',
    notAllowed: `متأسفیم، vidops فقط برای تیم پشتیبانی است. کاری انجام نشد. اگر به آن نیاز دارید، از یک سرپرست تیم بخواهید شما را به ${iso('AGENTS')} اضافه کند.`,
    checkLate:
      'همین حالا نتوانستیم بررسی کنیم که شما عضو تیم پشتیبانی هستید. کاری انجام نشد؛ کمی بعد دوباره امتحان کنید.',
    busy: 'سر vidops همین حالا خیلی شلوغ است و این دستور را اجرا نکرد. کاری انجام نشد؛ یک دقیقه‌ی دیگر دوباره امتحان کنید.',
    usageLine: (usage) => `شکل دستور: ${usage}`,
    serviceAnswered: (answer) => `پاسخ سرویس: ${answer}`,
    requestLine: (id) => `درخواست ${id}`,
    requestSentence: (id) => `درخواست ${id}.`,
    policyAsks: 'قواعد دسترسی چنین می‌خواهد',
    viewerBefore: (status) => `پیش از این: ${status}`,
    viewerBlocked: 'مسدود',
    viewerNotBlocked: 'مسدود نیست',
    unblockedWatch: (who) => `مسدودی بیننده‌ی ${who} برداشته شد؛ دوباره می‌تواند تماشا کند.`,
    unblockedAnyway: (who) => `بیننده‌ی ${who} مسدود نبود؛ با این حال رفع مسدودی فرستاده شد.`,
    unblockedUnknown: (who) => `رفع مسدودی بیننده‌ی ${who} فرستاده شد؛ معلوم نیست مسدود بوده است یا نه.`,
    unblockFailedHead: (who, error) => `مسدودی بیننده‌ی ${who} برداشته نشد. ${error}`,
    unblockRefused: (who, why) => `مسدودی بیننده‌ی ${who} برداشته نشد: ${why}`,
    unblockPendingHead: (who, why, id, channel) =>
      `رفع مسدودی ${who} تأیید می‌خواهد (${why}): درخواست ${id} در ${channel} گذاشته شد.`,
    unblockPendingText: (who, id) =>
      `رفع مسدودی ${who} تأیید می‌خواهد؛ درخواست ${id} در کانال تأییدها گذاشته شد.`,
    unblockOtherHead: (who, state) =>
      `رفع مسدودی ${who} با وضعیت «${state}» تمام شد؛ پیش از تلاش دوباره، وضعیت بیننده را بررسی کنید.`,
    unblockOtherText: (who, state, id) => `رفع مسدودی ${who} با وضعیت «${state}» تمام شد (درخواست ${id}).`,
    retryFile: (id) => `فایل ${id}`,
    retryQueuedHead: (name) => `${name} دوباره در صف تبدیل قرار گرفت.`,
    retryQueuedText: (name, id) => `${name} دوباره در صف تبدیل قرار گرفت (درخواست ${id}).`,
    retryFailedHead: (name, error) => `تبدیل ${name} دوباره انجام نشد. ${error}`,
    retryRefused: (name, why) => `تبدیل ${name} دوباره انجام نشد: ${why}`,
    retryPendingHead: (name, why, id, channel) =>
      `تبدیل دوباره‌ی ${name} تأیید می‌خواهد (${why}): درخواست ${id} در ${channel} گذاشته شد.`,
    retryPendingText: (name, id) =>
      `تبدیل دوباره‌ی ${name} تأیید می‌خواهد؛ درخواست ${id} در کانال تأییدها گذاشته شد.`,
    retryOtherHead: (name, state) =>
      `تبدیل دوباره‌ی ${name} با وضعیت «${state}» تمام شد؛ پیش از تلاش دوباره، فایل را بررسی کنید.`,
    retryOtherText: (name, state, id) => `تبدیل دوباره‌ی ${name} با وضعیت «${state}» تمام شد (درخواست ${id}).`,
    retryStatusBefore: (status) => `وضعیت تبدیل پیش از این: ${status}`,
    whitelistCount: (count) => `${persianDigits(String(count))} نشانی`,
    whitelistEmpty: 'لیست سفید خالی است: تا وقتی بررسی IP روشن است، هیچ سروری نمی‌تواند پیوند پخش بسازد.',
    whitelistMore: (count) => `… و ${count} نشانی دیگر.`,
    whitelistAddButton: 'افزودن نشانی…',
    whitelistRemoveButton: 'برداشتن نشانی…',
    whitelistText: (count) => `لیست سفید IP: ${count}.`,
    whitelistTitle: (count) => `*لیست سفید IP* · ${count}`,
    whitelistNeedsLead: 'افزودن یا برداشتن نشانی‌ها با تأیید سرپرست انجام می‌شود.',
    protectTitle: '*تنظیمات حفاظت* (برای کل فضای ذخیره‌سازی)',
    protectText: 'تنظیمات حفاظت:',
    protectAlsoSent: (shown) => `سرویس این‌ها را هم فرستاد: ${shown}`,
    protectHowToChange: `برای تغییرشان ${iso('`/vidops protect`')} یا ${iso('`/vidops protect set field=value`')} را بنویسید (با تأیید سرپرست).`,
    explainHead: (code, meaning, fix) => `*خطای پخش‌کننده‌ی ${code}*: ${meaning}\n*راه رفع:* ${fix}`,
    explainText: (code, meaning, fix) => `خطای پخش‌کننده‌ی ${code}: ${meaning} راه رفع: ${fix}`,
    explainUnblockButton: 'رفع مسدودی بیننده…',
    explainRetryButton: 'تبدیل دوباره…',
    unknownCodeText: (code, codes) => `${code} کد خطایی نیست که vidops بشناسد. کدهای شناخته: ${codes}.`,
    unknownCodeHead: (code) => `*${code}* کد خطایی نیست که vidops بشناسد.`,
    unknownCodeList: (lines) => `کدهای شناخته:\n${lines}`,
    unblockModalTitle: 'رفع مسدودی بیننده',
    unblockModalSubmit: 'رفع مسدودی',
    unblockModalIntro: `بیننده خطای پخش‌کننده‌ی ${iso('*9910*')} را می‌بیند: به‌خاطر رفتار مشکوک مسدود شده است.`,
    unblockModalLabel: 'شماره‌ی موبایل بیننده',
    unblockModalHint: `همان‌طور که بیننده داده است: ${iso('0912 345 6789')}، ${iso('+98 912 345 6789')} یا با رقم‌های فارسی.`,
    retryModalTitle: 'تبدیل دوباره',
    retryModalSubmit: 'تبدیل دوباره',
    retryModalIntro:
      'فایل را دوباره به صف تبدیل بفرستید. فقط فایلی که تبدیلش *ناموفق* بوده دوباره تبدیل می‌شود.',
    retryModalLabel: 'شناسه‌ی فایل',
    retryModalHint: `شناسه‌ی ۲۴ نویسه‌ای فایل، مثلاً ${iso('671018d0403eba579a6f90e2')}.`,
  },
);
