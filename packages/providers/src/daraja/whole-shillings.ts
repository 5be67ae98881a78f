// M-Pesa moves whole shillings only; an amount with cents cannot be sent, so it is refused before a call.

/** `amountMinor` in whole shillings, as Daraja's `Amount` fields take it. */
export function wholeShillings(amountMinor: bigint): number {
  if (amountMinor % 100n !== 0n || amountMinor <= 0n) {
    throw new Error(`Expected whole shillings for an M-Pesa payment, received ${String(amountMinor)} cents.`);
  }
  return Number(amountMinor / 100n);
}
