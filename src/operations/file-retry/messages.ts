import { defineArea } from '../../i18n/define.js';

/** What only a conversion retry says, in English and Persian (docs/architecture.md, "Languages"). */

export const messages = defineArea(
  {
    apprRetries: (id: string, title: string, status: string) =>
      `*Retries the conversion* of file ${id}${title}${status === '' ? '' : ` (status ${status})`}.`,
    auditAskRetry: (target: string) => `retry the conversion of ${target}`,
    auditRetryQueued: (thing: string, status: string) => `Conversion of ${thing} queued again${status}`,
    auditRetryStatus: (status: string) => ` (status ${status})`,
    cliRetryPreview: (id: string, title: string, status: string | null) =>
      `file ${id}${title}, conversion status ${status ?? 'unknown'}`,
    boxNoRevertRetry: 'A conversion retry cannot be reverted: the file converts again, or fails again.',
  },
  {
    apprRetries: (id, title, status) =>
      `*تبدیل دوباره‌ی* فایل ${id}${title}${status === '' ? '' : ` (وضعیت ${status})`}.`,
    auditAskRetry: (target) => `تبدیل دوباره‌ی ${target}`,
    auditRetryQueued: (thing, status) => `تبدیل ${thing} دوباره در صف قرار گرفت${status}`,
    auditRetryStatus: (status) => ` (وضعیت ${status})`,
    cliRetryPreview: (id: string, title: string, status: string | null) =>
      `فایل \u2068${id}\u2069${title}، وضعیت تبدیل: ${status === null ? 'نامعلوم' : `\u2068${status}\u2069`}`,
    boxNoRevertRetry: 'تبدیل دوباره برگرداندنی نیست: فایل دوباره تبدیل می‌شود، یا دوباره ناموفق می‌شود.',
  },
);
