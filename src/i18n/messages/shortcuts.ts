import { defineArea } from '../define.js';

/**
 * The shortcuts (src/views/modals/shortcuts.ts, src/commands/shortcuts.ts): "Unblock viewer" and
 * "Retry conversion" on a customer's message, and the global vidops menu. Parameters come
 * formatted already: numbers through `num`, IDs, masked numbers and commands through `ltr`.
 * The shortcuts' own names in Slack's menu are manifest.yml's, in English only.
 * @see docs/architecture.md, "Languages"
 */
export const shortcuts = defineArea(
  {
    shortcutUnblockTitle: 'Unblock viewer',
    shortcutRetryTitle: 'Retry conversion',
    shortcutUnblock: 'Unblock',
    shortcutRetry: 'Retry',
    shortcutDone: 'Done',
    shortcutClose: 'Close',
    shortcutCancel: 'Cancel',
    shortcutNoMobile: 'No mobile number was found in this message. Type the viewer’s number instead.',
    shortcutNoUsableMobile: 'No number in this message can be unblocked here:',
    shortcutNoFileId: (length: string, example: string) =>
      `No file ID was found in this message (the service’s IDs are ${length} letters and digits, e.g. ${example}). Type the ID instead.`,
    shortcutOfferMobiles: 'Numbers in this message. One click unblocks, with the usual checks and approvals.',
    shortcutOfferFiles: 'File IDs in this message. One click queues the conversion again.',
    shortcutUnknownPick:
      'That choice is not in this form any more. Nothing was done; run the shortcut again.',
    /** Slack did not open the shortcut's form (an expired trigger, say). */
    shortcutNotOpened:
      'Slack did not open the form of this shortcut. Nothing was done; run the shortcut again.',
    shortcutMobileHint: (local: string, international: string) =>
      `As the viewer gave it: ${local}, ${international} or with Persian digits.`,
    shortcutFileIdHint: 'Only a file whose conversion failed is queued again.',
    shortcutUnblocking: (masked: string) => `Unblocking ${masked}…`,
    shortcutRetrying: (fileId: string) => `Retrying file ${fileId}…`,
    shortcutReading: 'Reading the current values…',
    shortcutMenuIntro: (command: string) =>
      `What do you want to do? Changes go through the same checks and approvals as ${command}.`,
    shortcutMenuUnblock: 'Unblock a viewer',
    shortcutMenuRetry: 'Retry a conversion',
    shortcutMenuProtect: 'Protection settings',
    shortcutMenuWhitelistAdd: 'Add to whitelist',
    shortcutMenuWhitelistRemove: 'Remove from whitelist',
    shortcutMenuSameAs: (commands: string) => `The same as ${commands}.`,
    shortcutMenuUnblockIntro: 'Type the viewer’s mobile number as they gave it.',
    shortcutMenuRetryIntro: 'Type the ID of the file whose conversion failed.',
  },
  {
    shortcutUnblockTitle: 'رفع مسدودی بیننده',
    shortcutRetryTitle: 'تبدیل دوباره',
    shortcutUnblock: 'رفع مسدودی',
    shortcutRetry: 'تبدیل دوباره',
    shortcutDone: 'تمام',
    shortcutClose: 'بستن',
    shortcutCancel: 'انصراف',
    shortcutNoMobile: 'در این پیام شماره‌ی موبایلی پیدا نشد. شماره‌ی بیننده را خودتان بنویسید.',
    shortcutNoUsableMobile: 'مسدودی هیچ‌کدام از شماره‌های این پیام را نمی‌شود این‌جا برداشت:',
    shortcutNoFileId: (length, example) =>
      `در این پیام شناسه‌ی فایلی پیدا نشد (هر شناسه‌ی سرویس ${length} حرف و رقم لاتین است، مثلاً ${example}). شناسه را خودتان بنویسید.`,
    shortcutOfferMobiles:
      'شماره‌های این پیام. با یک کلیک مسدودی برداشته می‌شود، با همان بررسی‌ها و تأییدهای همیشگی.',
    shortcutOfferFiles: 'شناسه‌های فایل در این پیام. با یک کلیک، فایل دوباره به صف تبدیل می‌رود.',
    shortcutUnknownPick: 'آن گزینه دیگر در این فرم نیست. کاری انجام نشد؛ میان‌بر را دوباره اجرا کنید.',
    shortcutNotOpened: 'اسلک فرم این میان‌بر را باز نکرد. کاری انجام نشد؛ میان‌بر را دوباره اجرا کنید.',
    shortcutMobileHint: (local, international) =>
      `همان‌طور که بیننده داده است: ${local}، ${international} یا با رقم‌های فارسی.`,
    shortcutFileIdHint: 'فقط فایلی که تبدیلش ناموفق بوده دوباره به صف تبدیل می‌رود.',
    shortcutUnblocking: (masked) => `در حال رفع مسدودی ${masked}…`,
    shortcutRetrying: (fileId) => `در حال تبدیل دوباره‌ی فایل ${fileId}…`,
    shortcutReading: 'در حال خواندن مقدارهای فعلی…',
    shortcutMenuIntro: (command) =>
      `چه کاری می‌خواهید انجام دهید؟ تغییرها از همان بررسی‌ها و تأییدهای ${command} می‌گذرند.`,
    shortcutMenuUnblock: 'رفع مسدودی بیننده',
    shortcutMenuRetry: 'تبدیل دوباره‌ی فایل',
    shortcutMenuProtect: 'تنظیمات حفاظت',
    shortcutMenuWhitelistAdd: 'افزودن به لیست سفید',
    shortcutMenuWhitelistRemove: 'برداشتن از لیست سفید',
    shortcutMenuSameAs: (commands) => `همان دستورهای ${commands}.`,
    shortcutMenuUnblockIntro: 'شماره‌ی موبایل بیننده را همان‌طور که خودش داده است بنویسید.',
    shortcutMenuRetryIntro: 'شناسه‌ی فایلی را بنویسید که تبدیلش ناموفق بوده است.',
  },
);
