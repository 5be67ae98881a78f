// Operator amounts: shillings with at most two decimals ("1500", "1500.50"), as minor units. The API's own
// amounts are whole shillings; an operator funding a channel may need the cents.

import { OperatorError } from './operator-error.js';

export function shillingsToMinor(text: string): bigint {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) {
    const problem = `amount must be shillings with at most two decimals (e.g. 1500 or 1500.50), received ${JSON.stringify(text)}`;
    throw new OperatorError('invalid', problem, [problem]);
  }
  const [, whole = '0', fraction = ''] = match;
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (minor === 0n)
    throw new OperatorError('invalid', 'amount must be greater than zero', [
      'amount must be greater than zero',
    ]);
  return minor;
}
