import { maskMobile, maskMobilesInJson, maskMobilesInText, redactError } from './mask.js';

describe('mobile numbers are masked wherever people read them', () => {
  it.each([
    ['09123456789', '0912***6789'],
    ['+989123456789', '+9891***6789'],
    ['0912-345-6789', '0912***6789'],
    ['123', '***'],
  ])('%s is shown as %s', (input, shown) => {
    expect(maskMobile(input)).toBe(shown);
  });

  it.each([
    ['unblocked 09123456789 ok', 'unblocked 0912***6789 ok'],
    ['numbers +98 912 345 6789 and 0912-345-6789', 'numbers +9891***6789 and 0912***6789'],
    ['Persian ۰۹۱۲۳۴۵۶۷۸۹', 'Persian 0912***6789'],
    ['قسمت ۳: ۰۹۱۲۳۴۵۶۷۸۹', 'قسمت ۳: 0912***6789'],
    ['file 671018d0403eba579a6f90e2 stays', 'file 671018d0403eba579a6f90e2 stays'],
    ['at 2026-11-21T10:00:00Z, code 9910', 'at 2026-11-21T10:00:00Z, code 9910'],
    ['seq 12345678', 'seq 12345678'],
  ])('in "%s"', (input, shown) => {
    expect(maskMobilesInText(input)).toBe(shown);
  });
});

describe('a number written in any of the ways people write it is masked in reasons and titles', () => {
  it.each([
    ['dots between the groups', 'call 0912.765.4321 today', 'call 0912***4321 today'],
    ['the area code in brackets', 'call (0912) 765-4321 today', 'call 0912***4321 today'],
    ['double spaces', 'call 0912  765  4321 today', 'call 0912***4321 today'],
    ['a zero-width space (U+200B)', 'call 0912\u200b765\u200b4321', 'call 0912***4321'],
    ['a zero-width non-joiner (U+200C)', 'call 0912\u200c7654321', 'call 0912***4321'],
    ['a zero-width joiner (U+200D)', 'call 0912\u200d765\u200d4321', 'call 0912***4321'],
    ['a word joiner (U+2060)', 'call 0912\u2060765\u20604321', 'call 0912***4321'],
    ['a BOM (U+FEFF)', 'call \ufeff0912\ufeff765 4321', 'call \ufeff0912***4321'],
    ['glued to a word', 'mobile09127654321', 'mobile0912***4321'],
    ['glued to a Persian word', 'شماره۰۹۱۲۷۶۵۴۳۲۱', 'شماره0912***4321'],
    ['Persian digits with dots', '۰۹۱۲.۷۶۵.۴۳۲۱', '0912***4321'],
    ['Arabic-Indic digits in brackets', '(٠٩١٢) ٧٦٥-٤٣٢١', '0912***4321'],
    ['with the country code', 'viewer +98 (912) 765 4321', 'viewer +9891***4321'],
    ['00 and the country code', 'viewer 0098 912 765 4321', 'viewer 0098***4321'],
    ['without the leading 0', 'viewer 912 765 4321', 'viewer 9127***4321'],
  ])('%s', (_how, input, shown) => {
    expect(maskMobilesInText(input)).toBe(shown);
  });

  it('two numbers side by side are masked one by one', () => {
    expect(maskMobilesInText('0912 345 6789 0935 111 2233')).toBe('0912***6789 0935***2233');
  });

  it.each([
    ['a 24-hex ID', 'folder 6710a0000000000000000103'],
    ['an ID of the service with digits only after a letter', 'file 671018d0403eba579a6f90e2'],
    ['a UUID', 'event 5f0e3d4c-1111-4222-8333-444455556666'],
    ['a request ID', 'request R-7K2M9QXA'],
    ['a Slack user ID of digits', 'by U0123456789'],
    ['a seq number', 'event #123456'],
    ['an IPv4 address', 'whitelist 192.168.100.200 and 10.0.0.1'],
    ['an IPv6 address', 'whitelist 2001:db8::1234:5678'],
    ['a date and time', 'expires 2026-11-22 14:05 UTC'],
    ['a Persian date', 'on 1403-05-12'],
    ['a number longer than any phone', 'order 12345678901234567890'],
    ['a player error code', 'code 9910'],
  ])('%s is left alone', (_what, text) => {
    expect(maskMobilesInText(text)).toBe(text);
  });
});

describe('an error is logged without its secrets', () => {
  it('keeps the name and code and takes tokens, signatures and mobiles out of the message', () => {
    const error = Object.assign(
      new Error('token xoxb-123-456-abc refused for 09123456789, signature v0=0123456789abcdef0123'),
      { code: 'slack_webapi_platform_error', data: { token: 'xoxb-123-456-abc' } },
    );
    expect(redactError(error)).toEqual({
      name: 'Error',
      code: 'slack_webapi_platform_error',
      message: 'token [redacted] refused for 0912***6789, signature [redacted]',
    });
  });

  it('turns what is thrown that is no Error into a message, and leaves out a code that is no string', () => {
    expect(redactError('app token xapp-1-A0-secret')).toEqual({
      name: 'Error',
      message: 'app token [redacted]',
    });
    expect(redactError(Object.assign(new TypeError('bad'), { code: 42 }))).toEqual({
      name: 'TypeError',
      message: 'bad',
    });
  });
});

describe('masking a service answer shown to people', () => {
  it('masks the phones in it and leaves a file size and a timestamp readable', () => {
    const answer = {
      _id: '65a1f0c2e4b0a1b2c3d4e5f6',
      size: 7340003200,
      createdAt: 1732112345678,
      duration: 5400,
      mobileNumber: '09123456789',
      phone: 2188776655,
      owner: { tel: 989123456789, note: 'call 0912 345 6789 after six' },
      viewers: [9121112233, 104857600],
      '09351234567': true,
      ratio: 0.5,
      offset: -9123456789,
    };
    expect(maskMobilesInJson(answer)).toEqual({
      _id: '65a1f0c2e4b0a1b2c3d4e5f6',
      size: 7340003200,
      createdAt: 1732112345678,
      duration: 5400,
      mobileNumber: '0912***6789',
      // Under a key that names a phone, any number of 9 digits or more is one.
      phone: '2188***6655',
      owner: { tel: '9891***6789', note: 'call 0912***6789 after six' },
      // A number in a mobile's shape is masked wherever it stands; a plain count is not.
      viewers: ['9121***2233', 104857600],
      '0935***4567': true,
      ratio: 0.5,
      offset: -9123456789,
    });
  });

  it('masks a text answer as free text', () => {
    expect(maskMobilesInJson('unblocked 09123456789')).toBe('unblocked 0912***6789');
    expect(maskMobilesInJson(null)).toBeNull();
  });
});
