import { describe, expect, it } from 'vitest';
import { readDateBound } from './date-bounds.js';

describe('readDateBound', () => {
  it('reads a date alone as its first moment, with no offset', () => {
    expect(readDateBound('2025-11-21')).toStrictEqual({
      year: 2025,
      month: 11,
      day: 21,
      hour: 0,
      minute: 0,
      second: 0,
      millisecond: 0,
      offsetMinutes: undefined,
    });
  });

  it.each([
    ['2025-11-21T14:05', { hour: 14, minute: 5, second: 0, offsetMinutes: undefined }],
    ['2025-11-21 14:05:09', { hour: 14, minute: 5, second: 9, offsetMinutes: undefined }],
    ['2025-11-21T11:05:09Z', { hour: 11, offsetMinutes: 0 }],
    ['2025-11-21T14:05:09+03:00', { hour: 14, offsetMinutes: 180 }],
    ['2025-11-21T05:35:09-0530', { hour: 5, minute: 35, offsetMinutes: -330 }],
    ['2025-11-21T14:05:09.5', { millisecond: 500 }],
    ['2025-11-21T14:05:09.123456789Z', { millisecond: 123, offsetMinutes: 0 }],
  ])('reads %s', (text, parts) => {
    expect(readDateBound(text)).toMatchObject(parts);
  });

  it('takes 29 February in a leap year only, and each month’s own last day', () => {
    expect(readDateBound('2024-02-29')).toBeDefined();
    expect(readDateBound('2000-02-29')).toBeDefined();
    expect(readDateBound('2025-02-29')).toBeUndefined();
    expect(readDateBound('1900-02-29')).toBeUndefined();
    expect(readDateBound('2025-04-31')).toBeUndefined();
    expect(readDateBound('2025-12-31T23:59:59')).toBeDefined();
  });

  it.each([
    '',
    'yesterday',
    '21/11/2025',
    '2025-11-21T',
    '2025-1-21',
    '2025-13-01',
    '2025-00-10',
    '0000-01-01',
    '2025-11-21T24:00',
    '2025-11-21T23:60',
    '2025-11-21T23:59:60',
    '2025-11-21Z',
    '2025-11-21T10:00+24:00',
    '2025-11-21T10:00+03:60',
    ' 2025-11-21',
    '2025-11-21t10:00',
    '１２３４-11-21',
    '2025-11-21T10:00:00.',
  ])('refuses %j', (text) => {
    expect(readDateBound(text)).toBeUndefined();
  });
});
