// Money as integers: minor units (cents) as bigint everywhere inside the ledger, whole shillings at the
// API boundary, two decimals when shown.

/** Minor units per major unit (KES has 100 cents). */
const minorPerMajor = 100n;

/**
 * `150000n` → `"1500.00"`; negative amounts keep their sign (`-5n` → `"-0.05"`).
 *
 * @example
 * ```ts
 * import { formatMinor } from '@topup/ledger';
 *
 * formatMinor(150_000n); // '1500.00'
 * formatMinor(-5n); // '-0.05'
 * ```
 */
export function formatMinor(amountMinor: bigint): string {
  const sign = amountMinor < 0n ? '-' : '';
  const magnitude = amountMinor < 0n ? -amountMinor : amountMinor;
  const cents = (magnitude % minorPerMajor).toString().padStart(2, '0');
  return `${sign}${(magnitude / minorPerMajor).toString()}.${cents}`;
}

/** Whole shillings from a request (a positive safe integer) as minor units. */
export function wholeUnitsToMinor(amount: number): bigint {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`Expected a positive whole amount, received ${String(amount)}.`);
  }
  return BigInt(amount) * minorPerMajor;
}

/** Minor units as whole shillings, digits only, as the wire carries `transaction.amount`. */
export function minorToWholeUnits(amountMinor: bigint): string {
  return (amountMinor / minorPerMajor).toString();
}
