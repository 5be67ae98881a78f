import { describe, expect, it } from 'vitest';
import { failureCountKey } from './failure-count-key.js';

describe('the key failed authentications are counted under', () => {
  it('is the IPv4 address itself', () => {
    expect(failureCountKey('192.0.2.1')).toBe('192.0.2.1');
    expect(failureCountKey('192.0.2.2')).toBe('192.0.2.2');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    expect(failureCountKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(failureCountKey('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(failureCountKey('2001:db8:1:3::a')).toBe('2001:db8:1:3::/64');
    expect(failureCountKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(failureCountKey('::1')).toBe('0:0:0:0::/64');
    expect(failureCountKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(failureCountKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('counts an IPv4 address written as IPv6 as the IPv4 address', () => {
    expect(failureCountKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(failureCountKey('::ffff:c000:201')).toBe('192.0.2.1');
  });

  it('keeps anything that is not an address as it is', () => {
    expect(failureCountKey('')).toBe('');
    expect(failureCountKey('unknown')).toBe('unknown');
  });
});
