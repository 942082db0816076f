/**
 * Whose allowance a request from a client address draws on. An IPv4 address is one subscriber;
 * an IPv6 subscriber gets a whole /64 (RFC 6177) and can take a fresh address from it per request,
 * so per-address limits count the /64, in one canonical spelling ("2001:db8:1:2::/64"), however
 * the address is written ("2001:db8:1:2:0:0:0:1", upper case, zero-padded, IPv4-mapped, a zone).
 * Pure text: the core does no I/O and loads no Node module.
 */

/** The eight 16-bit groups of an IPv6 address (zone removed), or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const address = text.replace(/%.*$/, '').toLowerCase();
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const partsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const parse = (parts: string[]): number[] | undefined => {
    const groups: number[] = [];
    for (const [k, part] of parts.entries()) {
      const v4 = k === parts.length - 1 ? ipv4Octets(part) : undefined;
      if (v4 !== undefined) groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      else if (/^[0-9a-f]{1,4}$/.test(part)) groups.push(parseInt(part, 16));
      else return undefined;
    }
    return groups;
  };
  const head = parse(partsOf(halves[0]!));
  const tail = parse(partsOf(halves[1] ?? ''));
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : undefined;
}

function ipv4Octets(text: string): number[] | undefined {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return undefined;
  const octets = text.split('.').map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** RFC 5952's shortest form of eight groups (the longest run of two or more zero groups as "::"). */
function canonicalIpv6(groups: readonly number[]): string {
  let best = { at: -1, length: 1 };
  for (let k = 0; k < groups.length; ) {
    if (groups[k] !== 0) { k++; continue; }
    let end = k;
    while (end < groups.length && groups[end] === 0) end++;
    if (end - k > best.length) best = { at: k, length: end - k };
    k = end;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/**
 * The limit subject of a client address: an IPv4 address as it is ("192.0.2.7", also from
 * "::ffff:192.0.2.7"), an IPv6 address's /64 ("2001:db8:1:2::/64"); anything else unchanged.
 */
export function addressSubject(address: string): string {
  const v4 = ipv4Octets(address);
  if (v4 !== undefined) return v4.join('.');
  const groups = ipv6Groups(address);
  if (groups === undefined) return address;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${canonicalIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
