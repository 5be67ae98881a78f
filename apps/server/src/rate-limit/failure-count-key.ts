// Which client failed authentication, as the failure limit counts it. An IPv4 address is one client. An
// IPv6 client is its /64: one subscriber or host is usually handed a whole /64, so counting single
// addresses would let it take a fresh address for every guess. An IPv4 address written as IPv6
// (`::ffff:192.0.2.1`, as a dual-stack socket reports it) is the IPv4 address.

import { isIPv4, isIPv6 } from 'node:net';

/** The sixteen-bit groups of an IPv6 address, `::` expanded and an embedded IPv4 tail converted. */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...Array.from({ length: 8 - front.length - back.length }, () => 0), ...back];
}

/**
 * The key failed authentications from `address` are counted under: the IPv4 address itself, or
 * `<first four groups>::/64` for IPv6. Anything else (no address known) is counted as given.
 */
export function failureCountKey(address: string): string {
  // Every IPv6 address has a colon and no IPv4 address has one: most requests skip the IPv6 check.
  if (!address.includes(':')) return address;
  // A zone (`fe80::1%eth0`) names the local interface, not the client.
  const bare = address.split('%')[0] ?? address;
  if (!isIPv6(bare)) return address;
  const groups = groupsOf(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
