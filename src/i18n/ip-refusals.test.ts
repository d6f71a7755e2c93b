import { parseIpList, unusableSaid } from '../core/validate/ip.js';
import { english } from './said.js';

/** What an agent reads when addresses are refused: the core's sentences in English. */
function worded(tokens: readonly string[], purpose?: 'add' | 'remove') {
  const read = parseIpList(tokens, purpose);
  return read.ok ? read : { ok: false, problems: read.said.map(english) };
}

function unusableWords(ip: string): string | null {
  const said = unusableSaid(ip);
  return said === null ? null : english(said);
}

describe('agent lists IP addresses for the whitelist', () => {
  it.each([
    ['one IPv4', ['5.160.12.10'], ['5.160.12.10']],
    [
      'several, spaces and commas',
      ['5.160.12.10,', '185.8.172.7,185.8.172.8'],
      ['5.160.12.10', '185.8.172.7', '185.8.172.8'],
    ],
    ['semicolons', ['1.2.3.4;5.6.7.8'], ['1.2.3.4', '5.6.7.8']],
    ['duplicates folded, first kept', ['1.2.3.4', '1.2.3.4', '5.6.7.8'], ['1.2.3.4', '5.6.7.8']],
    ['IPv6 written in canonical form', ['2A00:1:0:0:0:0:0:1'], ['2a00:1::1']],
    ['IPv6 spellings folded', ['2a00:1::1', '2A00:0001::0001'], ['2a00:1::1']],
    ['IPv4-mapped IPv6 kept as written', ['::FFFF:1.2.3.4'], ['::FFFF:1.2.3.4']],
    ['IPv4-mapped spellings folded', ['::ffff:1.2.3.4', '::ffff:102:304'], ['::ffff:1.2.3.4']],
    ['IPv4-mapped not folded into IPv4', ['1.2.3.4', '::ffff:1.2.3.4'], ['1.2.3.4', '::ffff:1.2.3.4']],
    ['Persian digits', ['۵.۱۶۰.۱۲.۱۰'], ['5.160.12.10']],
    ['code formatting from Slack', ['`1.2.3.4`'], ['1.2.3.4']],
    [
      'the addresses around the refused blocks',
      ['172.15.255.255', '172.32.0.1', '11.0.0.1'],
      ['172.15.255.255', '172.32.0.1', '11.0.0.1'],
    ],
  ])('accepts %s', (_, tokens, ips) => {
    expect(worded(tokens)).toEqual({ ok: true, ips });
  });

  it.each([
    ['0.0.0.0', '0.0.0.0 is the unspecified address: no server calls from it'],
    ['::', ':: is the unspecified address: no server calls from it'],
    ['0.1.2.3', '0.1.2.3 is in 0.0.0.0/8, which means "this network": no server calls from it'],
    [
      '127.0.0.1',
      '127.0.0.1 is a loopback address (127.0.0.0/8): it means the machine itself, never a caller',
    ],
    [
      '127.255.0.9',
      '127.255.0.9 is a loopback address (127.0.0.0/8): it means the machine itself, never a caller',
    ],
    ['::1', '::1 is the loopback address: it means the machine itself, never a caller'],
    [
      '169.254.10.1',
      '169.254.10.1 is a link-local address (169.254.0.0/16): it never leaves its own network',
    ],
    ['fe80::1', 'fe80::1 is a link-local address (fe80::/10): it never leaves its own network'],
    ['febf::1', 'febf::1 is a link-local address (fe80::/10): it never leaves its own network'],
    ['224.0.0.1', '224.0.0.1 is a multicast address (224.0.0.0/4): no server calls from it'],
    ['239.255.255.250', '239.255.255.250 is a multicast address (224.0.0.0/4): no server calls from it'],
    ['ff02::1', 'ff02::1 is a multicast address (ff00::/8): no server calls from it'],
    ['255.255.255.255', '255.255.255.255 is the broadcast address: no server calls from it'],
    ['250.1.2.3', '250.1.2.3 is a reserved address (240.0.0.0/4): no server calls from it'],
    [
      '192.0.2.1',
      '192.0.2.1 is a documentation address (192.0.2.0/24, for examples only): no server calls from it',
    ],
    [
      '198.51.100.7',
      '198.51.100.7 is a documentation address (198.51.100.0/24, for examples only): no server calls from it',
    ],
    [
      '203.0.113.10',
      '203.0.113.10 is a documentation address (203.0.113.0/24, for examples only): no server calls from it',
    ],
    [
      '2001:db8::1',
      '2001:db8::1 is a documentation address (2001:db8::/32, for examples only): no server calls from it',
    ],
    [
      '3fff:1::1',
      '3fff:1::1 is a documentation address (3fff::/20, for examples only): no server calls from it',
    ],
    ['198.18.0.1', '198.18.0.1 is a benchmarking address (198.18.0.0/15): no server calls from it'],
    [
      '::1.2.3.4',
      '::1.2.3.4 is an IPv4-compatible address (::/96, retired in 2006): no server calls from it',
    ],
    [
      '::ffff:0.0.0.0',
      '::ffff:0.0.0.0 is the IPv4-mapped form of the unspecified address: no server calls from it',
    ],
    [
      '::ffff:127.0.0.1',
      '::ffff:127.0.0.1 is the IPv4-mapped form of a loopback address (127.0.0.0/8): it means the machine itself, never a caller',
    ],
    [
      '::ffff:7f00:1',
      '::ffff:7f00:1 is the IPv4-mapped form of a loopback address (127.0.0.0/8): it means the machine itself, never a caller',
    ],
    [
      '::ffff:169.254.1.1',
      '::ffff:169.254.1.1 is the IPv4-mapped form of a link-local address (169.254.0.0/16): it never leaves its own network',
    ],
    [
      '::ffff:255.255.255.255',
      '::ffff:255.255.255.255 is the IPv4-mapped form of the broadcast address: no server calls from it',
    ],
  ])('refuses to add %s, saying why', (ip, reason) => {
    expect(unusableWords(ip)).toBe(reason);
    expect(worded([ip])).toMatchObject({ ok: false, problems: [reason] });
  });

  const NOT_SEEN =
    'the service is on the internet and sees the public address of the server calling it, so this one would never match; give the public address';
  it.each([
    ['10.1.2.3', 'a private address (10.0.0.0/8)'],
    ['172.16.0.1', 'a private address (172.16.0.0/12)'],
    ['172.31.255.254', 'a private address (172.16.0.0/12)'],
    ['192.168.1.20', 'a private address (192.168.0.0/16)'],
    ['100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['fd12:3456::1', 'a unique local (private) address (fc00::/7)'],
    ['fc00::1', 'a unique local (private) address (fc00::/7)'],
    ['fec0::1', 'a site-local address (fec0::/10, retired)'],
  ])('refuses to add the private address %s: the service never sees it', (ip, what) => {
    expect(worded([ip])).toMatchObject({ ok: false, problems: [`${ip} is ${what}: ${NOT_SEEN}`] });
    if (!ip.includes(':')) {
      expect(worded([`::ffff:${ip}`])).toMatchObject({
        ok: false,
        problems: [`::ffff:${ip} is the IPv4-mapped form of ${what}: ${NOT_SEEN}`],
      });
    }
  });

  it('names each refused address and keeps the others out of the answer', () => {
    expect(worded(['1.2.3.4', '0.0.0.0', '10.0.0.1'])).toMatchObject({
      ok: false,
      problems: [
        '0.0.0.0 is the unspecified address: no server calls from it',
        `10.0.0.1 is a private address (10.0.0.0/8): ${NOT_SEEN}`,
      ],
    });
  });

  it('removing takes any address, so an entry that should never have been added can leave', () => {
    expect(worded(['0.0.0.0', '::', '10.0.0.1', '203.0.113.7', '::1'], 'remove')).toEqual({
      ok: true,
      ips: ['0.0.0.0', '::', '10.0.0.1', '203.0.113.7', '::1'],
    });
  });

  it('public addresses are usable', () => {
    for (const ip of ['1.1.1.1', '8.8.8.8', '5.160.12.10', '2a00:1450:4001::1', '::ffff:1.1.1.1']) {
      expect(unusableWords(ip)).toBeNull();
    }
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
      ['1.2.3.4', 'example.com', '10.0.0.0/24'],
      [
        '"example.com" is a host name; give its IP address',
        '"10.0.0.0/24" is a range (CIDR); list single addresses',
      ],
    ],
  ])('refuses %s, naming the token', (_, tokens, problems) => {
    expect(worded(tokens)).toMatchObject({ ok: false, problems });
  });
});
