import { BlockList, isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import { plainAddress, type TrustedProxies } from '../config.ts';

/** The client's address for a request: its connection's, or what trusted proxies say it is. */
export type ClientAddressOf = (connection: string | undefined, headers: IncomingHttpHeaders) => string;

/**
 * Built once from the configuration. The chain is read from the right (the connection, then the
 * header's entries from the last one a proxy appended): each hop that is trusted (within the hop
 * count, inside the ranges) hands over to the entry before it, and the first untrusted hop is the
 * client. Entries a client wrote itself lie left of every trusted proxy's, so they are never
 * reached: a spoofed header changes nothing. A connection from anywhere else is its own address.
 */
export function clientAddressResolver(trusted: TrustedProxies): ClientAddressOf {
  const unknown = 'unknown';
  const { hops, ranges, header } = trusted;
  if (hops === 0 || (hops === undefined && ranges.length === 0)) return (connection) => (connection === undefined ? unknown : (plainAddress(connection) ?? connection));
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family);
  const inRanges = (address: string) => ranges.length === 0 || list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return (connection, headers) => {
    let client = connection === undefined ? undefined : plainAddress(connection);
    if (client === undefined) return connection ?? unknown;
    const entries = forwardedEntries(headers[header], header);
    for (let trustedHops = 0; entries.length > 0 && (hops === undefined || trustedHops < hops) && inRanges(client); trustedHops++) {
      const next = plainAddress(entries.pop()!);
      // An entry that is no address ("unknown", an obfuscated name): the last trusted hop is all that is known.
      if (next === undefined) break;
      client = next;
    }
    return client;
  };
}

/** The addresses a forwarding header lists, left to right, each as written (ports and brackets removed). */
export function forwardedEntries(value: string | string[] | undefined, header: TrustedProxies['header']): string[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  // X-Forwarded-For: "client, proxy1, proxy2"; Forwarded: 'for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"'.
  const isForwarded = header === 'forwarded';
  return text.split(',').map((element) => {
    const raw = isForwarded ? (/(?:^|;)\s*for\s*=\s*("[^"]*"|[^;]*)/i.exec(element.trim())?.[1] ?? '') : element;
    return withoutPort(raw.trim().replace(/^"|"$/g, ''));
  });
}

/** "[2001:db8::1]:4711" → 2001:db8::1; "192.0.2.43:4711" → 192.0.2.43; a bare address as it is. */
function withoutPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(value);
  return v4WithPort ? v4WithPort[1]! : value;
}
