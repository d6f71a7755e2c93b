import {
  type CountryCode,
  getCountryCallingCode,
  getExampleNumber,
  isSupportedCountry,
  type PhoneNumber,
  type PhoneNumberType,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { maskMobile } from '../mask.js';
import { normalizeDigits } from './digits.js';

/**
 * A mobile number as read from what a person typed or pasted.
 * `national` is what the API receives (national format, digits only: `09123456789` for IR).
 * On refusal, `read` is what was understood (digits, with a leading `+` when one was given) and
 * `reason` is a whole sentence that says why, naming what was read.
 * @see docs/architecture.md, "Validation"
 */
export type MobileResult =
  | { ok: true; national: string; e164: string; masked: string }
  | { ok: false; read: string; reason: string };

// Separators people put inside numbers: spaces, hyphen and Unicode dashes, dots, brackets, slashes.
const SEPARATORS = /[\s\-‐-―−.()[\]/]/g;
const LETTER = /\p{L}/u;

const TYPE_NAMES: Record<PhoneNumberType, string> = {
  FIXED_LINE: 'a landline',
  MOBILE: 'a mobile number',
  FIXED_LINE_OR_MOBILE: 'a landline or mobile number',
  TOLL_FREE: 'a toll-free number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  VOIP: 'an internet (VoIP) number',
  PERSONAL_NUMBER: 'a personal number',
  PAGER: 'a pager number',
  UAN: 'a company number (UAN)',
  VOICEMAIL: 'a voicemail number',
};

/**
 * Reads a mobile number for `region` (ISO 3166 code, e.g. `IR`), or for the number's own country
 * when it starts with `+CC`/`00CC`. Accepts Slack's `<tel:…|…>` wrapping, Persian and
 * Arabic-Indic digits, spaces, dashes, dots and brackets, `+98…`, `0098…`, `0912…` and bare
 * `912…`. `098912…` (one zero too few before the country code) is read as `+98912…` when it only
 * makes sense that way. Landlines, toll-free and other non-mobile numbers are refused.
 * @see docs/architecture.md, "Validation"
 */
export function parseMobile(input: string, region: string): MobileResult {
  const country = region.trim().toUpperCase();
  const text = normalizeDigits(unwrapSlackTel(input)).trim();
  if (!isSupportedCountry(country)) {
    return { ok: false, read: digitsOf(text), reason: `${country || '(empty)'} is not a known phone region` };
  }
  if (text === '') return { ok: false, read: '', reason: 'no mobile number was given' };
  if (LETTER.test(text)) return { ok: false, read: digitsOf(text), reason: `"${text}" has letters` };

  // Two numbers pasted at once would otherwise read as one number that is too long.
  const pieces = text.split(/[\s,;]+/).filter((piece) => piece !== '');
  if (pieces.length > 1 && pieces.every((piece) => parseMobile(piece, country).ok)) {
    return {
      ok: false,
      read: digitsOf(text),
      reason: `"${text}" holds ${pieces.length} numbers; give one number at a time`,
    };
  }

  const compact = text.replace(SEPARATORS, '');
  const stray = compact.replace(/^\+/, '').replace(/\d/g, '');
  if (stray !== '') {
    return {
      ok: false,
      read: digitsOf(text),
      reason: `"${text}" has characters a phone number does not have: ${[...new Set(stray)].join(' ')}`,
    };
  }
  const read = compact;
  const international = read.startsWith('+');
  if (read.replace('+', '') === '') return { ok: false, read, reason: 'no digits were given' };

  const parsed = parseDigits(read, country);
  if (parsed?.isValid()) {
    const type = parsed.getType();
    if (isMobileType(type)) return accept(parsed);
    const own = !international || parsed.country === country ? '' : ` in ${parsed.country ?? 'its country'}`;
    return {
      ok: false,
      read,
      reason: `${read} is ${type === undefined ? 'not a mobile number' : `${TYPE_NAMES[type]}, not a mobile number`}${own}`,
    };
  }

  // 0 + country calling code + mobile: a common slip for 00 + country calling code.
  const callingCode = getCountryCallingCode(country);
  const slip = !international && read.startsWith(`0${callingCode}`) ? `+${read.slice(1)}` : null;
  const retried = slip === null ? undefined : parseDigits(slip, country);
  if (retried?.isValid() && isMobileType(retried.getType())) return accept(retried);

  const reason = explainInvalid(read, country, parsed);
  if (slip !== null && reason === notValid(read, country)) {
    // Nothing better to say about it as written: say what is wrong with it read as +CC….
    const other = explainInvalid(slip, country, retried);
    if (other !== notValid(slip, country)) return { ok: false, read, reason: other.replace(slip, read) };
  }
  return { ok: false, read, reason };
}

function notValid(read: string, country: CountryCode): string {
  return `${read} is not a valid number for ${country}`;
}

function accept(number: PhoneNumber): MobileResult {
  const national = number.formatNational().replace(/\D/g, '');
  return { ok: true, national, e164: number.number, masked: maskMobile(national) };
}

function isMobileType(type: PhoneNumberType | undefined): boolean {
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

function parseDigits(read: string, country: CountryCode): PhoneNumber | undefined {
  // Longer than any E.164 number plus prefixes: not worth handing to the parser.
  if (read.replace('+', '').length > 20) return undefined;
  return parsePhoneNumberFromString(read, country);
}

function digitsOf(text: string): string {
  const digits = text.replace(/\D/g, '');
  return text.trimStart().startsWith('+') ? `+${digits}` : digits;
}

/** `<tel:+989123456789|+98 912 345 6789>` → the label; `<tel:+98…>` → the number. */
function unwrapSlackTel(input: string): string {
  const match = /^\s*<tel:([^|>]*)(?:\|([^>]*))?>\s*$/i.exec(input);
  if (match === null) return input;
  return match[2] ?? match[1] ?? '';
}

/** Says why a number that is not valid was refused, as precisely as the metadata allows. */
function explainInvalid(read: string, region: CountryCode, parsed: PhoneNumber | undefined): string {
  const international = read.startsWith('+') || read.startsWith('00');
  const country: CountryCode | undefined = international ? parsed?.country : region;
  if (country === undefined) {
    if (read.replace('+', '').replace(/^00/, '').length > 15) return `${read} is too long`;
    return `${read} does not start with a country code that exists`;
  }
  const example = getExampleNumber(country, mobileExamples);
  if (example === undefined) return notValid(read, country);

  const significant = significantDigits(read, country, parsed, example);
  const mobileLength = example.nationalNumber.length;
  const looksLike = typeOfPrefix(significant, example, country);
  if (looksLike === 'FIXED_LINE') return `${read} is a landline, not a mobile number`;
  // Length is judged against the region's mobile numbers; a wrong length with a prefix that
  // is neither mobile nor landline is still called too short/long when far off.
  const slack = looksLike !== undefined && isMobileType(looksLike) ? 0 : 3;
  if (significant.length < mobileLength - slack) {
    return `${read} is too short for a mobile number in ${country}`;
  }
  if (significant.length > mobileLength + slack) {
    return `${read} is too long for a mobile number in ${country}`;
  }
  return notValid(read, country);
}

/** Digits after the country code or the national prefix: what the numbering plan describes. */
function significantDigits(
  read: string,
  country: CountryCode,
  parsed: PhoneNumber | undefined,
  example: PhoneNumber,
): string {
  const digits = read.replace(/\D/g, '');
  if (read.startsWith('+') || read.startsWith('00')) {
    if (parsed !== undefined) return parsed.nationalNumber;
    const code = getCountryCallingCode(country);
    return digits.replace(/^00/, '').slice(code.length);
  }
  // The national prefix is what national format puts before the significant number (`0` in IR).
  const exampleNational = example.formatNational().replace(/\D/g, '');
  const prefix = exampleNational.endsWith(example.nationalNumber)
    ? exampleNational.slice(0, exampleNational.length - example.nationalNumber.length)
    : '';
  return prefix !== '' && digits.startsWith(prefix) ? digits.slice(prefix.length) : digits;
}

/**
 * What kind of number starts with these digits: the first three digits are put in front of the
 * region's example mobile number and the result is classified. Good enough to tell "that is a
 * landline" from "that is a mobile with a digit missing".
 */
function typeOfPrefix(
  significant: string,
  example: PhoneNumber,
  country: CountryCode,
): PhoneNumberType | undefined {
  const head = significant.slice(0, 3);
  if (head === '') return undefined;
  const candidate = head + example.nationalNumber.slice(head.length);
  const probe = parsePhoneNumberFromString(`+${getCountryCallingCode(country)}${candidate}`);
  return probe?.isValid() === true ? probe.getType() : undefined;
}
