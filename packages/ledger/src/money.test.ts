import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, minorToWholeUnits, wholeUnitsToMinor } from './money.js';

describe('formatMinor', () => {
  it('shows cents as a decimal with exactly two places', () => {
    expect(formatMinor(150000n)).toBe('1500.00');
    expect(formatMinor(5n)).toBe('0.05');
    expect(formatMinor(0n)).toBe('0.00');
    expect(formatMinor(123456789012345678901n)).toBe('1234567890123456789.01');
  });

  it('keeps the sign of a negative amount', () => {
    expect(formatMinor(-5n)).toBe('-0.05');
    expect(formatMinor(-150099n)).toBe('-1500.99');
  });

  it('round-trips through the decimal text for any amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (amount) => {
        const text = formatMinor(amount);
        expect(text).toMatch(/^-?(0|[1-9]\d*)\.\d{2}$/);
        expect(BigInt(text.replace('.', ''))).toBe(amount);
      }),
    );
  });
});

describe('whole units and minor units', () => {
  it('turns whole shillings into cents and back', () => {
    expect(wholeUnitsToMinor(100)).toBe(10_000n);
    expect(minorToWholeUnits(10_000n)).toBe('100');
  });

  it('rejects an amount that is not a positive safe integer', () => {
    for (const amount of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => wholeUnitsToMinor(amount)).toThrow(/Expected a positive whole amount/);
    }
  });
});
