// Integer fields of the contract arrive as JSON numbers or, from XML bodies, as digit strings.
// These coercions accept exactly "digits only": no sign, decimal point, exponent, spaces, or
// non-ASCII digits.

const asciiDigits = /^[0-9]+$/;

/** Longest agent or store number accepted; the spec gives no limit, real ones are far shorter. */
export const maxIdentifierDigits = 20;

/**
 * A positive whole number: a JSON number that is a positive safe integer, or a string of ASCII digits
 * whose value is one. Leading zeros are accepted (`"0100"` is 100): the value is unambiguous and XML
 * producers sometimes pad. Anything else gives undefined.
 *
 * @example
 * ```ts
 * import { toPositiveInteger } from '@topup/validation';
 *
 * toPositiveInteger(500); // 500
 * toPositiveInteger('0100'); // 100
 * toPositiveInteger('1e3'); // undefined
 * toPositiveInteger(0); // undefined
 * ```
 */
export function toPositiveInteger(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input > 0 ? input : undefined;
  if (typeof input !== 'string' || !asciiDigits.test(input)) return undefined;
  const value = Number(input);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * The digits of a number issued by a network (agent number, store number): a non-negative safe
 * integer, or a string of 1 to `maxIdentifierDigits` ASCII digits. Returned as a string so that
 * leading zeros survive; undefined when the input is anything else.
 *
 * @example
 * ```ts
 * import { toDigitString } from '@topup/validation';
 *
 * toDigitString('007'); // '007'
 * toDigitString(7); // '7'
 * toDigitString('12a'); // undefined
 * ```
 */
export function toDigitString(input: unknown): string | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input >= 0 ? String(input) : undefined;
  if (typeof input !== 'string' || !asciiDigits.test(input)) return undefined;
  return input.length <= maxIdentifierDigits ? input : undefined;
}
