// The non-public range an IP address falls in, if any: private, loopback, link-local, cloud metadata,
// unique-local, unspecified, multicast and reserved ranges of IPv4, IPv6, and IPv4 carried inside IPv6
// (mapped, compatible, NAT64, 6to4). The callback URL policy decides from the kind which ones a callback
// may reach, so a callback URL cannot be aimed at the service's own network or at a cloud metadata address.

import { isIPv4, isIPv6 } from 'node:net';

export type AddressRangeKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud-metadata'
  | 'unique-local'
  | 'multicast'
  | 'reserved';

/** A non-public range an address fell into, named for messages (`loopback, 127.0.0.0/8`). */
export interface NonPublicRange {
  readonly kind: AddressRangeKind;
  readonly cidr: string;
}

interface Range extends NonPublicRange {
  readonly prefix: bigint;
  readonly bits: number;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** Expands any valid IPv6 text (compressed, with a trailing IPv4 part, with a zone) into its 128-bit value. */
function ipv6Value(text: string): bigint {
  const withoutZone = text.split('%')[0] ?? text;
  const lastColon = withoutZone.lastIndexOf(':');
  const last = withoutZone.slice(lastColon + 1);
  let head = withoutZone;
  let tail: bigint[] = [];
  if (last.includes('.')) {
    const v4 = ipv4Value(last);
    tail = [v4 >> 16n, v4 & 0xffffn];
    head = withoutZone.slice(0, lastColon + 1);
    // "1:2:3:4:5:6:" loses its separator colon; "::" keeps both, it stands for zero groups.
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left = '', right] = head.split('::');
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => BigInt(`0x${group}`));
  const leftGroups = groupsOf(left);
  const rightGroups = right === undefined ? [] : groupsOf(right);
  const zeros = 8 - leftGroups.length - rightGroups.length - tail.length;
  const groups = [...leftGroups, ...Array<bigint>(Math.max(zeros, 0)).fill(0n), ...rightGroups, ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

function range(kind: AddressRangeKind, cidr: string, width: 32 | 128): Range {
  const [base = '', bits = ''] = cidr.split('/');
  return { kind, cidr, prefix: width === 32 ? ipv4Value(base) : ipv6Value(base), bits: Number(bits) };
}

function within(value: bigint, width: 32 | 128, candidate: Range): boolean {
  const shift = BigInt(width - candidate.bits);
  return value >> shift === candidate.prefix >> shift;
}

const ipv4Ranges: readonly Range[] = [
  range('unspecified', '0.0.0.0/8', 32),
  range('private', '10.0.0.0/8', 32),
  // Alibaba Cloud's metadata service sits inside the CGNAT range, so it is matched before it.
  range('cloud-metadata', '100.100.100.200/32', 32),
  range('private', '100.64.0.0/10', 32),
  range('loopback', '127.0.0.0/8', 32),
  range('link-local', '169.254.0.0/16', 32),
  range('private', '172.16.0.0/12', 32),
  range('reserved', '192.0.0.0/24', 32),
  range('reserved', '192.0.2.0/24', 32),
  range('private', '192.168.0.0/16', 32),
  range('reserved', '198.18.0.0/15', 32),
  range('reserved', '198.51.100.0/24', 32),
  range('reserved', '203.0.113.0/24', 32),
  range('multicast', '224.0.0.0/4', 32),
  range('reserved', '240.0.0.0/4', 32),
];

const ipv6Ranges: readonly Range[] = [
  range('unspecified', '::/128', 128),
  range('loopback', '::1/128', 128),
  range('reserved', '64:ff9b:1::/48', 128),
  range('reserved', '100::/64', 128),
  range('reserved', '2001:db8::/32', 128),
  // AWS's IPv6 metadata service sits inside the unique-local range, so it is matched before it.
  range('cloud-metadata', 'fd00:ec2::254/128', 128),
  range('unique-local', 'fc00::/7', 128),
  range('link-local', 'fe80::/10', 128),
  range('private', 'fec0::/10', 128),
  range('multicast', 'ff00::/8', 128),
];

/** IPv6 prefixes whose addresses carry an IPv4 address, and where in the 128 bits it sits. */
const embeddedIpv4: readonly { readonly range: Range; readonly shift: bigint }[] = [
  { range: range('reserved', '::ffff:0:0/96', 128), shift: 0n },
  { range: range('reserved', '::/96', 128), shift: 0n },
  { range: range('reserved', '64:ff9b::/96', 128), shift: 0n },
  { range: range('reserved', '2002::/16', 128), shift: 80n },
];

function ipv4Range(value: bigint): NonPublicRange | undefined {
  const found = ipv4Ranges.find((candidate) => within(value, 32, candidate));
  return found === undefined ? undefined : { kind: found.kind, cidr: found.cidr };
}

/**
 * The non-public range an IP address belongs to, or `undefined` for a public unicast address.
 * @throws TypeError when the text is not an IPv4 or IPv6 address.
 */
export function nonPublicRangeOf(address: string): NonPublicRange | undefined {
  if (isIPv4(address)) return ipv4Range(ipv4Value(address));
  if (!isIPv6(address)) {
    throw new TypeError(`Expected an IPv4 or IPv6 address, received ${JSON.stringify(address)}.`);
  }
  const value = ipv6Value(address);
  const direct = ipv6Ranges.find((candidate) => within(value, 128, candidate));
  if (direct !== undefined) return { kind: direct.kind, cidr: direct.cidr };
  const carrier = embeddedIpv4.find((candidate) => within(value, 128, candidate.range));
  return carrier === undefined ? undefined : ipv4Range((value >> carrier.shift) & 0xffffffffn);
}
