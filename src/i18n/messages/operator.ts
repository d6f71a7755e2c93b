import { defineArea } from '../define.js';

/**
 * What `vidops doctor` and `vidops backup` print for the operator: each check's name, what it
 * found and its fix, and the backup's outcome. Paths, IDs, commands and variables stay Latin
 * (isolated in Persian); numbers and dates arrive formatted for the language; words from elsewhere
 * (a configuration problem, an error, a refused checkpoint) arrive as they were said.
 * @see docs/operations.md, "Doctor"
 */

/** The checks of `vidops doctor`, by the stable name `--json` gives scripts. */
export type DoctorCheck =
  | 'configuration'
  | 'database'
  | 'slack token'
  | 'slack scopes'
  | 'audit channel'
  | 'approval channel'
  | 'signing key'
  | 'signing key state'
  | 'signing key and database'
  | 'video service'
  | 'clock'
  | 'policy'
  | 'policy people';

const FA_CHECKS: Readonly<Record<DoctorCheck, string>> = {
  configuration: 'پیکربندی',
  database: 'پایگاه داده',
  'slack token': 'توکن Slack',
  'slack scopes': 'دسترسی‌های Slack',
  'audit channel': 'کانال ممیزی',
  'approval channel': 'کانال تأیید',
  'signing key': 'کلید امضا',
  'signing key state': 'وضعیت کلید امضا',
  'signing key and database': 'کلید امضا و پایگاه داده',
  'video service': 'سرویس ویدیو',
  clock: 'ساعت',
  policy: 'سیاست',
  'policy people': 'افراد سیاست',
};

/** An English plural's ending. */
const s = (count: number): string => (count === 1 ? '' : 's');

/** A Latin run (a path, an ID, a command) inside Persian prose. */
const iso = (text: string) => `\u2068${text}\u2069`;

