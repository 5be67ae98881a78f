import { describe, expect, it } from 'vitest';
import { readDateBound } from '@topup/validation';
import { assertTimeZone, formatTransactionDate, instantOf } from './transaction-date.js';

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

describe('instantOf', () => {
  const instant = (text: string, timeZone = 'Africa/Nairobi') => {
    const bound = readDateBound(text);
    if (bound === undefined) throw new Error(`Expected ${text} to be a date bound.`);
    return instantOf(bound, timeZone).toISOString();
  };

  it('reads a wall-clock time in the zone, three hours ahead of UTC in Nairobi', () => {
    expect(instant('2025-11-22')).toBe('2025-11-21T21:00:00.000Z');
    expect(instant('2025-11-21 14:05:09.250')).toBe('2025-11-21T11:05:09.250Z');
    expect(instant('2025-11-21T14:05', 'UTC')).toBe('2025-11-21T14:05:00.000Z');
  });

  it('keeps the moment a time with an offset names, whatever the zone', () => {
    expect(instant('2025-11-21T11:05:09Z')).toBe('2025-11-21T11:05:09.000Z');
    expect(instant('2025-11-21T14:05:09+03:00', 'UTC')).toBe('2025-11-21T11:05:09.000Z');
    expect(instant('2025-11-21T05:35:09-0530')).toBe('2025-11-21T11:05:09.000Z');
  });

  it('follows a zone whose offset changes with daylight saving', () => {
    expect(instant('2025-01-15 12:00', 'Europe/London')).toBe('2025-01-15T12:00:00.000Z');
    expect(instant('2025-07-15 12:00', 'Europe/London')).toBe('2025-07-15T11:00:00.000Z');
  });

  it('takes years before 100 as written', () => {
    expect(instant('0050-03-01T00:00Z')).toBe('0050-03-01T00:00:00.000Z');
  });
});
