import { defineArea } from '../define.js';

/**
 * Words many views share: where a request stands, and the language names.
 * @see docs/architecture.md, "Languages"
 */
export const common = defineArea(
  {
    statePending: 'waiting for approval',
    stateApproved: 'approved',
    stateExecuting: 'running',
    stateSucceeded: 'done',
    stateFailed: 'failed',
    stateRejected: 'rejected',
    stateCancelled: 'cancelled',
    stateExpired: 'expired',
    stateUnknown: 'outcome unknown',
    languageEn: 'English',
    languageFa: 'Persian (فارسی)',
  },
  {
    statePending: 'در انتظار تأیید',
    stateApproved: 'تأیید شد',
    stateExecuting: 'در حال اجرا',
    stateSucceeded: 'انجام شد',
    stateFailed: 'ناموفق',
    stateRejected: 'رد شد',
    stateCancelled: 'لغو شد',
    stateExpired: 'منقضی شد',
    stateUnknown: 'نتیجه نامعلوم',
    languageEn: 'انگلیسی (English)',
    languageFa: 'فارسی',
  },
);
