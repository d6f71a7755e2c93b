import { defineArea } from '../define.js';

/**
 * The approval message in the approval channel, the requester's notice and answer, the
 * follow-up DMs (reminders, escalation, expiry warnings, quorum progress, time left), the
 * previews of every operation, and the buttons on them. Parameters arrive formatted by the view:
 * IDs and code spans already isolated, numbers as the reader writes them (`shown`), dates in the
 * reader's calendar; a raw `count` is there only for English plurals.
 * @see docs/architecture.md, "Languages"
 */

const s = (count: number): string => (count === 1 ? '' : 's');

export const approvals = defineArea(
  {
    // Where a request stands, and who asked
    apprCountOf: (count: string, quorum: string) => `${count} of ${quorum}`,
    apprByName: (name: string) => ` · by ${name}`,
    apprRef: (id: string, title: string, target: string) => `${id} (${title} ${target})`,
    apprALead: 'a lead',
    apprDelegatedFor: (who: string, lead: string) => `${who} for ${lead} (delegated)`,

    // What happened (outcome lines)
    apprBreakGlassRan: (by: string) => `*BREAK-GLASS:* run by ${by} without waiting for approval`,
    apprApprovedBy: (who: string) => `Approved by ${who}`,
    apprRanDirectly: 'Ran directly',
    apprPendingSoFar: (who: string, count: string) => `Approved by ${who} (${count}); waiting for more.`,
    apprWaitingToRun: (approved: string) => `${approved}; waiting to run.`,
    apprRunningSince: (approved: string, date: string) => `${approved}; running since ${date}.`,
    apprThen: (approved: string, then: string) => `${approved}; ${then}`,
    apprDoneAt: (approved: string, date: string, result: string) => `${approved}; done at ${date}.${result}`,
    apprFailedAt: (approved: string, date: string, why: string, after: string) =>
      `${approved}; it failed at ${date}.${why === '' ? '' : ` ${why}`}${after}`,
    apprNotSentAt: (approved: string, date: string, why: string) =>
      `${approved}; at ${date} vidops did not send it.${why === '' ? '' : ` ${why}`}`,
    apprAnswerLost:
      ' Its answer was lost, so it may or may not have been applied; asking for it again gives the same end state.',
    apprNothingElse: ' Nothing else was changed.',
    apprRejectedBy: (by: string, date: string, note: string) => `Rejected by ${by} at ${date}: ${note}`,
    apprCancelledBy: (by: string, date: string, note: string) =>
      `Cancelled by ${by} at ${date}.${note === '' ? '' : ` ${note}`}`,
    apprExpiredAt: (date: string, count: string) =>
      `Expired at ${date} with ${count} approvals; nothing was changed.`,
    apprUnknown: (approved: string, why: string, date: string, ways: string) =>
      `${approved}; it may or may not have been applied: ${why} at ${date}, and vidops does not send it again by itself. Someone who may approve it, never the requester, settles it: ${ways}.`,
    apprUnknownStopped: 'vidops stopped while it ran',
    apprUnknownNoAnswer: (error: string) => `the service gave no clear answer (${error})`,
    apprWaysSendAgain:
      'check now, send it again (a 404 then means it was already deleted), or mark it applied or not applied',
    apprWaysMark: 'mark it applied or not applied after looking at the service',
    apprSettledWay: (way: string) =>
      ({
        check: 'checked now',
        applied: 'marked applied',
        'not-applied': 'marked not applied',
        'send-again': 'sent again',
      })[way] ?? way,
    apprSettledUnknownWay: 'settled',
    apprOutcomeApplied: 'applied',
    apprOutcomeNotApplied: 'not applied',
    apprSettled: (who: string, way: string, date: string, outcome: string, note: string) =>
      `its outcome was unknown; ${who} ${way} at ${date}: *${outcome}*.${note === '' ? '' : ` Note: ${note}`}`,
    /** What the change did, in its operation's words (`Protection settings changed (preventZoom)`). */
    apprDidWhat: (what: string) => ` ${what}.`,

    // Previews
    apprPreviewNotAvailable:
      '_Preview not available: this request was made by an earlier version of vidops._',
    apprNone: '_none_',
    apprEmpty: '_empty_',
    apprResource: (resource: 'folder' | 'file' | 'playlist'): string => resource,
    apprCreates: (resource: string) => `*Creates* a ${resource}:`,
    apprTitleLabel: 'Title',
    apprDescriptionLabel: 'Description',
    apprChanges: (resource: string, id: string, known: boolean) =>
      `*Changes* ${resource} ${id}${known ? '' : ' (its current values could not be read)'}:`,
    apprCoverImage: (image: string) => `• Cover image: new image ${image}`,
    apprFilesAfter: '*Files after*',
    apprFilesBefore: 'Files before',
    apprDeletes: (resource: string, id: string, title: string, where: string, count: string) =>
      `:warning: *Deletes* ${resource} ${id}${title}${where}${count}. This cannot be undone.`,
    apprInFolder: (id: string) => ` in folder ${id}`,
    apprAndFolderFiles: (count: number, shown: string) => ` and its ${shown} file${s(count)}`,
    apprFilesInIt: (count: number, shown: string) => ` (${shown} file${s(count)} in it)`,
    apprMoreLines: (count: number, shown: string) => `_… and ${shown} more line${s(count)} not shown._`,

    // Buttons
    apprApprove: 'Approve',
    apprApproveTitle: (id: string) => `Approve ${id}?`,
    apprApproveText: (what: string, irreversible: boolean) =>
      `${what} It runs as soon as you approve.${irreversible ? ' This cannot be undone.' : ''}`,
    apprNotYet: 'Not yet',
    apprRejectButton: 'Reject…',
    apprCancelButton: 'Cancel request',
    apprRemindButton: 'Remind approvers',
    apprCheckNow: 'Check now',
    apprMarkApplied: 'Mark applied…',
    apprMarkNotApplied: 'Mark not applied…',
    apprSendAgain: 'Send again',
    apprSendAgainTitle: (id: string) => `Send ${id} again?`,
    apprSendAgainText: (what: string) =>
      `${what} It is sent once more; if the service answers 404, it had already been deleted. This cannot be undone.`,
    apprNotNow: 'Not now',

    // Headlines
    apprBreakGlassHeadline: (headline: string) => `BREAK-GLASS · ${headline}`,
    apprHeadPending: (title: string) => `Approval needed: ${title}`,
    apprHeadDone: (title: string) => `${title}: approved and done`,
    apprHeadDoneSettled: (title: string) => `${title}: done (outcome settled by a lead)`,
    apprHeadFailed: (title: string) => `${title}: approved, but it failed`,
    apprHeadNotSent: (title: string) => `${title}: approved, but not sent`,
    apprHeadNotApplied: (title: string) => `${title}: not applied (outcome settled by a lead)`,
    apprHeadRunning: (title: string) => `${title}: approved, running`,
    apprHeadRejected: (title: string) => `${title}: rejected`,
    apprHeadCancelled: (title: string) => `${title}: cancelled`,
    apprHeadExpired: (title: string) => `${title}: expired`,
    apprHeadUnknown: (title: string) => `${title}: approved, outcome unknown`,

    // The approval message
    apprFieldTarget: (target: string) => `*Target*\n${target}`,
    apprFieldRequestedBy: (name: string, id: string) => `*Requested by*\n${name} (${id})`,
    apprFieldStatus: (state: string) => `*Status*\n${state}`,
    apprFieldExpires: (when: string) => `*Expires*\n${when}`,
    apprFieldApprovals: (progress: string) => `*Approvals*\n${progress}`,
    apprNever: 'never',
    apprReason: (reason: string) => `*Reason:* ${reason}`,
    apprNoneGiven: '_none given_',
    apprContext: (id: string, operation: string, hash: string, date: string, needs: string) =>
      `Request ${id} · ${operation} · params ${hash} · asked ${date}${needs}`,
    apprNeeds: (quorum: number, shown: string) =>
      ` · needs ${shown} approval${s(quorum)}, never the requester's own`,
    apprMessageText: (headline: string, target: string, name: string, id: string) =>
      `${headline}: ${target}, requested by ${name} (${id})`,

    // Follow-ups: quorum progress, time left, escalation, reminders, warnings
    apprApprovedSoFar: (count: string, quorum: string) => `${count} of ${quorum} approved`,
    apprNoneYet: 'no approvals yet',
    apprExpiresIn: (left: string) => `in ${left}`,
    apprLeftNone: 'no time',
    apprLeftUnderHour: 'under 1h',
    apprLeftUnderQuarter: 'under 15 min',
    apprEscalatedTo: (who: string) => `:arrow_up: *Escalated to* ${who}: they may approve it as well.`,
    apprReminder: (ref: string, by: string) =>
      `:alarm_clock: *Reminder:* ${ref} by ${by} is waiting for your decision.`,
    apprReminderAsked: (name: string) => ` ${name} asked for this reminder.`,
    apprEscalation: (ref: string, by: string) =>
      `:arrow_up: ${ref} by ${by} has not been decided in time and is now offered to you as a backup approver.`,
    apprWarnApprover: (ref: string, left: string) =>
      `:hourglass: ${ref} expires ${left} unless it is decided.`,
    apprWarnRequester: (ref: string, left: string) =>
      `:hourglass: Your request ${ref} expires ${left}; if it is not approved by then, nothing is changed.`,
    apprStanding: (progress: string, left: string) => `So far: ${progress}. Expires ${left}.`,
    apprNoLongerWaiting: (ref: string, state: string) => `${ref} no longer waits for you: ${state}.`,
    apprWaitsToBeSettled: (ref: string, state: string) => `${ref} waits to be settled: ${state}.`,
    apprReminded: (id: string, count: number, shown: string) =>
      `:alarm_clock: The approvers of ${id} who have not decided are reminded (${shown} approval${s(count)} so far).`,

    // The requester's notice
    apprTellApproval: ':thumbsup: got an approval',
    apprTellDone: ':white_check_mark: was approved and is done',
    apprTellFailed: ':x: was approved but failed',
    apprTellNotSent: ':no_entry_sign: was approved but not sent; nothing was changed',
    apprTellRejected: ':no_entry_sign: was rejected',
    apprTellExpired: ':hourglass: expired',
    apprTellUnknown: ':grey_question: may or may not have been applied; its outcome is unknown',
    apprTellGlassDone: ':rotating_light: ran by break-glass and is done',
    apprTellGlassFailed: ':x: ran by break-glass but failed',
    apprYourRequest: (ref: string, what: string) => `Your request ${ref} ${what}.`,

    // The requester's answer on submitting
    apprSubmitDenied: (reason: string) => `:no_entry: Nothing was asked: ${reason}`,
    apprSubmitPosted: (
      id: string,
      channel: string,
      why: string,
      title: string,
      target: string,
      command: string,
    ) =>
      `:inbox_tray: Request ${id} posted to ${channel} for approval${why === '' ? '' : ` (${why})`}: ${title} ${target}. You will get a direct message when a lead decides; ${command} shows where it stands.`,
    apprSubmitDone: (title: string, target: string, id: string) =>
      `:white_check_mark: Done: ${title} ${target} (request ${id}).`,
    apprSubmitFailed: (title: string, target: string, id: string, error: string) =>
      `:x: ${title} ${target} failed (request ${id}): ${error}`,
    apprSubmitServiceRefused: 'the service refused it',
    apprSubmitOther: (state: string, title: string, target: string, id: string) =>
      `${state}: ${title} ${target} (request ${id}).`,
    apprSubmitWarning: (warning: string) => `:warning: ${warning}`,
    apprSubmitDeniedText: 'Nothing was asked: the policy refused it.',
    apprSubmitPostedText: (id: string) => `Request ${id} posted for approval.`,
    apprSubmitStateText: (id: string, state: string) => `Request ${id}: ${state}.`,

    // Break-glass on the approval message
    apprGlassBy: (name: string, id: string, date: string, reason: string) =>
      `:rotating_light: *BREAK-GLASS* by ${name} (${id}) at ${date}, without waiting for approval.\n*Why it could not wait:* ${reason}`,
    apprGlassFlagged: ':triangular_flag_on_post: Flagged',
    apprGlassAcknowledged: ':white_check_mark: Acknowledged',
    apprGlassReviewed: (verdict: string, by: string, date: string, note: string) =>
      `${verdict} by ${by} at ${date}${note === '' ? '.' : `: ${note}`}`,
    apprGlassNotReviewed: (by: string, date: string, overdue: boolean) =>
      `Not reviewed yet: a lead other than ${by} reviews it by ${date}.${overdue ? ' *Overdue.*' : ''}`,
    apprGlassAcknowledge: 'Acknowledge',
    apprGlassFlag: 'Flag…',

    // What the buttons' handlers answer the person who clicked
    actRefused: (reason: string) => `:no_entry: ${reason} Nothing was changed.`,
    actRefusedNotSent: (reason: string) => `:no_entry: ${reason} Nothing was sent.`,
    actFailed: (text: string) => `:x: ${text}`,
    actApprovedPending: (what: string, count: string) =>
      `:thumbsup: Your approval of ${what} is recorded (${count}); it runs when enough approvers agree.`,
    actApprovedDone: (what: string) => `:white_check_mark: You approved ${what}; it ran and is done.`,
    actApprovedFailed: (what: string, error: string) => `:x: You approved ${what}, but it failed: ${error}`,
    actApprovedNotSent: (what: string, why: string) => `:no_entry_sign: You approved ${what}. ${why}`,
    actApprovedUnknown: (what: string) =>
      `:grey_question: You approved ${what}, but the service gave no clear answer: it may or may not have been applied. It is not sent again by itself; someone who may approve it, other than the requester, settles it with the buttons on the approval message.`,
    actApprovedOther: (what: string, state: string) => `You approved ${what}; it is now ${state}.`,
    actCancelled: (id: string) => `:leftwards_arrow_with_hook: You cancelled ${id}; nothing will be changed.`,
    actNowState: (id: string, state: string) => `Request ${id} is now ${state}.`,
    actStillUnknown: (what: string, reason: string) =>
      `:grey_question: ${what} is still unknown: ${reason} Nothing was changed by this.`,
    actSettled: (icon: string, what: string, outcome: string) =>
      `${icon} You settled ${what}: ${outcome}. The requester is told.`,
    actSettleTitle: 'Settle outcome',

    // Changes that undo themselves (docs/time-boxed.md): the put-back line, Revert…, the DMs
    apprBoxLine: (icon: string, text: string, by: string, error: string) =>
      `${icon} *Time-boxed:* ${text}${by === '' ? '' : ` (request ${by})`}.${error === '' ? '' : ` Last error: ${error}`}`,
    apprPutsBack: (id: string) => `:leftwards_arrow_with_hook: *Puts back* ${id}, whose time is up.`,
    apprReverts: (id: string) => `:leftwards_arrow_with_hook: *Reverts* ${id}.`,
    apprPutBackNow: 'Put back now',
    apprPutBackNowTitle: (id: string) => `Put ${id} back now?`,
    apprPutBackNowText: (what: string) =>
      `${what} vidops puts back now what it changed, where nobody changed it since.`,
    apprExtend: 'Extend…',
    apprRevert: 'Revert…',
    apprBoxReminder: (text: string, ref: string) => `:alarm_clock: ${text} (${ref})`,
    apprBoxReminderGone: (ref: string) => `${ref} no longer waits to be put back.`,
    apprBoxEscalated: (ref: string, since: string, error: string) =>
      `:rotating_light: Putting back ${ref} has failed since ${since}; vidops keeps retrying.${error === '' ? '' : ` Last error: ${error}`} Look at the service, or put it back by hand.`,
    actPutBackStarted: (id: string) =>
      `:arrows_counterclockwise: ${id} is being put back; its message says when it is done.`,
    actPutBackDone: (id: string) => `:leftwards_arrow_with_hook: ${id} is put back.`,
    actPutBackLeft: (id: string) =>
      `:information_source: Nothing of ${id} was put back: everything it changed had been changed since.`,
    actRevertNot: (reason: string) => `:no_entry: ${reason}`,
    apprTellPutBack: ':leftwards_arrow_with_hook: was put back, as asked',
    apprTellPutBackLeft: ':information_source: was not put back: what it changed had been changed since',
    apprTellPutBackRetrying:
      ':warning: could not be put back yet; vidops keeps retrying and tells a lead if it goes on',
    actExtendTitle: 'Extend change',
    actRevertTitle: 'Revert change',
  },
  {
    apprCountOf: (count, quorum) => `${count} از ${quorum}`,
    apprByName: (name) => ` · از طرف ${name}`,
    apprRef: (id, title, target) => `${id} (${title} ${target})`,
    apprALead: 'یک سرپرست',
    apprDelegatedFor: (who, lead) => `${who} به‌جای ${lead} (با تفویض)`,

    apprBreakGlassRan: (by) => `*شکستن شیشه:* ${by} بدون انتظار برای تأیید اجرایش کرد`,
    apprApprovedBy: (who) => `تأیید ${who}`,
    apprRanDirectly: 'بی‌واسطه اجرا شد',
    apprPendingSoFar: (who, count) => `تأیید ${who} (${count})؛ در انتظار تأییدهای بیشتر.`,
    apprWaitingToRun: (approved) => `${approved}؛ در نوبت اجرا.`,
    apprRunningSince: (approved, date) => `${approved}؛ از ${date} در حال اجراست.`,
    apprThen: (approved, then) => `${approved}؛ ${then}`,
    apprDoneAt: (approved, date, result) => `${approved}؛ در ${date} انجام شد.${result}`,
    apprFailedAt: (approved, date, why, after) =>
      `${approved}؛ در ${date} ناموفق ماند.${why === '' ? '' : ` ${why}`}${after}`,
    apprNotSentAt: (approved, date, why) =>
      `${approved}؛ vidops آن را در ${date} نفرستاد.${why === '' ? '' : ` ${why}`}`,
    apprAnswerLost:
      ' پاسخ سرویس گم شد، پس معلوم نیست اعمال شده یا نه؛ درخواست دوباره‌ی همین تغییر به همان نتیجه‌ی نهایی می‌رسد.',
    apprNothingElse: ' چیز دیگری تغییر نکرد.',
    apprRejectedBy: (by, date, note) => `${by} در ${date} آن را رد کرد: ${note}`,
    apprCancelledBy: (by, date, note) => `${by} در ${date} آن را لغو کرد.${note === '' ? '' : ` ${note}`}`,
    apprExpiredAt: (date, count) => `در ${date} با ${count} تأیید منقضی شد؛ هیچ چیزی تغییر نکرد.`,
    apprUnknown: (approved, why, date, ways) =>
      `${approved}؛ معلوم نیست اعمال شده یا نه: ${why} (${date})، و vidops خودبه‌خود آن را دوباره نمی‌فرستد. کسی که اجازه‌ی تأییدش را دارد، و هرگز خود درخواست‌دهنده، تکلیفش را روشن می‌کند: ${ways}.`,
    apprUnknownStopped: 'vidops در میانه‌ی اجرا متوقف شد',
    apprUnknownNoAnswer: (error) => `سرویس پاسخ روشنی نداد (${error})`,
    apprWaysSendAgain:
      'همین حالا بررسی کند، دوباره بفرستد (پاسخ ۴۰۴ در آن صورت یعنی از قبل حذف شده بود)، یا آن را «اعمال شد» یا «اعمال نشد» ثبت کند',
    apprWaysMark: 'پس از نگاه کردن به سرویس، آن را «اعمال شد» یا «اعمال نشد» ثبت کند',
    apprSettledWay: (way) =>
      ({
        check: 'همان لحظه بررسی کرد',
        applied: '«اعمال شد» ثبت کرد',
        'not-applied': '«اعمال نشد» ثبت کرد',
        'send-again': 'دوباره فرستاد',
      })[way] ?? way,
    apprSettledUnknownWay: 'تکلیفش را روشن کرد',
    apprOutcomeApplied: 'اعمال شد',
    apprOutcomeNotApplied: 'اعمال نشد',
    apprSettled: (who, way, date, outcome, note) =>
      `نتیجه‌اش نامعلوم بود؛ ${who} در ${date} ${way}: *${outcome}*.${note === '' ? '' : ` یادداشت: ${note}`}`,
    apprDidWhat: (what) => ` ${what}.`,

    apprPreviewNotAvailable: '_پیش‌نمایش در دسترس نیست: این درخواست را نسخه‌ی قدیمی‌تری از vidops ساخته است._',
    apprNone: '_هیچ_',
    apprEmpty: '_خالی_',
    apprResource: (resource) => ({ folder: 'پوشه', file: 'فایل', playlist: 'پلی‌لیست' })[resource],
    apprCreates: (resource) => `*ساخت* ${resource}:`,
    apprTitleLabel: 'عنوان',
    apprDescriptionLabel: 'توضیحات',
    apprChanges: (resource, id, known) =>
      `*تغییر* ${resource} ${id}${known ? '' : ' (مقدارهای فعلی‌اش خوانده نشد)'}:`,
    apprCoverImage: (image) => `• کاور: تصویر تازه‌ی ${image}`,
    apprFilesAfter: '*فایل‌ها پس از تغییر*',
    apprFilesBefore: 'فایل‌ها پیش از تغییر',
    apprDeletes: (resource, id, title, where, count) =>
      `:warning: *حذف* ${resource} ${id}${title}${where}${count}. این کار برگشت‌پذیر نیست.`,
    apprInFolder: (id) => ` در پوشه‌ی ${id}`,
    apprAndFolderFiles: (_count, shown) => ` همراه با ${shown} فایلش`,
    apprFilesInIt: (_count, shown) => ` (${shown} فایل دارد)`,
    apprMoreLines: (_count, shown) => `_… و ${shown} خط دیگر که نمایش داده نشده است._`,

    apprApprove: 'تأیید',
    apprApproveTitle: (id) => `تأیید ${id}؟`,
    apprApproveText: (what, irreversible) =>
      `${what} به محض تأیید شما اجرا می‌شود.${irreversible ? ' این کار برگشت‌پذیر نیست.' : ''}`,
    apprNotYet: 'هنوز نه',
    apprRejectButton: 'رد…',
    apprCancelButton: 'لغو درخواست',
    apprRemindButton: 'یادآوری به تأییدکنندگان',
    apprCheckNow: 'بررسی همین حالا',
    apprMarkApplied: 'ثبت: اعمال شد…',
    apprMarkNotApplied: 'ثبت: اعمال نشد…',
    apprSendAgain: 'ارسال دوباره',
    apprSendAgainTitle: (id) => `ارسال دوباره‌ی ${id}؟`,
    apprSendAgainText: (what) =>
      `${what} یک بار دیگر فرستاده می‌شود؛ اگر سرویس ۴۰۴ پاسخ دهد، یعنی از قبل حذف شده بود. این کار برگشت‌پذیر نیست.`,
    apprNotNow: 'فعلاً نه',

    apprBreakGlassHeadline: (headline) => `شکستن شیشه · ${headline}`,
    apprHeadPending: (title) => `نیاز به تأیید: ${title}`,
    apprHeadDone: (title) => `${title}: تأیید و انجام شد`,
    apprHeadDoneSettled: (title) => `${title}: انجام شد (نتیجه را سرپرست ثبت کرد)`,
    apprHeadFailed: (title) => `${title}: تأیید شد اما ناموفق ماند`,
    apprHeadNotSent: (title) => `${title}: تأیید شد اما فرستاده نشد`,
    apprHeadNotApplied: (title) => `${title}: اعمال نشد (نتیجه را سرپرست ثبت کرد)`,
    apprHeadRunning: (title) => `${title}: تأیید شد، در حال اجرا`,
    apprHeadRejected: (title) => `${title}: رد شد`,
    apprHeadCancelled: (title) => `${title}: لغو شد`,
    apprHeadExpired: (title) => `${title}: منقضی شد`,
    apprHeadUnknown: (title) => `${title}: تأیید شد، نتیجه نامعلوم`,

    apprFieldTarget: (target) => `*هدف*\n${target}`,
    apprFieldRequestedBy: (name, id) => `*درخواست‌دهنده*\n${name} (${id})`,
    apprFieldStatus: (state) => `*وضعیت*\n${state}`,
    apprFieldExpires: (when) => `*مهلت*\n${when}`,
    apprFieldApprovals: (progress) => `*تأییدها*\n${progress}`,
    apprNever: 'بی‌پایان',
    apprReason: (reason) => `*دلیل:* ${reason}`,
    apprNoneGiven: '_دلیلی نیامده است_',
    apprContext: (id, operation, hash, date, needs) =>
      `درخواست ${id} · ${operation} · پارامترها ${hash} · ثبت ${date}${needs}`,
    apprNeeds: (_quorum, shown) => ` · ${shown} تأیید لازم دارد، و تأیید خود درخواست‌دهنده حساب نیست`,
    apprMessageText: (headline, target, name, id) => `${headline}: ${target}، درخواست ${name} (${id})`,

    apprApprovedSoFar: (count, quorum) => `${count} از ${quorum} تأیید`,
    apprNoneYet: 'هنوز تأییدی نیامده',
    apprExpiresIn: (left) => `${left} دیگر`,
    apprLeftNone: 'بی‌درنگ',
    apprLeftUnderHour: 'کمتر از ۱ ساعت',
    apprLeftUnderQuarter: 'کمتر از ۱۵ دقیقه',
    apprEscalatedTo: (who) => `:arrow_up: *به ${who} ارجاع شد*: آن‌ها هم می‌توانند تأییدش کنند.`,
    apprReminder: (ref, by) => `:alarm_clock: *یادآوری:* ${ref} از طرف ${by} در انتظار تصمیم شماست.`,
    apprReminderAsked: (name) => ` ${name} این یادآوری را خواست.`,
    apprEscalation: (ref, by) =>
      `:arrow_up: برای ${ref} از طرف ${by} به‌موقع تصمیمی گرفته نشد و اکنون به شما، به‌عنوان تأییدکننده‌ی پشتیبان، سپرده شده است.`,
    apprWarnApprover: (ref, left) =>
      `:hourglass: اگر برای ${ref} تصمیمی گرفته نشود، مهلتش ${left} تمام می‌شود.`,
    apprWarnRequester: (ref, left) =>
      `:hourglass: مهلت درخواست شما ${ref} ${left} تمام می‌شود؛ اگر تا آن وقت تأیید نشود، هیچ چیزی تغییر نمی‌کند.`,
    apprStanding: (progress, left) => `تا این لحظه: ${progress}. مهلت: ${left}.`,
    apprNoLongerWaiting: (ref, state) => `${ref} دیگر منتظر شما نیست: ${state}.`,
    apprWaitsToBeSettled: (ref, state) => `${ref} باید تعیین تکلیف شود: ${state}.`,
    apprReminded: (id, _count, shown) =>
      `:alarm_clock: به تأییدکنندگان ${id} که هنوز تصمیم نگرفته‌اند یادآوری شد (تا این لحظه ${shown} تأیید).`,

    apprTellApproval: ':thumbsup: یک تأیید گرفت',
    apprTellDone: ':white_check_mark: تأیید و انجام شد',
    apprTellFailed: ':x: تأیید شد اما ناموفق ماند',
    apprTellNotSent: ':no_entry_sign: تأیید شد اما فرستاده نشد؛ چیزی تغییر نکرد',
    apprTellRejected: ':no_entry_sign: رد شد',
    apprTellExpired: ':hourglass: منقضی شد',
    apprTellUnknown: ':grey_question: معلوم نیست اعمال شده یا نه؛ نتیجه‌اش نامعلوم است',
    apprTellGlassDone: ':rotating_light: با شکستن شیشه اجرا و انجام شد',
    apprTellGlassFailed: ':x: با شکستن شیشه اجرا شد اما ناموفق ماند',
    apprYourRequest: (ref, what) => `درخواست شما ${ref} ${what}.`,

    apprSubmitDenied: (reason) => `:no_entry: چیزی درخواست نشد: ${reason}`,
    apprSubmitPosted: (id, channel, why, title, target, command) =>
      `:inbox_tray: درخواست ${id} برای تأیید در ${channel} ثبت شد${why === '' ? '' : ` (${why})`}: ${title} ${target}. وقتی سرپرست تصمیم بگیرد، پیام مستقیم می‌گیرید؛ ${command} نشان می‌دهد کار به کجا رسیده است.`,
    apprSubmitDone: (title, target, id) => `:white_check_mark: انجام شد: ${title} ${target} (درخواست ${id}).`,
    apprSubmitFailed: (title, target, id, error) =>
      `:x: ${title} ${target} ناموفق ماند (درخواست ${id}): ${error}`,
    apprSubmitServiceRefused: 'سرویس آن را نپذیرفت',
    apprSubmitOther: (state, title, target, id) => `${state}: ${title} ${target} (درخواست ${id}).`,
    apprSubmitWarning: (warning) => `:warning: ${warning}`,
    apprSubmitDeniedText: 'چیزی درخواست نشد: سیاست دسترسی آن را نپذیرفت.',
    apprSubmitPostedText: (id) => `درخواست ${id} برای تأیید ثبت شد.`,
    apprSubmitStateText: (id, state) => `درخواست ${id}: ${state}.`,

    apprGlassBy: (name, id, date, reason) =>
      `:rotating_light: *شکستن شیشه* توسط ${name} (${id}) در ${date}، بدون انتظار برای تأیید.\n*چرا نمی‌توانست صبر کند:* ${reason}`,
    apprGlassFlagged: ':triangular_flag_on_post: علامت‌گذاری شد',
    apprGlassAcknowledged: ':white_check_mark: بررسی و پذیرفته شد',
    apprGlassReviewed: (verdict, by, date, note) =>
      `${verdict} توسط ${by} در ${date}${note === '' ? '.' : `: ${note}`}`,
    apprGlassNotReviewed: (by, date, overdue) =>
      `هنوز بررسی نشده است: سرپرستی غیر از ${by} تا ${date} آن را بررسی می‌کند.${overdue ? ' *از موعد گذشته.*' : ''}`,
    apprGlassAcknowledge: 'پذیرفتن',
    apprGlassFlag: 'علامت‌گذاری…',

    actRefused: (reason) => `:no_entry: ${reason} هیچ چیزی تغییر نکرد.`,
    actRefusedNotSent: (reason) => `:no_entry: ${reason} چیزی فرستاده نشد.`,
    actFailed: (text) => `:x: ${text}`,
    actApprovedPending: (what, count) =>
      `:thumbsup: تأیید شما برای ${what} ثبت شد (${count})؛ وقتی تأییدها کامل شود، اجرا می‌شود.`,
    actApprovedDone: (what) => `:white_check_mark: ${what} را تأیید کردید؛ اجرا و انجام شد.`,
    actApprovedFailed: (what, error) => `:x: ${what} را تأیید کردید، اما ناموفق ماند: ${error}`,
    actApprovedNotSent: (what, why) => `:no_entry_sign: ${what} را تأیید کردید. ${why}`,
    actApprovedUnknown: (what) =>
      `:grey_question: ${what} را تأیید کردید، اما سرویس پاسخ روشنی نداد: معلوم نیست اعمال شده یا نه. خودبه‌خود دوباره فرستاده نمی‌شود؛ کسی که اجازه‌ی تأییدش را دارد (غیر از درخواست‌دهنده) با دکمه‌های پیام تأیید تکلیفش را روشن می‌کند.`,
    actApprovedOther: (what, state) => `${what} را تأیید کردید؛ اکنون در وضعیت «${state}» است.`,
    actCancelled: (id) => `:leftwards_arrow_with_hook: درخواست ${id} را لغو کردید؛ هیچ چیزی تغییر نمی‌کند.`,
    actNowState: (id, state) => `درخواست ${id} اکنون در وضعیت «${state}» است.`,
    actStillUnknown: (what, reason) =>
      `:grey_question: نتیجه‌ی ${what} هنوز نامعلوم است: ${reason} با این کار چیزی تغییر نکرد.`,
    actSettled: (icon, what, outcome) =>
      `${icon} نتیجه‌ی ${what} را ثبت کردید: ${outcome}. درخواست‌دهنده باخبر می‌شود.`,
    actSettleTitle: 'ثبت نتیجه',

    apprBoxLine: (icon, text, by, error) =>
      `${icon} *موقت:* ${text}${by === '' ? '' : ` (درخواست ${by})`}.${error === '' ? '' : ` آخرین خطا: ${error}`}`,
    apprPutsBack: (id) => `:leftwards_arrow_with_hook: ${id} را که زمانش تمام شده *برمی‌گرداند*.`,
    apprReverts: (id) => `:leftwards_arrow_with_hook: ${id} را *برمی‌گرداند*.`,
    apprPutBackNow: 'همین حالا برگردان',
    apprPutBackNowTitle: (id) => `${id} همین حالا برگردد؟`,
    apprPutBackNowText: (what) =>
      `${what} vidops آنچه را تغییر داده بود همین حالا برمی‌گرداند، هر جا که از آن پس کسی تغییرش نداده باشد.`,
    apprExtend: 'تمدید…',
    apprRevert: 'برگرداندن…',
    apprBoxReminder: (text, ref) => `:alarm_clock: ${text} (${ref})`,
    apprBoxReminderGone: (ref) => `${ref} دیگر در انتظار برگرداندن نیست.`,
    apprBoxEscalated: (ref, since, error) =>
      `:rotating_light: برگرداندن ${ref} از ${since} ناموفق مانده است؛ vidops همچنان تلاش می‌کند.${error === '' ? '' : ` آخرین خطا: ${error}`} سرویس را بررسی کنید یا آن را دستی برگردانید.`,
    actPutBackStarted: (id) =>
      `:arrows_counterclockwise: ${id} در حال برگرداندن است؛ پیامش می‌گوید کی تمام شد.`,
    actPutBackDone: (id) => `:leftwards_arrow_with_hook: ${id} برگردانده شد.`,
    actPutBackLeft: (id) =>
      `:information_source: از ${id} چیزی برگردانده نشد: هر چه تغییر داده بود، از آن پس تغییر کرده بود.`,
    actRevertNot: (reason) => `:no_entry: ${reason}`,
    apprTellPutBack: ':leftwards_arrow_with_hook: همان‌طور که خواسته بودید برگردانده شد',
    apprTellPutBackLeft: ':information_source: برگردانده نشد: آنچه تغییر داده بود از آن پس تغییر کرده بود',
    apprTellPutBackRetrying:
      ':warning: هنوز برگردانده نشده است؛ vidops همچنان تلاش می‌کند و اگر ادامه یابد به یک سرپرست خبر می‌دهد',
    actExtendTitle: 'تمدید تغییر',
    actRevertTitle: 'برگرداندن تغییر',
  },
);
