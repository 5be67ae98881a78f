import { describe, expect, it } from 'vitest';
import { minorUnitsOf, minorUnitsOfPriced } from './minor-units.js';

describe('minorUnitsOf', () => {
  it.each([
    [1.0, 100n],
    ['1.00', 100n],
    [300, 30_000n],
    ['190.00', 19_000n],
    ['100.5000', 10_050n],
    [' 7 ', 700n],
  ])('reads %j as %s minor units', (value, minor) => {
    expect(minorUnitsOf(value)).toBe(minor);
  });

  it.each(['100.005', '-1', 'KES 100', '', '1e3', null, undefined, {}])(
    'reads %j as nothing to compare',
    (value) => {
      expect(minorUnitsOf(value)).toBeUndefined();
    },
  );
});

describe('minorUnitsOfPriced', () => {
  it('reads Africa’s Talking’s amounts, currency first', () => {
    expect(minorUnitsOfPriced('KES 100.0000')).toBe(10_000n);
    expect(minorUnitsOfPriced('KES 4.0000')).toBe(400n);
    expect(minorUnitsOfPriced('100.0000')).toBeUndefined();
    expect(minorUnitsOfPriced('KES 1.2345')).toBeUndefined();
  });
});
