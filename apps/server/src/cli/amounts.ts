// Operator amounts: shillings with at most two decimals ("1500", "1500.50"), turned into minor units.

import { UsageError } from './cli-output.js';

export function parseMinorAmount(text: string): bigint {
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text);
  if (match === null) {
    throw new UsageError(
      `--amount must be shillings with at most two decimals (e.g. 1500 or 1500.50), received ${JSON.stringify(text)}`,
    );
  }
  const [, whole = '0', fraction = ''] = match;
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (minor === 0n) throw new UsageError('--amount must be greater than zero');
  return minor;
}
