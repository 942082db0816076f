import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { clientAddressResolver, forwardedEntries } from '../../src/http/client-address.ts';

const trusted = (env: Record<string, string>) => clientAddressResolver(loadConfig(env).trustedProxies);

describe('trusted proxies (SPQ_TRUSTED_PROXY_HOPS, SPQ_TRUSTED_PROXIES, SPQ_FORWARDED_HEADER)', () => {
  it('are parsed once at start-up; a malformed setting stops it with the setting named', () => {
    expect(loadConfig({}).trustedProxies).toEqual({ hops: undefined, ranges: [], header: 'x-forwarded-for' });
    expect(loadConfig({ SPQ_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.5 ,2001:db8::/32', SPQ_TRUSTED_PROXY_HOPS: '2', SPQ_FORWARDED_HEADER: 'Forwarded' }).trustedProxies).toEqual({
      hops: 2,
      ranges: [
        { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '192.168.1.5', prefix: 32, family: 'ipv4' },
        { address: '2001:db8::', prefix: 32, family: 'ipv6' },
      ],
      header: 'forwarded',
    });
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', '10.0.0/8', '::/129'])
      expect(() => loadConfig({ SPQ_TRUSTED_PROXIES: bad }), bad).toThrow(/SPQ_TRUSTED_PROXIES/);
    expect(() => loadConfig({ SPQ_TRUSTED_PROXY_HOPS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ SPQ_FORWARDED_HEADER: 'x-real-ip' })).toThrow(/SPQ_FORWARDED_HEADER/);
  });

  it('with neither setting, the connection is the client whatever the headers say', () => {
    const of = trusted({});
    expect(of('10.0.0.1', { 'x-forwarded-for': '1.2.3.4' })).toBe('10.0.0.1');
    expect(of('::ffff:10.0.0.1', {})).toBe('10.0.0.1');
    expect(trusted({ SPQ_TRUSTED_PROXY_HOPS: '0', SPQ_TRUSTED_PROXIES: '10.0.0.0/8' })('10.0.0.1', { 'x-forwarded-for': '1.2.3.4' })).toBe('10.0.0.1');
  });

  it('a hop count believes that many entries from the right, never the ones a client wrote before them', () => {
    const of = trusted({ SPQ_TRUSTED_PROXY_HOPS: '2' });
    expect(of('10.0.0.9', { 'x-forwarded-for': 'spoofed, 198.51.100.7, 10.0.0.8' })).toBe('198.51.100.7');
    expect(of('10.0.0.9', { 'x-forwarded-for': '10.0.0.8' })).toBe('10.0.0.8');
    expect(of('10.0.0.9', {})).toBe('10.0.0.9');
  });

  it('ranges believe hops inside them only, IPv6 too; an unreadable entry stops at the last trusted hop', () => {
    const of = trusted({ SPQ_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' });
    expect(of('10.1.2.3', { 'x-forwarded-for': '1.1.1.1, 198.51.100.7, 10.9.9.9' })).toBe('198.51.100.7');
    expect(of('203.0.113.5', { 'x-forwarded-for': '198.51.100.7' })).toBe('203.0.113.5');
    expect(of('fd00::1', { 'x-forwarded-for': '2001:db8::7' })).toBe('2001:db8::7');
    expect(of('10.1.2.3', { 'x-forwarded-for': 'garbage' })).toBe('10.1.2.3');
  });

  it('reads RFC 7239 Forwarded: quoted, bracketed IPv6 and ports; other parameters ignored', () => {
    expect(forwardedEntries('for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711", For="198.51.100.1:80"', 'forwarded')).toEqual(['192.0.2.60', '2001:db8:cafe::17', '198.51.100.1']);
    const of = trusted({ SPQ_TRUSTED_PROXIES: '10.0.0.1', SPQ_FORWARDED_HEADER: 'forwarded' });
    expect(of('10.0.0.1', { forwarded: 'for=6.6.6.6, for="[2001:db8::1]:4711"', 'x-forwarded-for': '7.7.7.7' })).toBe('2001:db8::1');
  });

  it('property: whatever a client prepends to the header, the address is the one the trusted proxies appended', () => {
    const of = trusted({ SPQ_TRUSTED_PROXIES: '10.0.0.0/8' });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 12 }).map((t) => t.replaceAll(',', ''))), { maxLength: 5 }), fc.ipV4().filter((a) => !a.startsWith('10.')), (spoofed, client) => {
        const header = [...spoofed, client, '10.0.0.2'].join(', ');
        return of('10.0.0.3', { 'x-forwarded-for': header }) === client;
      }),
    );
  });
});
