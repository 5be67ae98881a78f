// The body of an STK Push (M-Pesa Express): the payment prompt on the payer's phone. Daraja takes whole
// shillings, a payer number as 2547… or 2541…, AccountReference within 12 characters (shown in the prompt)
// and TransactionDesc within 13; a longer one is refused, so ours are cut to fit rather than sent long.

import { stkCredentials } from './daraja-timestamp.js';
import { wholeShillings } from './whole-shillings.js';

/**
 * What a payment prompt asks for.
 *
 * @example
 * ```ts
 * import type { StkPushInput } from '@topup/providers';
 *
 * const input: StkPushInput = {
 *   shortCode: '174379', passkey: 'passkey', transactionType: 'CustomerPayBillOnline', partyB: '174379',
 *   payerMobile: '254708374149', amountMinor: 5000n, callbackUrl: 'https://topup.example/providers/daraja/t/stk',
 *   accountReference: 'Airtime', description: 'Airtime', at: new Date(),
 * };
 * ```
 */
export interface StkPushInput {
  readonly shortCode: string;
  readonly passkey: string;
  readonly transactionType: 'CustomerPayBillOnline' | 'CustomerBuyGoodsOnline';
  /** The paybill or till paid; the short code for a paybill. */
  readonly partyB: string;
  /** The payer, international form without the plus: 2547…. */
  readonly payerMobile: string;
  readonly amountMinor: bigint;
  readonly callbackUrl: string;
  /** Shown to the payer in the prompt. */
  readonly accountReference: string;
  readonly description: string;
  readonly at: Date;
}

/**
 * The JSON body of an STK Push for `input`.
 *
 * @throws when the amount is not whole shillings, which M-Pesa cannot collect.
 *
 * @example
 * ```ts
 * import { stkPushRequest } from '@topup/providers';
 *
 * const body = stkPushRequest({
 *   shortCode: '174379', passkey: 'passkey', transactionType: 'CustomerPayBillOnline', partyB: '174379',
 *   payerMobile: '254708374149', amountMinor: 5000n, callbackUrl: 'https://topup.example/providers/daraja/t/stk',
 *   accountReference: 'Airtime', description: 'Airtime', at: new Date(),
 * });
 * body.Amount; // 50
 * ```
 */
export function stkPushRequest(input: StkPushInput): Record<string, string | number> {
  return {
    ...stkCredentials(input.shortCode, input.passkey, input.at),
    TransactionType: input.transactionType,
    Amount: wholeShillings(input.amountMinor),
    PartyA: input.payerMobile,
    PartyB: input.partyB,
    PhoneNumber: input.payerMobile,
    CallBackURL: input.callbackUrl,
    AccountReference: input.accountReference.slice(0, 12),
    TransactionDesc: input.description.slice(0, 13),
  };
}
