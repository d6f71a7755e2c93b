import { applyIpChange, canonicalIpv6, ipKey, parseIpList, sameIpSet } from './ip.js';

describe('agent lists IP addresses for the whitelist', () => {
  it.each([
    ['one IPv4', ['203.0.113.10'], ['203.0.113.10']],
    [
      'several, spaces and commas',
      ['203.0.113.10,', '198.51.100.7,198.51.100.8'],
      ['203.0.113.10', '198.51.100.7', '198.51.100.8'],
    ],
    ['semicolons', ['10.0.0.1;10.0.0.2'], ['10.0.0.1', '10.0.0.2']],
    ['duplicates folded, first kept', ['10.0.0.1', '10.0.0.1', '10.0.0.2'], ['10.0.0.1', '10.0.0.2']],
    ['IPv6 written in canonical form', ['2001:DB8:0:0:0:0:0:1'], ['2001:db8::1']],
    ['IPv6 spellings folded', ['2001:db8::1', '2001:0DB8::0001'], ['2001:db8::1']],
    ['IPv4-mapped IPv6 kept as written', ['::FFFF:1.2.3.4'], ['::FFFF:1.2.3.4']],
    ['IPv4-mapped spellings folded', ['::ffff:1.2.3.4', '::ffff:102:304'], ['::ffff:1.2.3.4']],
    ['IPv4-mapped not folded into IPv4', ['1.2.3.4', '::ffff:1.2.3.4'], ['1.2.3.4', '::ffff:1.2.3.4']],
    ['Persian digits', ['۲۰۳.۰.۱۱۳.۱۰'], ['203.0.113.10']],
    ['code formatting from Slack', ['`10.0.0.1`'], ['10.0.0.1']],
    ['loopback and unspecified IPv6', ['::1', '::'], ['::1', '::']],
  ])('accepts %s', (_, tokens, ips) => {
    expect(parseIpList(tokens)).toEqual({ ok: true, ips });
  });

  it.each([
    ['a host name', ['api.example.com'], ['"api.example.com" is a host name; give its IP address']],
    ['a URL', ['https://203.0.113.10'], ['"https://203.0.113.10" is a URL; give the server\'s IP address']],
    ['a CIDR range', ['10.0.0.0/8'], ['"10.0.0.0/8" is a range (CIDR); list single addresses']],
    ['an IPv4 with a port', ['10.0.0.1:8080'], ['"10.0.0.1:8080" has a port; give the address alone']],
    [
      'bracketed IPv6 with a port',
      ['[2001:db8::1]:443'],
      ['"[2001:db8::1]:443" has brackets and a port; give the IPv6 address alone'],
    ],
    ['bracketed IPv6', ['[2001:db8::1]'], ['"[2001:db8::1]" has brackets; give the IPv6 address alone']],
    ['a zone index', ['fe80::1%eth0'], ['"fe80::1%eth0" has a zone index (%…); give the address alone']],
    [
      'an octet over 255',
      ['1.2.3.256'],
      ['"1.2.3.256" is not a valid IPv4 address (four numbers from 0 to 255, no leading zeros)'],
    ],
    [
      'leading zeros',
      ['01.2.3.4'],
      ['"01.2.3.4" is not a valid IPv4 address (four numbers from 0 to 255, no leading zeros)'],
    ],
    ['three octets', ['1.2.3'], ['"1.2.3" is not an IPv4 or IPv6 address']],
    ['nothing', ['', ' , '], ['no IP address was given']],
    [
      'each bad token, good ones aside',
      ['10.0.0.1', 'example.com', '10.0.0.0/24'],
      [
        '"example.com" is a host name; give its IP address',
        '"10.0.0.0/24" is a range (CIDR); list single addresses',
      ],
    ],
  ])('refuses %s, naming the token', (_, tokens, problems) => {
    expect(parseIpList(tokens)).toEqual({ ok: false, problems });
  });
});

describe('IPv6 canonical form (RFC 5952)', () => {
  it.each([
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['FE80::ABCD', 'fe80::abcd'],
    ['0:0:0:0:0:ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['::ffff:0102:0304', '::ffff:1.2.3.4'],
  ])('%s → %s', (input, canonical) => {
    expect(canonicalIpv6(input)).toBe(canonical);
  });

  it('compares odd entries already on the service as trimmed lower-case text', () => {
    expect(ipKey(' Office-Gateway ')).toBe('office-gateway');
  });
});

describe('whitelist sets and changes', () => {
  it.each([
    ['same order', ['1.1.1.1', '2.2.2.2'], ['1.1.1.1', '2.2.2.2'], true],
    ['other order', ['1.1.1.1', '2.2.2.2'], ['2.2.2.2', '1.1.1.1'], true],
    ['IPv6 spelled differently', ['2001:DB8::1'], ['2001:db8:0:0:0:0:0:1'], true],
    ['repeats ignored', ['1.1.1.1', '1.1.1.1'], ['1.1.1.1'], true],
    ['one missing', ['1.1.1.1', '2.2.2.2'], ['1.1.1.1'], false],
    ['mapped vs plain', ['1.2.3.4'], ['::ffff:1.2.3.4'], false],
  ])('%s', (_, a, b, same) => {
    expect(sameIpSet(a, b)).toBe(same);
  });

  it('agent adds addresses: new ones at the end, ones already there reported unchanged', () => {
    expect(applyIpChange(['1.1.1.1', '2001:db8::1'], { add: ['3.3.3.3', '2001:DB8:0::1'] })).toEqual({
      next: ['1.1.1.1', '2001:db8::1', '3.3.3.3'],
      added: ['3.3.3.3'],
      removed: [],
      unchanged: ['2001:DB8:0::1'],
    });
  });

  it('agent removes addresses: absent ones reported unchanged, order kept', () => {
    expect(applyIpChange(['1.1.1.1', '2.2.2.2', '3.3.3.3'], { remove: ['2.2.2.2', '9.9.9.9'] })).toEqual({
      next: ['1.1.1.1', '3.3.3.3'],
      added: [],
      removed: ['2.2.2.2'],
      unchanged: ['9.9.9.9'],
    });
  });

  it('removing an address listed twice on the service removes both', () => {
    expect(applyIpChange(['1.1.1.1', '1.1.1.1', '2.2.2.2'], { remove: ['1.1.1.1'] })).toEqual({
      next: ['2.2.2.2'],
      added: [],
      removed: ['1.1.1.1'],
      unchanged: [],
    });
  });

  it('an address both removed and added stays (removes first)', () => {
    const change = applyIpChange(['1.1.1.1', '2.2.2.2'], { add: ['1.1.1.1'], remove: ['1.1.1.1'] });
    expect(change.next).toEqual(['2.2.2.2', '1.1.1.1']);
  });
});