export const operator = defineArea(
  {
    docCheck: (check: DoctorCheck): string => check,
    docOkLine: (check: string, detail: string) => `ok    ${check}: ${detail}`,
    docFailLine: (check: string, detail: string, fix: string) => `FAIL  ${check}: ${detail} — fix: ${fix}`,
    docWarnLine: (check: string, detail: string, fix: string) => `warn  ${check}: ${detail} — fix: ${fix}`,
    docPassedWarned: (warned: string) => `All checks passed; ${warned} with a warning.`,
    docAllPassed: 'All checks passed.',
    docSomeFailed: (failed: string, total: string) => `${failed} of ${total} checks failed.`,
    docFixFirst: 'fix the database first',
    docNotChecked: 'not checked: the database does not answer',
    docConfigOk: 'every variable parses',
    docConfigBad: (problems: string) => problems,
    docConfigFix:
      'set the variables named (.env.example lists them all), then run vidops doctor again; the other checks need them',
    docDbMissing: (path: string) => `there is no database at ${path}`,
    docDbMissingFix: 'check DATABASE_URL; vidops makes the file at its first start',
    docDbPending: (pending: string, total: string) =>
      `answers, but ${pending} of ${total} migrations are not applied`,
    docDbPendingFix:
      'start vidops (npm start): it applies them at start, once, even with replicas starting together',
    docDbOk: (version: string) => `answers; schema current (version ${version})`,
    docDbTooNew: (unknown: string, known: string) =>
      `the database was written by a newer vidops: it holds schema version ${unknown}, and this build knows versions up to ${known}; nothing was changed`,
    docDbTooNewFix: 'run the vidops version that wrote it, or restore a backup taken before the upgrade',
    docDbDown: (why: string) => `does not answer: ${why}`,
    docDbDownFix: 'check DATABASE_URL and that the database server runs',
    docSlackOk: (user: string, team: string) => `works: bot ${user} in workspace ${team}`,
    docSlackFailed: (why: string) => `auth.test failed: ${why}`,
    docSlackFix:
      'set SLACK_BOT_TOKEN to the Bot User OAuth Token (xoxb-…) of the installed app; check SLACK_API_URL when set',
    docScopesOk: (count: string) => `every scope the manifest asks for (${count})`,
    docScopesMissing: (scopes: string) => `the token lacks ${scopes}`,
    docScopesFix:
      'add them under OAuth & Permissions (or update the app from manifest.yml), reinstall the app, and set the new SLACK_BOT_TOKEN',
    docChannelIn: (id: string, name: string) => `the bot is in ${id} (#${name})`,
    docChannelOut: (id: string, name: string) => `the bot is not in ${id} (#${name})`,
    docChannelInvite: (name: string) => `in Slack, type /invite @vidops in #${name}`,
    docChannelError: (id: string, why: string) => `${id}: ${why}`,
    docChannelFix: 'set the channel ID (C…, from the channel details), not its name',
    docKeyUnset: 'not set: no checkpoints are signed (AUDIT_SIGNING_KEY_FILE, docs/audit-checkpoints.md)',
    docKeyUnreadable: (path: string) => `${path} cannot be read`,
    docKeyUnreadableFix: 'point AUDIT_SIGNING_KEY_FILE at the key (vidops audit keygen makes one)',
    docStateNotYet: (path: string) => `${path} not made yet: the first checkpoint makes it`,
    docModeOpen: (path: string, mode: string) => `${path} has mode ${mode}: others may read or change it`,
    docModeFix: (path: string) => `chmod 600 ${path}`,
    docModeOk: (path: string, mode: string) => `${path} has mode ${mode}`,
    docExtends: 'the audit log extends the last checkpoint the key signed',
    docRefused: (reason: string) => reason,
    docRefusedFix:
      'after a deliberate restore: vidops audit verify, then vidops audit checkpoint --accept-baseline --reason "…"; otherwise treat it as tampering',
    docKeyError: (why: string) => why,
    docKeyErrorFix: 'check AUDIT_SIGNING_KEY_FILE and AUDIT_LOG_NAME',
    docVideoOk: (url: string, ms: string, count: string) =>
      `${url} answered a whitelist read in ${ms} ms (${count} addresses)`,
    docVideoFailed: (url: string, why: string) => `${url}: ${why}`,
    docVideoSlow: (url: string, ms: string, limit: string, count: string) =>
      `${url} answered a whitelist read in ${ms} ms, slower than ${limit} ms (${count} addresses): every reply that waits on it is as slow`,
    docVideoSlowFix:
      "check the network between this host and the service, and the service's load; run vidops doctor again to measure again",
    docVideoFix:
      'check VIDEO_API_URL, VIDEO_API_KEY and VIDEO_SECRET_KEY, and that this host may reach the service',
    docClockSkew: (here: string, db: string, seconds: string) =>
      `this host says ${here}, the database ${db} (${seconds} s apart)`,
    docClockFix: 'turn on NTP on both hosts (timedatectl set-ntp true)',
    docClockOk: (limit: string, ms: string) => `within ${limit} s of the database's (${ms} ms)`,
    docPolicyBad: (why: string) => why,
    docPolicyFix: 'fix POLICY_FILE, LEADS or AGENTS as the message says',
    docPeopleUnknown: (ids: string) => `Slack knows no active ${ids}`,
    docPeopleFix:
      'correct the IDs in LEADS, AGENTS or POLICY_FILE (a user ID is U… or W…, a user group S…, from Slack profiles)',
    docPeopleOk: (count: string) => `Slack knows all ${count} people and groups the policy names`,
    // vidops backup
    bakPostgres:
      'vidops backup copies a SQLite database; this DATABASE_URL is PostgreSQL: back it up with pg_dump, and keep the signing key, its state file, AUDIT_HMAC_KEY and VIDEO_SECRET_KEY beside the dump (docs/operations.md, "Backup and restore").',
    bakInMemory: 'An in-memory database (sqlite::memory:) has nothing to back up.',
    bakNoDatabase: (path: string) => `There is no vidops database at ${path} (DATABASE_URL).`,
    bakSameFile: (path: string) => `${path} is the database itself: name another file for the backup.`,
    bakNotVerified: (source: string, dest: string) =>
      `no backup written: the copy of ${source} does not verify (above); ${dest} was left as it was.`,
    bakWritten: (dest: string, source: string) =>
      `backup written: ${dest} (mode 600), a copy of ${source} verified with audit verify.`,
    // vidops audit verify (and the verify backup runs): `count` for English plurals, `shown` formatted
    verChainIntact: (count: number, shown: string, head: string) =>
      `chain intact: ${shown} event${s(count)}, ${head}; every stored column matches its event`,
    verHeadNone: 'no events yet',
    verHead: (seq: string, hash: string) => `head #${seq} ${hash}…`,
    verColumn: (reason: string) => `audit log edited beside the chain: ${reason}.`,
    verBroken: (seq: string, reason: string) => `chain broken at event #${seq}: ${reason}.`,
    verBefore: (count: number, shown: string) => `${shown} event${s(count)} before it verified.`,
    verHmacStore: (set: boolean) =>
      `If no event was edited, check AUDIT_HMAC_KEY: it must be the deployment's key (it is ${set ? 'set' : 'not set'} here).`,
    verHmacFiles:
      'If no event was edited and the deployment sets AUDIT_HMAC_KEY, give it with --hmac-key-file.',
    verRemembered: (path: string) =>
      `checkpoints: the signing key remembers a checkpoint the database does not hold (${path}); it is checked against the log as well`,
    verNoneUnset:
      'checkpoints: none stored (AUDIT_SIGNING_KEY_FILE is not set here); only the chain vouches for the log, and it cannot show events cut from its end',
    verNoneYet: 'checkpoints: none stored yet; only the chain vouches for the log',
    verHold: (
      count: number,
      shown: string,
      signers: string,
      time: string | null,
      size: string,
      events: number,
      eventsShown: string,
    ) =>
      `checkpoints: ${shown} checkpoint${s(count)} hold${count === 1 ? 's' : ''}, signed by ${signers}; the newest${time === null ? '' : `, of ${time},`} covers ${size} of the ${eventsShown} event${s(events)}`,
    verAfter: (from: string, to: string) =>
      `; events #${from} to #${to} came after it: only the chain vouches for them`,
    verCheckpointFailed: (message: string) => `checkpoint check failed: ${message}.`,
    verMoreProblems: (more: string) => `… and ${more} more checkpoint problems.`,
    verOriginStore: (origin: string) =>
      `A checkpoint of another log fails: check AUDIT_LOG_NAME, which must be the deployment's (here the log is ${origin}).`,
    verOriginFiles: (name: string) =>
      `A checkpoint of another log fails: the public keys given are of ${name}.`,
    verUnknownKey:
      'A checkpoint signed by a key not given fails: give the public key of every key ever used with --pubkey (after a key rotation, the old ones too).',
    verEventsOk: (count: number, shown: string) =>
      `events: ${shown} event${s(count)}, every hash and link holds`,
    verOk: 'ok',
    verExportFailed: 'FAILED: the export does not verify.',
    verNotCheckpoints: (message: string) => `FAILED: the checkpoints file is not one: ${message}`,
    verNoCheckpoint: 'FAILED: the checkpoints file holds no checkpoint: nothing vouches for the log.',
  },
  {
    docCheck: (check: DoctorCheck) => FA_CHECKS[check],
    docOkLine: (check: string, detail: string) => `درست  ${check}: ${detail}`,
    docFailLine: (check: string, detail: string, fix: string) =>
      `خطا   ${check}: ${detail} — راه رفع: ${fix}`,
    docWarnLine: (check: string, detail: string, fix: string) =>
      `هشدار ${check}: ${detail} — راه رفع: ${fix}`,
    docPassedWarned: (warned: string) => `همه‌ی بررسی‌ها درست بودند؛ ${warned} بررسی با هشدار.`,
    docAllPassed: 'همه‌ی بررسی‌ها درست بودند.',
    docSomeFailed: (failed: string, total: string) => `${failed} بررسی از ${total} بررسی نادرست بود.`,
    docFixFirst: 'اول پایگاه داده را درست کنید',
    docNotChecked: 'بررسی نشد: پایگاه داده پاسخ نمی‌دهد',
    docConfigOk: 'همه‌ی متغیرها خوانده شدند',
    docConfigBad: (problems: string) => `متغیرهای نادرست: ${iso(problems)}`,
    docConfigFix: `متغیرهای نام‌برده را تنظیم کنید (${iso('.env.example')} همه را فهرست می‌کند)، سپس دوباره ${iso('vidops doctor')} را اجرا کنید؛ بررسی‌های دیگر به آن‌ها نیاز دارند`,
    docDbMissing: (path: string) => `در ${iso(path)} پایگاه داده‌ای نیست`,
    docDbMissingFix: `${iso('DATABASE_URL')} را بررسی کنید؛ vidops فایل را در نخستین اجرا می‌سازد`,
    docDbPending: (pending: string, total: string) =>
      `پاسخ می‌دهد، اما ${pending} مهاجرت از ${total} مهاجرت اعمال نشده است`,
    docDbPendingFix: `vidops را اجرا کنید (${iso('npm start')}): مهاجرت‌ها را در شروع، یک بار، اعمال می‌کند، حتی اگر چند نسخه با هم شروع شوند`,
    docDbOk: (version: string) => `پاسخ می‌دهد؛ ساختار به‌روز است (نسخه‌ی ${version})`,
    docDbTooNew: (unknown: string, known: string) =>
      `یک vidops تازه‌تر آن را نوشته است: نسخه‌ی ساختار ${unknown} را دارد و این نسخه تا ${known} را می‌شناسد؛ چیزی تغییر نکرد`,
    docDbTooNewFix: 'همان نسخه‌ی vidops که آن را نوشته اجرا کنید، یا پشتیبانِ پیش از ارتقا را بازگردانید',
    docDbDown: (why: string) => `پاسخ نمی‌دهد: ${iso(why)}`,
    docDbDownFix: `${iso('DATABASE_URL')} را بررسی کنید و این‌که سرور پایگاه داده در حال اجرا باشد`,
    docSlackOk: (user: string, team: string) => `کار می‌کند: بات ${iso(user)} در فضای کاری ${iso(team)}`,
    docSlackFailed: (why: string) => `${iso('auth.test')} ناموفق بود: ${iso(why)}`,
    docSlackFix: `${iso('SLACK_BOT_TOKEN')} را برابر توکن بات (${iso('xoxb-…')}) برنامه‌ی نصب‌شده بگذارید؛ اگر ${iso('SLACK_API_URL')} تنظیم شده، آن را هم بررسی کنید`,
    docScopesOk: (count: string) => `همه‌ی دسترسی‌هایی که مانیفست می‌خواهد (${count})`,
    docScopesMissing: (scopes: string) => `توکن این دسترسی‌ها را ندارد: ${iso(scopes)}`,
    docScopesFix: `آن‌ها را در OAuth & Permissions بیفزایید (یا برنامه را از ${iso('manifest.yml')} به‌روز کنید)، برنامه را دوباره نصب کنید و ${iso('SLACK_BOT_TOKEN')} تازه را بگذارید`,
    docChannelIn: (id: string, name: string) => `بات در ${iso(id)} هست (${iso(`#${name}`)})`,
    docChannelOut: (id: string, name: string) => `بات در ${iso(id)} نیست (${iso(`#${name}`)})`,
    docChannelInvite: (name: string) => `در Slack، در ${iso(`#${name}`)} بنویسید ${iso('/invite @vidops')}`,
    docChannelError: (id: string, why: string) => `${iso(id)}: ${iso(why)}`,
    docChannelFix: 'شناسه‌ی کانال را بگذارید (C…، از جزئیات کانال)، نه نام آن را',
    docKeyUnset: `تنظیم نشده: هیچ نقطه‌ی بازبینی امضا نمی‌شود (${iso('AUDIT_SIGNING_KEY_FILE')}، ${iso('docs/audit-checkpoints.md')})`,
    docKeyUnreadable: (path: string) => `${iso(path)} خوانده نمی‌شود`,
    docKeyUnreadableFix: `${iso('AUDIT_SIGNING_KEY_FILE')} را به کلید نشانی دهید (${iso('vidops audit keygen')} یکی می‌سازد)`,
    docStateNotYet: (path: string) => `${iso(path)} هنوز ساخته نشده است: نخستین نقطه‌ی بازبینی آن را می‌سازد`,
    docModeOpen: (path: string, mode: string) =>
      `${iso(path)} مجوز ${iso(mode)} دارد: دیگران می‌توانند آن را بخوانند یا تغییر دهند`,
    docModeFix: (path: string) => `اجرا کنید: ${iso(`chmod 600 ${path}`)}`,
    docModeOk: (path: string, mode: string) => `${iso(path)} مجوز ${iso(mode)} دارد`,
    docExtends: 'گزارش ممیزی ادامه‌ی آخرین نقطه‌ی بازبینی است که کلید امضا کرده',
    docRefused: (reason: string) => `نقطه‌ی بازبینی پذیرفته نشد: ${iso(reason)}`,
    docRefusedFix: `اگر پایگاه داده را عمداً بازگردانده‌اید: ${iso('vidops audit verify')}، سپس ${iso('vidops audit checkpoint --accept-baseline --reason "…"')}؛ وگرنه آن را دست‌کاری بدانید`,
    docKeyError: (why: string) => `کلید خوانده نشد: ${iso(why)}`,
    docKeyErrorFix: `${iso('AUDIT_SIGNING_KEY_FILE')} و ${iso('AUDIT_LOG_NAME')} را بررسی کنید`,
    docVideoOk: (url: string, ms: string, count: string) =>
      `${iso(url)} به خواندن لیست سفید در ${ms} میلی‌ثانیه پاسخ داد (${count} نشانی)`,
    docVideoFailed: (url: string, why: string) => `${iso(url)}: ${iso(why)}`,
    docVideoSlow: (url: string, ms: string, limit: string, count: string) =>
      `${iso(url)} به خواندن لیست سفید در ${ms} میلی‌ثانیه پاسخ داد، کندتر از ${limit} میلی‌ثانیه (${count} نشانی): هر پاسخی که منتظر آن است همین‌قدر کند است`,
    docVideoSlowFix: `شبکه‌ی میان این میزبان و سرویس، و بار سرویس را بررسی کنید؛ برای اندازه‌گیری دوباره ${iso('vidops doctor')} را دوباره اجرا کنید`,
    docVideoFix: `${iso('VIDEO_API_URL')}، ${iso('VIDEO_API_KEY')} و ${iso('VIDEO_SECRET_KEY')} را بررسی کنید، و این‌که این میزبان به سرویس دسترسی داشته باشد`,
    docClockSkew: (here: string, db: string, seconds: string) =>
      `این میزبان می‌گوید ${here} و پایگاه داده ${db} (${seconds} ثانیه فاصله)`,
    docClockFix: `NTP را روی هر دو میزبان روشن کنید (${iso('timedatectl set-ntp true')})`,
    docClockOk: (limit: string, ms: string) =>
      `کمتر از ${limit} ثانیه با ساعت پایگاه داده فاصله دارد (${ms} میلی‌ثانیه)`,
    docPolicyBad: (why: string) => `سیاست خوانده نشد: ${iso(why)}`,
    docPolicyFix: `${iso('POLICY_FILE')}، ${iso('LEADS')} یا ${iso('AGENTS')} را همان‌طور که پیام می‌گوید درست کنید`,
    docPeopleUnknown: (ids: string) => `Slack این‌ها را به‌عنوان کاربر یا گروه فعال نمی‌شناسد: ${iso(ids)}`,
    docPeopleFix: `شناسه‌ها را در ${iso('LEADS')}، ${iso('AGENTS')} یا ${iso('POLICY_FILE')} درست کنید (شناسه‌ی کاربر U… یا W… است و گروه کاربری S…، از نمایه‌های Slack)`,
    docPeopleOk: (count: string) => `Slack همه‌ی ${count} فرد و گروهی را که سیاست نام می‌برد می‌شناسد`,
    bakPostgres: `${iso('vidops backup')} از پایگاه داده‌ی SQLite نسخه می‌گیرد؛ این ${iso('DATABASE_URL')} پایگاه PostgreSQL است: با ${iso('pg_dump')} از آن پشتیبان بگیرید و کلید امضا، فایل وضعیت آن، ${iso('AUDIT_HMAC_KEY')} و ${iso('VIDEO_SECRET_KEY')} را کنار آن نگه دارید (${iso('docs/operations.md')}، بخش «Backup and restore»).`,
    bakInMemory: `پایگاه داده‌ی درون حافظه (${iso('sqlite::memory:')}) چیزی برای پشتیبان‌گیری ندارد.`,
    bakNoDatabase: (path: string) => `در ${iso(path)} پایگاه داده‌ی vidops نیست (${iso('DATABASE_URL')}).`,
    bakSameFile: (path: string) => `${iso(path)} خودِ پایگاه داده است: برای پشتیبان فایل دیگری نام ببرید.`,
    bakNotVerified: (source: string, dest: string) =>
      `پشتیبانی نوشته نشد: نسخه‌ی ${iso(source)} درستی‌سنجی نشد (بالا)؛ ${iso(dest)} همان‌طور که بود ماند.`,
    bakWritten: (dest: string, source: string) =>
      `پشتیبان نوشته شد: ${iso(dest)} (مجوز ${iso('600')})، نسخه‌ای از ${iso(source)} که با ${iso('audit verify')} درستی‌سنجی شد.`,
    verChainIntact: (_count, shown, head) =>
      `زنجیره سالم است: ${shown} رویداد، ${head}؛ هر ستون ذخیره‌شده با رویداد خود می‌خواند`,
    verHeadNone: 'هنوز رویدادی نیست',
    verHead: (seq, hash) => `سر زنجیره رویداد ${seq} با هش ${iso(`${hash}…`)}`,
    verColumn: (reason) => `گزارش ممیزی بیرون از زنجیره ویرایش شده است: ${iso(reason)}.`,
    verBroken: (seq, reason) => `زنجیره در رویداد ${seq} شکسته است: ${iso(reason)}.`,
    verBefore: (_count, shown) => `${shown} رویداد پیش از آن درستی‌سنجی شد.`,
    verHmacStore: (set) =>
      `اگر رویدادی ویرایش نشده، ${iso('AUDIT_HMAC_KEY')} را بررسی کنید: باید کلید همین استقرار باشد (اینجا ${set ? 'تنظیم شده است' : 'تنظیم نشده است'}).`,
    verHmacFiles: `اگر رویدادی ویرایش نشده و استقرار ${iso('AUDIT_HMAC_KEY')} را تنظیم می‌کند، آن را با ${iso('--hmac-key-file')} بدهید.`,
    verRemembered: (path) =>
      `نقطه‌های بازبینی: کلید امضا نقطه‌ی بازبینی‌ای را به یاد دارد که پایگاه داده ندارد (${iso(path)})؛ آن هم با گزارش سنجیده می‌شود`,
    verNoneUnset: `نقطه‌های بازبینی: هیچ‌کدام ذخیره نشده است (${iso('AUDIT_SIGNING_KEY_FILE')} اینجا تنظیم نشده)؛ فقط زنجیره ضامن گزارش است و رویدادهای بریده‌شده از انتهای آن را نشان نمی‌دهد`,
    verNoneYet: 'نقطه‌های بازبینی: هنوز هیچ‌کدام ذخیره نشده است؛ فقط زنجیره ضامن گزارش است',
    verHold: (_count, shown, signers, time, size, _events, eventsShown) =>
      `نقطه‌های بازبینی: ${shown} نقطه‌ی بازبینی درست است، با امضای ${iso(signers)}؛ تازه‌ترین${time === null ? '' : `، از ${time}،`} ${size} رویداد از ${eventsShown} رویداد را پوشش می‌دهد`,
    verAfter: (from, to) => `؛ رویدادهای ${from} تا ${to} پس از آن آمده‌اند: فقط زنجیره ضامن آن‌هاست`,
    verCheckpointFailed: (message) => `سنجش نقطه‌ی بازبینی نادرست بود: ${iso(message)}.`,
    verMoreProblems: (more) => `… و ${more} مشکل دیگر در نقطه‌های بازبینی.`,
    verOriginStore: (origin) =>
      `نقطه‌ی بازبینیِ گزارشی دیگر نادرست است: ${iso('AUDIT_LOG_NAME')} را بررسی کنید، که باید مال همین استقرار باشد (اینجا گزارش ${iso(origin)} است).`,
    verOriginFiles: (name) =>
      `نقطه‌ی بازبینیِ گزارشی دیگر نادرست است: کلیدهای عمومیِ داده‌شده مال ${iso(name)} هستند.`,
    verUnknownKey: `نقطه‌ی بازبینی‌ای که کلیدش داده نشده نادرست است: کلید عمومی هر کلیدی را که تا کنون به کار رفته با ${iso('--pubkey')} بدهید (پس از چرخش کلید، کلیدهای قدیمی را هم).`,
    verEventsOk: (_count, shown) => `رویدادها: ${shown} رویداد، هر هش و پیوند درست است`,
    verOk: 'درست',
    verExportFailed: 'نادرست: خروجی درستی‌سنجی نشد.',
    verNotCheckpoints: (message) => `نادرست: فایل نقطه‌های بازبینی چنین فایلی نیست: ${iso(message)}`,
    verNoCheckpoint: 'نادرست: فایل نقطه‌های بازبینی هیچ نقطه‌ی بازبینی‌ای ندارد: چیزی ضامن گزارش نیست.',
  },
);
