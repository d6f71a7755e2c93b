import { english } from '../i18n/said.js';
import { extractFileIds, extractMobiles, readableMessageText } from './extract.js';

const params = (text: string, regions?: readonly string[]) =>
  extractMobiles(text, 'IR', regions === undefined ? {} : { regions }).found.map((m) => m.param);

describe('an agent runs "Unblock viewer" on a customer’s message', () => {
  it('finds the number in a Persian sentence written with Persian digits', () => {
    expect(extractMobiles('شماره من ۰۹۱۲۳۴۵۶۷۸۹ است', 'IR')).toEqual({
      found: [
        {
          param: '09123456789',
          national: '09123456789',
          e164: '+989123456789',
          region: 'IR',
          masked: '0912***6789',
        },
      ],
      refused: [],
    });
  });

  it.each([
    ['Arabic-Indic digits', 'رقمي ٠٩١٢٣٤٥٦٧٨٩ شكرا'],
    ['spaces inside', 'my number is 0912 345 6789, thanks'],
    ['dashes', 'call 0912-345-6789.'],
    ['dots and brackets', 'number: (0912) 345.6789'],
    ['+98', 'it is +98 912 345 6789'],
    ['0098', 'it is 0098 912 345 6789'],
    ['a tel link as Slack sends it', 'call <tel:+989123456789|+98 912 345 6789> please'],
    ['Persian digits with spaces and bidi marks', 'شماره \u200f۰۹۱۲ ۳۴۵ ۶۷۸۹\u200f لطفا'],
    ['at the end of a line', 'blocked again\n09123456789\nplease help'],
  ])('reads %s as the same number', (_what, text) => {
    expect(params(text)).toEqual(['09123456789']);
  });

  it('offers two numbers, in the order written, once each', () => {
    const text = 'I tried 0912 345 6789 and ۰۹۳۵۱۲۳۴۵۶۷ and again +98 912 345 6789';
    expect(params(text)).toEqual(['09123456789', '09351234567']);
  });

  it('splits two numbers written one after the other with spaces', () => {
    expect(params('0912 345 6789 0935 123 4567')).toEqual(['09123456789', '09351234567']);
    expect(params('09123456789 09351234567')).toEqual(['09123456789', '09351234567']);
  });

  it('finds nothing in a message with no number, and nothing in IDs, dates, times or codes', () => {
    const text =
      'Video 6710b0000000000000000203 fails with 9910 since 1403-02-15 10:30, user U0AGENT1, order 1234';
    expect(extractMobiles(text, 'IR')).toEqual({ found: [], refused: [] });
  });

  it('refuses a number of another country with the rule’s own reason, and offers the rest', () => {
    const result = extractMobiles('mine is +63 917 123 4567, my brother’s 09121234567', 'IR');
    expect(result.found.map((m) => m.param)).toEqual(['09121234567']);
    expect(result.refused).toEqual([
      { read: '+639171234567', said: { key: 'phoneForeign', params: ['+63 917 123 4567', 'PH', ['IR']] } },
    ]);
    expect(result.refused.map((r) => english(r.said))).toEqual([
      expect.stringContaining('is a mobile number in the Philippines (PH)'),
    ]);
  });

  it('accepts that number where PHONE_REGIONS lists its country, in E.164', () => {
    expect(params('mine is +63 917 123 4567', ['PH'])).toEqual(['+639171234567']);
  });

  it('refuses a landline and a number with a digit missing, saying why', () => {
    const { found, refused } = extractMobiles('office 021 1234 5678, mobile 0912 345 678', 'IR');
    expect(found).toEqual([]);
    expect(refused.map((r) => english(r.said))).toEqual([
      expect.stringContaining('landline'),
      expect.stringContaining('too short'),
    ]);
  });

  it('offers at most the limit', () => {
    const many = Array.from({ length: 15 }, (_, i) => `0912${String(1000000 + i)}`).join(', ');
    expect(extractMobiles(many, 'IR', {}, 10).found).toHaveLength(10);
  });
});

describe('an agent runs "Retry conversion" on a customer’s message', () => {
  it('finds the 24-hex file IDs, once each, also inside a link', () => {
    const text =
      'files 6710b0000000000000000203 and <https://panel.example.com/files/6710b0000000000000000208|this one> fail; again 6710b0000000000000000203';
    expect(extractFileIds(text)).toEqual(['6710b0000000000000000203', '6710b0000000000000000208']);
  });

  it('reads Persian digits inside an ID', () => {
    expect(extractFileIds('فایل ۶۷۱۰b0000000000000000203 خراب است')).toEqual(['6710b0000000000000000203']);
  });

  it('leaves longer hex strings, shorter ones and numbers alone', () => {
    const text = `hash ${'a'.repeat(40)}, short 6710b00000, phone 09123456789, ${'6710b0000000000000000203'}x`;
    expect(extractFileIds(text)).toEqual([]);
  });
});

describe('a message as Slack sends it', () => {
  it('is read as the person wrote it', () => {
    const read = readableMessageText(
      'Tom &amp; Jerry &lt;3 <@U0AGENT1> <#C0VIDOPS|support> <https://x.io|site>',
    );
    expect(read.replace(/\s+/g, ' ').trim()).toBe('Tom & Jerry <3 site');
  });
});
