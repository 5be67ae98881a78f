import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.js';

describe('retryAfterSeconds', () => {
  it.each<[string | null | undefined, number | undefined]>([
    ['5', 5],
    [' 0 ', 0],
    ['120', 120],
    [null, undefined],
    [undefined, undefined],
    ['', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
  ])('reads %j as %j', (header, seconds) => {
    expect(retryAfterSeconds(header)).toBe(seconds);
  });

  it('reads an HTTP date as the whole seconds from now, rounded up', () => {
    const now = new Date('2025-11-21T14:00:00.500Z');
    expect(retryAfterSeconds('Fri, 21 Nov 2025 14:00:10 GMT', now)).toBe(10);
  });

  it('reads the obsolete RFC 850 date form', () => {
    const now = new Date('1994-11-06T08:49:30Z');
    expect(retryAfterSeconds('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7);
  });

  it('reads an HTTP date in the past as no wait', () => {
    const now = new Date('2025-11-21T14:00:00Z');
    expect(retryAfterSeconds('Fri, 21 Nov 2025 13:59:00 GMT', now)).toBe(0);
  });
});
