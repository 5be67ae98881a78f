// What an STK Push result code means for the payment it asked for. Only 0 is a payment; every other code
// Daraja documents is a payment that did not happen, with the reason a caller is shown. A code Daraja has
// not documented is still a payment that did not happen (the prompt ended without one), told as such.

/**
 * The payment an STK result code reports: made, or not made and why.
 *
 * @example
 * ```ts
 * import { stkOutcome, type StkOutcome } from '@topup/providers';
 *
 * const outcome: StkOutcome = stkOutcome('0'); // { kind: 'paid' }
 * ```
 */
export type StkOutcome = { readonly kind: 'paid' } | { readonly kind: 'declined'; readonly reason: string };

const reasons: Readonly<Record<string, string>> = {
  '1': "the payer's M-Pesa balance was insufficient",
  '2': 'the amount is below the M-Pesa minimum',
  '3': 'the amount is above the M-Pesa maximum',
  '4': "the payer's daily M-Pesa limit would be exceeded",
  '8': "the payer's M-Pesa balance limit would be exceeded",
  '17': 'the same amount was requested from this payer within the last two minutes',
  '1019': 'the payment prompt expired before the payer answered',
  '1025': 'the payment prompt could not be shown to the payer',
  '1032': 'the payer cancelled the payment prompt',
  '1037': 'the payer could not be reached to show the payment prompt',
  '2001': 'the payer entered a wrong M-Pesa PIN',
  '2028': 'the payment is not permitted for this payer',
  '8006': "the payer's M-Pesa credentials are locked",
  SFC_IC0003: 'the payer has no M-Pesa account',
};

/**
 * The outcome an STK result code reports, read from its text (Daraja sends it as a number or a string).
 *
 * @example
 * ```ts
 * import { stkOutcome } from '@topup/providers';
 *
 * stkOutcome('1032'); // { kind: 'declined', reason: 'the payer cancelled the payment prompt' }
 * ```
 */
export function stkOutcome(resultCode: string): StkOutcome {
  if (resultCode === '0') return { kind: 'paid' };
  return {
    kind: 'declined',
    reason: reasons[resultCode] ?? `the payment did not happen (M-Pesa result ${resultCode})`,
  };
}
