import { type ChangeOperation, isChangeOperation, OPERATION_SPECS, type Target } from '../../core/catalog.js';
import type { ResourceKind } from '../../core/validate/ids.js';
import { defineArea } from '../define.js';

/**
 * What the `vidops` command line prints around its data: help and usage, previews, results,
 * refusals. IDs, commands and flags stay Latin (wrapped in isolates by the caller in Persian);
 * numbers and dates arrive formatted for the language.
 * @see docs/architecture.md, "Languages"
 */

/** The parts of one line of `vidops requests`, formatted. */
interface RequestLineParts {
  id: string;
  title: string;
  target: string;
  who: string;
  at: string;
  state: string;
  stateText: string;
  reason: string | null;
}

const FA_RESOURCES: Readonly<Record<string, string>> = {
  folder: 'پوشه',
  file: 'فایل',
  playlist: 'پلی‌لیست',
  viewer: 'بیننده‌ی',
};

const FA_NEW: Readonly<Record<ResourceKind, string>> = {
  folder: 'پوشه‌ی تازه‌ی',
  file: 'فایل تازه‌ی',
  playlist: 'پلی‌لیست تازه‌ی',
};

/** A request's target (`{ kind: 'folder', id }`, a new playlist, the whitelist) in Persian, its ID isolated. */
export function targetFa(target: Target): string {
  switch (target.kind) {
    case 'new':
      return `${FA_NEW[target.resource]} "${target.title}"`;
    case 'whitelist':
      return 'لیست سفید IP';
    case 'protection':
      return 'تنظیمات محافظت';
    case 'stored':
      return `\u2068${target.text}\u2069`;
    default:
      return `${FA_RESOURCES[target.kind]} \u2068${target.id}\u2069`;
  }
}

/**
 * The Persian summaries of the command line's own commands, and of the catalog's whose command
 * line summary says more than Slack's (the others read their spec's Persian).
 */
const FA_SUMMARIES: Readonly<Record<string, string>> = {
  help: 'نمایش دستورها، یا جزئیات یکی از آن‌ها.',
  viewer: 'رفع مسدودی‌های یک بیننده از گزارش ممیزی، با شماره‌ی کامل.',
  whitelist: 'نمایش لیست سفید IP.',
  'whitelist add':
    'افزودن IP سرورها به لیست سفید، یا فقط برای مدتی: \u2068--for 30m\u2069 (با تأیید سرپرست).',
  'whitelist remove':
    'برداشتن IP سرورها از لیست سفید، یا فقط برای مدتی: \u2068--for 2h\u2069 (با تأیید سرپرست).',
  'protect set':
    'تغییر تنظیمات حفاظت؛ تنظیم‌های تودرتو با نام نقطه‌دار؛ با \u2068--for 2h\u2069 برمی‌گردند (با تأیید سرپرست).',
  requests:
    'درخواست‌های باز و اخیر شما، و آن‌هایی که منتظر تأیید شما هستند؛ \u2068--all\u2069 تازه‌ترین‌های همه را فهرست می‌کند.',
  approve: 'تأیید یک درخواست؛ وقتی شمار تأییدها کامل شود اجرا می‌شود.',
  reject: 'رد یک درخواست، با گفتن دلیل.',
  cancel: 'لغو درخواستی که خودتان داده‌اید.',
  revert: 'برگرداندن تغییری انجام‌شده: درخواست عکس آن.',
  'put-back': 'برگرداندن همین حالای تغییری زمان‌دار، پیش از پایانش.',
  extend: 'درخواست بازه‌ی تازه برای تغییری زمان‌دار که برقرار است.',
  resolve: 'روشن کردن درخواستی که نتیجه‌اش نامعلوم است (شاید انجام شده باشد، شاید نه).',
  'audit verify':
    'زنجیره‌ی ممیزی را دوباره حساب می‌کند و نقطه‌های بازبینی امضاشده را می‌سنجد؛ نخستین رویداد شکسته را نام می‌برد.',
  'audit checkpoint':
    'همین حالا نقطه‌ی بازبینی گزارش ممیزی را امضا می‌کند (ربات آن را در کانال ممیزی می‌گذارد).',
  'audit checkpoints':
    'نقطه‌های بازبینی امضاشده‌ی پایگاه داده را برای درستی‌سنجی بیرون از خط می‌نویسد (پیش‌فرض: خروجی استاندارد).',
  'audit keygen': 'جفت‌کلید تازه‌ای برای امضای نقطه‌های بازبینی ممیزی می‌سازد.',
  'audit witness':
    'تاریخچه‌ی کانال ممیزی را با پایگاه داده می‌سنجد: خط‌ها و نقطه‌های بازبینی جاافتاده، بیگانه و ناهمسان.',
  'audit export': 'گزارش ممیزی را برای انطباق می‌نویسد (پیش‌فرض: خروجی استاندارد).',
  'audit tail': 'آخرین رویدادهای ممیزی (پیش‌فرض ۱۰ تا)، با شماره‌های پوشیده.',
  doctor: 'پیکربندی، پایگاه داده، Slack، کلیدها، سرویس ویدیو، ساعت و سیاست را بررسی می‌کند.',
  backup: 'از پایگاه داده‌ی SQLite در حالی که ربات کار می‌کند نسخه می‌گیرد، درستی‌سنجی‌شده.',
};

