import { isChangeOperation, OPERATION_SPECS } from '../../core/catalog.js';
import * as core from '../../core/said.js';
import type { ResourceKind } from '../../core/validate/ids.js';
import { defineArea } from '../define.js';
import { FSI, PDI, persianDigits } from '../format.js';
import { SAID_ENGLISH } from './errors-en.js';

/**
 * Errors and refusals: the core's sentences (`say.…`, src/core/said.ts; their English side is
 * errors-en.ts) and what views/errors.ts says of the video service's failures.
 *
 * Parameters of the core's sentences come raw (what was typed, codes, counts): the Persian side
 * isolates every left-to-right token itself, keeping its Latin digits, and writes counts with
 * Persian digits. Parameters of the view's own phrases come formatted already.
 * @see docs/architecture.md, "Languages"
 */

/** A left-to-right token (what was typed, an ID, an address, a code span) isolated in Persian text. */
function iso(token: string): string {
  return `${FSI}${token}${PDI}`;
}

/** What was typed, quoted the Persian way and isolated. */
/** A moment in `timeZone`, Solar Hijri with Persian digits: `۵ آذر ۱۴۰۵، ساعت ۱۸:۰۰`. */
function solarClock(at: string, timeZone: string): string {
  const ms = Date.parse(at);
  if (!Number.isFinite(ms)) return iso(at);
  try {
    return new Intl.DateTimeFormat('fa-IR-u-ca-persian-nu-arabext', {
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(ms);
  } catch {
    return iso(at); // a time zone Intl does not know
  }
}

function typed(text: string): string {
  return `«${iso(text)}»`;
}

/** A code span, isolated from outside its backticks. */
function code(text: string): string {
  return iso(`\`${text}\``);
}

function n(value: number): string {
  return persianDigits(String(value));
}

const faList = new Intl.ListFormat('fa', { type: 'conjunction' });

const KIND: Readonly<Record<ResourceKind, string>> = {
  folder: 'پوشه',
  file: 'فایل',
  playlist: 'پلی‌لیست',
};

const REGIONS = new Intl.DisplayNames(['fa'], { type: 'region', fallback: 'code' });

/** `PH` → `فیلیپین (PH)`; the code kept, isolated, as people search for it. */
function country(code: string): string {
  if (code === core.NO_COUNTRY) return 'هیچ کشور مشخصی (شماره‌ی غیرجغرافیایی)';
  const name = REGIONS.of(code) ?? code;
  return name === code ? iso(code) : `${name} (${iso(code)})`;
}

const PHONE_KIND: Readonly<Record<core.PhoneKind, string>> = {
  FIXED_LINE: 'تلفن ثابت',
  MOBILE: 'شماره‌ی موبایل',
  FIXED_LINE_OR_MOBILE: 'شماره‌ی ثابت یا موبایل',
  TOLL_FREE: 'شماره‌ی رایگان',
  PREMIUM_RATE: 'شماره‌ی با تعرفه‌ی ویژه',
  SHARED_COST: 'شماره‌ی با هزینه‌ی مشترک',
  VOIP: `شماره‌ی اینترنتی (${iso('VoIP')})`,
  PERSONAL_NUMBER: 'شماره‌ی شخصی',
  PAGER: 'شماره‌ی پیجر',
  UAN: `شماره‌ی سازمانی (${iso('UAN')})`,
  VOICEMAIL: 'شماره‌ی پست صوتی',
};

const IP_WHAT: Readonly<Record<core.IpBlockKind, (cidr: string) => string>> = {
  unspecified: () => 'نشانی تعیین‌نشده است',
  thisNetwork: (c) => `در بازه‌ی ${iso(c)} است که یعنی «همین شبکه»`,
  loopback: (c) => `نشانی ${iso('loopback')} (${iso(c)}) است`,
  theLoopback: () => `نشانی ${iso('loopback')} است`,
  linkLocal: (c) => `نشانی ${iso('link-local')} (${iso(c)}) است`,
  broadcast: () => `نشانی ${iso('broadcast')} است`,
  multicast: (c) => `نشانی ${iso('multicast')} (${iso(c)}) است`,
  reserved: (c) => `نشانی رزروشده (${iso(c)}) است`,
  documentation: (c) => `نشانی مخصوص مستندات (${iso(c)}، فقط برای مثال) است`,
  benchmarking: (c) => `نشانی مخصوص آزمون کارایی (${iso(c)}) است`,
  private: (c) => `نشانی خصوصی (${iso(c)}) است`,
  carrierNat: (c) => `نشانی ${iso('NAT')} اپراتور (${iso(c)}) است`,
  ipv4Compatible: (c) => `نشانی ${iso('IPv4-compatible')} (${iso(c)}، کنارگذاشته از ۲۰۰۶) است`,
  siteLocal: (c) => `نشانی ${iso('site-local')} (${iso(c)}، کنارگذاشته) است`,
  uniqueLocal: (c) => `نشانی خصوصی ${iso('unique local')} (${iso(c)}) است`,
};

const IP_WHY: Readonly<Record<core.IpBlockWhy, string>> = {
  noCaller: 'هیچ سروری از آن درخواست نمی‌فرستد',
  itself: 'یعنی خود همان دستگاه، نه سروری که درخواست می‌فرستد',
  local: 'هیچ‌وقت از شبکه‌ی خودش بیرون نمی‌رود',
  notSeen:
    'سرویس روی اینترنت است و نشانی عمومی سروری را می‌بیند که به آن درخواست می‌فرستد، پس این نشانی هیچ‌وقت جور درنمی‌آید؛ نشانی عمومی را بدهید',
};

/** Where the values come from instead, as the catalog's words specs say it. */
const WHY: Readonly<Record<string, string>> = {
  'the form asks for the title': 'عنوان را فرم می‌پرسد',
};

function bullets(lines: readonly string[]): string {
  return lines.map((line) => `• ${line}`).join('\n');
}

function fa(said: core.Said): string {
  const phrase = SAID_PERSIAN[said.key] as (...params: readonly unknown[]) => string;
  return phrase(...said.params);
}

/** An operation in Persian: its title in «», or `audit` (the command's own word). */
function operationFa(operation: string, title: string | null): string {
  if (title === null) return code('audit');
  return `«${isChangeOperation(operation) ? OPERATION_SPECS[operation].fa.cli : iso(title)}»`;
}

const FA_RESOURCES: Readonly<Record<string, string>> = { folder: 'پوشه', file: 'فایل', playlist: 'پلی‌لیست' };

/**
 * The target a stored sentence names (a delete's, `folder 6710…`: these sentences are kept in the
 * audit log as they were said) in Persian, its ID isolated; any other text isolated whole.
 */
function faTarget(target: string): string {
  const space = target.indexOf(' ');
  const word = FA_RESOURCES[target.slice(0, space)];
  return space > 0 && word !== undefined ? `${word} ${iso(target.slice(space + 1))}` : iso(target);
}

/** A time as the core writes it (`10:02 UTC`, `2026-11-20 10:02 UTC`), isolated. */
function at(time: string): string {
  return iso(time);
}

const PERIOD_FA: Readonly<Record<string, string>> = { s: 'ثانیه', m: 'دقیقه', h: 'ساعت', d: 'روز' };

/** `'1h'` → `ساعت`, `'24h'` → `۲۴ ساعت`. */
function periodFa(text: string): string {
  const match = /^(\d+)([smhd])$/.exec(text.trim());
  if (!match) return iso(text);
  const amount = Number(match[1]);
  const name = PERIOD_FA[match[2] ?? ''] ?? iso(match[2] ?? '');
  return amount === 1 ? name : `${n(amount)} ${name}`;
}

const SPAN_FA: readonly [string, number][] = [
  ['روز', 86_400_000],
  ['ساعت', 3_600_000],
  ['دقیقه', 60_000],
  ['ثانیه', 1000],
];

/** A length of time in milliseconds, exactly, as `spanEnglish` says it: `۷ روز`, `۱ ساعت و ۳۰ دقیقه`. */
function spanFa(ms: number): string {
  const parts: string[] = [];
  let left = Math.max(0, Math.floor(ms / 1000) * 1000);
  for (const [name, size] of SPAN_FA) {
    const amount = Math.floor(left / size);
    left -= amount * size;
    if (amount > 0) parts.push(`${n(amount)} ${name}`);
  }
  return parts.length === 0 ? `${n(0)} ثانیه` : faList.format(parts);
}

const LOOKED_UP: Readonly<Record<string, string>> = { ...KIND, viewer: 'بیننده' };

function failureFa(failure: core.Failure): string {
  switch (failure.kind) {
    case 'timeout':
      return 'سرویس به‌موقع پاسخ نداد';
    case 'unreachable':
      return `دسترسی به سرویس ممکن نشد${failure.code === null ? '' : ` (${iso(failure.code)})`}`;
    case 'unreadable':
      return 'سرویس پاسخی داد که vidops نمی‌تواند بخواند';
    case 'answered':
      return `سرویس با ${n(failure.status)} پاسخ داد`;
    case 'refusedBefore':
      return 'درخواست پیش از فرستادن رد شد';
    case 'failed':
      return 'تماس با سرویس ناموفق بود';
  }
}

/** What was wanted of request `r`, as a Persian verb phrase: `درخواست X را تأیید کرد`. */
const WANTED_FA: Readonly<Record<core.Wanted, (r: string) => string>> = {
  approved: (r) => `${r} را تأیید کرد`,
  rejected: (r) => `${r} را رد کرد`,
  cancelled: (r) => `${r} را لغو کرد`,
  escalated: (r) => `${r} را به تأییدکنندگان پشتیبان ارجاع داد`,
  'warned about': (r) => `درباره‌ی انقضای ${r} هشدار داد`,
  expired: (r) => `${r} را منقضی‌شده اعلام کرد`,
  'sent again': (r) => `${r} را دوباره فرستاد`,
  settled: (r) => `تکلیف نتیجه‌ی ${r} را روشن کرد`,
  'run by break-glass': (r) => `${r} را با شکستن شیشه اجرا کرد`,
  'reminded about': (r) => `درباره‌ی ${r} یادآوری فرستاد`,
  started: (r) => `اجرای ${r} را شروع کرد`,
  'marked as succeeded': (r) => `${r} را موفق ثبت کرد`,
  'marked as failed': (r) => `${r} را ناموفق ثبت کرد`,
  'marked as unknown': (r) => `${r} را با نتیجه‌ی نامعلوم ثبت کرد`,
};

function names(list: readonly string[]): string {
  return faList.format(list.map(iso));
}

/** Where a request stands, in Persian: the same facts as the English `stateEnglish`. */
function stateFa(f: core.StateFacts): string {
  const approvedBy =
    f.approvers.length === 0
      ? ''
      : `${names(f.approvers)} آن را تأیید ${f.approvers.length === 1 ? 'کرده' : 'کرده‌اند'} و `;
  const by = f.by === null ? '' : ` توسط ${iso(f.by)}`;
  const settled = f.by === null ? '' : `؛ تکلیفش را ${iso(f.by)} روشن کرده است`;
  switch (f.state) {
    case 'pending':
      return `هنوز منتظر تأیید است (${n(f.approvals)} از ${n(f.quorum)})`;
    case 'approved':
      return `قبلاً${f.approvers.length === 0 ? '' : ` توسط ${names(f.approvers)}`} در ${at(f.at)} تأیید شده و منتظر اجراست`;
    case 'executing':
      return `${approvedBy}از ${at(f.at)} در حال اجراست`;
    case 'succeeded':
      return `${approvedBy}در ${at(f.at)} اجرا شده است${settled}`;
    case 'failed':
      return `${approvedBy}در ${at(f.at)} اجرا شده و ناموفق بوده است${f.error === null ? '' : ` (${iso(f.error)})`}${settled}`;
    case 'rejected':
      return `قبلاً${by} در ${at(f.at)} رد شده است`;
    case 'cancelled':
      return `قبلاً${by} در ${at(f.at)} لغو شده است`;
    case 'expired':
      return `قبلاً در ${at(f.expiredAt)} بدون تأییدهای کافی منقضی شده است`;
    case 'unknown':
      return `در ${at(f.at)} با نتیجه‌ی نامعلوم مانده است: شاید اعمال شده باشد و شاید نه`;
  }
}

/** What was wanted, in Persian; a word this build does not know is shown as it is. */
function wantedFa(wanted: core.Wanted, r: string): string {
  const phrase = WANTED_FA[wanted] as ((r: string) => string) | undefined;
  return phrase === undefined ? `${r} را «${iso(wanted)}»` : phrase(r);
}

/** `درخواست R-1 را نمی‌توان …`: the request ID isolated. */
function req(id: string): string {
  return `درخواست ${iso(id)}`;
}

/** How to give a person to `/vidops delegate`, in Persian. */
const PICK_MENTION_FA =
  'شخص را هنگام تایپ @ از فهرست منشن Slack انتخاب کنید (Slack او را به شکل منشنی می‌فرستد که vidops می‌خواند)؛ یک نام ساده می‌تواند هر کسی باشد.';

const SAID_PERSIAN: core.SaidWords = {
  phoneUnknownRegion: (region) => `${typed(region || '—')} منطقه‌ی تلفنی شناخته‌شده‌ای نیست`,
  phoneForeign: (text, region, accepted) =>
    `${iso(text)} شماره‌ی موبایلی در ${country(region)} است؛ اینجا فقط شماره‌های ${faList.format(accepted.map(country))} پذیرفته می‌شود`,
  phoneEmpty: () => 'شماره‌ی موبایلی داده نشد',
  phoneLetters: (text) => `${typed(text)} حرف دارد`,
  phoneSeveral: (text, count) => `${typed(text)} ${n(count)} شماره دارد؛ هر بار یک شماره بدهید`,
  phoneStray: (text, characters) =>
    `${typed(text)} نویسه‌هایی دارد که در شماره‌ی تلفن نمی‌آید: ${iso(characters.join(' '))}`,
  phoneNoDigits: () => 'هیچ رقمی داده نشد',
  phoneNotMobile: (read, kind, where) =>
    `${iso(read)} ${kind === null ? 'شماره‌ی موبایل نیست' : `${PHONE_KIND[kind]} است، نه شماره‌ی موبایل`}${
      where === undefined ? '' : ` (در ${where === null ? 'کشور خودش' : country(where)})`
    }`,
  phoneInvalid: (read, region) => `${iso(read)} شماره‌ی معتبری برای ${country(region)} نیست`,
  phoneTooLongAtAll: (read) => `${iso(read)} بیش از حد بلند است`,
  phoneNoCountryCode: (read) => `${iso(read)} با کد هیچ کشوری شروع نمی‌شود`,
  phoneLandline: (read) => `${iso(read)} تلفن ثابت است، نه شماره‌ی موبایل`,
  phoneTooShort: (read, region) => `${iso(read)} برای شماره‌ی موبایل در ${country(region)} کوتاه است`,
  phoneTooLong: (read, region) => `${iso(read)} برای شماره‌ی موبایل در ${country(region)} بلند است`,

  idNone: (kind) => `شناسه‌ی ${KIND[kind]} داده نشد`,
  idSpaces: (kind, id) => `شناسه‌ی ${KIND[kind]} ${typed(id)} فاصله دارد؛ فقط یک شناسه بدهید`,
  idSlash: (kind, id) =>
    `شناسه‌ی ${KIND[kind]} ${typed(id)} خط مورب (/) دارد؛ خود شناسه را بدهید، نه مسیر یا پیوند`,
  idControl: (kind) => `شناسه‌ی ${KIND[kind]} نویسه‌ی کنترلی دارد`,
  idDots: (kind, id) => `${typed(id)} شناسه‌ی ${KIND[kind]} نیست: شناسه هیچ‌وقت فقط از نقطه ساخته نمی‌شود`,
  idShape: (kind, id) =>
    `شناسه‌ی ${KIND[kind]} ${iso(id)} مثل شناسه‌های سرویس ۲۴ رقم هگز نیست (مثلاً ${iso('671018d0403eba579a6f90e2')})؛ آن را بررسی کنید`,

  ipNone: () => 'هیچ نشانی IP داده نشد',
  ipUnusable: (ip, block, mapped) =>
    `${iso(ip)} ${mapped ? `در شکل ${iso('IPv4-mapped')}، ` : ''}${IP_WHAT[block.kind](block.cidr)}: ${IP_WHY[core.IP_BLOCK_WHY[block.kind]]}`,
  ipUrl: (token) => `${typed(token)} یک URL است؛ نشانی IP سرور را بدهید`,
  ipRange: (token) => `${typed(token)} یک بازه (CIDR) است؛ نشانی‌ها را تک‌تک بنویسید`,
  ipZone: (token) => `${typed(token)} شاخص zone (${iso('%…')}) دارد؛ فقط خود نشانی را بدهید`,
  ipBrackets: (token, port) =>
    `${typed(token)} کروشه${port ? ' و پورت' : ''} دارد؛ فقط خود نشانی IPv6 را بدهید`,
  ipPort: (token) => `${typed(token)} پورت دارد؛ فقط خود نشانی را بدهید`,
  ipBadIpv4: (token) => `${typed(token)} نشانی IPv4 معتبری نیست (چهار عدد از ۰ تا ۲۵۵، بی‌صفر در آغاز)`,
  ipHostName: (token) => `${typed(token)} نام میزبان است؛ نشانی IP آن را بدهید`,
  ipNotIp: (token) => `${typed(token)} نشانی IPv4 یا IPv6 نیست`,

  protNone: () => `هیچ تنظیمی داده نشد؛ به شکل ${iso('field=value')} بنویسید، مثلاً ${iso('opacity=0.5')}`,
  protNoValue: (pair) => `${typed(pair)} مقدار ندارد؛ به شکل ${iso('field=value')} بنویسید`,
  protNoName: (pair) => `${typed(pair)} نام تنظیم ندارد؛ به شکل ${iso('field=value')} بنویسید`,
  protUnknown: (name, guess) =>
    `تنظیمی به نام ${typed(name)} نداریم${guess === null ? '' : `؛ منظورتان ${typed(guess)} بود؟`}`,
  protTwice: (field) => `${iso(field)} بیش از یک بار آمده است`,
  protNeedsValue: (field) => `${iso(field)} مقدار می‌خواهد`,
  protBadValue: (field, problem) => `${iso(field)}: ${fa(problem)}`,
  protIssue: (path, message) => `${iso(path)}: ${iso(message)}`,
  protNotSwitch: (raw) =>
    `${typed(raw)} روشن یا خاموش نیست؛ یکی از ${iso('true/false')}، ${iso('on/off')} یا ${iso('yes/no')} را بنویسید`,
  protNotNumber: (raw) => `${typed(raw)} عدد نیست`,
  protBelow: (raw, min) => `${iso(raw)} بیرون از محدوده است؛ باید ${n(min)} یا بیشتر باشد`,
  protOutside: (raw, min, max) => `${iso(raw)} بیرون از محدوده است؛ باید بین ${n(min)} و ${n(max)} باشد`,
  protNotColour: (raw, colours) => `${typed(raw)} از رنگ‌های واترمارک نیست: ${iso(colours.join(', '))}`,
  protNotDuration: (raw) =>
    `${typed(raw)} مدت زمان نیست؛ یک عدد و یک واحد بنویسید (${iso('s m h d w M y')})، مثلاً ${iso('2h')}، ${iso('1d')} یا ${iso('1M')}`,

  grammarSayWhat: (keyword, commands) =>
    `بگویید با ${iso(keyword)} چه کنید: ${commands.map((c) => code(`/vidops ${c}`)).join('، ')}.`,
  grammarHintAdd: (ip, rest) =>
    `برای افزودن ${iso(ip)} به لیست سفید، بنویسید ${code(`/vidops whitelist add ${rest}`)}.`,
  grammarHintSet: (rest) => `برای تغییر تنظیمات، بنویسید ${code(`/vidops protect set ${rest}`)}.`,
  grammarHintRetry: (rest) => `برای تبدیل دوباره، بنویسید ${code(`/vidops retry ${rest}`)}.`,
  grammarNoMobile: () => 'شماره‌ی موبایل بیننده‌ای را که باید رفع مسدودی شود بدهید.',
  grammarNobodyUnblocked: (reason) => `مسدودی هیچ بیننده‌ای برداشته نشد: ${fa(reason)}.`,
  listNoNumber: () => 'در این سطر شماره‌ای نیست',
  grammarNoIps: (change) =>
    change === 'add' ? 'نشانی‌های IP را که باید افزوده شوند بدهید.' : 'نشانی‌های IP را که باید حذف شوند بدهید.',
  grammarWhitelistRefused: (problems) => `لیست سفید تغییری نکرد:\n${bullets(problems.map(fa))}`,
  grammarNoSettings: () => `تنظیم‌هایی را که باید تغییر کنند به شکل ${iso('field=value')} بدهید.`,
  grammarSettingsRefused: (problems) => `تنظیمات تغییری نکرد:\n${bullets(problems.map(fa))}`,
  grammarBadCount: (raw, max) => `${typed(raw)} تعداد رویدادی از ۱ تا ${n(max)} نیست.`,
  delegSayWho: () => `بنویسید چه کسی به‌جای شما تأیید کند. ${PICK_MENTION_FA}`,
  delegNotMention: (first) => `${typed(first)} منشنی نیست که vidops بتواند بخواند. ${PICK_MENTION_FA}`,
  delegMissingUntil: () =>
    `بنویسید تا کی: ${code('until 4h')}، ${code('until 2d')}، تاریخی شمسی مثل ${code('until 1405/09/10')} یا میلادی مثل ${code('until 2026-12-01')}، یا ${code('until 1405/09/10T18:00')} (به وقت محلی؛ برای UTC یک ${iso('Z')} در پایان بگذارید).`,
  delegBadUntil: (text) =>
    `${typed(text)} نه مدت زمان است (${iso('30m')}، ${iso('4h')}، ${iso('2d')}) و نه تاریخ (شمسی مثل ${iso('1405/09/10')} یا میلادی مثل ${iso('2026-12-01')}، یا ${iso('1405/09/10T18:00')}؛ برای UTC یک ${iso('Z')} در پایان بگذارید).`,
  delegPast: (when) => `${iso(when)} گذشته است؛ تفویض باید در آینده تمام شود.`,
  delegTooLong: () => 'تفویض حداکثر ۳۰ روز طول می‌کشد.',
  boxUnreadable: (text) =>
    `${typed(text)} نه مدت زمان است (${iso('15m')}، ${iso('2h')}، ${iso('1d')}، ${iso('1w')}، ${iso('1h30m')}) و نه زمان پایان (شمسی مثل ${iso('1405/09/10T18:00')} یا میلادی مثل ${iso('2026-12-01T18:00')}؛ برای UTC یک ${iso('Z')} در پایان بگذارید).`,
  boxNotPositive: (text) =>
    `${typed(text)} اصلاً زمانی نیست: مدتی بیشتر از صفر بخواهید، مثلاً ${code('for 2h')}.`,
  boxTooShort: (text, minMs) => `${typed(text)} خیلی کوتاه است: دست‌کم ${spanFa(minMs)} بخواهید.`,
  boxTooLong: (text, maxMs) => `${typed(text)} خیلی طولانی است: سیاست حداکثر ${spanFa(maxMs)} را می‌پذیرد.`,
  boxPast: (text) => `${typed(text)} گذشته است: زمان پایانی در آینده بدهید.`,
  boxNoWindow: (word) =>
    `بعد از ${code(word)} بنویسید تا کی: ${code('for 2h')}، ${code('for 1h30m')} یا ${code('until 1405/09/10T18:00')}.`,
  boxNotLast: (word) =>
    `${code(`${word} …`)} را در پایان دستور و بعد از همه‌چیز بنویسید، مثلاً ${code('/vidops whitelist add 5.6.7.8 for 30m')}.`,
  boxTwice: () => `فقط یک بازه بدهید، ${code('for …')} یا ${code('until …')}، و فقط یک بار.`,
  boxCliWords: (word) =>
    `در خط فرمان بازه یک پرچم است: به‌جای ${code(`${word} …`)} بنویسید ${code('--for 2h')}.`,
  boxNotTimeBoxed: (operation, title, undo) =>
    `${operationFa(operation, title)} را نمی‌توان برای مدتی خواست: فقط تنظیمات حفاظت و تغییرهای لیست سفید خودشان برمی‌گردند. ${
      undo === 'revert' ? 'پس از انجام، «بازگرداندن…» آن را برمی‌گرداند.' : 'این تغییر برگرداندنی هم نیست.'
    }`,
  boxRequired: (operation, title, maxMs) =>
    `${operationFa(operation, title)} را باید برای مدتی خواست: ${code('for 2h')} را اضافه کنید (حداکثر ${spanFa(maxMs)})، و vidops در پایان آن را برمی‌گرداند.`,
  grammarBadLanguage: (raw, choices) =>
    `${typed(raw)} زبانی نیست که vidops با آن حرف بزند؛ یکی از ${choices.map((w) => iso(`\`${w}\``)).join(' یا ')} را انتخاب کنید.`,
  grammarNoCode: () => `کد خطایی را که پخش‌کننده نشان می‌دهد بدهید، مثلاً ${iso('9910')}.`,
  grammarBadCode: (raw) => `${typed(raw)} کد خطای پخش‌کننده نیست؛ کد عددی است مثل ${iso('9910')}.`,
  grammarNoId: (kind, idName) => `شناسه‌ی ${KIND[kind]} (${iso(idName)}) را بدهید.`,
  grammarManyIds: (command, kind, words) =>
    `${code(command)} فقط یک شناسه‌ی ${KIND[kind]} می‌گیرد؛ ${n(words.length)} کلمه آمد: ${iso(words.join(' '))}.`,
  grammarIdRefused: (reason) => `${fa(reason)}.`,
  grammarUnknown: (text) =>
    `دستور ${typed(text)} را نمی‌شناسیم. ${code('/vidops help')} دستورهایی را که می‌توانید اجرا کنید فهرست می‌کند.`,
  grammarUnknownGuess: (text, guess) =>
    `دستور ${typed(text)} را نمی‌شناسیم. منظورتان ${code(`/vidops ${guess}`)} بود؟`,
  grammarNoSub: (command, text, subs) =>
    `${code(command)} چیزی به نام ${typed(text)} ندارد؛ این‌ها را دارد: ${subs.map((s) => code(`${command} ${s}`)).join('، ')}.`,
  grammarNoSubGuess: (command, text, guess) =>
    `${code(command)} چیزی به نام ${typed(text)} ندارد. منظورتان ${code(`/vidops ${command} ${guess}`)} بود؟`,
  grammarTooMany: (command, extra, why) =>
    `${code(command)} چیز دیگری نمی‌گیرد؛ ${typed(extra)} را بردارید${
      why === null ? '' : ` (${WHY[why] ?? iso(why)})`
    }.`,

  modalNobodyUnblocked: (reason) => `مسدودی هیچ بیننده‌ای برداشته نشد: ${fa(reason)}.`,
  modalNothingRetried: (reason) => `هیچ تبدیلی دوباره انجام نشد: ${fa(reason)}.`,

  prepNotThere: (kind, id) => `${KIND[kind]} ${iso(id)} وجود ندارد.`,
  prepWhitelistHas: (ips) =>
    `${ips.map(iso).join('، ')} از قبل در لیست سفید ${ips.length === 1 ? 'است' : 'هستند'}؛ چیزی برای افزودن نمانده است.`,
  prepWhitelistLacks: (ips) =>
    `${ips.map(iso).join('، ')} در لیست سفید ${ips.length === 1 ? 'نیست' : 'نیستند'}؛ چیزی برای حذف نمانده است.`,
  prepWhitelistSame: () => 'لیست سفید همین حالا دقیقاً همین نشانی‌ها را دارد؛ چیزی تغییر نمی‌کند.',
  prepNoSetting: () => 'هیچ تنظیمی برای تغییر داده نشد.',
  prepAlready: (rows) =>
    `چیزی تغییر نمی‌کند: ${rows.map((r) => `${iso(r.field)} همین حالا ${iso(r.value)} است`).join('، ')}.`,
  prepFolderSame: (id) => `پوشه‌ی ${iso(id)} همین حالا همین عنوان و توضیح را دارد؛ چیزی تغییر نمی‌کند.`,
  prepNoCover: () => 'از اینجا نمی‌شود تصویر کاور بارگذاری کرد؛ فقط عنوان و توضیح را ویرایش کنید.',
  execNoCover: () => 'تصویر کاور از اینجا دریافت نمی‌شود، پس فایل ویرایش نشد.',
  paramsInvalid: (operation, title, issues) =>
    `پارامترهای ${operationFa(operation, title)} معتبر نیستند: ${issues.map(iso).join('؛ ')}`,
  storedUnknownOperation: (id, operation) =>
    `درخواست ${iso(id)} برای ${iso(operation)} است، عملیاتی که این نسخه نمی‌شناسد.`,
  storedParamsInvalid: (id, operation, title, issues) =>
    `پارامترهای درخواست ${iso(id)} برای ${operationFa(operation, title)} معتبر نیستند: ${issues.map(iso).join('؛ ')}`,
  revertBeforeUnknown: () =>
    'vidops هرگز ندید پیش از این تغییر چه بود (سرویس نتوانست بگوید)، پس نمی‌شود آن را برگرداند.',
  revertNotDone: (id) => `${code(id)} انجام نشده است، پس چیزی برای برگرداندن نیست.`,
  revertNotRevertible: (id, title) =>
    `${code(id)} (${title}) برگرداندنی نیست: حذف، ساختن و کارهای یک‌طرفه عکسی ندارند.`,
  revertExtend: (id, original) =>
    `${code(id)} تمدید ${code(original)} است: فقط زمان برگشتن آن را تغییر داد، پس برگرداندن جداگانه‌ای ندارد. برای برگرداندن آن تغییر، ${code(original)} را برگردانید: برگرداندن کل بازهٔ زمانی را به پایان می‌رساند، همراه با همین تمدید.`,
  revertWindowEnded: (original, id) =>
    `${id === null ? '' : `${code(id)} فرستاده نشد: `}از ${code(original)} چیزی برای برگرداندن نمانده است، چون بازهٔ زمانی آن پیش از این پایان یافته است (برگردانده شد، یا برگردانده‌اش کردند).${id === null ? '' : ' چیزی تغییر نکرد.'}`,
  revertNothing: (id) =>
    `از ${code(id)} چیزی برای برگرداندن نمانده است: هر چه تغییر داده بود از آن زمان دوباره تغییر کرده است.`,
  revertDoneAlready: (original, by, id) =>
    `${id === null ? '' : `${code(id)} فرستاده نشد: `}${code(original)} پیش از این با ${code(by)} برگردانده شده است.${id === null ? '' : ' چیزی تغییر نکرد.'}`,
  revertAsked: (original, other) =>
    `برای ${code(original)} برگرداندنی خواسته شده است: ${code(other)}، که هنوز انجام نشده یا نتیجه‌اش معلوم نیست. برگرداندن دوم ممکن است تغییری را که پس از اولی داده شده برگرداند؛ چیزی ثبت نشد.`,
  revertInFlight: (id, original, other) =>
    `${code(id)} فرستاده نشد: ${code(other)}، برگرداندن دیگری از ${code(original)}، زودتر فرستاده شد و نتیجه‌اش هنوز معلوم نیست. چیزی تغییر نکرد.`,
  revertStale: (id, original) =>
    `${code(id)} فرستاده نشد: آنچه ${code(original)} تغییر داده بود پس از خواستن این برگرداندن دوباره تغییر کرد. چیزی تغییر نکرد؛ اگر هنوز لازم است، برگرداندن تازه‌ای برای ${code(original)} بخواهید.`,
  revertUnchecked: (id, original) =>
    `${code(id)} فرستاده نشد: سرویس خوانده نشد تا معلوم شود هنوز ${code(original)} را برمی‌گرداند. چیزی تغییر نکرد؛ وقتی سرویس پاسخ داد، برگرداندن تازه‌ای برای ${code(original)} بخواهید.`,
  revertNotYours: (id) => `فقط کسی که ${code(id)} را خواسته، یا یک سرپرست، می‌تواند آن را برگرداند.`,
  putBackNotInForce: (id) =>
    `${code(id)} تغییر زمان‌داری نیست که هنوز برقرار باشد: چیزی برای برگرداندن یا تمدید نیست.`,
  extendStale: (id, original) =>
    `${code(id)} فرستاده نشد: ${code(original)} دیگر برقرار نیست (برگردانده شده، یا در حال برگرداندن بود). چیزی تغییر نکرد؛ اگر هنوز لازم است، آن تغییر را دوباره بخواهید.`,
  putBackInterrupted: () =>
    'دوباره فرستاده نشد: vidops در میانهٔ این برگرداندن متوقف شد و سرویس ممکن است از آن زمان تغییر کرده باشد. تغییر دوباره خوانده می‌شود و از روی آنچه سرویس اکنون نشان می‌دهد برگردانده می‌شود.',
  putBackSuperseded: () =>
    'فرستاده نشد: فرایند دیگری از vidops این برگرداندن را به دست گرفت، وقتی این یکی متوقف مانده بود. این یکی چیزی را تغییر نداد.',
  boxHeld: (item, holder, requester, endsAt, timeZone) =>
    `${code(item)} در دست ${code(holder)} است (خواستهٔ <@${requester}>) ${endsAt === null ? 'تا وقتی برگردانده شود' : `تا ${solarClock(endsAt, timeZone)}`}: آن را تمدید کنید، یا اول برش گردانید. تغییری همیشگی (بی بازهٔ زمانی) می‌تواند جای آن را بگیرد.`,
  boxPassedWaiting: (id, text) =>
    `${code(id)} فرستاده نشد: پایان آن ${typed(text)} تا رسیدن تأیید گذشت. چیزی تغییر نکرد؛ با پایانی در آینده دوباره بخواهید.`,
  revertEditedSince: (id, original, fields) =>
    `${code(id)} فرستاده نشد: ${fields.map(code).join('، ')} از آنچه ${code(original)} ویرایش کرده بود پس از خواستن این برگرداندن دوباره تغییر کرد. چیزی تغییر نکرد؛ اگر هنوز لازم است، برگرداندن تازه‌ای برای ${code(original)} بخواهید.`,
  sendBusy: (seconds) =>
    `فرستاده نشد: تغییر دیگری از همین فهرست ${persianDigits(String(seconds))} ثانیه در حال فرستادن بود. این یکی چیزی را تغییر نداد؛ یک دقیقه بعد می‌شود دوباره امتحان کرد.`,
  reqUnsealed: (id) =>
    `${code(id)} را نمی‌شود تأیید یا اجرا کرد: سابقهٔ آن پس از درخواست در پایگاه داده تغییر کرده است (آنچه انجام می‌دهد، بازهٔ زمانی‌اش، درخواست‌کننده یا تعداد تأییدهای لازم دیگر مُهر vidops را ندارد)، یا با VIDEO_SECRET_KEY دیگری مُهر خورده است. چیزی تغییر نکرد؛ آن را دوباره بخواهید.`,
  resumeEnded: (id, ended) =>
    `دوباره فرستاده نشد: دفتر ممیزی می‌گوید ${code(id)} پیش‌تر پایان یافته است (${iso(ended)})، اما سابقهٔ آن از آن پس در پایگاه داده به عقب برگردانده شده است. چیزی در سرویس تغییر نکرد.`,
  sendUnsealed: () =>
    'فرستاده نشد: سابقهٔ این درخواست مُهر vidops را برای آنچه می‌فرستاد ندارد؛ پس پس از بررسی در پایگاه داده تغییر کرده، یا با VIDEO_SECRET_KEY دیگری مُهر خورده است. چیزی تغییر نکرد؛ آن را دوباره بخواهید.',
  prepConverted: (id, title) =>
    `فایل ${iso(id)}${title ? ` (${typed(title)})` : ''} قبلاً تبدیل شده است (وضعیت ${iso('done')})؛ چیزی برای تبدیل دوباره نیست.`,
  prepQueued: (id, title) =>
    `فایل ${iso(id)}${title ? ` (${typed(title)})` : ''} هنوز در صف تبدیل است (وضعیت ${iso('waiting')})؛ صبر کنید تا تمام شود یا خطا بدهد.`,
  prepPlaylistNothing: () => 'عنوان تازه، فهرست فایل‌ها یا هر دو را بدهید.',
  prepFilesMissing: (ids) =>
    ids.length === 1
      ? `فایل ${iso(ids[0] ?? '')} وجود ندارد؛ آن را از پلی‌لیست بیرون بیاورید یا شناسه را بررسی کنید.`
      : `فایل‌های ${ids.map(iso).join('، ')} وجود ندارند؛ آن‌ها را از پلی‌لیست بیرون بیاورید یا شناسه‌ها را بررسی کنید.`,
  noteToReject: () => 'بگویید چرا درخواست را رد می‌کنید: نوشتن یادداشت لازم است.',
  noteToSettle: () => 'بگویید در سرویس چه دیدید: نوشتن یادداشت لازم است.',

  warnLookUp: (what, failure) => `جست‌وجوی ${LOOKED_UP[what]} در سرویس ممکن نشد: ${failureFa(failure)}.`,
  warnCountFiles: (folder, failure) => `شمارش فایل‌های پوشه‌ی ${iso(folder)} ممکن نشد: ${failureFa(failure)}.`,
  warnWhitelistHas: (ips) =>
    `${ips.map(iso).join('، ')} از قبل در لیست سفید ${ips.length === 1 ? 'است' : 'هستند'}.`,
  warnWhitelistLacks: (ips) =>
    `${ips.map(iso).join('، ')} در لیست سفید ${ips.length === 1 ? 'نیست' : 'نیستند'}.`,
  warnRevertLeaves: (id, items) =>
    `این‌ها همان‌طور که اکنون هستند می‌مانند، چون پس از ${code(id)} دوباره تغییر کرده‌اند: ${items.map(code).join('، ')}.`,
  warnRevertChangedSince: (id) =>
    `این پس از ${code(id)} دوباره ویرایش شده است؛ برگرداندن، آنچه ${code(id)} جایگزین کرده بود را روی آن ویرایش بعدی می‌گذارد.`,
  warnWhitelistEmpty: () =>
    `لیست سفید خالی می‌شود: تا وقتی ${iso('ipValidation')} روشن است، هیچ سروری نمی‌تواند لینک بسازد.`,
  warnFilesUnchecked: (files, failure) =>
    files === null
      ? `جست‌وجوی فایل‌های پلی‌لیست در سرویس ممکن نشد: ${failureFa(failure)}. وجودشان بررسی نشد.`
      : files.length === 1
        ? `جست‌وجوی فایل ${iso(files[0] ?? '')} در سرویس ممکن نشد: ${failureFa(failure)}. وجودش بررسی نشد.`
        : `جست‌وجوی فایل‌های ${files.map(iso).join('، ')} در سرویس ممکن نشد: ${failureFa(failure)}. وجودشان بررسی نشد.`,
  warnFolderFiles: (folder, title, files) =>
    `حذف پوشه‌ی ${iso(folder)}${title ? ` (${typed(title)})` : ''} ${n(files)} فایل درون آن را هم حذف می‌کند؛ این کار برگشت‌پذیر نیست.`,
  warnNoViewingRecord: () => 'سرویس هیچ سابقه‌ی تماشایی برای این شماره ندارد.',
  warnNotBlocked: () => 'در سرویس، این بیننده جزو مسدودشده‌ها نیست.',

  whyRepeat: (nth, viewer, withinMs) => `${n(nth)}مین رفع مسدودی ${iso(viewer)} در ${spanFa(withinMs)}`,
  whyBatchSize: (size, max) => `دسته‌ای از ${n(size)} شماره، بیش از ${n(max)} شماره‌ی بی‌تأیید`,
  whyBatchRepeats: (count) => `${n(count)} بیننده‌ی تکراری در دسته`,
  whyRateLimit: (max, per) => `بیش از سقف ${n(max)} بار در هر ${periodFa(per)}`,

  polNotAgent: () => `شما جزو کارشناسانی نیستید که اجازه‌ی کار با vidops را دارند (${iso('AGENTS')}).`,
  polOnlyLeads: (operation, title) => `فقط سرپرست‌ها می‌توانند ${operationFa(operation, title)} را اجرا کنند.`,
  polOnlyNamed: (operation, title) =>
    `فقط کسانی که در سیاست برای ${operationFa(operation, title)} نام برده شده‌اند می‌توانند آن را اجرا کنند.`,
  polCliOff: () =>
    `تأیید از خط فرمان خاموش است: در Slack تأیید کنید، یا در ${iso('POLICY_FILE')} مقدار ${code('cli: { approve: true }')} را بگذارید.`,
  polOwnRequest: () => 'این تغییر را خودتان درخواست کرده‌اید، پس کس دیگری باید آن را تأیید کند.',
  polOsUserAsked: (osUser, as) =>
    `کاربر سیستم‌عامل ${iso(osUser)} این تغییر را درخواست کرده است (به‌عنوان ${iso(as)})، پس کس دیگری باید آن را تأیید کند.`,
  polNotApprover: (leads, operation, title) =>
    `فقط ${leads ? 'سرپرست‌ها' : 'تأییدکنندگانی که در سیاست نام برده شده‌اند'} می‌توانند درخواست‌های ${operationFa(operation, title)} را تأیید کنند.`,
  polApprovedAlready: () => 'شما این درخواست را قبلاً تأیید کرده‌اید.',
  polOsUserApproved: (osUser, as) =>
    `کاربر سیستم‌عامل ${iso(osUser)} این درخواست را قبلاً تأیید کرده است (به‌عنوان ${iso(as)})؛ هر نفر فقط یک تأیید می‌دهد.`,
  polApprovedInYourPlace: (delegate) =>
    `${iso(delegate)} این درخواست را با جانشینی شما قبلاً به‌جای شما تأیید کرده است؛ هر نفر یک بار شمرده می‌شود.`,

  reqCannot: (id, wanted, state) => `نمی‌شود ${wantedFa(wanted, req(id))}: ${stateFa(state)}.`,
  reqExpiredAt: (id, wanted, time) =>
    `نمی‌شود ${wantedFa(wanted, req(id))}: در ${at(time)} بدون تأییدهای کافی منقضی شده است.`,
  reqCannotNow: (id, wanted, state) => `نمی‌شود ${wantedFa(wanted, req(id))}: ${stateFa(state)}.`,
  reqYouApproved: (id) => `شما ${req(id)} را قبلاً تأیید کرده‌اید.`,
  reqTheirOwn: (name) =>
    `${iso(name)} خودش این تغییر را درخواست کرده است، پس تأیید به‌جای او یعنی تأیید درخواست خودش.`,
  reqCountsAlready: (name, id) =>
    `تأیید ${iso(name)} از قبل برای ${req(id)} شمرده شده است؛ جانشین به‌جای او تأیید می‌کند، نه برای بار دوم.`,
  reqOnlyRequesterCancels: (who, id) =>
    `فقط ${iso(who)}، که این درخواست را داده است، می‌تواند ${req(id)} را لغو کند.`,
  remindOnlyRequester: (who, id) =>
    `فقط ${iso(who)}، که این درخواست را داده است، می‌تواند به تأییدکنندگان ${req(id)} یادآوری کند.`,
  remindOff: (operation) => `یادآوری برای درخواست‌های ${iso(operation)} خاموش است.`,
  remindTooSoon: (id, time, next, every) =>
    `به تأییدکنندگان ${req(id)} در ${at(time)} یادآوری شد؛ از ${at(next)} به بعد می‌توانید دوباره یادآوری کنید${every === null ? '' : ` (حداکثر یک بار در هر ${periodFa(every)})`}.`,
  reqEscalatedAlready: (id) => `${req(id)} قبلاً به تأییدکنندگان پشتیبان ارجاع شده است.`,
  reqWarnedAlready: (id) => `برای انقضای ${req(id)} قبلاً هشدار داده شده است.`,
  reqOpenUntil: (id, time) => `نمی‌شود ${req(id)} را منقضی‌شده اعلام کرد: تا ${at(time)} باز است.`,
  reqOwnSettle: () => 'این تغییر را خودتان درخواست کرده‌اید، پس کس دیگری باید تکلیف نتیجه‌اش را روشن کند.',
  resolveCliOff: () =>
    `روشن کردن تکلیف نتیجه‌ی نامعلوم از خط فرمان، مثل تأیید، خاموش است: در Slack این کار را بکنید، یا در ${iso('POLICY_FILE')} مقدار ${code('cli: { approve: true }')} را بگذارید.`,
  resolveOsUserAsked: (osUser, as) =>
    `کاربر سیستم‌عامل ${iso(osUser)} این تغییر را درخواست کرده است (به‌عنوان ${iso(as)})، پس کس دیگری باید تکلیف نتیجه‌اش را روشن کند.`,
  reqCancelInSlack: (who, id) =>
    `${req(id)} را ${iso(who)} در Slack داده است: آن را در Slack لغو کنید، جایی که Slack ضامن هویت کسی است که کلیک می‌کند. در خط فرمان ${code('--as')} فقط یک ادعاست و تنها جایی پذیرفته می‌شود که ${iso('POLICY_FILE')} بگوید ${code('cli: { approve: true }')}.`,

  bgWrongWords: () => `برای تأیید، دقیقاً عبارت «${iso('break glass')}» را تایپ کنید؛ هیچ چیزی تغییر نکرد.`,
  bgReasonRequired: () =>
    'بنویسید چرا این کار نمی‌تواند منتظر سرپرست بماند: دلیل لازم است و همه‌ی سرپرست‌ها آن را می‌خوانند.',
  glassNotOn: (operation, title) =>
    `شکستن شیشه برای ${operationFa(operation, title)} روشن نیست، یا نام شما برای آن در سیاست نیامده است.`,
  glassNotRequester: () => 'فقط کسی که این تغییر را درخواست کرده است می‌تواند برایش شیشه را بشکند.',
  glassRateLimited: (max, per) =>
    `شما در ${periodFa(per)} گذشته ${n(max)} بار برای این عملیات شیشه را شکسته‌اید؛ سقف همین است. منتظر تأیید یک سرپرست بمانید.`,
  glassOwnReview: () => 'شیشه‌ی این تغییر را خودتان شکسته‌اید، پس سرپرست دیگری باید آن را بررسی کند.',
  glassNotLead: () => 'فقط سرپرست‌ها تغییرهای شکستن شیشه را بررسی می‌کنند.',
  bgNoteRequired: () => 'بنویسید ایرادش چیست: برای علامت‌گذاری یک تغییر، یادداشت لازم است.',
  glassNotBroken: (id) => `${req(id)} با شکستن شیشه اجرا نشده است؛ چیزی برای بررسی نیست.`,
  glassReviewed: (id, by, verdict) =>
    `${req(id)} قبلاً بررسی شده است: ${iso(by)} آن را ${verdict === 'flagged' ? 'علامت‌گذاری کرده' : verdict === 'acknowledged' ? 'تأیید کرده' : `«${iso(verdict)}» کرده`} است.`,

  delegOnlyLeads: () =>
    'فقط سرپرست‌ها تأییدهایشان را تفویض می‌کنند؛ کسی که به‌جای سرپرست تأیید می‌کند نمی‌تواند آن را به دیگری بسپارد.',
  delegSelf: () => 'نمی‌توانید به خودتان تفویض کنید.',
  delegBot: () => 'به یکی از اعضای تیم تفویض کنید، نه به یک بات.',
  delegOutsider: (name) =>
    `${iso(name)} عضو تیم نیست (${iso('AGENTS')} یا ${iso('LEADS')}): فقط کسی که اجازه‌ی کار با vidops را دارد می‌تواند به‌جای شما تأیید کند.`,
  delegUnknown: (id) =>
    `Slack عضو فعالی با شناسه‌ی ${iso(id)} در این فضای کاری نمی‌شناسد؛ شخص را از فهرست منشن Slack انتخاب کنید.`,
  delegCannotCheck: (id) => `Slack همین حالا نگفت ${iso(id)} کیست؛ یک دقیقه‌ی دیگر دوباره امتحان کنید.`,
  delegAlready: (name, until) =>
    `شما تا ${at(until)} به ${iso(name)} تفویض کرده‌اید؛ اول با ${code('/vidops delegate cancel')} آن را تمام کنید.`,
  delegNothingToCancel: () => 'تفویض فعالی ندارید که لغو شود.',
  delegRace: () => 'کس دیگری همزمان تفویض شما را تغییر داد؛ دوباره نگاه کنید.',
  delegCountsOnce: (list) =>
    `شما به‌جای ${names(list)} تأیید می‌کنید، که یا خودشان این تغییر را درخواست کرده‌اند یا تأییدشان از قبل شمرده شده است؛ هر نفر فقط یک بار شمرده می‌شود.`,

  svcNoRequest: (id) => `${req(id)} وجود ندارد.`,
  svcBusy: (id) => `همین حالا دیگران در حال تغییر ${req(id)} هستند؛ دوباره نگاهش کنید.`,
  svcOwnReject: () => 'این درخواست خودتان است: به‌جای رد کردن، لغوش کنید.',
  svcOnlyApproversReject: (operation, title) =>
    `فقط کسانی که می‌توانند درخواست‌های ${operationFa(operation, title)} را تأیید کنند، می‌توانند آن‌ها را رد کنند.`,
  svcCannotSendAgain: (id, operation, title) =>
    `نمی‌شود ${req(id)} را دوباره فرستاد: یک ${operationFa(operation, title)} دیگر ممکن است کار را دو بار انجام دهد. سرویس را ببینید و بعد نتیجه را دستی ثبت کنید.`,
  svcOnlyApproversSettle: (operation) =>
    `فقط کسانی که می‌توانند درخواست‌های ${operationFa(operation, operation)} را تأیید کنند، می‌توانند تکلیف نتیجه‌شان را روشن کنند.`,
  svcNoClearAnswer: () => 'سرویس به تکرار هم پاسخ روشنی نداد: شاید اعمال شده باشد و شاید نه.',
  svcStillWorking: (target, time) =>
    `${faTarget(target)} هنوز سر جایش است، ولی شاید سرویس هنوز مشغول حذف باشد؛ بعد از ساعت ${at(`${time} UTC`)} دوباره بررسی کنید، یا نتیجه را دستی ثبت کنید.`,
  svcNotOnService: (kind, id) => `${KIND[kind]} ${iso(id)} در سرویس وجود ندارد.`,
  svcChangedSinceForm: (kind, id, title, files) =>
    `${KIND[kind]} ${iso(id)} از وقتی این فرم باز شد تغییر کرده است: ${[
      title === null ? null : `نامش اکنون «${iso(title)}» است`,
      files === null ? null : `اکنون ${n(files)} فایل دارد`,
    ]
      .filter((part) => part !== null)
      .join(
        ' و ',
      )}. فرم را ببندید و حذف را از نو شروع کنید تا آن را همان‌طور که اکنون هست تأیید کنید. چیزی درخواست نشد.`,
  svcFormOfOther: () => 'این فرم را کس دیگری باز کرده است و فقط خودش می‌تواند آن را بفرستد. چیزی تغییر نکرد.',
  svcFormGone: () =>
    'این فرم دیگر معتبر نیست: یا قبلاً فرستاده شده، یا بیش از یک ساعت باز مانده، یا vidops آن را باز نکرده است. چیزی تغییر نکرد؛ فرمان را دوباره اجرا کنید.',

  resolveCannotLookUp: (operation, title) =>
    `vidops نمی‌تواند بررسی کند که ${operationFa(operation, title)} اعمال شده است یا نه. سرویس را ببینید و بعد نتیجه را دستی ثبت کنید.`,
  resolveNoLookUp: (target) =>
    `این سرویس جست‌وجوی ${faTarget(target)} را پشتیبانی نمی‌کند. سرویس را ببینید و بعد نتیجه را دستی ثبت کنید.`,
  resolveNotProof: (target) =>
    `جست‌وجوی ${faTarget(target)} پاسخ ${n(404)} داد، ولی وقتی درخواست ثبت شد هم برای آن پاسخی نداده بود، پس این چیزی را ثابت نمی‌کند. سرویس را ببینید و بعد نتیجه را دستی ثبت کنید.`,
  outcomeApplied: (name) => `اعمال شده، چنان‌که ${iso(name)} در سرویس دید`,
  outcomeNotApplied: (name) => `اعمال نشده، چنان‌که ${iso(name)} در سرویس دید`,
  outcomeDeleted: () => 'قبلاً حذف شده است',
  outcomeDeletedAgain: () => 'با فرستادن دوباره حذف شد',
  outcomeStillThere: (target, name) =>
    `اعمال نشده: ${faTarget(target)} هنوز سر جایش است (${iso(name)} بررسی کرد)`,
};

const MAYBE_APPLIED =
  'If this was a change, it may or may not have been applied: check before trying again (unblocks, deletes and settings are safe to repeat).';
const MAYBE_APPLIED_FA =
  'اگر این یک تغییر بود، شاید اعمال شده باشد و شاید نه: پیش از تلاش دوباره بررسی کنید (تکرار رفع مسدودی، حذف و تنظیمات بی‌خطر است).';

/**
 * The core's sentences, then the view's own words about the video service's failures. In the
 * view's phrases, `status` and `seconds` come formatted; `said` is the service's own words,
 * scrubbed, or empty.
 */
export const errors = defineArea(
  {
    ...SAID_ENGLISH,
    errSeconds: (amount: string) => `${amount} s`,
    errTimeout: (seconds: string) => `The video service did not answer within ${seconds}. ${MAYBE_APPLIED}`,
    errTooLarge: (mib: string) =>
      `The video service's answer was larger than ${mib} MiB; it was not read. ${MAYBE_APPLIED}`,
    errNetwork: () =>
      `The connection to the video service failed. ${MAYBE_APPLIED} If it keeps failing, tell an operator.`,
    errAuth: (status: string) =>
      `The video service refused the keys (${status}); nothing was changed. Tell an operator: VIDEO_API_KEY or VIDEO_SECRET_KEY needs fixing.`,
    errServer: (status: string) =>
      `The video service failed (${status}) and did not confirm the change. Try again in a minute.`,
    errRateLimited: () =>
      'The video service says too many requests (429); nothing was changed. Wait a minute and try again.',
    errRateLimitedFor: (seconds: string) =>
      `The video service says too many requests (429); nothing was changed. Try again in ${seconds}.`,
    errNotSupported: () => 'That is not supported by this service.',
    errNotSupportedWhat: (what: string) => `This service does not support ${what}; nothing was changed.`,
    errNotFound: (status: string, said: string) =>
      `The video service does not know that ID (${status})${said === '' ? '' : `: “${said}”`}.`,
    errRefused: (status: string, said: string) =>
      `The video service refused the request (${status})${said === '' ? '' : `: “${said}”`}. Nothing was changed.`,
    errRefusedIssues: (status: string, issues: string) =>
      `The video service refused the request (${status}): ${issues}. Nothing was changed.`,
    errWhitelistConflict: () =>
      'The whitelist changed since this request was made, so nothing was posted. Look at the whitelist again and ask anew.',
    errWhitelistMismatch: () =>
      'The video service did not end up with the intended whitelist (it may append instead of replace). Look at the whitelist now and tell an operator.',
    errAnswered: (status: string | null, said: string) =>
      `The video service answered ${status ?? 'unexpectedly'}${said === '' ? '' : `: “${said}”`}; the change was not confirmed.`,
    errUnreachable: (code: string) =>
      `The video service could not be reached (${code}); nothing was changed. Try again in a minute; if it keeps failing, tell an operator.`,
    errConnectionFailed: (code: string) =>
      `The connection to the video service failed (${code}). ${MAYBE_APPLIED} If it keeps failing, tell an operator.`,
    errOurs: () =>
      'Something went wrong inside vidops; the error was logged. Check the result before trying again.',
    errItFailed: (status: string | null, message: string) =>
      `It failed${status === null ? '' : ` (${status})`}: ${message}`,
  },
  {
    ...SAID_PERSIAN,
    errSeconds: (amount) => `${amount} ثانیه`,
    errTimeout: (seconds) => `سرویس ویدیو در ${seconds} پاسخ نداد. ${MAYBE_APPLIED_FA}`,
    errTooLarge: (mib) => `پاسخ سرویس ویدیو بزرگ‌تر از ${mib} مگابایت بود و خوانده نشد. ${MAYBE_APPLIED_FA}`,
    errNetwork: () =>
      `اتصال به سرویس ویدیو قطع شد. ${MAYBE_APPLIED_FA} اگر باز هم تکرار شد، به اپراتور خبر دهید.`,
    errAuth: (status) =>
      `سرویس ویدیو کلیدها را نپذیرفت (${status})؛ چیزی تغییر نکرد. به اپراتور خبر دهید: ${iso('VIDEO_API_KEY')} یا ${iso('VIDEO_SECRET_KEY')} باید درست شود.`,
    errServer: (status) =>
      `سرویس ویدیو با خطا روبه‌رو شد (${status}) و تغییر را تأیید نکرد. یک دقیقه‌ی دیگر دوباره امتحان کنید.`,
    errRateLimited: () =>
      'سرویس ویدیو می‌گوید درخواست‌ها بیش از حد است (۴۲۹)؛ چیزی تغییر نکرد. یک دقیقه صبر کنید و دوباره امتحان کنید.',
    errRateLimitedFor: (seconds) =>
      `سرویس ویدیو می‌گوید درخواست‌ها بیش از حد است (۴۲۹)؛ چیزی تغییر نکرد. ${seconds} دیگر دوباره امتحان کنید.`,
    errNotSupported: () => 'این سرویس از این کار پشتیبانی نمی‌کند.',
    errNotSupportedWhat: (what) => `این سرویس از ${iso(what)} پشتیبانی نمی‌کند؛ چیزی تغییر نکرد.`,
    errNotFound: (status, said) =>
      `سرویس ویدیو این شناسه را نمی‌شناسد (${status})${said === '' ? '' : `: «${iso(said)}»`}.`,
    errRefused: (status, said) =>
      `سرویس ویدیو درخواست را نپذیرفت (${status})${said === '' ? '' : `: «${iso(said)}»`}. چیزی تغییر نکرد.`,
    errRefusedIssues: (status, issues) =>
      `سرویس ویدیو درخواست را نپذیرفت (${status}): ${iso(issues)}. چیزی تغییر نکرد.`,
    errWhitelistConflict: () =>
      'لیست سفید پس از ثبت این درخواست تغییر کرده است، پس چیزی فرستاده نشد. دوباره لیست سفید را ببینید و درخواست تازه‌ای بدهید.',
    errWhitelistMismatch: () =>
      'لیست سفید سرویس ویدیو آن چیزی نشد که قرار بود (شاید به‌جای جایگزینی، به فهرست افزوده باشد). همین حالا لیست سفید را ببینید و به اپراتور خبر دهید.',
    errAnswered: (status, said) =>
      `سرویس ویدیو ${status === null ? 'پاسخ غیرمنتظره‌ای داد' : `با ${status} پاسخ داد`}${said === '' ? '' : `: «${iso(said)}»`}؛ تغییر تأیید نشد.`,
    errUnreachable: (code) =>
      `دسترسی به سرویس ویدیو ممکن نشد (${iso(code)})؛ چیزی تغییر نکرد. یک دقیقه‌ی دیگر دوباره امتحان کنید؛ اگر باز هم تکرار شد، به اپراتور خبر دهید.`,
    errConnectionFailed: (code) =>
      `اتصال به سرویس ویدیو قطع شد (${iso(code)}). ${MAYBE_APPLIED_FA} اگر باز هم تکرار شد، به اپراتور خبر دهید.`,
    errOurs: () => 'در خود vidops خطایی رخ داد و ثبت شد. پیش از تلاش دوباره نتیجه را بررسی کنید.',
    errItFailed: (status, message) => `ناموفق بود${status === null ? '' : ` (${status})`}: ${iso(message)}`,
  },
);
