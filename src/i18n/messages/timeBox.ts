import { defineArea } from '../define.js';

/**
 * Changes that undo themselves as people read them (src/views/time-box.ts): the window of a
 * change not yet applied, the end of one in force, where its put-back stands and what it left
 * alone, the reminder before the end, the "Put back after" choices, and why a change cannot be
 * reverted. Parameters arrive formatted by the view: times in the reader's calendar and digits,
 * settings, values and addresses already isolated.
 * @see docs/commands.md, "Time-boxed changes"
 */
export const timeBox = defineArea(
  {
    /** A time today, as the clock shows it: `16:05`; `08:00 UTC` when read in UTC (the CLI in English). */
    boxClockToday: (hourMinute: string, timeZone: string) =>
      timeZone === 'UTC' ? `${hourMinute} UTC` : hourMinute,
    /** `for 2 hours (until about 16:05 if applied now)`. */
    boxAskedFor: (span: string, clock: string) => `for ${span} (until about ${clock} if applied now)`,
    /** `until 18:00, in 3 hours`. */
    boxAskedUntil: (clock: string, fromNow: string) => `until ${clock}, ${fromNow}`,
    /** `goes back at 16:05, in 2 hours`. */
    boxGoesBack: (clock: string, fromNow: string) => `goes back at ${clock}, ${fromNow}`,
    boxRunning: 'putting back…',
    boxRetrying: (clock: string) => `putting back failed, retrying at ${clock}`,
    boxDone: (clock: string) => `put back at ${clock}`,
    boxLeft: 'nothing put back',
    /** Between the state and what was left alone: `put back at 16:05; preventZoom left as false: …`. */
    boxThen: (state: string, conflicts: string) => `${state}; ${conflicts}`,
    boxLeftBecause: (conflicts: string) => `nothing put back: ${conflicts}`,
    boxConflicts: (lines: readonly string[]) => lines.join('; '),
    boxChangedSince: (item: string, value: string) =>
      `${item} left as ${value}: changed since by someone else`,
    boxGoneSince: (ip: string) => `${ip} left off the whitelist: removed since by someone else`,
    boxBackSince: (ip: string) => `${ip} left on the whitelist: added back since by someone else`,
    boxHeldNow: (item: string, id: string) => `${item} left to ${id}, which holds it now`,

    /** The reminder DM: `preventZoom goes back to true in 10 minutes: extend?`. */
    boxRemindField: (field: string, value: string, fromNow: string) =>
      `${field} goes back to ${value} ${fromNow}`,
    boxRemindFields: (count: string, fields: string, fromNow: string) =>
      `${count} settings (${fields}) go back ${fromNow}`,
    boxRemindLeaves: (many: boolean, ips: string, fromNow: string) =>
      `${ips} ${many ? 'leave' : 'leaves'} the whitelist ${fromNow}`,
    boxRemindReturns: (many: boolean, ips: string, fromNow: string) =>
      `${ips} ${many ? 'come' : 'comes'} back on the whitelist ${fromNow}`,
    boxRemindJoin: (parts: readonly string[]) => parts.join('; '),
    boxRemindExtend: (what: string) => `${what}: extend?`,

    /** "Put back after" in the protection and whitelist modals. */
    boxChoiceNever: 'Never',
    boxChoiceOther: 'Other (type a duration or date)',

    /** Where someone looks for Revert… on a change that has none. */
    boxNoRevertDelete: 'Deletes and creates cannot be reverted: what a delete removed is gone.',
    boxNoRevertCreate: 'Deletes and creates cannot be reverted: delete what was created if it must go.',
    boxNoRevertUnblock: 'An unblock cannot be reverted: vidops does not block viewers.',
  },
  {
    boxClockToday: (hourMinute) => `ساعت ${hourMinute}`,
    boxAskedFor: (span, clock) => `به مدت ${span} (اگر همین حالا اعمال شود، تا حدود ${clock})`,
    boxAskedUntil: (clock, fromNow) => `تا ${clock}، ${fromNow}`,
    boxGoesBack: (clock, fromNow) => `در ${clock} برمی‌گردد، ${fromNow}`,
    boxRunning: 'در حال برگرداندن…',
    boxRetrying: (clock) => `برگرداندن ناموفق بود؛ در ${clock} دوباره تلاش می‌شود`,
    boxDone: (clock) => `در ${clock} برگردانده شد`,
    boxLeft: 'چیزی برگردانده نشد',
    boxThen: (state, conflicts) => `${state}؛ ${conflicts}`,
    boxLeftBecause: (conflicts) => `چیزی برگردانده نشد: ${conflicts}`,
    boxConflicts: (lines) => lines.join('؛ '),
    boxChangedSince: (item, value) => `${item} همان ${value} ماند: کس دیگری از آن زمان تغییرش داده است`,
    boxGoneSince: (ip) => `${ip} بیرون از لیست سفید ماند: کس دیگری از آن زمان برش داشته است`,
    boxBackSince: (ip) => `${ip} در لیست سفید ماند: کس دیگری از آن زمان دوباره افزوده است`,
    boxHeldNow: (item, id) => `${item} به ${id} سپرده شد که اکنون نگهش می‌دارد`,

    boxRemindField: (field, value, fromNow) => `${field} ${fromNow} به ${value} برمی‌گردد`,
    boxRemindFields: (count, fields, fromNow) => `${count} تنظیم (${fields}) ${fromNow} برمی‌گردند`,
    boxRemindLeaves: (_many, ips, fromNow) => `${ips} ${fromNow} از لیست سفید برداشته می‌شود`,
    boxRemindReturns: (_many, ips, fromNow) => `${ips} ${fromNow} به لیست سفید برمی‌گردد`,
    boxRemindJoin: (parts) => parts.join('؛ '),
    boxRemindExtend: (what) => `${what}: تمدیدش می‌کنید؟`,

    boxChoiceNever: 'هیچ‌وقت',
    boxChoiceOther: 'دیگر (مدت یا تاریخی بنویسید)',

    boxNoRevertDelete: 'حذف و ایجاد برگرداندنی نیستند: آنچه حذف شده از دست رفته است.',
    boxNoRevertCreate: 'حذف و ایجاد برگرداندنی نیستند: اگر آنچه ساخته شد باید برود، حذفش کنید.',
    boxNoRevertUnblock: 'رفع مسدودی برگرداندنی نیست: vidops بیننده‌ها را مسدود نمی‌کند.',
  },
);
