import { defineArea } from '../define.js';
import { FSI, PDI } from '../format.js';

/**
 * The audit channel's sentences (one per event kind), its post and checkpoint headers, and the
 * same sentences in App Home, `/vidops audit` and `vidops audit tail`. Parameters arrive formatted:
 * IDs, hashes, names and free text already escaped, masked and isolated by the view (src/views/
 * audit-post.ts); counts come as `count` (English plurals) and `shown` (digits of the language).
 * The audit log itself is never translated: only what people read.
 * @see docs/architecture.md, "Languages"
 */

/** A fixed left-to-right token inside Persian text. */
const iso = (token: string): string => `${FSI}${token}${PDI}`;

/** How break-glass is marked in Persian: the emoji, the Persian words and the English word. */
const FA_BREAK_GLASS = `🚨 اجرای اضطراری (${iso('BREAK-GLASS')})`;

export type AuditResourceKind = 'folder' | 'file' | 'playlist' | 'viewer';
export type AuditVerb = 'create' | 'edit' | 'delete' | 'unblock';

const FA_RESOURCES: Readonly<Record<AuditResourceKind, string>> = {
  folder: 'پوشه‌ی',
  file: 'فایل',
  playlist: 'پلی‌لیست',
  viewer: 'بیننده‌ی',
};

const FA_VERBS: Readonly<Record<AuditVerb, string>> = {
  create: 'ساخت',
  edit: 'ویرایش',
  delete: 'حذف',
  unblock: 'رفع مسدودی',
};

const s = (count: number, one: string, many: string): string => (count === 1 ? one : many);

