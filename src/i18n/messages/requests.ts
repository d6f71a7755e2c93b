import { defineArea } from '../define.js';

/**
 * `/vidops requests` (a person's open and finished requests, a lead's requests awaiting them) and
 * `/vidops audit [n]` (the last events of the audit log). Numbers arrive formatted: `count` for
 * English plurals, `shown` for the text.
 * @see docs/architecture.md, "Languages"
 */
export const requests = defineArea(
  {
    requestsAwaitingHeading: (shown: string) => `*Awaiting your approval* (${shown})`,
    requestsNothingWaiting: '_Nothing is waiting for you._',
    requestsMoreAwaiting: (shown: string) => `_… and ${shown} more requests awaiting you not shown._`,
    requestsOpenHeading: (shown: string) => `*Your open requests* (${shown})`,
    requestsNoOpen: '_You have no open requests._',
    requestsMoreOpen: (shown: string) => `_… and ${shown} more open requests not shown._`,
    requestsFinishedHeading: '*Recently finished*',
    requestsExpires: (date: string) => `Expires ${date}`,
    requestsTextAwaiting: (count: number, shown: string, openShown: string) =>
      `${shown} request${count === 1 ? '' : 's'} awaiting your approval; you have ${openShown} open.`,
    requestsTextOpen: (count: number, shown: string) =>
      `You have ${shown} open request${count === 1 ? '' : 's'}.`,

    auditListEmpty: 'The audit log is empty.',
    auditListHeader: (count: number, shown: string, range: string) =>
      `*Audit log* · last ${shown} event${count === 1 ? '' : 's'} ${range} · oldest first · numbers masked, hashes shortened`,
    auditListLeftOut: (count: number, shown: string) =>
      `${shown} older event${count === 1 ? '' : 's'} did not fit in one message`,
    auditListHoldsOnly: (count: number, shown: string) =>
      `the log holds only ${shown} event${count === 1 ? '' : 's'}`,
    auditListExport: (command: string) => `${command} gives the whole log`,
    auditListNoteSeparator: '; ',
    auditListText: (shown: string, range: string) => `Audit log: last ${shown} events ${range}`,
  },
  {
    requestsAwaitingHeading: (shown) => `*در انتظار تأیید شما* (${shown})`,
    requestsNothingWaiting: '_چیزی در انتظار تصمیم شما نیست._',
    requestsMoreAwaiting: (shown) => `_… و ${shown} درخواست دیگر در انتظار شما که نمایش داده نشده است._`,
    requestsOpenHeading: (shown) => `*درخواست‌های باز شما* (${shown})`,
    requestsNoOpen: '_درخواست بازی ندارید._',
    requestsMoreOpen: (shown) => `_… و ${shown} درخواست باز دیگر که نمایش داده نشده است._`,
    requestsFinishedHeading: '*به‌تازگی تمام‌شده*',
    requestsExpires: (date) => `مهلت تا ${date}`,
    requestsTextAwaiting: (_count, shown, openShown) =>
      `${shown} درخواست در انتظار تأیید شماست؛ ${openShown} درخواست باز دارید.`,
    requestsTextOpen: (_count, shown) => `${shown} درخواست باز دارید.`,

    auditListEmpty: 'لاگ ممیزی خالی است.',
    auditListHeader: (_count, shown, range) =>
      `*لاگ ممیزی* · ${shown} رویداد آخر ${range} · قدیمی‌ترین در ابتدا · شماره‌ها پوشانده و هش‌ها کوتاه شده‌اند`,
    auditListLeftOut: (_count, shown) => `${shown} رویداد قدیمی‌تر در یک پیام جا نشد`,
    auditListHoldsOnly: (_count, shown) => `لاگ فقط ${shown} رویداد دارد`,
    auditListExport: (command) => `${command} کل لاگ را می‌دهد`,
    auditListNoteSeparator: '؛ ',
    auditListText: (shown, range) => `لاگ ممیزی: ${shown} رویداد آخر ${range}`,
  },
);
