import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeMobile } from './mobile.js';

describe('normalizeMobile', () => {
  it.each([
    ['254712345678', '254712345678'],
    [254712345678, '254712345678'],
    ['+254712345678', '254712345678'],
    ['0712345678', '254712345678'],
    ['0112345678', '254112345678'],
    ['254112345678', '254112345678'],
    ['0712 345 678', '254712345678'],
    ['0712-345-678', '254712345678'],
    ['+254 712 345 678', '254712345678'],
    ['+254-712-345678', '254712345678'],
    ['254 7 1 2 3 4 5 6 7 8', '254712345678'],
  ])('accepts %j as %s', (input, expected) => {
    expect(normalizeMobile(input)).toBe(expected);
  });

  it.each([
    ['letters', '07123a5678'],
    ['Arabic-Indic digits', '٠٧١٢٣٤٥٦٧٨'],
    ['full-width digits', '０７１２３４５６７８'],
    ['another country code', '+255712345678'],
    ['another country code without plus', '255712345678'],
    ['a landline range', '0201234567'],
    ['too few digits', '071234567'],
    ['too many digits', '07123456789'],
    ['too many digits after the country code', '2547123456789'],
    ['a trunk zero after the country code', '+2540712345678'],
    ['a plus before a national number', '+0712345678'],
    ['the 00 international prefix', '00254712345678'],
    ['leading space', ' 0712345678'],
    ['trailing junk', '0712345678;'],
    ['leading junk', 'tel:0712345678'],
    ['doubled separators', '0712  345 678'],
    ['a separator next to the plus', '+ 254712345678'],
    ['parentheses', '(0712) 345678'],
    ['the bare subscriber number', '712345678'],
    ['the empty string', ''],
    ['a number without country code', 712345678],
    ['a negative number', -254712345678],
    ['a fraction', 254712345678.5],
    ['a boolean', true],
    ['null', null],
    ['an object', { mobile: '0712345678' }],
  ])('rejects %s', (_description, input) => {
    expect(normalizeMobile(input)).toBeUndefined();
  });

  const canonical = fc
    .tuple(fc.constantFrom('7', '1'), fc.stringMatching(/^[0-9]{8}$/))
    .map(([first, rest]) => `254${first}${rest}`);

  // Splits `digits` at the given positions, joining the groups with the given separators.
  function separated(digits: string, cuts: readonly (readonly [number, string])[]): string {
    const separatorAt = new Map(
      cuts.map(([position, separator]) => [1 + (position % (digits.length - 1)), separator]),
    );
    return Array.from(
      { length: digits.length },
      (_, index) => (separatorAt.get(index) ?? '') + digits.charAt(index),
    ).join('');
  }

  it('normalises every accepted rendering of a canonical number back to that number', () => {
    fc.assert(
      fc.property(
        canonical,
        fc.constantFrom('international', 'plus', 'national', 'number'),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(' ', '-')), { maxLength: 8 }),
        (number, form, cuts) => {
          const national = number.slice(3);
          const rendered =
            form === 'number'
              ? Number(number)
              : form === 'plus'
                ? `+${separated(number, cuts)}`
                : separated(form === 'national' ? `0${national}` : number, cuts);
          expect(normalizeMobile(rendered)).toBe(number);
        },
      ),
    );
  });
});
