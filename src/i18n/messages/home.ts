import { defineArea } from '../define.js';

/**
 * The App Home tab in its owner's language: the intro, the lists' headings and notes, the
 * protection summary's notes and on/off words (also `protect show`'s), the break-glass changes to review and the delegations in force.
 * Commands arrive as isolated code spans, counts and dates formatted, names escaped.
 * @see docs/architecture.md, "Languages"
 */
export const home = defineArea(
  {
    homeIntroLead: 'You are a lead: you approve changes others ask for.',
    homeIntroAgent: 'Changes you ask for are approved by a lead.',
    homeIntroHelp: (help: string, updated: string) => `Type ${help} for the commands. Updated ${updated}.`,
    homeRefresh: 'Refresh',
    homeAwaitingHeader: (shown: string) => `Awaiting your approval (${shown})`,
    homeMoreAwaiting: (shown: string, command: string) =>
      `_… and ${shown} more requests awaiting you; ${command} lists them._`,
    homeOpenHeader: (shown: string) => `Your open requests (${shown})`,
    homeMoreOpen: (shown: string, command: string) =>
      `_… and ${shown} more open requests; ${command} lists them._`,
    homeBreakGlassButton: 'Break glass…',
    homeProtectionUnreadable: (error: string) => `_The settings could not be read: ${error}_`,
    homeProtectionHowTo: (command: string) => `${command} changes them (a lead approves).`,
    homeAuditAll: 'Recent audit events',
    homeAuditMine: 'Your recent activity',
    homeNothingYet: '_Nothing yet._',
    homeAuditNote: (command: string) => `Numbers are masked; hashes are shortened. ${command} shows more.`,
    homeBreakGlassHeader: (shown: string) => `Break-glass to review (${shown})`,
    homeMoreToReview: (shown: string) => `_… and ${shown} more to review._`,
    protectValueOn: 'on',
    protectValueOff: 'off',
    protectValueNotSet: 'not set',
    homeNotAllowed:
      'vidops is the support team’s tool for viewers, videos and protection settings. You are not on the team list (AGENTS); ask a team lead if you need access.',

    homeTimeBoxHeader: (shown: string) => `Time-boxed changes in force (${shown})`,
    homeTimeBoxNone: '_No time-boxed change is in force._',
    homeTimeBoxMore: (shown: string) => `_… and ${shown} more; their approval messages show them._`,
    homeRevertHeader: 'Done changes you can revert',
    homeRevertNote: 'Deletes, creates, unblocks and conversion retries cannot be reverted.',
  },
  {
    homeIntroLead: 'شما سرپرست هستید: تغییرهایی را که دیگران درخواست می‌کنند شما تأیید می‌کنید.',
    homeIntroAgent: 'تغییرهایی را که درخواست می‌کنید، یک سرپرست تأیید می‌کند.',
    homeIntroHelp: (help, updated) => `برای دیدن فرمان‌ها ${help} را بنویسید. آخرین به‌روزرسانی: ${updated}.`,
    homeRefresh: 'تازه‌سازی',
    homeAwaitingHeader: (shown) => `در انتظار تأیید شما (${shown})`,
    homeMoreAwaiting: (shown, command) =>
      `_… و ${shown} درخواست دیگر در انتظار شماست؛ ${command} همه را فهرست می‌کند._`,
    homeOpenHeader: (shown) => `درخواست‌های باز شما (${shown})`,
    homeMoreOpen: (shown, command) => `_… و ${shown} درخواست باز دیگر؛ ${command} همه را فهرست می‌کند._`,
    homeBreakGlassButton: 'اجرای اضطراری…',
    homeProtectionUnreadable: (error) => `_تنظیمات خوانده نشد: ${error}_`,
    homeProtectionHowTo: (command) => `با ${command} می‌توانید تغییرشان دهید (با تأیید سرپرست).`,
    homeAuditAll: 'رویدادهای اخیر لاگ ممیزی',
    homeAuditMine: 'فعالیت‌های اخیر شما',
    homeNothingYet: '_هنوز چیزی نیست._',
    homeAuditNote: (command) => `شماره‌ها پوشانده و هش‌ها کوتاه شده‌اند. ${command} موارد بیشتری نشان می‌دهد.`,
    homeBreakGlassHeader: (shown) => `اجراهای اضطراری در انتظار بازبینی (${shown})`,
    homeMoreToReview: (shown) => `_… و ${shown} مورد دیگر برای بازبینی._`,
    protectValueOn: 'روشن',
    protectValueOff: 'خاموش',
    protectValueNotSet: 'تنظیم نشده',
    homeNotAllowed:
      'vidops ابزار تیم پشتیبانی برای بیننده‌ها، ویدیوها و تنظیمات حفاظت است. نام شما در فهرست تیم (AGENTS) نیست؛ اگر دسترسی لازم دارید، از یکی از سرپرستان تیم بخواهید.',

    homeTimeBoxHeader: (shown) => `تغییرهای موقتِ برقرار (${shown})`,
    homeTimeBoxNone: '_هیچ تغییر موقتی برقرار نیست._',
    homeTimeBoxMore: (shown) => `_… و ${shown} مورد دیگر؛ پیام تأییدشان آن‌ها را نشان می‌دهد._`,
    homeRevertHeader: 'تغییرهای انجام‌شده‌ای که می‌توانید برگردانید',
    homeRevertNote: 'حذف، ساختن، رفع مسدودی و تلاش دوباره‌ی تبدیل را نمی‌توان برگرداند.',
  },
);
