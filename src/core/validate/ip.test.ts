import { applyIpChange, canonicalIpv6, ipKey, sameIpSet } from './ip.js';

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
