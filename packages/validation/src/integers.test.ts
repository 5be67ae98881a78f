import { describe, expect, it } from 'vitest';
import { toDigitString, toPositiveInteger } from './integers.js';

describe('toPositiveInteger', () => {
  it.each([
    [100, 100],
    ['100', 100],
    ['0100', 100],
    [1, 1],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('accepts %j as %d', (input, expected) => {
    expect(toPositiveInteger(input)).toBe(expected);
  });

  it.each([
    '1e3',
    '10.0',
    '-5',
    '+5',
    '0x10',
    '١٢',
    '１２',
    '1 000',
    ' 100',
    '100 ',
    '',
    '0',
    '000',
    '9007199254740993',
    100.5,
    0,
    -5,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    null,
    [100],
    { value: 100 },
  ])('rejects %j', (input) => {
    expect(toPositiveInteger(input)).toBeUndefined();
  });
});

describe('toDigitString', () => {
  it.each([
    [123456, '123456'],
    [0, '0'],
    ['0034', '0034'],
    ['12345678901234567890', '12345678901234567890'],
  ])('accepts %j as %j', (input, expected) => {
    expect(toDigitString(input)).toBe(expected);
  });

  it.each(['12a', '-1', '1.5', '１２', '123456789012345678901', '', ' 12', -1, 1.5, 2 ** 53, false])(
    'rejects %j',
    (input) => {
      expect(toDigitString(input)).toBeUndefined();
    },
  );
});
