import { describe, expect, it } from 'vitest';
import { dayAfter, wholeDays } from './date-range';

describe('dayAfter', () => {
  it('moves to the next day across months, years and leap days', () => {
    expect(dayAfter('2025-11-21')).toBe('2025-11-22');
    expect(dayAfter('2025-11-30')).toBe('2025-12-01');
    expect(dayAfter('2025-12-31')).toBe('2026-01-01');
    expect(dayAfter('2024-02-28')).toBe('2024-02-29');
    expect(dayAfter('2025-02-28')).toBe('2025-03-01');
  });

  it('leaves what is not a date alone', () => {
    expect(dayAfter('2025-11-21T10:00')).toBe('2025-11-21T10:00');
  });
});

describe('wholeDays', () => {
  it('includes the last day picked', () => {
    expect(wholeDays('2025-11-01', '2025-11-30')).toEqual({ from: '2025-11-01', to: '2025-12-01' });
  });

  it('keeps a blank bound blank', () => {
    expect(wholeDays('', '')).toEqual({ from: '', to: '' });
  });
});
