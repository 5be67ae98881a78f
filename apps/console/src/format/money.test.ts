import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('groups thousands of whole amounts', () => {
    expect(formatMoney('1500')).toBe('1,500');
    expect(formatMoney('1000000')).toBe('1,000,000');
    expect(formatMoney('100')).toBe('100');
  });

  it('keeps the decimals and sign a balance came with', () => {
    expect(formatMoney('1234567.05')).toBe('1,234,567.05');
    expect(formatMoney('-20000.50')).toBe('-20,000.50');
  });

  it('shows a balance parsed from a JSON number with two places', () => {
    expect(formatMoney(1500.5)).toBe('1,500.50');
    expect(formatMoney(0)).toBe('0.00');
  });

  it('leaves what is not a plain decimal alone', () => {
    expect(formatMoney('')).toBe('');
    expect(formatMoney('n/a')).toBe('n/a');
  });
});