export const audit = defineArea(
  {
    // Who and what
    auditOnCli: (person: string) => `${person} on the CLI`,
    auditViaCli: (person: string, osUser: string) => `${person} via the CLI (OS user ${osUser})`,
    auditQuoted: (text: string) => `“${text}”`,
    auditResource: (kind: AuditResourceKind, id: string) => `${kind} ${id}`,
    auditNewResource: (kind: 'folder' | 'playlist', rest: string) => `new ${kind} ${rest}`,
    auditTheRequest: 'the request',
    auditListSep: ', ',
    auditAskWhitelistGet: 'read the whitelist',
    auditAskProtectGet: 'read the protection settings',
    auditAskAudit: 'read the audit log',
    auditAskCommand: (target: string) => `run a command (${target})`,
    auditAskRun: (operation: string, target: string) => `run ${operation} on ${target}`,
    auditAskVerb: (verb: AuditVerb, target: string) => `${verb} ${target}`,
    auditTitleTo: (title: string) => `title → ${title}`,
    auditFiles: (count: number, shown: string) => `${shown} ${s(count, 'file', 'files')}`,

    // Requested
    auditAskedTo: (who: string, ask: string, summary: string) => `${who} asked to ${ask}${summary}`,
    auditNoReason: 'no reason given',
    auditReason: (reason: string) => `reason: ${reason}`,
    auditRunsWithoutApproval: 'runs without approval',
    auditNeeds: (count: number, shown: string, because: string, expires: string) =>
      `needs ${shown} ${s(count, 'lead approval', 'lead approvals')}${because}${expires}`,
    auditExpiresAt: (date: string) => `, expires ${date}`,

    // Succeeded
    auditDeleted: (thing: string, files: string) => `${thing} deleted${files}`,
    auditEdited: (thing: string, title: string) => `${thing} edited${title}`,
    auditEditedTitle: (title: string) => `: title ${title}`,
    auditViewerUnblocked: (id: string) => `Viewer ${id} unblocked`,
    auditDone: (ask: string) => `${ask}: done`,

    // What a refused person tried
    auditTryApprove: (ref: string) => `approve ${ref}`,
    auditTryReject: (ref: string) => `reject ${ref}`,
    auditTryCancel: (ref: string) => `cancel ${ref}`,
    auditTryRemind: (ref: string) => `remind the approvers of ${ref}`,
    auditTryBreakGlass: (ref: string) => `break the glass on ${ref}`,
    auditTryReview: (ref: string) => `review the break-glass of ${ref}`,

    // Settled, follow-ups
    auditSettled: (who: string, ref: string, how: string) =>
      `${who} settled the unknown outcome of ${ref}${how}`,
    auditNote: (note: string) => `note: ${note}`,
    auditStanding: (count: string, quorum: string) => ` (${count} of ${quorum} approvals)`,
    auditReminded: (by: string, ref: string, standing: string) =>
      `${by} reminded the approvers of ${ref} who have not decided${standing}`,
    auditBackupApprovers: 'the backup approvers',
    auditEscalated: (ref: string, to: string, standing: string) =>
      `${ref} was not decided in time and is offered to ${to} as well${standing}`,
    auditExpiryWarned: (ref: string, at: string, standing: string) =>
      `${ref} expires soon${at}: its requester and approvers were warned${standing}`,
    auditAtDate: (date: string) => ` (at ${date})`,

    // Time-boxed changes and Revert (docs/time-boxed.md): the window asked, what a request undoes,
    // and the steps of a put-back on the change it puts back.
    auditForWindow: (span: string) => ` for ${span}`,
    auditUntilWindow: (date: string) => ` until ${date}`,
    auditPutsBack: (id: string) => ` (puts back ${id})`,
    auditReverts: (id: string) => ` (reverts ${id})`,
    auditExtends: (id: string) => ` (extends ${id})`,
    auditGoesBack: (items: string) => ` (goes back: ${items})`,
    auditMoreItems: (_count: number, shown: string) => ` and ${shown} more`,
    auditPuttingBack: (ref: string, items: string, putBack: string) =>
      putBack === ''
        ? `vidops is putting back ${ref}${items}`
        : `vidops is putting back ${ref}${items} with ${putBack}`,
    auditPutBackNow: (who: string, ref: string, items: string, putBack: string) =>
      `${who} put back ${ref} now${items}${putBack === '' ? '' : `, with ${putBack}`}`,
    auditReverted: (ref: string, putBack: string) =>
      putBack === '' ? `${ref} was put back` : `${ref} was put back by ${putBack}`,
    auditPartSep: '; ',
    auditLeftChanged: (items: string) => `left as others changed them: ${items}`,
    auditNowValue: (item: string, value: string) => `${item} (now ${value})`,
    auditListed: 'listed',
    auditNotListed: 'not listed',
    auditLeftHeld: (count: number, items: string, id: string) =>
      `${items} left to ${id}, which holds ${s(count, 'it', 'them')}`,
    auditAskedNowBy: (who: string) => ` (${who} asked to put it back now)`,
    auditUndoUnknown: (ref: string) => `${ref}: nothing put back, the values it replaced are not known`,
    auditNothingToPutBack: (ref: string) => `${ref}: nothing put back, everything was already as before`,
    auditAllChangedSince: (ref: string, items: string) =>
      `${ref}: nothing put back, everything changed since: ${items}`,
    auditNothingPutBack: (ref: string, parts: string) => `${ref}: nothing put back; ${parts}`,
    auditPartlyPutBack: (ref: string, parts: string) => `${ref} was put back only in part; ${parts}`,
    auditWindowExtended: (ref: string, by: string, at: string) =>
      `${ref} now goes back ${at === '' ? 'later' : `at ${at}`}: extended by ${by}`,
    auditWindowRecorded: (ref: string, items: string) =>
      `${ref} recorded what it replaces, read just before it was sent: at its end it puts back ${items}`,
    auditWindowOverridden: (ref: string, by: string, items: string) =>
      `${ref} will leave ${items} alone when it goes back: ${by} set ${items} for good`,
    auditPutBackRetrying: (ref: string, error: string, at: string) =>
      `Putting ${ref} back failed${error}; ${at === '' ? 'vidops will retry' : `retrying at ${at}`}`,
    auditPutBackReminded: (ref: string, at: string) =>
      `${ref} goes back ${at === '' ? 'soon' : `at ${at}`}: its requester was reminded`,
    auditPutBackEscalated: (ref: string) => `Putting ${ref} back has failed for an hour; the leads are told`,

    // Break-glass and delegation
    auditForLead: (person: string) => ` for ${person} (delegated)`,
    auditBreakGlass: (who: string, ref: string, ask: string, reason: string, by: string) =>
      `BREAK-GLASS: ${who} ran ${ref} without waiting for approval: ${ask}; reason: ${reason}; a lead reviews it${by}`,
    auditNone: 'none',
    auditReviewBy: (date: string) => ` by ${date}`,
    auditBreakGlassReviewed: (who: string, flagged: boolean, ref: string, note: string) =>
      `BREAK-GLASS review: ${who} ${flagged ? 'flagged' : 'acknowledged'} ${ref}${note}`,
    auditBreakGlassOverdue: (ref: string) =>
      `BREAK-GLASS: ${ref} is still not reviewed by a lead; the leads are reminded`,
    auditBreakGlassStarted: (ref: string, ask: string) =>
      `BREAK-GLASS: ${ref} started without its approvals: ${ask}`,
    auditDelegated: (who: string, delegate: string, until: string, reason: string) =>
      `${who} delegated approvals to ${delegate} until ${until}${reason}`,
    auditDelegationReason: (reason: string) => `; reason: ${reason}`,
    auditDelegationCancelled: (who: string, delegate: string, until: string) =>
      `${who} cancelled the delegation of approvals to ${delegate} (it ran until ${until})`,
    auditDelegationExpired: (lead: string, delegate: string, until: string) =>
      `The delegation of approvals from ${lead} to ${delegate} expired at ${until}`,

    // The other kinds
    auditApproved: (who: string, forLead: string, ref: string, count: string) =>
      `${who}${forLead} approved ${ref}${count}`,
    auditOfQuorum: (count: string, quorum: string) => ` (${count} of ${quorum})`,
    auditRejected: (who: string, ref: string, note: string) => `${who} rejected ${ref}${note}`,
    auditCancelled: (who: string, ref: string, note: string) => `${who} cancelled ${ref}${note}`,
    auditExpired: (ref: string, had: string) => `${ref} expired${had}; nothing was changed`,
    auditExpiredHad: (count: string, quorum: string) => ` with ${count} of ${quorum} approvals`,
    auditStarted: (ref: string, resumed: boolean, ask: string) =>
      `${ref} ${resumed ? 'resumed after a restart' : 'started'}: ${ask}`,
    auditFailed: (ask: string, error: string) => `Could not ${ask}: ${error}`,
    auditNoError: 'no error recorded',
    auditDenied: (who: string, reason: string, action: string) =>
      `${who} refused: ${reason} (tried to ${action})`,
    auditNotAllowed: 'not allowed',
    auditUnknown: (ask: string) =>
      `Outcome unknown: ${ask} may or may not have been applied; check the service before asking again`,
    auditOther: (type: string, who: string, ask: string) => `${type} by ${who}: ${ask}`,
    auditStepDone: (nth: string, request: string, viewer: string) =>
      `Number ${nth} of ${request}: ${viewer} unblocked`,
    auditStepFailed: (nth: string, request: string, viewer: string) =>
      `Number ${nth} of ${request}: could not unblock ${viewer}`,
    auditStepUnknown: (nth: string, request: string, viewer: string) =>
      `Number ${nth} of ${request}: whether ${viewer} was unblocked is not known; it is not sent again`,
    auditError: (error: string) => `; error: ${error}`,

    // Lines and posts
    auditLine: (emoji: string, seq: string, time: string, said: string, hash: string) =>
      `${emoji} *#${seq}* ${time} · ${said} · hash \`${hash}\``,
    auditTextLine: (seq: string, said: string, hash: string) => `#${seq} ${said} · hash ${hash}`,
    auditNoEvents: 'vidops audit: no events',
    auditEvents: (count: number, shown: string) => `${shown} ${s(count, 'event', 'events')}`,
    auditPostHeader: (range: string, count: string) => `:scroll: *vidops audit* · ${range} · ${count}`,
    auditPostText: (range: string, count: string) => `vidops audit ${range} (${count})`,
    auditAndMore: (shown: string) => `\n… and ${shown} more`,
    auditSummaryLine: (seq: string, count: string, range: string, hash: string) =>
      `:package: *#${seq}* · ${count} ${range}, all in \`vidops audit tail\` · hash \`${hash}\``,
    auditSummaryTextLine: (seq: string, count: string, range: string, hash: string) =>
      `#${seq} ${count} ${range}, all in vidops audit tail · hash ${hash}`,
    auditSummaryHead: (seq: string, head: string) =>
      `The chain's hash of #${seq}, which vouches for every event before it: \`${head}\``,
    auditCheckpointText: (covers: string, head: string) => `vidops audit checkpoint: ${covers}, head ${head}`,
    auditCheckpointHeader: (covers: string, head: string) =>
      `:lock: *vidops audit checkpoint* · covers ${covers} · head \`${head}\``,
  },
  {
    auditOnCli: (person) => `${person} در خط فرمان`,
    auditViaCli: (person, osUser) => `${person} از راه خط فرمان (کاربر سیستم‌عامل ${osUser})`,
    auditQuoted: (text) => `«${text}»`,
    auditResource: (kind, id) => `${FA_RESOURCES[kind]} ${id}`,
    auditNewResource: (kind, rest) => `${kind === 'folder' ? 'پوشه‌ی تازه‌ی' : 'پلی‌لیست تازه‌ی'} ${rest}`,
    auditTheRequest: 'درخواست',
    auditListSep: '، ',
    auditAskWhitelistGet: 'خواندن لیست سفید',
    auditAskProtectGet: 'خواندن تنظیمات حفاظت',
    auditAskAudit: 'خواندن لاگ ممیزی',
    auditAskCommand: (target) => `اجرای یک فرمان (${target})`,
    auditAskRun: (operation, target) => `اجرای ${operation} روی ${target}`,
    auditAskVerb: (verb, target) => `${FA_VERBS[verb]} ${target}`,
    auditTitleTo: (title) => `عنوان ← ${title}`,
    auditFiles: (_count, shown) => `${shown} فایل`,

    auditAskedTo: (who, ask, summary) => `${who} درخواست ${ask}${summary} را داد`,
    auditNoReason: 'دلیلی ذکر نشده',
    auditReason: (reason) => `دلیل: ${reason}`,
    auditRunsWithoutApproval: 'بدون تأیید اجرا می‌شود',
    auditNeeds: (_count, shown, because, expires) => `${shown} تأیید سرپرست لازم دارد${because}${expires}`,
    auditExpiresAt: (date) => `، مهلت تا ${date}`,

    auditDeleted: (thing, files) => `${thing} حذف شد${files}`,
    auditEdited: (thing, title) => `${thing} ویرایش شد${title}`,
    auditEditedTitle: (title) => `: عنوان ${title}`,
    auditViewerUnblocked: (id) => `مسدودی بیننده‌ی ${id} برداشته شد`,
    auditDone: (ask) => `${ask}: انجام شد`,

    auditTryApprove: (ref) => `تأیید ${ref}`,
    auditTryReject: (ref) => `رد ${ref}`,
    auditTryCancel: (ref) => `لغو ${ref}`,
    auditTryRemind: (ref) => `یادآوری به تأییدکنندگان ${ref}`,
    auditTryBreakGlass: (ref) => `اجرای اضطراری ${ref}`,
    auditTryReview: (ref) => `بازبینی اجرای اضطراری ${ref}`,

    auditSettled: (who, ref, how) => `${who} نتیجه‌ی نامعلوم ${ref} را روشن کرد${how}`,
    auditNote: (note) => `یادداشت: ${note}`,
    auditStanding: (count, quorum) => ` (${count} از ${quorum} تأیید)`,
    auditReminded: (by, ref, standing) =>
      `${by} به تأییدکنندگانِ ${ref} که هنوز تصمیم نگرفته‌اند یادآوری کرد${standing}`,
    auditBackupApprovers: 'تأییدکنندگان جایگزین',
    auditEscalated: (ref, to, standing) =>
      `درباره‌ی ${ref} به‌موقع تصمیم گرفته نشد و به ${to} هم سپرده شد${standing}`,
    auditExpiryWarned: (ref, at, standing) =>
      `${ref} به‌زودی منقضی می‌شود${at}: به درخواست‌دهنده و تأییدکنندگانش هشدار داده شد${standing}`,
    auditAtDate: (date) => ` (${date})`,

    auditForWindow: (span) => ` به مدت ${span}`,
    auditUntilWindow: (date) => ` تا ${date}`,
    auditPutsBack: (id) => ` (برگرداندن تغییر زمان‌دار ${id})`,
    auditReverts: (id) => ` (برگرداندن ${id})`,
    auditExtends: (id) => ` (تمدید ${id})`,
    auditGoesBack: (items) => ` (آنچه برمی‌گردد: ${items})`,
    auditMoreItems: (_count, shown) => ` و ${shown} مورد دیگر`,
    auditPuttingBack: (ref, items, putBack) =>
      putBack === ''
        ? `vidops دارد ${ref} را برمی‌گرداند${items}`
        : `vidops دارد ${ref} را با ${putBack} برمی‌گرداند${items}`,
    auditPutBackNow: (who, ref, items, putBack) =>
      `${who} همین حالا ${ref} را${putBack === '' ? '' : ` با ${putBack}`} برگرداند${items}`,
    auditReverted: (ref, putBack) =>
      putBack === '' ? `${ref} برگردانده شد` : `${ref} با ${putBack} برگردانده شد`,
    auditPartSep: '؛ ',
    auditLeftChanged: (items) => `آنچه دیگران از آن زمان تغییر داده‌اند دست‌نخورده ماند: ${items}`,
    auditNowValue: (item, value) => `${item} (اکنون ${value})`,
    auditListed: 'در لیست',
    auditNotListed: 'بیرون از لیست',
    auditLeftHeld: (count, items, id) =>
      `${items} به ${id} سپرده شد که اکنون ${count === 1 ? 'نگهش' : 'نگهشان'} می‌دارد`,
    auditAskedNowBy: (who) => ` (${who} خواست همین حالا برگردانده شود)`,
    auditUndoUnknown: (ref) => `برای ${ref} چیزی برگردانده نشد: مقدارهایی که جایگزینشان کرده بود معلوم نیست`,
    auditNothingToPutBack: (ref) => `برای ${ref} چیزی برگردانده نشد: همه‌چیز از پیش به حالت قبل برگشته بود`,
    auditAllChangedSince: (ref, items) =>
      `برای ${ref} چیزی برگردانده نشد، چون همه‌چیز از آن زمان تغییر کرده است: ${items}`,
    auditNothingPutBack: (ref, parts) => `برای ${ref} چیزی برگردانده نشد؛ ${parts}`,
    auditPartlyPutBack: (ref, parts) => `${ref} فقط تا حدی برگردانده شد؛ ${parts}`,
    auditWindowExtended: (ref, by, at) =>
      `${ref} اکنون ${at === '' ? 'دیرتر' : `در ${at}`} برمی‌گردد: ${by} آن را تمدید کرد`,
    auditWindowRecorded: (ref, items) =>
      `${ref} آنچه را جایگزین می‌کند درست پیش از فرستادن خواند و ثبت کرد: در پایان ${items} را برمی‌گرداند`,
    auditWindowOverridden: (ref, by, items) =>
      `${ref} هنگام برگشتن به ${items} دست نمی‌زند: ${by} آن را برای همیشه تغییر داد`,
    auditPutBackRetrying: (ref, error, at) =>
      `برگرداندن ${ref} ناموفق بود${error}؛ ${at === '' ? '' : `در ${at} `}دوباره تلاش می‌شود`,
    auditPutBackReminded: (ref, at) =>
      `${ref} ${at === '' ? 'به‌زودی' : `در ${at}`} برمی‌گردد: به درخواست‌دهنده‌اش یادآوری شد`,
    auditPutBackEscalated: (ref) =>
      `برگرداندن ${ref} یک ساعت است که ناموفق مانده است؛ به سرپرستان خبر داده شد`,

    auditForLead: (person) => ` به‌جای ${person} (با تفویض)`,
    auditBreakGlass: (who, ref, ask, reason, by) =>
      `${FA_BREAK_GLASS}: ${who} ${ref} را بی‌آنکه منتظر تأیید بماند اجرا کرد: ${ask}؛ دلیل: ${reason}؛ یک سرپرست${by} آن را بازبینی می‌کند`,
    auditNone: 'ذکر نشده',
    auditReviewBy: (date) => ` تا ${date}`,
    auditBreakGlassReviewed: (who, flagged, ref, note) =>
      `🚨 بازبینی اجرای اضطراری (${iso('BREAK-GLASS')}): ${who} ${ref} را ${flagged ? 'بررسی کرد و مشکل‌دار علامت زد' : 'بررسی کرد و پذیرفت'}${note}`,
    auditBreakGlassOverdue: (ref) =>
      `${FA_BREAK_GLASS}: هنوز هیچ سرپرستی ${ref} را بازبینی نکرده است؛ به سرپرستان یادآوری شد`,
    auditBreakGlassStarted: (ref, ask) => `${FA_BREAK_GLASS}: اجرای ${ref} بدون تأییدهایش آغاز شد: ${ask}`,
    auditDelegated: (who, delegate, until, reason) =>
      `${who} تأییدهایش را تا ${until} به ${delegate} تفویض کرد${reason}`,
    auditDelegationReason: (reason) => `؛ دلیل: ${reason}`,
    auditDelegationCancelled: (who, delegate, until) =>
      `${who} تفویض تأییدهایش به ${delegate} را لغو کرد (قرار بود تا ${until} بماند)`,
    auditDelegationExpired: (lead, delegate, until) =>
      `تفویض تأییدهای ${lead} به ${delegate} در ${until} به پایان رسید`,

    auditApproved: (who, forLead, ref, count) => `${who}${forLead} ${ref} را تأیید کرد${count}`,
    auditOfQuorum: (count, quorum) => ` (${count} از ${quorum})`,
    auditRejected: (who, ref, note) => `${who} ${ref} را رد کرد${note}`,
    auditCancelled: (who, ref, note) => `${who} ${ref} را لغو کرد${note}`,
    auditExpired: (ref, had) => `${ref}${had} منقضی شد؛ چیزی تغییر نکرد`,
    auditExpiredHad: (count, quorum) => ` با ${count} از ${quorum} تأیید`,
    auditStarted: (ref, resumed, ask) =>
      `اجرای ${ref} ${resumed ? 'پس از راه‌اندازی دوباره از سر گرفته شد' : 'آغاز شد'}: ${ask}`,
    auditFailed: (ask, error) => `${ask} انجام نشد: ${error}`,
    auditNoError: 'خطایی ثبت نشده است',
    auditDenied: (who, reason, action) => `${who} اجازه نداشت: ${reason} (تلاش برای ${action})`,
    auditNotAllowed: 'مجاز نیست',
    auditUnknown: (ask) =>
      `نتیجه نامعلوم: معلوم نیست ${ask} انجام شده است یا نه؛ پیش از درخواست دوباره، وضعیت را در سرویس بررسی کنید`,
    auditOther: (type, who, ask) => `${type} از ${who}: ${ask}`,
    auditStepDone: (nth, request, viewer) => `شماره‌ی ${nth} از ${request}: مسدودی ${viewer} برداشته شد`,
    auditStepFailed: (nth, request, viewer) => `شماره‌ی ${nth} از ${request}: رفع مسدودی ${viewer} انجام نشد`,
    auditStepUnknown: (nth, request, viewer) =>
      `شماره‌ی ${nth} از ${request}: معلوم نیست مسدودی ${viewer} برداشته شد یا نه؛ دوباره فرستاده نمی‌شود`,
    auditError: (error) => `؛ خطا: ${error}`,

    auditLine: (emoji, seq, time, said, hash) =>
      `${emoji} ${iso(`*#${seq}*`)} ${time} · ${said} · هش ${iso(`\`${hash}\``)}`,
    auditTextLine: (seq, said, hash) => `${iso(`#${seq}`)} ${said} · هش ${iso(hash)}`,
    auditNoEvents: 'ممیزی vidops: رویدادی نیست',
    auditEvents: (_count, shown) => `${shown} رویداد`,
    auditPostHeader: (range, count) => `:scroll: *ممیزی vidops* · ${range} · ${count}`,
    auditPostText: (range, count) => `ممیزی vidops ${range} (${count})`,
    auditAndMore: (shown) => `\n… و ${shown} رویداد دیگر`,
    auditSummaryLine: (seq, count, range, hash) =>
      `:package: ${iso(`*#${seq}*`)} · ${count} ${iso(range)}، همه در ${iso('`vidops audit tail`')} · هش ${iso(`\`${hash}\``)}`,
    auditSummaryTextLine: (seq, count, range, hash) =>
      `${iso(`#${seq}`)} ${count} ${iso(range)}، همه در vidops audit tail · هش ${iso(hash)}`,
    auditSummaryHead: (seq, head) =>
      `هشِ زنجیره در ${iso(`#${seq}`)} که همه‌ی رویدادهای پیش از آن را تضمین می‌کند: ${iso(`\`${head}\``)}`,
    auditCheckpointText: (covers, head) => `نقطه‌ی بازبینی ممیزی vidops: ${covers}، سرِ زنجیره ${iso(head)}`,
    auditCheckpointHeader: (covers, head) =>
      `:lock: *نقطه‌ی بازبینی ممیزی vidops* · شامل ${covers} · سرِ زنجیره ${iso(`\`${head}\``)}`,
  },
);
