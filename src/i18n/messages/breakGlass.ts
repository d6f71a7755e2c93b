import { defineArea } from '../define.js';
import { FSI, PDI } from '../format.js';

/**
 * Break-glass and delegation as people read them: the offer under a pending notice, the modal and
 * the lead's Flag modal, the leads' DM, the App Home lines, and what the handlers answer
 * (break-glass, Acknowledge / Flag…, `/vidops delegate`). Parameters arrive formatted by the
 * view: IDs, mentions and code spans already isolated, dates in the reader's calendar.
 * @see docs/architecture.md, "Languages"
 */

/** A fixed left-to-right token inside Persian text. */
const iso = (token: string): string => `${FSI}${token}${PDI}`;

export const breakGlass = defineArea(
  {
    glassOffer:
      ':rotating_light: Cannot wait? You may *break glass*: it runs now, every lead is told, and a lead reviews it afterwards.',
    glassOfferButton: 'Break glass…',
    glassHint:
      ':rotating_light: Cannot wait? You may break glass: the *Break glass…* button is on your vidops Home tab.',
    glassLeadReminder: (ref: string, by: string) =>
      `:alarm_clock: *Reminder:* the BREAK-GLASS change ${ref} by ${by} is still not reviewed.`,
    glassLeadTold: (by: string, ref: string) =>
      `:rotating_light: *BREAK-GLASS:* ${by} ran ${ref} without waiting for approval. A lead reviews it.`,
    glassLeadText: (reminder: boolean, by: string, title: string, target: string, id: string) =>
      `${reminder ? 'Reminder: not reviewed: ' : ''}BREAK-GLASS by ${by}: ${title} ${target} (${id})`,
    glassDelegatedTo: (delegate: string, until: string, command: string) =>
      `:busts_in_silhouette: You delegated to ${delegate} until ${until}. ${command} ends it.`,
    glassApproveFor: (lead: string, until: string) =>
      `:busts_in_silhouette: You approve for ${lead} until ${until} (delegated).`,
    glassUnreviewed: (line: string, by: string, due: string) => `:rotating_light: ${line} · by ${by}${due}`,
    glassReviewDue: (date: string, overdue: boolean) =>
      ` · review due ${date}${overdue ? ' *(overdue)*' : ''}`,

    glassModalTitle: 'Break glass',
    glassModalSubmit: 'Run it now',
    glassModalIntro: (line: string, within: string) =>
      `:rotating_light: ${line} runs *now*, without waiting for a lead. Every lead is told at once, the audit log marks it BREAK-GLASS, and a lead reviews it within ${within}.`,
    glassModalReasonLabel: 'Why can this not wait for a lead?',
    glassModalReasonHint: 'Every lead reads this, and it is kept in the audit log.',
    glassModalWordsLabel: (words: string) => `Type “${words}” to confirm`,
    glassReasonRequired:
      'Say why this cannot wait for a lead: the reason is required and every lead reads it.',
    glassWrongWords: (words: string) => `Type the words “${words}” exactly to confirm; nothing was changed.`,
    glassFlagTitle: 'Flag break-glass',
    glassFlagSubmit: 'Flag',
    glassWhyCouldNotWait: (reason: string) => `*Why it could not wait:* ${reason}`,
    glassFlagLabel: 'What is wrong with it?',
    glassFlagHint: 'The leads read this, and it is kept in the audit log.',
    glassNoteRequired: 'Say what is wrong: a note is required when you flag a change.',

    glassRanDone: (what: string) =>
      `:rotating_light: BREAK-GLASS: ${what} ran and is done. Every lead is told; a lead reviews it.`,
    glassRanFailed: (what: string, error: string) =>
      `:x: BREAK-GLASS: ${what} ran but failed: ${error}. Every lead is told.`,
    glassRanUnknown: (what: string) =>
      `:grey_question: BREAK-GLASS: ${what} ran, but the service gave no clear answer: it may or may not have been applied. A lead settles it.`,
    glassRanOther: (what: string, state: string) => `BREAK-GLASS: ${what} is now ${state}.`,
    glassRunning: ':hourglass_flowing_sand: Running it now…',
    glassRecording: ':hourglass_flowing_sand: Recording…',
    glassAcknowledged: (id: string) =>
      `:white_check_mark: You acknowledged the break-glass change ${id}; it is recorded in the audit log.`,
    glassFlagged: (id: string) =>
      `:triangular_flag_on_post: You flagged the break-glass change ${id}; the leads see your note.`,
    glassNoRequest: 'That button does not name a request; nothing was changed.',

    delegateDone: (delegate: string, until: string, command: string) =>
      `:busts_in_silhouette: ${delegate} approves in your place until ${until} (never their own requests). ${command} ends it earlier.`,
    delegateEnded: (delegate: string) =>
      `:busts_in_silhouette: Your delegation to ${delegate} has ended; they no longer approve in your place.`,
    delegateNothingChanged: (reason: string) => `${reason} Nothing was changed.`,
  },
  {
    glassOffer:
      ':rotating_light: نمی‌توانید صبر کنید؟ می‌توانید *شیشه را بشکنید*: همین حالا اجرا می‌شود، همه‌ی سرپرست‌ها باخبر می‌شوند و یکی از آن‌ها بعداً بررسی‌اش می‌کند.',
    glassOfferButton: 'شکستن شیشه…',
    glassHint:
      ':rotating_light: نمی‌توانید صبر کنید؟ می‌توانید شیشه را بشکنید: دکمه‌ی *شکستن شیشه…* در زبانه‌ی Home برنامه‌ی vidops است.',
    glassLeadReminder: (ref, by) =>
      `:alarm_clock: *یادآوری:* تغییر ${ref} که ${by} با شکستن شیشه اجرا کرد، هنوز بررسی نشده است.`,
    glassLeadTold: (by, ref) =>
      `:rotating_light: *شکستن شیشه:* ${by} بدون انتظار برای تأیید، ${ref} را اجرا کرد. یکی از سرپرست‌ها باید بررسی‌اش کند.`,
    glassLeadText: (reminder, by, title, target, id) =>
      `${reminder ? 'یادآوری، بررسی نشده: ' : ''}شکستن شیشه توسط ${by}: ${title} ${target} (${id})`,
    glassDelegatedTo: (delegate, until, command) =>
      `:busts_in_silhouette: تأییدهایتان را تا ${until} به ${delegate} سپرده‌اید. ${command} آن را پایان می‌دهد.`,
    glassApproveFor: (lead, until) =>
      `:busts_in_silhouette: تا ${until} به‌جای ${lead} تأیید می‌کنید (با تفویض).`,
    glassUnreviewed: (line, by, due) => `:rotating_light: ${line} · توسط ${by}${due}`,
    glassReviewDue: (date, overdue) => ` · مهلت بررسی ${date}${overdue ? ' *(از موعد گذشته)*' : ''}`,

    glassModalTitle: 'شکستن شیشه',
    glassModalSubmit: 'همین حالا اجرا شود',
    glassModalIntro: (line, within) =>
      `:rotating_light: ${line} *همین حالا* و بدون انتظار برای سرپرست اجرا می‌شود. همه‌ی سرپرست‌ها بی‌درنگ باخبر می‌شوند، لاگ ممیزی آن را «شکستن شیشه» علامت می‌زند و یکی از سرپرست‌ها تا ${within} بررسی‌اش می‌کند.`,
    glassModalReasonLabel: 'چرا این کار نمی‌تواند منتظر سرپرست بماند؟',
    glassModalReasonHint: 'همه‌ی سرپرست‌ها این را می‌خوانند، و در لاگ ممیزی ثبت می‌شود.',
    glassModalWordsLabel: (words) => `برای تأیید، «${iso(words)}» را تایپ کنید`,
    glassReasonRequired:
      'بنویسید چرا این کار نمی‌تواند منتظر سرپرست بماند: دلیل لازم است و همه‌ی سرپرست‌ها آن را می‌خوانند.',
    glassWrongWords: (words) => `برای تأیید، دقیقاً عبارت «${iso(words)}» را تایپ کنید؛ هیچ چیزی تغییر نکرد.`,
    glassFlagTitle: 'علامت‌گذاری شکستن شیشه',
    glassFlagSubmit: 'علامت‌گذاری',
    glassWhyCouldNotWait: (reason) => `*چرا نمی‌توانست صبر کند:* ${reason}`,
    glassFlagLabel: 'چه ایرادی دارد؟',
    glassFlagHint: 'سرپرست‌ها این را می‌خوانند، و در لاگ ممیزی ثبت می‌شود.',
    glassNoteRequired: 'بنویسید ایرادش چیست: برای علامت‌گذاری یک تغییر، یادداشت لازم است.',

    glassRanDone: (what) =>
      `:rotating_light: شکستن شیشه: ${what} اجرا و انجام شد. همه‌ی سرپرست‌ها باخبر شدند؛ یکی از آن‌ها بررسی‌اش می‌کند.`,
    glassRanFailed: (what, error) =>
      `:x: شکستن شیشه: ${what} اجرا شد اما ناموفق ماند: ${error}. همه‌ی سرپرست‌ها باخبر شدند.`,
    glassRanUnknown: (what) =>
      `:grey_question: شکستن شیشه: ${what} اجرا شد، اما سرویس پاسخ روشنی نداد: معلوم نیست اعمال شده یا نه. یکی از سرپرست‌ها تکلیفش را روشن می‌کند.`,
    glassRanOther: (what, state) => `شکستن شیشه: ${what} اکنون در وضعیت «${state}» است.`,
    glassRunning: ':hourglass_flowing_sand: در حال اجرا…',
    glassRecording: ':hourglass_flowing_sand: در حال ثبت…',
    glassAcknowledged: (id) =>
      `:white_check_mark: تغییر ${id} را که با شکستن شیشه اجرا شده بود پذیرفتید؛ در لاگ ممیزی ثبت شد.`,
    glassFlagged: (id) =>
      `:triangular_flag_on_post: تغییر ${id} را که با شکستن شیشه اجرا شده بود علامت زدید؛ سرپرست‌ها یادداشت شما را می‌بینند.`,
    glassNoRequest: 'این دکمه به درخواستی اشاره نمی‌کند؛ هیچ چیزی تغییر نکرد.',

    delegateDone: (delegate, until, command) =>
      `:busts_in_silhouette: ${delegate} تا ${until} به‌جای شما تأیید می‌کند (هرگز درخواست‌های خودش را). ${command} زودتر پایانش می‌دهد.`,
    delegateEnded: (delegate) =>
      `:busts_in_silhouette: تفویض شما به ${delegate} پایان یافت؛ دیگر به‌جای شما تأیید نمی‌کند.`,
    delegateNothingChanged: (reason) => `${reason} هیچ چیزی تغییر نکرد.`,
  },
);
