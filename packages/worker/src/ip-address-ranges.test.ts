import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonPublicRangeOf } from './ip-address-ranges.js';

describe('nonPublicRangeOf', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1:2', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
  ])('classifies %s as %s', (address, kind) => {
    expect(nonPublicRangeOf(address)?.kind).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '169.255.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
  ])('treats %s as public', (address) => {
    expect(nonPublicRangeOf(address)).toBeUndefined();
  });

  it('names the range an address fell into', () => {
    expect(nonPublicRangeOf('172.20.1.1')).toEqual({ kind: 'private', cidr: '172.16.0.0/12' });
  });

  it('rejects text that is not an IP address', () => {
    expect(() => nonPublicRangeOf('example.com')).toThrow(
      /Expected an IPv4 or IPv6 address, received "example.com"/,
    );
  });

  it('gives an IPv4 address and its IPv4-mapped IPv6 form the same answer', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(nonPublicRangeOf(`::ffff:${address}`)).toEqual(nonPublicRangeOf(address));
      }),
    );
  });

  it('gives every written form of an IPv6 address the same answer', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (groups) => {
        const full = groups.map((group) => group.toString(16).padStart(4, '0')).join(':');
        const short = groups.map((group) => group.toString(16)).join(':');
        expect(nonPublicRangeOf(short)).toEqual(nonPublicRangeOf(full));
      }),
    );
  });
});
