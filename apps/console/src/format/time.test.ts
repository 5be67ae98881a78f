import { describe, expect, it } from 'vitest';
import { formatDuration, formatInstant } from './time';

describe('formatInstant', () => {
  it('shows an ISO instant in the given zone, in the API’s date form', () => {
    expect(formatInstant('2025-11-21T11:05:10.000Z', 'Africa/Nairobi')).toBe('2025-11-21 14:05:10');
    expect(formatInstant('2025-12-31T23:00:00Z', 'Africa/Nairobi')).toBe('2026-01-01 02:00:00');
  });

  it('shows midnight as 00, not 24', () => {
    expect(formatInstant('2025-11-21T21:00:00Z', 'Africa/Nairobi')).toBe('2025-11-22 00:00:00');
  });

  it('leaves empty or unreadable values as they are', () => {
    expect(formatInstant('')).toBe('');
    expect(formatInstant('soon')).toBe('soon');
  });
});

describe('formatDuration', () => {
  it('reads milliseconds below a second and seconds above', () => {
    expect(formatDuration('84')).toBe('84 ms');
    expect(formatDuration('1250')).toBe('1.25 s');
    expect(formatDuration('15000')).toBe('15 s');
    expect(formatDuration('')).toBe('');
  });
});
