// What an STK Push result code means for the payment it asked for: the one table of them, with each code's
// text as Daraja documents it (M-Pesa Express, "Result codes":
// https://developer.safaricom.co.ke/apis/MpesaExpressSimulate). 0 is the payment made. Every other code
// that table documents is final: the prompt ended and the payer was not charged, so the payment is declined
// with the reason a caller is shown. A code the table does not document says nothing certain, so it is
// `unknown`: never a decline, since a payer who was charged must not be told nothing happened; the
// prompt is asked about again (STK Query) until a documented code or a person settles it.

/**
 * One documented STK result code: Daraja's own description of it, and the reason a caller reads when it
 * declines a payment.
 *
 * @example
 * ```ts
 * import { STK_RESULT_CODES } from '@topup/providers';
 *
 * STK_RESULT_CODES.get('1032')?.description; // 'Request cancelled by user.'
 * ```
 */
export interface StkResultCode {
  /** Daraja's ResultDesc for the code, as its documentation gives it. */
  readonly description: string;
  /** What it means for the payment, in the words a caller reads. */
  readonly reason: string;
}

/**
 * Daraja's documented STK result codes other than 0, each final: the prompt ended and the payer was not
 * charged. Source: https://developer.safaricom.co.ke/apis/MpesaExpressSimulate ("Result codes").
 *
 * @example
 * ```ts
 * import { STK_RESULT_CODES } from '@topup/providers';
 *
 * STK_RESULT_CODES.has('1019'); // true: the prompt expired
 * STK_RESULT_CODES.has('1001'); // false: undocumented, so not final
 * ```
 */
export const STK_RESULT_CODES: ReadonlyMap<string, StkResultCode> = new Map([
  [
    '1',
    {
      description: 'The balance is insufficient for the transaction.',
      reason: "the payer's M-Pesa balance was insufficient",
    },
  ],
  [
    '2',
    {
      description: 'Declined due to limit rule.',
      reason: 'the amount is below the M-Pesa minimum',
    },
  ],
  [
    '3',
    {
      description: 'Declined due to limit rule: greater than the maximum transaction amount.',
      reason: 'the amount is above the M-Pesa maximum',
    },
  ],
  [
    '4',
    {
      description: 'Declined due to limit rule: would exceed daily transfer limit.',
      reason: "the payer's daily M-Pesa transfer limit would be exceeded",
    },
  ],
  [
    '8',
    {
      description: 'Declined due to limit rule: would exceed the maximum balance.',
      reason: "the paybill or till's M-Pesa account balance limit would be exceeded",
    },
  ],
  [
    '17',
    {
      description: 'Rule limited.',
      reason: 'the same amount was requested from this payer within the last two minutes',
    },
  ],
  [
    '1019',
    {
      description: 'Transaction has expired.',
      reason: 'the payment prompt expired before it was processed',
    },
  ],
  [
    '1025',
    {
      description: 'An error occurred while sending a push request.',
      reason: 'the payment prompt could not be sent to the payer',
    },
  ],
  [
    '1032',
    {
      description: 'Request cancelled by user.',
      reason: 'the payer cancelled the payment prompt',
    },
  ],
  [
    '1037',
    {
      description: 'DS timeout user cannot be reached.',
      reason: "the payer's phone could not be reached with the payment prompt",
    },
  ],
  [
    '2001',
    {
      description: 'The initiator information is invalid.',
      reason: 'the payer entered a wrong M-Pesa PIN',
    },
  ],
  [
    '2028',
    {
      description: 'The request is not permitted according to product assignment.',
      reason: 'M-Pesa does not permit this payment for the paybill or till (wrong TransactionType or PartyB)',
    },
  ],
  [
    '8006',
    {
      description: 'The security credential is locked.',
      reason: "the payer's M-Pesa PIN is locked",
    },
  ],
  [
    'SFC_IC0003',
    {
      description: 'The operator does not exist.',
      reason: 'M-Pesa does not know the paybill or till paid (wrong TransactionType or PartyB)',
    },
  ],
]);

/**
 * The payment an STK result code reports: made, not made (a final code) and why, or unknown (a code Daraja
 * does not document, which settles nothing).
 *
 * @example
 * ```ts
 * import { stkOutcome, type StkOutcome } from '@topup/providers';
 *
 * const outcome: StkOutcome = stkOutcome('0'); // { kind: 'paid' }
 * ```
 */
export type StkOutcome =
  | { readonly kind: 'paid' }
  | { readonly kind: 'declined'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * The outcome an STK result code reports, read from its text (Daraja sends it as a number or a string).
 *
 * @example
 * ```ts
 * import { stkOutcome } from '@topup/providers';
 *
 * stkOutcome('1032'); // { kind: 'declined', reason: 'the payer cancelled the payment prompt' }
 * stkOutcome('4242'); // { kind: 'unknown', reason: 'M-Pesa result 4242 is not documented: the payment is unknown' }
 * ```
 */
export function stkOutcome(resultCode: string): StkOutcome {
  if (resultCode === '0') return { kind: 'paid' };
  const documented = STK_RESULT_CODES.get(resultCode);
  if (documented !== undefined) return { kind: 'declined', reason: documented.reason };
  return {
    kind: 'unknown',
    reason: `M-Pesa result ${resultCode} is not documented: the payment is unknown`,
  };
}
