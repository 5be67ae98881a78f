import { describe, expect, it } from 'vitest';
import {
  newApiToken,
  newCallbackSecret,
  newDeliveryId,
  newEndpointId,
  newReference,
  randomString,
} from './ids.js';

describe('identifiers', () => {
  it('makes references of TX and twelve unambiguous base32 characters', () => {
    const references = Array.from({ length: 2_000 }, newReference);
    for (const reference of references) expect(reference).toMatch(/^TX[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(new Set(references).size).toBe(references.length);
  });

  it('makes API tokens with the mode in the prefix and 32 base62 characters', () => {
    expect(newApiToken('test')).toMatch(/^tk_test_[0-9A-Za-z]{32}$/);
    expect(newApiToken('live')).toMatch(/^tk_live_[0-9A-Za-z]{32}$/);
  });

  it('makes endpoint and delivery ids with their prefixes', () => {
    expect(newEndpointId()).toMatch(/^ep_[0-9A-Za-z]{16}$/);
    expect(newDeliveryId()).toMatch(/^cb_[0-9A-Za-z]{20}$/);
  });

  it('makes callback secrets of whsec_ and 32 random bytes in base64', () => {
    const secret = newCallbackSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('draws every symbol of an alphabet with roughly equal frequency', () => {
    const text = randomString('abc', 30_000);
    const counts = ['a', 'b', 'c'].map((symbol) => text.split(symbol).length - 1);
    for (const count of counts) expect(count).toBeGreaterThan(9_000);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(30_000);
  });
});
