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
import { NO_COUNTRY, type PhoneKind, type Said, say } from '../said.js';
import { normalizeDigits } from './digits.js';

/**
 * A mobile number as read from what a person typed or pasted.
 * `param` is what the API receives: national format, digits only, for a number of the home region
 * (`09123456789` for IR, as always), and E.164 with its `+` for a number of another accepted region
 * (`+639171234567`), so that it keeps its country: `09171234567` is also a valid Iranian mobile.
 * `national` is the national form in the number's own country, `region` its country.
 * On refusal, `read` is what was understood (digits, with a leading `+` when one was given) and
 * `reason` is a whole sentence that says why, naming what was read (`said`: the same, to be worded
 * in the reader's language).
 * @see docs/architecture.md, "Validation"
 */
export type MobileResult =
  | { ok: true; param: string; national: string; e164: string; region: string; masked: string }
  | { ok: false; read: string; said: Said };

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
    return refused(digitsOf(text), say.phoneUnknownRegion(country));
  }
  const accepted = acceptedRegions(country, options.regions);
  const read = readMobile(text, country);
  if (!('number' in read)) return read;
  const { number } = read;
  const region = number.country ?? NO_COUNTRY;
  if (accepted !== 'any' && !accepted.some((r) => sharesPlan(number, r))) {
    return refused(number.number, say.phoneForeign(text, region, accepted));
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

type Read = { number: PhoneNumber } | { ok: false; read: string; said: Said };

function refused(read: string, said: Said): { ok: false; read: string; said: Said } {
  return { ok: false, read, said };
}

/** Reads a mobile number of any country (`+CC…`), or of `country` when written without a code. */
function readMobile(text: string, country: CountryCode): Read {
  if (text === '') return refused('', say.phoneEmpty());
  if (LETTER.test(text)) return refused(digitsOf(text), say.phoneLetters(text));

  // Two numbers pasted at once would otherwise read as one number that is too long.
  const pieces = text.split(/[\s,;]+/).filter((piece) => piece !== '');
  if (pieces.length > 1 && pieces.every((piece) => 'number' in readMobile(piece, country))) {
    return refused(digitsOf(text), say.phoneSeveral(text, pieces.length));
  }

  const compact = text.replace(SEPARATORS, '');
  const stray = compact.replace(/^\+/, '').replace(/\d/g, '');
  if (stray !== '') {
    return refused(digitsOf(text), say.phoneStray(text, [...new Set(stray)]));
  }
  const read = compact;
  const international = read.startsWith('+');
  if (read.replace('+', '') === '') return refused(read, say.phoneNoDigits());

  const parsed = parseDigits(read, country);
  if (parsed?.isValid()) {
    const type = parsed.getType();
    if (isMobileType(type)) return { number: parsed };
    const own = !international || parsed.country === country ? undefined : (parsed.country ?? null);
    return refused(
      read,
      say.phoneNotMobile(read, type === undefined ? null : (type satisfies PhoneKind), own),
    );
  }

  // 0 + country calling code + mobile: a common slip for 00 + country calling code.
  const callingCode = getCountryCallingCode(country);
  const slip = !international && read.startsWith(`0${callingCode}`) ? `+${read.slice(1)}` : null;
  const retried = slip === null ? undefined : parseDigits(slip, country);
  if (retried?.isValid() && isMobileType(retried.getType())) return { number: retried };

  const reason = explainInvalid(read, country, parsed);
  if (slip !== null && reason.key === 'phoneInvalid') {
    // Nothing better to say about it as written: say what is wrong with it read as +CC….
    const other = explainInvalid(slip, country, retried);
    if (other.key !== 'phoneInvalid') return refused(read, asWritten(other, slip, read));
  }
  return refused(read, reason);
}

/** The sentence about `slip` said about `read`, as it was written. */
function asWritten(said: Said, slip: string, read: string): Said {
  const params = said.params.map((p) => (p === slip ? read : p));
  return { key: said.key, params } as Said;
}

function isMobileType(type: PhoneNumberType | undefined): boolean {
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/** More digits than any E.164 number with its prefixes: never read as a mobile number. */
export const MAX_MOBILE_DIGITS = 20;

function parseDigits(read: string, country: CountryCode): PhoneNumber | undefined {
  // Longer than any E.164 number plus prefixes: not worth handing to the parser.
  if (read.replace('+', '').length > MAX_MOBILE_DIGITS) return undefined;
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
function explainInvalid(read: string, region: CountryCode, parsed: PhoneNumber | undefined): Said {
  const international = read.startsWith('+') || read.startsWith('00');
  const country: CountryCode | undefined = international ? parsed?.country : region;
  if (country === undefined) {
    if (read.replace('+', '').replace(/^00/, '').length > 15) return say.phoneTooLongAtAll(read);
    return say.phoneNoCountryCode(read);
  }
  const example = getExampleNumber(country, mobileExamples);
  if (example === undefined) return say.phoneInvalid(read, country);

  const significant = significantDigits(read, country, parsed, example);
  const mobileLength = example.nationalNumber.length;
  const looksLike = typeOfPrefix(significant, example, country);
  if (looksLike === 'FIXED_LINE') return say.phoneLandline(read);
  // Length is judged against the region's mobile numbers; a wrong length with a prefix that
  // is neither mobile nor landline is still called too short/long when far off.
  const slack = looksLike !== undefined && isMobileType(looksLike) ? 0 : 3;
  if (significant.length < mobileLength - slack) {
    return say.phoneTooShort(read, country);
  }
  if (significant.length > mobileLength + slack) {
    return say.phoneTooLong(read, country);
  }
  return say.phoneInvalid(read, country);
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
