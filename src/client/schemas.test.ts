import { getCountries, getExampleNumber } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { OPERATION_SPECS } from '../core/catalog.js';
import { isMobileParam, parseMobile } from '../core/validate/phone.js';
import { english } from '../i18n/said.js';
import { MobileNumberSchema } from './schemas.js';

// The client's schema of a mobile number agrees with the core's: what the core sends, the client
// takes, and what it refuses, the client refuses. Here, because the core imports nothing from the client.
describe('one rule for a mobile number as sent', () => {
  const sentForms = getCountries().flatMap((country) => {
    const example = getExampleNumber(country, mobileExamples);
    if (example === undefined) return [];
    const home = parseMobile(example.formatNational(), country);
    const abroad = parseMobile(example.number, country === 'IR' ? 'DE' : 'IR', { regions: 'any' });
    return [
      [`${country} at home`, home.ok ? home.param : `refused: ${home.ok || english(home.said)}`],
      [`${country} abroad`, abroad.ok ? abroad.param : `refused: ${abroad.ok || english(abroad.said)}`],
    ];
  });

  it.each(sentForms)(
    'what parseMobile gives for %s (%s) passes the params and the client schema',
    (_, param) => {
      expect(isMobileParam(param)).toBe(true);
      expect(OPERATION_SPECS['viewer.unblock'].params.safeParse({ mobileNumber: param }).success).toBe(true);
      expect(MobileNumberSchema.safeParse(param).success).toBe(true);
    },
  );

  it.each([
    ['an empty string', ''],
    ['a lone plus', '+'],
    ['spaces', '0912 345 6789'],
    ['a plus and a zero', '+09123456789'],
    ['a plus before national digits', '+9123'],
    ['E.164 of a landline', '+982112345678'],
    ['E.164 that is no number', '+99912345678'],
    ['E.164 not in canonical form', '+9809123456789'],
    ['too many digits', '0'.repeat(18)],
  ])('refuses %s in both schemas', (_, value) => {
    expect(isMobileParam(value)).toBe(false);
    expect(OPERATION_SPECS['viewer.unblock'].params.safeParse({ mobileNumber: value }).success).toBe(false);
    expect(MobileNumberSchema.safeParse(value).success).toBe(false);
  });
});