export const cli = defineArea(
  {
    cliOperationTitle: (_operation: ChangeOperation, english: string) => english,
    cliResource: (resource: string) => resource,
    /** A request's target: in English the text stored with it, byte for byte. */
    cliTarget: (_target: Target, stored: string) => stored,
    // Help and usage
    cliHelpIntro:
      'vidops: the command line of vidops, with the same checks, policy and audit log as /vidops in Slack.',
    cliHelpUsage: 'Usage: vidops <command> [words] [flags]',
    cliHelpCommands: 'Commands:',
    cliHelpFlags: 'Flags:',
    cliFlagAs: 'act as this Slack user ID (default: cli:<your OS user name>)',
    cliFlagAsName: 'the name recorded with --as (default: the ID)',
    cliFlagReason: 'why; approvers see it',
    cliFlagHelp: 'details of a command: vidops <command> --help',
    cliFlagLang: 'the language printed: fa or en (default: LANG, else English)',
    cliHelpConfiguration: (variables: string) =>
      `Configuration (environment, or .env in the working directory): ${variables}.`,
    cliHelpStoreOnly:
      'The audit commands and `requests` need only DATABASE_URL (and AUDIT_HMAC_KEY when the deployment sets it); signed checkpoints also AUDIT_SIGNING_KEY_FILE and AUDIT_LOG_NAME, `audit witness` SLACK_BOT_TOKEN and AUDIT_CHANNEL; `audit verify --events` needs nothing.',
    cliHelpExportWarning: '`vidops audit export` writes full mobile numbers: it is meant for compliance.',
    cliHelpExitCodes:
      'Exit codes: 0 done; 1 refused or failed (the reason on stderr); 2 usage or configuration error.',
    cliUsage: (usage: string) => `Usage: ${usage}`,
    cliUsageSeeHelp: 'Run `vidops help` for the commands.',
    cliUsageCommandHelp: (id: string) => `(vidops ${id} --help for details)`,
    // Usage errors of the command line
    cliGiveCommand: 'Give a command.',
    cliSayWhatToDo: (choices: string) => `Say what to do: ${choices}.`,
    cliNoSubcommand: (word: string, typed: string, choices: string) =>
      `\`vidops ${word}\` has no "${typed}"; it has ${choices}.`,
    cliUnknownCommand: (typed: string) => `Unknown command "${typed}".`,
    cliDidYouMean: (command: string) => ` Did you mean \`vidops ${command}\`?`,
    cliHelpLists: ' `vidops help` lists the commands.',
    cliNoSuchCommand: (words: string) => `There is no command "${words}".`,
    cliDoesNotTake: (id: string, flags: string) => `\`vidops ${id}\` does not take ${flags}.`,
    cliNeedsFlags: (id: string, flags: readonly string[]) => `\`vidops ${id}\` needs ${flags.join(' and ')}.`,
    cliEmptyArgument: (id: string) => `\`vidops ${id}\` was given an empty argument (""); nothing was sent.`,
    cliNeedsMore: (id: string, usage: string) => `\`vidops ${id}\` needs more: ${usage}`,
    cliTooManyWords: (id: string, max: number, _maxText: string, extra: string) =>
      `\`vidops ${id}\` takes ${max === 0 ? 'no words' : `${max} word${max === 1 ? '' : 's'}`} after it; remove "${extra}".`,
    cliLangFlag: (given: string) => `--lang is fa or en, not "${given}".`,
    cliGiveFields: (named: readonly string[]) =>
      `Give ${named.length === 1 ? named[0] : `${named.join(', ')} or ${named.length === 2 ? 'both' : 'more'}`}.`,
    cliFormatFlag: (given: string) => `--format is jsonl or csv, not "${given}".`,
    cliLinesFlag: (max: string, given: string) =>
      `-n takes a number of events from 1 to ${max}, not "${given}".`,
    cliVerifyBoth:
      'An offline verify needs both --events (the JSONL export) and --checkpoints (the checkpoints file).',
    cliVerifyPubkey: 'An offline verify needs the public key: --pubkey FILE (repeat it for every key used).',
    cliVerifyHmac: '--hmac-key-file goes with --events; on the database AUDIT_HMAC_KEY is read.',
    cliAsNameAlone: '--as-name goes with --as <Slack user ID>.',
    cliAsFlag: (given: string) => `--as takes a Slack user ID (U… or W…), not "${given}".`,
    cliTimeFlag: (flag: string, given: string) =>
      `--${flag} takes an ISO-8601 time such as 2024-10-17 or 2024-10-17T06:00:00Z, not "${given}".`,
    cliConfigHint:
      'The CLI reads the environment, .env in the working directory and POLICY_FILE; `vidops help` lists the variables.',
    cliUnexpected: (text: string) => `unexpected error: ${text}`,
    cliNote: (text: string) => `note: ${text}`,
    // Reading what was asked
    cliNotErrorCode: (raw: string) => `"${raw}" is not a player error code; it is a number like 9910.`,
    cliUndocumentedCode: (code: string) =>
      `Player error ${code} is not one the service documents; escalate it with the time, the file and the viewer.`,
    cliFieldRefused: (field: string, problems: string) => `--${field}: ${problems}. Nothing was sent.`,
    cliConfirmMissing: (what: string, id: string, wanted: string) =>
      `Deleting ${what} ${id} cannot be undone: repeat its ID with --confirm ${wanted}. Nothing was sent.`,
    cliConfirmWrong: (given: string, what: string, wanted: string) =>
      `--confirm "${given}" does not match ${what} ID ${wanted}; nothing was deleted or sent. Repeat the ID exactly.`,
    cliNotRequestId: (raw: string) => `"${raw}" is not a request ID; they look like R-7K2M9QXA.`,
    cliNotApprovedHere: (id: string, why: string) => `${id} was not approved: ${why}`,
    // Explain
    cliPlayerError: (code: string, meaning: string) => `Player error ${code}: ${meaning}`,
    cliFix: (fix: string) => `Fix: ${fix}`,
    cliRun: (command: string) => `Run: ${command}`,
    // Requests
    cliNoRequests: 'There are no requests.',
    cliLatestRequests: (n: number, count: string) =>
      `The latest ${count} request${n === 1 ? '' : 's'} of everyone, newest first:`,
    cliNoOwnRequests: (who: string) => `${who} has no requests.`,
    cliOwnRequests: (who: string) => `Requests of ${who}, open first:`,
    cliAwaiting: (who: string, inSlackOnly: boolean) =>
      `Awaiting approval by ${who}${inSlackOnly ? ' (approve them in Slack: the policy keeps approvals off the command line)' : ''}:`,
    cliRequestLine: (p: RequestLineParts) =>
      `${p.id}  ${p.title}: ${p.target}  asked by ${p.who} at ${p.at}  [${p.state}] ${p.stateText}${p.reason === null ? '' : `; reason: ${p.reason}`}`,
    cliExpiredUnapproved: (at: string) => `expired at ${at} without enough approvals`,
    cliNotSentState: (why: string) => `approved, not sent: ${why}`,
    cliNotPutBackYet: (id: string, why: string) =>
      `${id} is not put back yet${why === '' ? '' : `: ${why}`}; vidops tries again by itself.`,
    // Audit
    cliAuditEmpty: 'The audit log is empty.',
    cliExported: (n: number, count: string, path: string, format: string) =>
      `exported ${count} event${n === 1 ? '' : 's'} to ${path} (${format}; full mobile numbers).`,
    cliHash: (hash: string) => `hash ${hash}`,
    // Results
    cliRefused: (title: string, reason: string) => `${title} refused: ${reason}`,
    cliDone: (heading: string, id: string) => `${heading}: done (request ${id}).`,
    cliFailed: (heading: string, status: string | null, id: string, message: string) =>
      `${heading}: failed${status === null ? '' : ` (HTTP ${status})`} (request ${id}): ${message}`,
    cliNotSent: (heading: string, id: string, why: string) => `${heading}: not sent (request ${id}): ${why}`,
    cliNoDetail: 'no detail recorded',
    cliUnknownOutcome: (heading: string, id: string, why: string) =>
      `${heading}: request ${id} is unknown: it may or may not have been applied (${why}). It is not sent again by itself; someone else who may approve it settles it with \`vidops resolve ${id} --check\` (or --send-again, --applied/--not-applied --reason "…").`,
    cliStoppedWhileRunning: 'vidops stopped while it ran',
    cliOtherState: (heading: string, id: string, state: string) =>
      `${heading}: request ${id} is ${state}; look at it with \`vidops requests\`.`,
    cliApprovedWaiting: (id: string, have: string, quorum: string, left: number, leftText: string) =>
      `Approved ${id} (${have} of ${quorum}); it waits for ${leftText} more lead approval${left === 1 ? '' : 's'}.`,
    cliApprovedHeading: (id: string, title: string, target: string) => `Approved ${id}, ${title}: ${target}`,
    cliRejected: (id: string, note: string) => `Rejected ${id}: ${note}`,
    cliCancelled: (id: string) => `Cancelled ${id}.`,
    cliExtendNeedsFor: 'Say the new window with --for (2h, 1d, or an end such as 1405/09/07T18:00).',
    cliPending: (id: string, left: number, leftText: string, why: string | null, where: string) =>
      `request ${id} is waiting for ${leftText} lead approval${left === 1 ? '' : 's'}${why === null ? '' : ` (${why})`}; ${where}.`,
    cliApproveWhereCli: (id: string) => `approve with \`vidops approve ${id} --as U…\`, or in Slack`,
    cliApproveInSlack: 'a lead approves it in Slack',
    cliExpiresCancel: (expires: string | null, cancel: string) =>
      `It expires ${expires ?? 'never'}; cancel it with \`${cancel}\`.`,
    cliUnblocked: (number: string) => `Viewer ${number} is unblocked; they can watch again.`,
    cliWasNotBlocked: (number: string) => `Viewer ${number} was not blocked; the unblock was sent anyway.`,
    cliUnblockUnknown: (number: string) =>
      `The unblock of viewer ${number} was sent; whether they were blocked is unknown.`,
    cliWhitelistEmpty: 'The whitelist is empty.',
    cliWhitelistHolds: (n: number, count: string) =>
      `The whitelist holds ${count} address${n === 1 ? '' : 'es'}:`,
    // Previews
    cliNone: '(none)',
    cliEmpty: '(empty)',
    cliFilesAfter: (count: string) => `files after (${count}):`,
    cliFilesBefore: (count: string) => `files before (${count}):`,
    cliFilesBeforeUnknown: 'files before: not known (the playlist could not be looked up)',
    cliDeletes: (resource: string, id: string, title: string, files: string | null) =>
      `deletes ${resource} ${id}${title}${files === null ? '' : `, holding ${files} file(s)`}`,
    cliPreviewUnavailable: 'preview not available (the request was made by an earlier version of vidops)',
    // A command's one-line summary in help: its own (English), the catalog's Persian, or the CLI's.
    cliSummary: (_id: string, english: string, _fa: string | null): string => english,
  },
  {
    cliOperationTitle: (operation: ChangeOperation, english: string) =>
      isChangeOperation(operation) ? OPERATION_SPECS[operation].fa.cli : english,
    cliResource: (resource: string) => FA_RESOURCES[resource] ?? resource,
    cliTarget: (target: Target, _stored: string) => targetFa(target),
    cliHelpIntro:
      'vidops: خط فرمان vidops، با همان بررسی‌ها، همان سیاست و همان گزارش ممیزیِ \u2068/vidops\u2069 در Slack.',
    cliHelpUsage: 'شیوه‌ی استفاده: \u2068vidops <command> [words] [flags]\u2069',
    cliHelpCommands: 'فرمان‌ها:',
    cliHelpFlags: 'گزینه‌ها:',
    cliFlagAs: 'به‌جای این شناسه‌ی کاربر Slack عمل می‌کند (پیش‌فرض: \u2068cli:<your OS user name>\u2069)',
    cliFlagAsName: 'نامی که همراه \u2068--as\u2069 ثبت می‌شود (پیش‌فرض: همان شناسه)',
    cliFlagReason: 'دلیل؛ تأییدکنندگان آن را می‌بینند',
    cliFlagHelp: 'جزئیات یک فرمان: \u2068vidops <command> --help\u2069',
    cliFlagLang: 'زبان خروجی: fa یا en (پیش‌فرض: LANG، وگرنه انگلیسی)',
    cliHelpConfiguration: (variables: string) =>
      `پیکربندی (متغیرهای محیطی، یا فایل \u2068.env\u2069 در پوشه‌ی کاری): ${variables}.`,
    cliHelpStoreOnly:
      'فرمان‌های ممیزی و \u2068`requests`\u2069 فقط به DATABASE_URL نیاز دارند (و AUDIT_HMAC_KEY اگر استقرار آن را تنظیم کرده باشد)؛ نقطه‌های بازبینیِ امضاشده به AUDIT_SIGNING_KEY_FILE و AUDIT_LOG_NAME هم نیاز دارند، \u2068`audit witness`\u2069 به SLACK_BOT_TOKEN و AUDIT_CHANNEL؛ \u2068`audit verify --events`\u2069 به هیچ‌چیز.',
    cliHelpExportWarning:
      '\u2068`vidops audit export`\u2069 شماره‌های موبایل را کامل می‌نویسد: فقط برای بازرسی و انطباق است.',
    cliHelpExitCodes:
      'کدهای خروج: ۰ انجام شد؛ ۱ رد شد یا ناموفق بود (دلیل در stderr)؛ ۲ خطای شیوه‌ی استفاده یا پیکربندی.',
    cliUsage: (usage: string) => `شیوه‌ی استفاده: \u2068${usage}\u2069`,
    cliUsageSeeHelp: 'فهرست فرمان‌ها را با \u2068`vidops help`\u2069 ببینید.',
    cliUsageCommandHelp: (id: string) => `(جزئیات: \u2068vidops ${id} --help\u2069)`,
    cliGiveCommand: 'یک فرمان بنویسید.',
    cliSayWhatToDo: (choices: string) => `بگویید چه کاری انجام شود: ${choices}.`,
    cliNoSubcommand: (word: string, typed: string, choices: string) =>
      `\u2068\`vidops ${word}\`\u2069 چیزی به نام «${typed}» ندارد؛ این‌ها را دارد: ${choices}.`,
    cliUnknownCommand: (typed: string) => `فرمان «${typed}» شناخته نیست.`,
    cliDidYouMean: (command: string) => ` منظورتان \u2068\`vidops ${command}\`\u2069 بود؟`,
    cliHelpLists: ' \u2068`vidops help`\u2069 فرمان‌ها را فهرست می‌کند.',
    cliNoSuchCommand: (words: string) => `فرمانی به نام «${words}» نداریم.`,
    cliDoesNotTake: (id: string, flags: string) =>
      `\u2068\`vidops ${id}\`\u2069 گزینه‌ی ${flags} را نمی‌پذیرد.`,
    cliNeedsFlags: (id: string, flags: readonly string[]) =>
      `\u2068\`vidops ${id}\`\u2069 به ${flags.map((f) => `\u2068${f}\u2069`).join(' و ')} نیاز دارد.`,
    cliEmptyArgument: (id: string) =>
      `به \u2068\`vidops ${id}\`\u2069 یک آرگومان خالی ("") داده شد؛ چیزی فرستاده نشد.`,
    cliNeedsMore: (id: string, usage: string) =>
      `\u2068\`vidops ${id}\`\u2069 به ورودی بیشتری نیاز دارد: \u2068${usage}\u2069`,
    cliTooManyWords: (id: string, max: number, maxText: string, extra: string) =>
      `\u2068\`vidops ${id}\`\u2069 ${max === 0 ? 'پس از خود کلمه‌ای نمی‌پذیرد' : `پس از خود فقط ${maxText} کلمه می‌پذیرد`}؛ «${extra}» را بردارید.`,
    cliLangFlag: (given: string) => `مقدار \u2068--lang\u2069 یا fa است یا en، نه «${given}».`,
    cliGiveFields: (named: readonly string[]) =>
      `${named.map((f) => `\u2068${f}\u2069`).join(' یا ')} را بدهید${named.length > 1 ? ' (یا بیشتر از یکی)' : ''}.`,
    cliFormatFlag: (given: string) => `مقدار \u2068--format\u2069 یا jsonl است یا csv، نه «${given}».`,
    cliLinesFlag: (max: string, given: string) =>
      `\u2068-n\u2069 تعداد رویدادهاست، از ۱ تا ${max}، نه «${given}».`,
    cliVerifyBoth:
      'بازبینیِ بدون پایگاه داده هم \u2068--events\u2069 (خروجی JSONL) می‌خواهد و هم \u2068--checkpoints\u2069 (فایل نقطه‌های بازبینی).',
    cliVerifyPubkey:
      'بازبینیِ بدون پایگاه داده کلید عمومی می‌خواهد: \u2068--pubkey FILE\u2069 (برای هر کلیدی که به کار رفته تکرارش کنید).',
    cliVerifyHmac:
      '\u2068--hmac-key-file\u2069 همراه \u2068--events\u2069 به کار می‌رود؛ روی پایگاه داده AUDIT_HMAC_KEY خوانده می‌شود.',
    cliAsNameAlone: '\u2068--as-name\u2069 همراه \u2068--as <Slack user ID>\u2069 به کار می‌رود.',
    cliAsFlag: (given: string) =>
      `\u2068--as\u2069 یک شناسه‌ی کاربر Slack می‌گیرد (\u2068U…\u2069 یا \u2068W…\u2069)، نه «${given}».`,
    cliTimeFlag: (flag: string, given: string) =>
      `\u2068--${flag}\u2069 یک زمان ISO-8601 می‌گیرد، مثل \u20682024-10-17\u2069 یا \u20682024-10-17T06:00:00Z\u2069، نه «${given}».`,
    cliConfigHint:
      'خط فرمان متغیرهای محیطی، فایل \u2068.env\u2069 در پوشه‌ی کاری و POLICY_FILE را می‌خواند؛ \u2068`vidops help`\u2069 متغیرها را فهرست می‌کند.',
    cliUnexpected: (text: string) => `خطای پیش‌بینی‌نشده: ${text}`,
    cliNote: (text: string) => `توجه: ${text}`,
    cliNotErrorCode: (raw: string) => `«${raw}» کد خطای پخش‌کننده نیست؛ این کد عددی است مثل \u20689910\u2069.`,
    cliUndocumentedCode: (code: string) =>
      `خطای پخش‌کننده‌ی \u2068${code}\u2069 در مستندات سرویس نیست؛ آن را با زمان، فایل و بیننده به سطح بالاتر گزارش دهید.`,
    cliFieldRefused: (field: string, problems: string) =>
      `\u2068--${field}\u2069: ${problems}. چیزی فرستاده نشد.`,
    cliConfirmMissing: (what: string, id: string, wanted: string) =>
      `حذف ${what} \u2068${id}\u2069 برگشت‌پذیر نیست: شناسه‌اش را با \u2068--confirm ${wanted}\u2069 تکرار کنید. چیزی فرستاده نشد.`,
    cliConfirmWrong: (given: string, what: string, wanted: string) =>
      `\u2068--confirm "${given}"\u2069 با شناسه‌ی ${what} \u2068${wanted}\u2069 یکی نیست؛ چیزی حذف یا فرستاده نشد. شناسه را دقیقاً تکرار کنید.`,
    cliNotRequestId: (raw: string) =>
      `«${raw}» شناسه‌ی درخواست نیست؛ شناسه‌ها شبیه \u2068R-7K2M9QXA\u2069 هستند.`,
    cliNotApprovedHere: (id: string, why: string) => `\u2068${id}\u2069 تأیید نشد: ${why}`,
    cliPlayerError: (code: string, meaning: string) => `خطای پخش‌کننده‌ی \u2068${code}\u2069: ${meaning}`,
    cliFix: (fix: string) => `راه‌حل: ${fix}`,
    cliRun: (command: string) => `اجرا کنید: \u2068${command}\u2069`,
    cliNoRequests: 'هیچ درخواستی نیست.',
    cliLatestRequests: (_n: number, count: string) => `آخرین ${count} درخواستِ همه، تازه‌ترین اول:`,
    cliNoOwnRequests: (who: string) => `\u2068${who}\u2069 درخواستی ندارد.`,
    cliOwnRequests: (who: string) => `درخواست‌های \u2068${who}\u2069، بازها اول:`,
    cliAwaiting: (who: string, inSlackOnly: boolean) =>
      `در انتظار تأیید \u2068${who}\u2069${inSlackOnly ? ' (آن‌ها را در Slack تأیید کنید: سیاست، تأیید از خط فرمان را بسته است)' : ''}:`,
    cliRequestLine: (p: RequestLineParts) =>
      `\u2068${p.id}\u2069  ${p.title}: ${p.target}  درخواست‌دهنده: ${p.who}، ${p.at}  ${p.stateText} \u2068[${p.state}]\u2069${p.reason === null ? '' : `؛ دلیل: ${p.reason}`}`,
    cliExpiredUnapproved: (at: string) => `در ${at} بی‌آنکه تأییدهای لازم برسد منقضی شد`,
    cliNotSentState: (why: string) => `تأیید شد، فرستاده نشد: ${why}`,
    cliNotPutBackYet: (id: string, why: string) =>
      `\u2068${id}\u2069 هنوز برگردانده نشده است${why === '' ? '' : `: ${why}`}؛ vidops خودش دوباره تلاش می‌کند.`,
    cliAuditEmpty: 'گزارش ممیزی خالی است.',
    cliExported: (_n: number, count: string, path: string, format: string) =>
      `${count} رویداد در \u2068${path}\u2069 نوشته شد (\u2068${format}\u2069؛ شماره‌های موبایل کامل).`,
    cliHash: (hash: string) => `هش \u2068${hash}\u2069`,
    cliRefused: (title: string, reason: string) => `${title} رد شد: ${reason}`,
    cliDone: (heading: string, id: string) => `${heading}: انجام شد (درخواست \u2068${id}\u2069).`,
    cliFailed: (heading: string, status: string | null, id: string, message: string) =>
      `${heading}: ناموفق${status === null ? '' : ` (\u2068HTTP ${status}\u2069)`} (درخواست \u2068${id}\u2069): ${message}`,
    cliNotSent: (heading: string, id: string, why: string) =>
      `${heading}: فرستاده نشد (درخواست \u2068${id}\u2069): ${why}`,
    cliNoDetail: 'جزئیاتی ثبت نشده است',
    cliUnknownOutcome: (heading: string, id: string, why: string) =>
      `${heading}: نتیجه‌ی درخواست \u2068${id}\u2069 نامعلوم است: شاید اعمال شده باشد، شاید نه (${why}). خودبه‌خود دوباره فرستاده نمی‌شود؛ کسی دیگر که اجازه‌ی تأییدش را دارد آن را با \u2068\`vidops resolve ${id} --check\`\u2069 روشن می‌کند (یا \u2068--send-again\u2069، \u2068--applied/--not-applied --reason "…"\u2069).`,
    cliStoppedWhileRunning: 'vidops در میانه‌ی اجرا متوقف شد',
    cliOtherState: (heading: string, id: string, state: string) =>
      `${heading}: درخواست \u2068${id}\u2069 در وضعیت \u2068${state}\u2069 است؛ با \u2068\`vidops requests\`\u2069 آن را ببینید.`,
    cliApprovedWaiting: (id: string, have: string, quorum: string, _left: number, leftText: string) =>
      `\u2068${id}\u2069 تأیید شد (${have} از ${quorum})؛ هنوز ${leftText} تأیید دیگر از سرپرستان لازم است.`,
    cliApprovedHeading: (id: string, title: string, target: string) =>
      `\u2068${id}\u2069 تأیید شد، ${title}: ${target}`,
    cliRejected: (id: string, note: string) => `\u2068${id}\u2069 رد شد: ${note}`,
    cliCancelled: (id: string) => `\u2068${id}\u2069 لغو شد.`,
    cliExtendNeedsFor:
      'بازه‌ی تازه را با --for بگویید (\u20682h\u2069، \u20681d\u2069، یا یک پایان مثل \u20681405/09/07T18:00\u2069).',
    cliPending: (id: string, _left: number, leftText: string, why: string | null, where: string) =>
      `درخواست \u2068${id}\u2069 در انتظار ${leftText} تأیید از سرپرستان است${why === null ? '' : ` (${why})`}؛ ${where}.`,
    cliApproveWhereCli: (id: string) =>
      `با \u2068\`vidops approve ${id} --as U…\`\u2069 یا در Slack تأییدش کنید`,
    cliApproveInSlack: 'یک سرپرست آن را در Slack تأیید می‌کند',
    cliExpiresCancel: (expires: string | null, cancel: string) =>
      `${expires === null ? 'منقضی نمی‌شود' : `در ${expires} منقضی می‌شود`}؛ برای لغو: \u2068\`${cancel}\`\u2069.`,
    cliUnblocked: (number: string) =>
      `بیننده‌ی \u2068${number}\u2069 از مسدودی درآمد؛ دوباره می‌تواند تماشا کند.`,
    cliWasNotBlocked: (number: string) =>
      `بیننده‌ی \u2068${number}\u2069 مسدود نبود؛ درخواست رفع مسدودی به هر حال فرستاده شد.`,
    cliUnblockUnknown: (number: string) =>
      `درخواست رفع مسدودی بیننده‌ی \u2068${number}\u2069 فرستاده شد؛ معلوم نیست مسدود بوده یا نه.`,
    cliWhitelistEmpty: 'لیست سفید خالی است.',
    cliWhitelistHolds: (_n: number, count: string) => `لیست سفید ${count} نشانی دارد:`,
    cliNone: '(هیچ)',
    cliEmpty: '(خالی)',
    cliFilesAfter: (count: string) => `فایل‌ها پس از تغییر (${count}):`,
    cliFilesBefore: (count: string) => `فایل‌ها پیش از تغییر (${count}):`,
    cliFilesBeforeUnknown: 'فایل‌های پیش از تغییر: نامعلوم (پلی‌لیست را نشد پیدا کرد)',
    cliDeletes: (resource: string, id: string, title: string, files: string | null) =>
      `${resource} \u2068${id}\u2069${title}${files === null ? '' : ` با ${files} فایل`} حذف می‌شود`,
    cliPreviewUnavailable: 'پیش‌نمایش در دسترس نیست (درخواست را نسخه‌ی قدیمی‌تری از vidops ساخته است)',
    cliSummary: (id, english, fa) => FA_SUMMARIES[id] ?? fa ?? english,
  },
);
