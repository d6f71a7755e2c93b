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
import { z } from 'zod';
import { maskMobile } from '../mask.js';
import { normalizeDigits } from './digits.js';

/**
 * A mobile number as read from what a person typed or pasted.
 * `param` is what the API receives: national format, digits only, for a number of the home region
 * (`09123456789` for IR, as always), and E.164 with its `+` for a number of another accepted region
 * (`+639171234567`), so that it keeps its country: `09171234567` is also a valid Iranian mobile.
 * `national` is the national form in the number's own country, `region` its country.
 * On refusal, `read` is what was understood (digits, with a leading `+` when one was given) and
 * `reason` is a whole sentence that says why, naming what was read.
 * @see docs/architecture.md, "Validation"
 */
export type MobileResult =
  | { ok: true; param: string; national: string; e164: string; region: string; masked: string }
  | { ok: false; read: string; reason: string };

export interface MobileOptions {
  /**
   * Regions whose mobiles are accepted (`PHONE_REGIONS`); the home region always is. Default: the
   * home region alone. `'any'` accepts every country (to find numbers to mask in a text).
   */
  regions?: readonly string[] | 'any';
}

/**
 * One rule for a mobile number as sent (`viewer.unblock`'s `mobileNumber`), shared by the
 * operation's params and the API client: exactly the two forms {@link parseMobile} gives, national
 * digits (4 to 17) or E.164 (`+`, a country code, 7 to 15 digits in all) of a valid mobile.
 */
export const MOBILE_PARAM = /^(?:\d{4,17}|\+[1-9]\d{6,14})$/;
export const MOBILE_PARAM_RULE =
  'must be a mobile number in national format, digits only (09123456789), or in E.164 with its country code (+639171234567)';

/** True when `value` is a form {@link parseMobile} gives: national digits, or E.164 of a valid mobile. */
export function isMobileParam(value: string): boolean {
  if (!MOBILE_PARAM.test(value)) return false;
  if (!value.startsWith('+')) return true;
  const number = parsePhoneNumberFromString(value);
  return number?.isValid() === true && number.number === value && isMobileType(number.getType());
}

/** {@link isMobileParam} as a schema, for the operation's params and the API client alike. */
export const MobileParamSchema = z
  .string({ message: 'must be text' })
  .refine(isMobileParam, { message: MOBILE_PARAM_RULE });

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
 * Reads a mobile number for the `home` region (`PHONE_REGION`, ISO 3166 code, e.g. `IR`), or for
 * the number's own country when it starts with `+CC`/`00CC`. Accepts Slack's `<tel:…|…>`
 * wrapping, Persian and Arabic-Indic digits, spaces, dashes, dots and brackets, `+98…`, `0098…`,
 * `0912…` and bare `912…`. `098912…` (one zero too few before the country code) is read as
 * `+98912…` when it only makes sense that way. Landlines, toll-free and other non-mobile numbers
 * are refused, and so are mobiles of countries other than `home` and `options.regions`, naming
 * the country read: a number of another country must never be sent as national digits.
 * @see docs/architecture.md, "Validation"
 */
export function parseMobile(input: string, home: string, options: MobileOptions = {}): MobileResult {
  const country = home.trim().toUpperCase();
  const text = normalizeDigits(unwrapSlackTel(input)).trim();
  if (!isSupportedCountry(country)) {
    return { ok: false, read: digitsOf(text), reason: `${country || '(empty)'} is not a known phone region` };
  }
  const accepted = acceptedRegions(country, options.regions);
  const read = readMobile(text, country);
  if (!('number' in read)) return read;
  const { number } = read;
  const region = number.country ?? NO_COUNTRY;
  if (accepted !== 'any' && !accepted.some((r) => sharesPlan(number, r))) {
    return {
      ok: false,
      read: number.number,
      reason: `${text} is a mobile number in ${countryName(region)}; only numbers of ${listOf(accepted.map(countryName))} are accepted here`,
    };
  }
  const national = number.formatNational().replace(/\D/g, '');
  // National digits only within the home region's numbering plan: any other number keeps its
  // country code, or the service would read it as a number of the home region.
  const param = sharesPlan(number, country) ? national : number.number;
  return { ok: true, param, national, e164: number.number, region, masked: maskMobile(param) };
}

/**
 * True when `number` belongs to `region`'s numbering plan: it is of that region, or of one that
 * shares its country calling code and plan (`+590`: Guadeloupe, St Martin, St Barthélemy), where
 * libphonenumber names only one of them.
 */
function sharesPlan(number: PhoneNumber, region: string): boolean {
  if (number.country === region) return true;
  return isSupportedCountry(region) && number.countryCallingCode === getCountryCallingCode(region);
}

/** The home region first, then the others listed, upper-cased and without repeats. */
function acceptedRegions(home: string, regions: MobileOptions['regions']): string[] | 'any' {
  if (regions === 'any') return 'any';
  const list = [home, ...(regions ?? []).map((r) => r.trim().toUpperCase())];
  return [...new Set(list.filter((r) => r !== ''))];
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** Names that read with "the": the Philippines, the United States, the Netherlands. */
const WITH_THE =
  /(Islands|Republic|Kingdom|States|Emirates|^Philippines$|^Netherlands$|^Bahamas$|^Gambia$|^Maldives$|^Comoros$|^Seychelles$|^Vatican City$)/;

/** What libphonenumber calls the region of a non-geographic number. */
const NO_COUNTRY = '001';

/** `PH` → `the Philippines (PH)`, `IR` → `Iran (IR)`. */
export function countryName(code: string): string {
  if (code === NO_COUNTRY) return 'no single country (a non-geographic number)';
  const name = REGION_NAMES.of(code) ?? code;
  if (name === code) return code;
  return `${WITH_THE.test(name) ? 'the ' : ''}${name} (${code})`;
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

type Read = { number: PhoneNumber } | { ok: false; read: string; reason: string };

/** Reads a mobile number of any country (`+CC…`), or of `country` when written without a code. */
function readMobile(text: string, country: CountryCode): Read {
  if (text === '') return { ok: false, read: '', reason: 'no mobile number was given' };
  if (LETTER.test(text)) return { ok: false, read: digitsOf(text), reason: `"${text}" has letters` };

  // Two numbers pasted at once would otherwise read as one number that is too long.
  const pieces = text.split(/[\s,;]+/).filter((piece) => piece !== '');
  if (pieces.length > 1 && pieces.every((piece) => 'number' in readMobile(piece, country))) {
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
    if (isMobileType(type)) return { number: parsed };
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
  if (retried?.isValid() && isMobileType(retried.getType())) return { number: retried };

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
