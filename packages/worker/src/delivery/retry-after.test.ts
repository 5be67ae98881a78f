import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after.js';

const now = new Date('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
  });

  it('reads an HTTP date as the seconds until it', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:02:00 GMT', now)).toBe(120);
  });

  it('reads a date in the past as no wait', () => {
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });

  it.each([undefined, '', '-5', '1.5', 'soon', '2025-01-01T00:02:00Z'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
