import fc from 'fast-check';
import { isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { addressSubject } from '../../src/core/address-subject.ts';

describe('addressSubject: whose allowance a client address draws on', () => {
  it('an IPv4 address is its own; an IPv4-mapped IPv6 address is that IPv4 address', () => {
    expect(addressSubject('192.0.2.7')).toBe('192.0.2.7');
    expect(addressSubject('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressSubject('::FFFF:c000:0207')).toBe('192.0.2.7');
  });

  it('every spelling of an IPv6 address, and every address of its /64, is one subject', () => {
    const subject = '2001:db8:1:2::/64';
    for (const spelling of ['2001:db8:1:2::1', '2001:db8:1:2:0:0:0:1', '2001:0DB8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::1%eth0', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2:abcd::9']) {
      expect(addressSubject(spelling), spelling).toBe(subject);
    }
    expect(addressSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressSubject('::1')).toBe('::/64');
    expect(addressSubject('fe80::1')).toBe('fe80::/64');
    expect(addressSubject('2001:0:0:1::1')).toBe('2001:0:0:1::/64');
  });

  it('leaves what is not an address unchanged (a proxy\'s "unknown")', () => {
    for (const other of ['unknown', '', '1.2.3', '256.1.1.1', '1::2::3', '2001:db8:1:2:3:4:5:6:7', 'gggg::1']) expect(addressSubject(other), other).toBe(other);
  });

  it('property: any IPv6 address and its fully written form give one valid /64, shared by its whole /64', () => {
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), fc.array(group, { minLength: 4, maxLength: 4 }), (groups, otherHost) => {
        fc.pre(!(groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)); // not IPv4-mapped
        const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        const short = groups.map((g) => g.toString(16)).join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
        const sibling = [...groups.slice(0, 4), ...otherHost].map((g) => g.toString(16)).join(':');
        const subject = addressSubject(full);
        expect(subject.endsWith('/64')).toBe(true);
        expect(isIPv6(subject.slice(0, -3))).toBe(true);
        expect(addressSubject(short)).toBe(subject);
        expect(addressSubject(sibling)).toBe(subject);
      }),
      { numRuns: 2000 },
    );
  });
});
