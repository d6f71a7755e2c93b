import { defineArea } from '../define.js';

/**
 * A viewer's history (`/vidops viewer`, the History button) and the repeat rule's words: why an
 * unblock waits for a lead, and the flag on a break-glass run of one. Parameters arrive formatted
 * by the view (numbers masked and isolated, dates in the reader's calendar, ordinals written).
 * @see docs/commands.md, "A viewer's history"; docs/approvals.md, "Repeat unblocks"
 */

const s = (count: number): string => (count === 1 ? '' : 's');

export const viewers = defineArea(
  {
    vwHead: (viewer: string) => `*What vidops did for viewer ${viewer}*`,
    vwCliHead: (viewer: string) => `What vidops did for viewer ${viewer}`,
    vwSource: 'From vidops’ own audit log: the video service keeps no history of unblocks.',
    vwInWindow: (count: number, shown: string, span: string) =>
      `${shown} unblock${s(count)} in the last ${span}.`,
    vwLogYounger: (since: string, span: string) =>
      `The log begins ${since}, less than ${span} ago: what came before is not known.`,
    vwLogEmpty: 'The audit log is empty: nothing is known yet.',
    vwNone: 'No unblock of this number is in the log.',
    vwLine: (date: string, outcome: string, who: string) => `${date} · ${outcome} · asked by ${who}`,
    vwApprovedBy: (names: string) => `approved by ${names}`,
    vwDecidedBy: (name: string) => `by ${name}`,
    vwReason: (reason: string) => `reason: ${reason}`,
    vwError: (error: string) => `error: ${error}`,
    vwBreakGlass: ':rotating_light: break-glass',
    vwNextNeedsLead: (ordinal: string, span: string) =>
      `:warning: The next unblock would be the ${ordinal} in ${span}: it will need a lead’s approval.`,
    vwRepeatWhy: (ordinal: string, viewer: string, span: string) =>
      `:warning: *A lead must approve:* this is the ${ordinal} unblock of ${viewer} in ${span}.`,
    vwRepeatEarlier: 'Earlier unblocks of this viewer:',
    vwRepeatBreakGlass: (ordinal: string, viewer: string, span: string) =>
      `:warning: *Repeat viewer:* the ${ordinal} unblock of ${viewer} in ${span}, run by break-glass without the lead it needed.`,
    vwHistoryButton: 'History',
    vwGone: 'That request is not in the log, so its viewer cannot be looked up.',
    vwNotViewer: 'That request unblocks no viewer.',
    // Outcomes
    vwPending: 'waiting for approval',
    vwRunning: 'running',
    vwSucceeded: 'unblocked',
    vwFailed: 'failed',
    vwRejected: 'rejected',
    vwCancelled: 'cancelled',
    vwExpired: 'expired',
    vwUnknown: 'outcome unknown',
    vwDenied: 'refused by the policy',
  },
  {
    vwHead: (viewer) => `*آنچه vidops برای بیننده‌ی ${viewer} کرده است*`,
    vwCliHead: (viewer) => `آنچه vidops برای بیننده‌ی ${viewer} کرده است`,
    vwSource: 'از گزارش ممیزی خود vidops: سرویس ویدیو تاریخچه‌ای از رفع مسدودی‌ها نگه نمی‌دارد.',
    vwInWindow: (_count, shown, span) => `${shown} رفع مسدودی در ${span} گذشته.`,
    vwLogYounger: (since, span) =>
      `گزارش از ${since} آغاز می‌شود، کمتر از ${span} پیش: از پیش از آن خبری نیست.`,
    vwLogEmpty: 'گزارش ممیزی خالی است: هنوز چیزی معلوم نیست.',
    vwNone: 'هیچ رفع مسدودی برای این شماره در گزارش نیست.',
    vwLine: (date, outcome, who) => `${date} · ${outcome} · درخواست ${who}`,
    vwApprovedBy: (names) => `تأیید ${names}`,
    vwDecidedBy: (name) => `توسط ${name}`,
    vwReason: (reason) => `دلیل: ${reason}`,
    vwError: (error) => `خطا: ${error}`,
    vwBreakGlass: ':rotating_light: شکستن شیشه',
    vwNextNeedsLead: (ordinal, span) =>
      `:warning: رفع مسدودی بعدی ${ordinal} مورد در ${span} خواهد بود: تأیید یک سرپرست لازم است.`,
    vwRepeatWhy: (ordinal, viewer, span) =>
      `:warning: *سرپرست باید تأیید کند:* این ${ordinal} رفع مسدودی ${viewer} در ${span} است.`,
    vwRepeatEarlier: 'رفع مسدودی‌های پیشین این بیننده:',
    vwRepeatBreakGlass: (ordinal, viewer, span) =>
      `:warning: *بیننده‌ی تکراری:* ${ordinal} رفع مسدودی ${viewer} در ${span}، با شکستن شیشه و بی تأییدی که لازم داشت.`,
    vwHistoryButton: 'تاریخچه',
    vwGone: 'این درخواست در گزارش نیست، پس بیننده‌اش را نمی‌توان یافت.',
    vwNotViewer: 'این درخواست مسدودی هیچ بیننده‌ای را رفع نمی‌کند.',
    vwPending: 'در انتظار تأیید',
    vwRunning: 'در حال اجرا',
    vwSucceeded: 'رفع مسدودی شد',
    vwFailed: 'ناموفق',
    vwRejected: 'رد شد',
    vwCancelled: 'لغو شد',
    vwExpired: 'منقضی شد',
    vwUnknown: 'نتیجه نامعلوم',
    vwDenied: 'سیاست اجازه نداد',
  },
);
