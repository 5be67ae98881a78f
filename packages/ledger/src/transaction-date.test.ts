import { describe, expect, it } from 'vitest';
import { assertTimeZone, formatTransactionDate } from './transaction-date.js';

describe('formatTransactionDate', () => {
  it('writes the time in Africa/Nairobi, three hours ahead of UTC', () => {
    expect(formatTransactionDate(new Date('2025-11-21T11:05:09Z'), 'Africa/Nairobi')).toBe(
      '2025-11-21 14:05:09',
    );
  });

  it('rolls over to the next day in Nairobi before midnight UTC', () => {
    expect(formatTransactionDate(new Date('2025-12-31T22:30:00.999Z'), 'Africa/Nairobi')).toBe(
      '2026-01-01 01:30:00',
    );
  });

  it('uses 00 for the midnight hour rather than 24', () => {
    expect(formatTransactionDate(new Date('2025-03-01T21:00:00Z'), 'Africa/Nairobi')).toBe(
      '2025-03-02 00:00:00',
    );
  });

  it('follows another zone when asked', () => {
    expect(formatTransactionDate(new Date('2025-07-01T12:00:00Z'), 'UTC')).toBe('2025-07-01 12:00:00');
  });

  it('rejects an unknown time zone with a readable error', () => {
    expect(() => {
      assertTimeZone('Mars/Olympus');
    }).toThrow(/Expected an IANA time zone.*Mars\/Olympus/);
  });
});
