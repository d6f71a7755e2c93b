import type { FontColor } from '../../core/protection.js';
import type { ProtectionFieldName, ProtectionGroup } from '../../core/validate/protection.js';
import { defineArea } from '../define.js';
import { FSI, PDI } from '../format.js';

/**
 * The change modals (folder, file and playlist forms, protection settings, whitelist, the typed
 * confirmation of a delete, reject and mark-applied notes), their inline errors, and what the
 * handlers that open and answer them say. Tokens a person copies (IDs, typed words, code spans)
 * arrive already isolated by the view; the Persian side isolates only its own fixed Latin tokens.
 * @see docs/architecture.md, "Languages"
 */

/** A fixed left-to-right token inside Persian text. */
const iso = (token: string): string => `${FSI}${token}${PDI}`;

const FA_COLOURS: Readonly<Record<FontColor, string>> = {
  '#ffff00': 'زرد',
  '#dda0dd': 'آلویی',
  '#800000': 'زرشکی',
  '#4b0082': 'نیلی',
  '#ffa500': 'نارنجی',
  '#27ae60': 'سبز',
  '#16a085': 'سبزآبی',
  '#af7ac5': 'اسطوخودوسی',
  '#e74c3c': 'قرمز',
  '#66a310': 'زیتونی',
};

const FA_GROUPS: Readonly<Record<ProtectionGroup, string>> = {
  watermark: 'متن واترمارک',
  beep: 'بیپ',
  link: 'لینک‌ها',
  player: 'پلیر',
  session: 'نشست‌ها',
  playlist: 'پلی‌لیست‌ها',
  security: 'امنیت',
};

const FA_FIELDS: Readonly<Record<ProtectionFieldName, { label: string; help: string }>> = {
  displayTextOnScreen: {
    label: 'متن متحرک روی صفحه',
    help: 'متن متحرک (واترمارک) را روی ویدیو نشان می‌دهد.',
  },
  fixWatermark: { label: 'واترمارک ثابت', help: 'متنی ثابت روی صفحه اضافه می‌کند.' },
  speed: { label: 'سرعت متن', help: 'سرعت متن متحرک؛ سرویس واحد آن را مشخص نکرده است.' },
  fontColor: {
    label: 'رنگ متن',
    help: `یکی از این‌ها: ${Object.entries(FA_COLOURS)
      .map(([hex, name]) => `${name} (${iso(hex)})`)
      .join('، ')}.`,
  },
  fontSize: { label: 'اندازه‌ی متن', help: 'اندازه‌ی قلم متن متحرک.' },
  opacity: { label: 'میزان کدری متن', help: 'از ۰ (نامرئی) تا ۱ (کاملاً کدر).' },
  enableBeep: { label: 'لایه‌ی بیپ', help: 'یک لایه‌ی حفاظت صوتی (بیپ) به پخش اضافه می‌کند.' },
  beepVolume: {
    label: 'بلندی بیپ',
    help: 'از ۰ تا ۱؛ طبق مستندات سرویس، ۰٫۱ کمترین بلندی مؤثر است.',
  },
  beepInterval: {
    label: 'فاصله‌ی بیپ‌ها',
    help: 'فاصله‌ی زمانی میان بیپ‌ها؛ طبق مستندات سرویس، کمترین مقدار ۱ است.',
  },
  'link.expireTime': {
    label: 'انقضای لینک',
    help: `یک عدد و یک واحد: ${iso('s')}، ${iso('m')} (دقیقه)، ${iso('h')}، ${iso('d')}، ${iso('w')}، ${iso('M')} (ماه)، ${iso('y')}؛ مثلاً ${iso('2h')}، ${iso('1d')} یا ${iso('1M')}.`,
  },
  'link.accessWithMultiIp': {
    label: 'جلوگیری از اشتراک لینک بین IPها',
    help: 'از اشتراک‌گذاری لینک بر اساس IP بیننده جلوگیری می‌کند.',
  },
  regenerateLink: { label: 'ساخت دوباره‌ی لینک منقضی', help: 'لینک منقضی‌شده را دوباره می‌سازد.' },
  'player.themeColor': { label: 'رنگ پوسته‌ی پلیر', help: `رنگ پوسته‌ی پلیر، مثلاً ${iso('#1e88e5')}.` },
  'player.offlineMode': {
    label: 'جلوگیری از حالت آفلاین',
    help: 'از نمایش ویدیو در حالت آفلاین جلوگیری می‌کند.',
  },
  'player.securityProtection': {
    label: 'حفاظت امنیتی ۳۶۰ درجه',
    help: 'سامانه‌ی حفاظت امنیتی ۳۶۰ درجه‌ی پلیر.',
  },
  preventZoom: {
    label: 'جلوگیری از بزرگ‌نمایی صفحه',
    help: `جلوی زوم صفحه را می‌گیرد (با زوم غیر از ۱۰۰٪، بیننده خطای ${iso('1466')} می‌بیند).`,
  },
  enableActiveSession: {
    label: 'فقط یک نشست برای هر بیننده',
    help: 'هر بیننده فقط یک نشست هم‌زمان دارد تا لینک‌ها قابل اشتراک نباشند.',
  },
  faultTolerance: {
    label: 'تحمل خطا',
    help: 'بیننده پیش از مسدود شدن چند خطای پلیر می‌تواند داشته باشد؛ سرویس ۶ یا بیشتر را پیشنهاد می‌کند.',
  },
  enablePlaylist: { label: 'استفاده از پلی‌لیست', help: 'اگر پلی‌لیستی باشد، از آن استفاده می‌شود.' },
  relatedPlaylist: {
    label: 'یک فایل قابل دانلود در پلی‌لیست',
    help: 'فقط یک فایل قابل دانلود در پلی‌لیست.',
  },
  ipValidation: {
    label: 'اجبار لیست سفید IP',
    help: 'وقتی روشن است، فقط سرورهایی که IPشان در لیست سفید است لینک می‌سازند.',
  },
  sendProtectionAlert: {
    label: 'پیامک هشدار به بینندگان پرخطر',
    help: 'برای بینندگان پرخطر پیامک هشدار می‌فرستد.',
  },
};

