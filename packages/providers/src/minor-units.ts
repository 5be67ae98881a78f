// Amounts as providers write them in their results (Daraja's `1.00`, `300` or 300; Africa's Talking's
// `KES 100.0000`) read into minor units, the evidence the ledger compares with what was asked. An amount
// that is not a plain decimal, or has a fraction of a cent, says nothing that can be compared, and is read
// as absent rather than rounded into something it did not say.

import { textOf } from './tolerant-json.js';

/**
 * A decimal amount (a JSON number or its text) in minor units, or undefined when it is none.
 *
 * @example
 * ```ts
 * import { minorUnitsOf } from './minor-units.js';
 *
 * minorUnitsOf(1.0); // 100n
 * minorUnitsOf('100.5000'); // 10050n
 * minorUnitsOf('100.005'); // undefined: a fraction of a cent
 * ```
 */
export function minorUnitsOf(value: unknown): bigint | undefined {
  const text = textOf(value)?.trim();
  const match = text === undefined ? null : /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = '0', fraction = ''] = match;
  const cents = fraction.slice(0, 2).padEnd(2, '0');
  if (/[^0]/.test(fraction.slice(2))) return undefined;
  return BigInt(whole) * 100n + BigInt(cents);
}

/**
 * An amount written with its currency, as Africa's Talking writes them (`KES 100.0000`), in minor units.
 *
 * @example
 * ```ts
 * import { minorUnitsOfPriced } from './minor-units.js';
 *
 * minorUnitsOfPriced('KES 100.0000'); // 100_00n
 * minorUnitsOfPriced('100'); // undefined: no currency
 * ```
 */
export function minorUnitsOfPriced(value: unknown): bigint | undefined {
  const match = /^[A-Z]{3}\s+(\S+)$/.exec(textOf(value)?.trim() ?? '');
  return match === null ? undefined : minorUnitsOf(match[1]);
}
