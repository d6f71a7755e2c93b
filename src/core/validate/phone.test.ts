import { english } from '../../i18n/said.js';
import type { MobileResult } from './phone.js';

/** A result as the agent reads it: a refusal's sentence in English as `reason`. */
function worded(result: MobileResult) {
  return result.ok ? result : { ...result, reason: english(result.said) };
}

import { countryName } from '../../i18n/messages/errors-en.js';
import { parseMobile } from './phone.js';

const IR_MOBILE = {
  ok: true,
  param: '09123456789',
  national: '09123456789',
  e164: '+989123456789',
  region: 'IR',
  masked: '0912***6789',
};

describe('agent gives a viewer’s mobile number', () => {
  it.each([
    ['national format', '09123456789', 'IR'],
    ['surrounding spaces', '   09123456789  ', 'IR'],
    ['spaces inside', '0912 345 6789', 'IR'],
    ['odd grouping', '0912 345 678 9', 'IR'],
    ['dashes', '0912-345-6789', 'IR'],
    ['Unicode minus signs', '0912−345−6789', 'IR'],
    ['dots and brackets', '(0912) 345.6789', 'IR'],
    ['+98 with spaces', '+98 912 345 6789', 'IR'],
    ['+98 with dashes', '+98-912-345-6789', 'IR'],
    ['+98 with the national zero kept', '+98 0912 345 6789', 'IR'],
    ['+98 (0) style', '+98 (0) 912 345 6789', 'IR'],
    ['0098 international prefix', '0098 912 345 6789', 'IR'],
    ['0098 with the national zero kept', '0098 0912 345 6789', 'IR'],
    ['098 (one zero short of 0098), read as +98', '0989123456789', 'IR'],
    ['98 without plus', '98 912 345 6789', 'IR'],
    ['bare significant number', '9123456789', 'IR'],
    ['Persian digits', '۰۹۱۲۳۴۵۶۷۸۹', 'IR'],
    ['Arabic-Indic digits', '٠٩١٢٣٤٥٦٧٨٩', 'IR'],
    ['Persian digits with spaces', '۰۹۱۲ ۳۴۵ ۶۷۸۹', 'IR'],
    ['bidi marks from a right-to-left paste', '\u200e0912\u200f345\u200e6789', 'IR'],
    ['Slack tel link with label', '<tel:+989123456789|+98 912 345 6789>', 'IR'],
    ['Slack tel link without label', '<tel:09123456789>', 'IR'],
    ['lower-case region', '09123456789', 'ir'],
  ])('accepts %s', (_, input, region) => {
    expect(parseMobile(input, region)).toEqual(IR_MOBILE);
  });

  it.each([
    ['another Iranian operator', '0902 345 6789', 'IR', '09023456789', '+989023456789', 'IR'],
    ['German mobile in region DE', '01512 3456789', 'DE', '015123456789', '+4915123456789', 'DE'],
    ['British mobile in region GB', '07400 123456', 'GB', '07400123456', '+447400123456', 'GB'],
  ])('accepts %s, sent in national format', (_, input, region, national, e164, country) => {
    expect(parseMobile(input, region)).toEqual({
      ok: true,
      param: national,
      national,
      e164,
      region: country,
      masked: `${national.slice(0, 4)}***${national.slice(-4)}`,
    });
  });

  it.each([
    [
      'a Philippine mobile, which as national digits is also an Iranian one',
      '+63 917 123 4567',
      '+639171234567',
      '+63 917 123 4567 is a mobile number in the Philippines (PH); only numbers of Iran (IR) are accepted here',
    ],
    [
      'a US number (landline or mobile)',
      '+1 415 555 2671',
      '+14155552671',
      '+1 415 555 2671 is a mobile number in the United States (US); only numbers of Iran (IR) are accepted here',
    ],
    [
      'a German mobile written with 0049',
      '0049 1512 3456789',
      '+4915123456789',
      '0049 1512 3456789 is a mobile number in Germany (DE); only numbers of Iran (IR) are accepted here',
    ],
  ])('refuses %s by default, naming its country', (_, input, read, reason) => {
    expect(worded(parseMobile(input, 'IR'))).toMatchObject({ ok: false, read, reason });
  });

  it.each([
    ['a Philippine mobile', '+63 917 123 4567', '+639171234567', '09171234567', 'PH', '+6391***4567'],
    ['a US number', '+1 415 555 2671', '+14155552671', '4155552671', 'US', '+1415***2671'],
  ])(
    'accepts %s where PHONE_REGIONS lists its country, keeping the country code',
    (_, input, e164, national, region, masked) => {
      expect(parseMobile(input, 'IR', { regions: ['PH', 'US'] })).toEqual({
        ok: true,
        param: e164,
        national,
        e164,
        region,
        masked,
      });
    },
  );

  it('reads a number without a country code as one of the home region, whatever else is allowed', () => {
    // 0917… is an Iranian mobile: it is never guessed to be the Philippine one.
    expect(parseMobile('0917 123 4567', 'IR', { regions: ['PH'] })).toMatchObject({
      ok: true,
      param: '09171234567',
      region: 'IR',
    });
  });

  it('names every accepted country in a refusal', () => {
    expect(worded(parseMobile('+49 1512 3456789', 'IR', { regions: ['AF', 'PH'] }))).toMatchObject({
      ok: false,
      reason:
        '+49 1512 3456789 is a mobile number in Germany (DE); only numbers of Iran (IR), Afghanistan (AF) and the Philippines (PH) are accepted here',
    });
  });

  it.each([
    ['a Tehran landline', '0212345678', 'IR', '0212345678', '0212345678 is a landline, not a mobile number'],
    [
      'a valid Tehran landline',
      '021 1234 5678',
      'IR',
      '02112345678',
      '02112345678 is a landline, not a mobile number',
    ],
    [
      'a landline with +98',
      '+98 21 1234 5678',
      'IR',
      '+982112345678',
      '+982112345678 is a landline, not a mobile number',
    ],
    [
      'a Berlin landline in DE',
      '030 12345678',
      'DE',
      '03012345678',
      '03012345678 is a landline, not a mobile number',
    ],
    [
      'a London landline with +44',
      '+44 20 7946 0958',
      'IR',
      '+442079460958',
      '+442079460958 is a landline, not a mobile number in GB',
    ],
    [
      'a British toll-free number',
      '0800 123 4567',
      'GB',
      '08001234567',
      '08001234567 is a toll-free number, not a mobile number',
    ],
    [
      'a mobile with digits missing',
      '0912345',
      'IR',
      '0912345',
      '0912345 is too short for a mobile number in IR',
    ],
    [
      'a mobile one digit short',
      '0912345678',
      'IR',
      '0912345678',
      '0912345678 is too short for a mobile number in IR',
    ],
    [
      'a mobile one digit long',
      '091234567890',
      'IR',
      '091234567890',
      '091234567890 is too long for a mobile number in IR',
    ],
    [
      '+98 one digit long',
      '+98 912 345 67890',
      'IR',
      '+9891234567890',
      '+9891234567890 is too long for a mobile number in IR',
    ],
    [
      '098 one digit short',
      '098912345678',
      'IR',
      '098912345678',
      '098912345678 is too short for a mobile number in IR',
    ],
    [
      'a short German mobile',
      '01512345',
      'DE',
      '01512345',
      '01512345 is too short for a mobile number in DE',
    ],
    ['four digits', '1234', 'IR', '1234', '1234 is too short for a mobile number in IR'],
    ['a number no plan has', '3023456789', 'IR', '3023456789', '3023456789 is not a valid number for IR'],
    [
      'a country code that does not exist',
      '+999 1234',
      'IR',
      '+9991234',
      '+9991234 does not start with a country code that exists',
    ],
    ['letters', '0912abc6789', 'IR', '09126789', '"0912abc6789" has letters'],
    ['Persian letters', '۰۹۱۲ تلفن', 'IR', '0912', '"0912 تلفن" has letters'],
    [
      'a stray symbol',
      '09123456789#',
      'IR',
      '09123456789',
      '"09123456789#" has characters a phone number does not have: #',
    ],
    [
      'two numbers at once',
      '09123456789 09123456780',
      'IR',
      '0912345678909123456780',
      '"09123456789 09123456780" holds 2 numbers; give one number at a time',
    ],
    ['nothing', '   ', 'IR', '', 'no mobile number was given'],
    ['a lone plus', '+', 'IR', '+', 'no digits were given'],
    ['an unknown region', '09123456789', 'XX', '09123456789', 'XX is not a known phone region'],
  ])('refuses %s, saying what was read and why', (_, input, region, read, reason) => {
    expect(worded(parseMobile(input, region))).toMatchObject({ ok: false, read, reason });
  });
});

describe('country names', () => {
  it('names countries as people say them', () => {
    expect(countryName('IR')).toBe('Iran (IR)');
    expect(countryName('PH')).toBe('the Philippines (PH)');
    expect(countryName('GB')).toBe('the United Kingdom (GB)');
  });
});