function faField(field: string): { label: string; help: string } | undefined {
  return (FA_FIELDS as Readonly<Record<string, { label: string; help: string }>>)[field];
}

export const changes = defineArea(
  {
    // The frame every change modal shares
    formCancel: 'Cancel',
    formClose: 'Close',
    formAskApproval: 'Ask for approval',
    formReasonLabel: 'Reason',
    formReasonPlaceholder: 'Why is this change needed? Ticket number, customer, …',
    formReasonHint: 'Shown to the lead who decides, and kept in the audit log.',
    formLoading: 'Reading the current values…',
    formShapeUnknown: 'The form came back in a shape vidops does not understand.',
    formReasonMissing: 'Give a reason: the lead who decides reads it.',
    formReasonTooLong: (max: string) => `Keep the reason under ${max} characters.`,
    formTooLarge: 'This is too large to carry through a Slack form.',
    formContextLost: 'The form lost its context; open it again.',
    formRequesterReads: 'The requester reads this, and it is kept in the audit log.',
    formNoteTooLong: (max: string) => `Keep it under ${max} characters.`,

    // Folder, file and playlist forms
    resourceFolder: 'folder',
    resourceFile: 'file',
    resourcePlaylist: 'playlist',
    resourceUnknownNote: (kind: string, note: string) =>
      `The current values of this ${kind} could not be read: ${note} Fill in what it should become.`,
    formTitleLabel: 'Title',
    formDescriptionLabel: 'Description',
    folderCreateTitle: 'Create folder',
    folderEditTitle: 'Edit folder',
    fileEditTitle: 'Edit file',
    playlistCreateTitle: 'Create playlist',
    playlistEditTitle: 'Edit playlist',
    folderHeading: (id: string, title: string | null) => `Folder ${id}${title === null ? '' : ` “${title}”`}`,
    fileHeading: (id: string, title: string | null, status: string | null) =>
      `File ${id}${title === null ? '' : ` “${title}”`}${status === null ? '' : ` · conversion ${status}`}`,
    playlistHeading: (id: string, title: string | null, files: number | null, filesShown: string) =>
      `Playlist ${id}${title === null ? '' : ` “${title}”`}${files === null ? '' : ` · ${filesShown} file${files === 1 ? '' : 's'}`}`,
    coverLabel: 'New cover image',
    coverHint: 'Optional. PNG, JPEG, GIF or WebP. It is uploaded to the service only after a lead approves.',
    playlistTitleHint: 'Leave it empty to keep the title.',
    playlistFilesLabel: 'Files, in order',
    playlistFilesPlaceholder: '6710b0000000000000000201 | Lecture 1',
    playlistFilesHint:
      'One file per line: the file ID, optionally followed by | and the title to show. The list replaces the playlist’s files in this order; leave it empty to keep them.',
    titleMissing: 'Give a title.',
    titleTooLong: (max: string) => `Keep the title under ${max} characters.`,
    descriptionTooLong: (max: string) => `Keep the description to ${max} characters or fewer.`,
    coverOnlyOne: 'Upload one image only.',
    coverNotImage: 'The cover must be an image (PNG, JPEG, GIF or WebP).',
    coverNotShared: 'Slack did not share this image with vidops; upload it again.',
    playlistLineProblem: (line: string, problem: string) => `line ${line}: ${problem}`,
    playlistLineTwice: (line: string, id: string) => `line ${line}: file ${id} is listed twice`,
    playlistTooMany: (count: string, max: string) => `${count} files is more than the ${max} this form takes`,
    playlistProblemSeparator: '; ',
    playlistNeedsSomething: 'Give a new title, the list of files, or both.',
    createFormFolderOnly: 'This form creates a folder.',

    // Protection settings
    protectFormTitle: 'Protection settings',
    protectFormIntro:
      'Change what you need; only the settings you change are sent, after a lead approves. Colours are shown by name.',
    protectFormOn: 'On',
    protectFormPickColour: 'Pick a colour',
    protectFormDurationPlaceholder: 'e.g. 2h',
    protectFormKeepHint: (help: string) => `${help} Leave it empty to keep the current value.`,
    protectFormAtLeast: (min: string) => `${min} or more.`,
    protectFormFromTo: (min: string, max: string) => `From ${min} to ${max}.`,
    protectFormNotNumber: (text: string) => `"${text}" is not a number.`,
    protectFormMustAtLeast: (min: string) => `Must be ${min} or more.`,
    protectFormMustBetween: (min: string, max: string) => `Must be between ${min} and ${max}.`,
    protectFormPickOneColour: 'Pick one of the ten colours.',
    protectFormNotDuration: (text: string) =>
      `"${text}" is not a duration: a number and a unit (s m h d w M y), e.g. 2h, 1d, 1M.`,
    protectFormNothingChanged: 'You have not changed any setting: change one, or close the form.',
    protectFormFieldLabel: (_field: string, english: string) => english,
    protectFormFieldHelp: (_field: string, english: string) => english,
    protectFormGroupTitle: (_group: ProtectionGroup, english: string) => english,
    protectFormColourName: (_hex: FontColor, english: string) => english,

    // Whitelist
    whitelistFormUnread: '_The current whitelist could not be read; it is read again on submit._',
    whitelistFormEmpty: '*Current whitelist:* _empty_',
    whitelistFormCurrent: (count: string) => `*Current whitelist* (${count}):`,
    whitelistFormMore: (count: string) => `_… and ${count} more_`,
    whitelistFormAddTitle: 'Add to whitelist',
    whitelistFormRemoveTitle: 'Remove from whitelist',
    whitelistFormAddLabel: 'IP addresses to add',
    whitelistFormRemoveLabel: 'IP addresses to remove',
    whitelistFormRemovePlaceholder: 'One of the addresses above',
    whitelistFormHint:
      'IPv4 or IPv6 addresses of your servers, one per line or separated by commas. No host names, ranges or ports. A lead approves the change before it is made.',

    // The typed confirmation of a delete
    deleteFolderTitle: 'Delete folder',
    deleteFileTitle: 'Delete file',
    deletePlaylistTitle: 'Delete playlist',
    deleteFormIdOnly: 'Only the ID is known: the service did not show its title or contents. Check the ID.',
    deleteFormIrreversible:
      '*This cannot be undone.* A lead approves before anything is deleted; you will get a message when it is done.',
    deleteFormConfirmLabel: 'Type the ID to confirm',
    deleteFormConfirmHintTitle: (confirm: string, title: string) =>
      `Type ${confirm}, or the exact title “${title}”, to confirm.`,
    deleteFormTypeToConfirm: (confirm: string) => `Type ${confirm} to confirm.`,
    deleteFormSubmit: 'Ask to delete',
    deleteFormMismatch: (typed: string, confirm: string, orTitle: boolean) =>
      `“${typed}” does not match. Type ${confirm}${orTitle ? ' or the exact title' : ''} to confirm.`,

    // Reject and mark applied / not applied
    rejectFormTitle: (id: string) => `Reject ${id}`,
    rejectFormSubmit: 'Reject',
    rejectFormReasonGiven: (reason: string) => `*Reason given:* ${reason}`,
    rejectFormLabel: 'Why do you reject it?',
    rejectFormSayWhy: 'Say why: the requester reads it.',
    rejectFormResultTitle: 'Reject request',
    rejectFormRejecting: 'Rejecting…',
    rejectFormDone: (id: string) =>
      `You rejected ${id}. The requester is told, with your reason; nothing was changed.`,
    rejectFormNowState: (id: string, state: string, _label: string) => `Request ${id} is now ${state}.`,
    resolveFormApplied: 'Mark applied',
    resolveFormNotApplied: 'Mark not applied',
    resolveFormAppliedLabel: 'What on the service shows it was applied?',
    resolveFormNotAppliedLabel: 'What on the service shows it was not applied?',
    resolveFormSayWhat: 'Say what you found: it is kept in the audit log.',

    // The handlers
    changesFormNotOpened: 'Slack did not open the form; try the command again.',
    changesPosting: 'Posting your request…',
    changesWhitelistTitle: 'Whitelist',
    changesDeleteTitle: 'Delete',
    changesAuditAskLead: (command: string, exportCommand: string) =>
      `Ask a lead to run ${command}; compliance can export the whole log with ${exportCommand}.`,

    // "Put back after" (docs/time-boxed.md): the protection, whitelist and Extend… modals
    boxLabel: 'Put back after',
    boxTypedLabel: 'Or type how long, or the end',
    boxTypedPlaceholder: 'e.g. 90m, 2h, 3d',
    boxTypedHint: (max: string) =>
      `A duration (90m, 2h, 3d) or an end (2025-03-01 18:00, 1404/12/10 18:00), Persian digits too; at most ${max}. Typed here, it replaces the choice above.`,
    boxTypedMissing: 'Type how long, or the end; or pick another choice above.',
    boxChoiceRequired: (max: string) => `This change must be time-boxed: pick how long, at most ${max}.`,
    /** A "Put back after" value the form never offered (a forged or stale submission). */
    boxChoiceUnknown: 'That is not one of the choices of this form: pick one again.',
    boxChoiceTooLong: (max: string) => `At most ${max}.`,
    boxExtendIntro: (ref: string, date: string) =>
      `${ref} goes back at ${date}. Pick its new end: a new request sets the same again for that long from when it is applied, and is approved as the change was.`,
    boxRevertIntro: (ref: string) =>
      `This asks for the inverse of ${ref}, shown below, as a new request approved like any change. Only what is still as ${ref} left it changes.`,
    boxRevertSubmit: 'Ask to revert',
  },
  {
    formCancel: 'انصراف',
    formClose: 'بستن',
    formAskApproval: 'درخواست تأیید',
    formReasonLabel: 'دلیل',
    formReasonPlaceholder: 'چرا این تغییر لازم است؟ شماره‌ی تیکت، مشتری، …',
    formReasonHint: 'سرپرستی که تصمیم می‌گیرد آن را می‌خواند، و در لاگ ممیزی ثبت می‌شود.',
    formLoading: 'در حال خواندن مقدارهای فعلی…',
    formShapeUnknown: 'فرم به شکلی برگشت که vidops آن را نمی‌شناسد.',
    formReasonMissing: 'دلیل را بنویسید؛ سرپرستی که تصمیم می‌گیرد آن را می‌خواند.',
    formReasonTooLong: (max) => `دلیل باید کمتر از ${max} کاراکتر باشد.`,
    formTooLarge: 'این برای فرم Slack بیش از حد بزرگ است.',
    formContextLost: 'اطلاعات این فرم از دست رفته است؛ دوباره بازش کنید.',
    formRequesterReads: 'درخواست‌دهنده این را می‌خواند، و در لاگ ممیزی ثبت می‌شود.',
    formNoteTooLong: (max) => `باید کمتر از ${max} کاراکتر باشد.`,

    resourceFolder: 'پوشه',
    resourceFile: 'فایل',
    resourcePlaylist: 'پلی‌لیست',
    resourceUnknownNote: (kind, note) =>
      `مقدارهای فعلی این ${kind} خوانده نشد: ${note} مقدار تازه را خودتان وارد کنید.`,
    formTitleLabel: 'عنوان',
    formDescriptionLabel: 'توضیحات',
    folderCreateTitle: 'ساخت پوشه',
    folderEditTitle: 'ویرایش پوشه',
    fileEditTitle: 'ویرایش فایل',
    playlistCreateTitle: 'ساخت پلی‌لیست',
    playlistEditTitle: 'ویرایش پلی‌لیست',
    folderHeading: (id, title) => `پوشه‌ی ${id}${title === null ? '' : ` «${title}»`}`,
    fileHeading: (id, title, status) =>
      `فایل ${id}${title === null ? '' : ` «${title}»`}${status === null ? '' : ` · وضعیت تبدیل: ${status}`}`,
    playlistHeading: (id, title, files, filesShown) =>
      `پلی‌لیست ${id}${title === null ? '' : ` «${title}»`}${files === null ? '' : ` · ${filesShown} فایل`}`,
    coverLabel: 'تصویر کاور جدید',
    coverHint: 'اختیاری. PNG، JPEG، GIF یا WebP. تصویر فقط پس از تأیید سرپرست در سرویس بارگذاری می‌شود.',
    playlistTitleHint: 'برای نگه داشتن عنوان فعلی، خالی بگذارید.',
    playlistFilesLabel: 'فایل‌ها، به ترتیب',
    playlistFilesPlaceholder: '6710b0000000000000000201 | جلسه‌ی ۱',
    playlistFilesHint:
      'در هر خط یک فایل: شناسه‌ی فایل، و اگر خواستید بعد از | عنوانی که نمایش داده شود. این فهرست به همین ترتیب جای فایل‌های پلی‌لیست را می‌گیرد؛ برای نگه داشتن فایل‌های فعلی، خالی بگذارید.',
    titleMissing: 'عنوان را بنویسید.',
    titleTooLong: (max) => `عنوان باید کمتر از ${max} کاراکتر باشد.`,
    descriptionTooLong: (max) => `توضیحات باید حداکثر ${max} کاراکتر باشد.`,
    coverOnlyOne: 'فقط یک تصویر بارگذاری کنید.',
    coverNotImage: 'کاور باید تصویر باشد (PNG، JPEG، GIF یا WebP).',
    coverNotShared: 'Slack این تصویر را در اختیار vidops نگذاشت؛ دوباره بارگذاری‌اش کنید.',
    playlistLineProblem: (line, problem) => `خط ${line}: ${problem}`,
    playlistLineTwice: (line, id) => `خط ${line}: فایل ${id} دو بار آمده است`,
    playlistTooMany: (count, max) => `${count} فایل بیش از ${max} فایلی است که این فرم می‌پذیرد`,
    playlistProblemSeparator: '؛ ',
    playlistNeedsSomething: 'عنوان تازه، فهرست فایل‌ها یا هر دو را وارد کنید.',
    createFormFolderOnly: 'این فرم برای ساخت پوشه است.',

    protectFormTitle: 'تنظیمات حفاظت',
    protectFormIntro:
      'هر چه لازم است تغییر دهید؛ فقط تنظیماتی که تغییر می‌دهید، پس از تأیید سرپرست فرستاده می‌شود. رنگ‌ها با نامشان آمده‌اند.',
    protectFormOn: 'روشن',
    protectFormPickColour: 'یک رنگ انتخاب کنید',
    protectFormDurationPlaceholder: `مثلاً ${iso('2h')}`,
    protectFormKeepHint: (help) => `${help} برای نگه داشتن مقدار فعلی، خالی بگذارید.`,
    protectFormAtLeast: (min) => `${min} یا بیشتر.`,
    protectFormFromTo: (min, max) => `از ${min} تا ${max}.`,
    protectFormNotNumber: (text) => `«${text}» عدد نیست.`,
    protectFormMustAtLeast: (min) => `باید ${min} یا بیشتر باشد.`,
    protectFormMustBetween: (min, max) => `باید بین ${min} و ${max} باشد.`,
    protectFormPickOneColour: 'یکی از ده رنگ را انتخاب کنید.',
    protectFormNotDuration: (text) =>
      `«${text}» مدت زمان نیست: یک عدد و یک واحد (${iso('s m h d w M y')})، مثلاً ${iso('2h')}، ${iso('1d')} یا ${iso('1M')}.`,
    protectFormNothingChanged: 'هیچ تنظیمی را تغییر نداده‌اید؛ یکی را تغییر دهید یا فرم را ببندید.',
    protectFormFieldLabel: (field, english) => faField(field)?.label ?? english,
    protectFormFieldHelp: (field, english) => faField(field)?.help ?? english,
    protectFormGroupTitle: (group, english) => FA_GROUPS[group] ?? english,
    protectFormColourName: (hex, english) => FA_COLOURS[hex] ?? english,

    whitelistFormUnread: '_لیست سفید فعلی خوانده نشد؛ هنگام ارسال دوباره خوانده می‌شود._',
    whitelistFormEmpty: '*لیست سفید فعلی:* _خالی_',
    whitelistFormCurrent: (count) => `*لیست سفید فعلی* (${count}):`,
    whitelistFormMore: (count) => `_… و ${count} آدرس دیگر_`,
    whitelistFormAddTitle: 'افزودن به لیست سفید',
    whitelistFormRemoveTitle: 'حذف از لیست سفید',
    whitelistFormAddLabel: 'آدرس‌های IP برای افزودن',
    whitelistFormRemoveLabel: 'آدرس‌های IP برای حذف',
    whitelistFormRemovePlaceholder: 'یکی از آدرس‌های بالا',
    whitelistFormHint:
      'آدرس‌های IPv4 یا IPv6 سرورهایتان، هر آدرس در یک خط. نام میزبان، بازه یا پورت پذیرفته نمی‌شود. پیش از اعمال تغییر، سرپرست آن را تأیید می‌کند.',

    deleteFolderTitle: 'حذف پوشه',
    deleteFileTitle: 'حذف فایل',
    deletePlaylistTitle: 'حذف پلی‌لیست',
    deleteFormIdOnly: 'فقط شناسه معلوم است: سرویس عنوان یا محتوای آن را نشان نداد. شناسه را بررسی کنید.',
    deleteFormIrreversible:
      '*این کار برگشت‌پذیر نیست.* پیش از هر حذفی سرپرست آن را تأیید می‌کند؛ وقتی انجام شد، پیامی دریافت می‌کنید.',
    deleteFormConfirmLabel: 'برای تأیید، شناسه را تایپ کنید',
    deleteFormConfirmHintTitle: (confirm, title) =>
      `برای تأیید، ${confirm} یا عنوان دقیق «${title}» را تایپ کنید.`,
    deleteFormTypeToConfirm: (confirm) => `برای تأیید، ${confirm} را تایپ کنید.`,
    deleteFormSubmit: 'درخواست حذف',
    deleteFormMismatch: (typed, confirm, orTitle) =>
      `«${typed}» مطابقت ندارد. برای تأیید، ${confirm}${orTitle ? ' یا عنوان دقیق' : ''} را تایپ کنید.`,

    rejectFormTitle: (id) => `رد درخواست ${id}`,
    rejectFormSubmit: 'رد کردن',
    rejectFormReasonGiven: (reason) => `*دلیل درخواست:* ${reason}`,
    rejectFormLabel: 'چرا آن را رد می‌کنید؟',
    rejectFormSayWhy: 'دلیل را بنویسید؛ درخواست‌دهنده آن را می‌خواند.',
    rejectFormResultTitle: 'رد درخواست',
    rejectFormRejecting: 'در حال رد درخواست…',
    rejectFormDone: (id) =>
      `درخواست ${id} را رد کردید. درخواست‌دهنده همراه با دلیل شما باخبر می‌شود؛ هیچ چیزی تغییر نکرد.`,
    rejectFormNowState: (id, _state, label) => `درخواست ${id} اکنون در وضعیت «${label}» است.`,
    resolveFormApplied: 'ثبت: اعمال شد',
    resolveFormNotApplied: 'ثبت: اعمال نشد',
    resolveFormAppliedLabel: 'چه چیزی در سرویس نشان می‌دهد که اعمال شده است؟',
    resolveFormNotAppliedLabel: 'چه چیزی در سرویس نشان می‌دهد که اعمال نشده است؟',
    resolveFormSayWhat: 'بنویسید چه دیدید؛ در لاگ ممیزی ثبت می‌شود.',

    changesFormNotOpened: 'Slack فرم را باز نکرد؛ فرمان را دوباره اجرا کنید.',
    changesPosting: 'در حال ثبت درخواست شما…',
    changesWhitelistTitle: 'لیست سفید',
    changesDeleteTitle: 'حذف',
    changesAuditAskLead: (command, exportCommand) =>
      `از یک سرپرست بخواهید ${command} را اجرا کند؛ تیم انطباق می‌تواند کل لاگ را با ${exportCommand} خروجی بگیرد.`,

    boxLabel: 'برگرداندن پس از',
    boxTypedLabel: 'یا مدت یا زمان پایان را بنویسید',
    boxTypedPlaceholder: 'مثلاً 90m یا 2h',
    boxTypedHint: (max) =>
      `یک مدت (${iso('90m')}، ${iso('2h')}، ${iso('3d')}) یا یک زمان پایان (${iso('1404/12/10 18:00')})، با رقم فارسی هم؛ حداکثر ${max}. اگر اینجا بنویسید، به‌جای گزینه‌ی بالا به کار می‌رود.`,
    boxTypedMissing: 'مدت یا زمان پایان را بنویسید، یا گزینه‌ی دیگری را بالا انتخاب کنید.',
    boxChoiceRequired: (max) => `این تغییر باید موقت باشد: مدتش را انتخاب کنید، حداکثر ${max}.`,
    boxChoiceUnknown: 'این یکی از گزینه‌های این فرم نیست: دوباره یکی را انتخاب کنید.',
    boxChoiceTooLong: (max) => `حداکثر ${max}.`,
    boxExtendIntro: (ref, date) =>
      `${ref} در ${date} برگردانده می‌شود. پایان تازه‌اش را انتخاب کنید: درخواستی تازه همان مقدارها را از زمان اعمال برای همین مدت دوباره می‌گذارد و مانند خود تغییر تأیید می‌شود.`,
    boxRevertIntro: (ref) =>
      `این کار عکسِ ${ref} را، که در پایین آمده، در قالب درخواستی تازه می‌خواهد که مانند هر تغییری تأیید می‌شود. فقط آنچه هنوز همان‌طور است که ${ref} گذاشته بود تغییر می‌کند.`,
    boxRevertSubmit: 'درخواست برگرداندن',
  },
);
