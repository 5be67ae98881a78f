// What the ResultCode of an initiator call's Result (B2B, Reversal) means for the money it asked to move:
// the one table of them, each code with its text as Daraja documents it. Sources, all Daraja 3.0 pages:
// - Reversal, "Result Codes": https://developer.safaricom.co.ke/apis/Reversal
// - Business to Customer, "Result codes": https://developer.safaricom.co.ke/apis/BusinessToCustomer
// - Account Balance, "Error Codes" (the initiator APIs' common result codes):
//   https://developer.safaricom.co.ke/apis/AccountBalance
// 0 is the call done; a reversal's R000001 (already reversed) is the refund done too, since the money is
// back with the payer either way. A code is final (the call moved no money, and never will) only where
// the documentation says the request was refused before any transaction was made. Anything else, an
// undocumented code or a documented one that does not say so (15 duplicate detected, 17 internal failure,
// 19 message sequencing failure, 26 traffic blocking), leaves the call unknown: Transaction Status is asked
// before anything is decided, and it is never declined on such a code.

/**
 * One documented initiator result code: Daraja's description, and whether it is final (the call moved no
 * money).
 *
 * @example
 * ```ts
 * import { INITIATOR_RESULT_CODES } from '@topup/providers';
 *
 * INITIATOR_RESULT_CODES.get('17'); // { description: 'Internal Failure', final: false }
 * ```
 */
export interface InitiatorResultCode {
  readonly description: string;
  readonly final: boolean;
}

const final = (description: string): InitiatorResultCode => ({ description, final: true });
const notFinal = (description: string): InitiatorResultCode => ({ description, final: false });

/**
 * Daraja's documented initiator result codes other than 0 and R000001, each final or not.
 *
 * @example
 * ```ts
 * import { INITIATOR_RESULT_CODES } from '@topup/providers';
 *
 * INITIATOR_RESULT_CODES.get('2001')?.final; // true: the initiator's credentials were refused
 * INITIATOR_RESULT_CODES.get('15')?.final; // false: a duplicate says nothing of the first call
 * ```
 */
export const INITIATOR_RESULT_CODES: ReadonlyMap<string, InitiatorResultCode> = new Map([
  ['1', final('The balance is insufficient for the transaction.')],
  ['2', final('Declined due to limit rule.')],
  ['3', final('Declined due to limit rule: greater than the maximum transaction amount.')],
  ['4', final('Declined due to limit rule: would exceed daily transfer limit.')],
  ['8', final('Declined due to limit rule: would exceed the maximum balance.')],
  ['11', final('The DebitParty is in an invalid state.')],
  // "Requests which present an originator conversation id that has been seen before will be rejected":
  // the one seen before may have been taken.
  ['15', notFinal('Duplicate Detected')],
  // "A catch-all for failures that are not identified more specifically."
  ['17', notFinal('Internal Failure')],
  // "Issued in the ApiResult before the creation of a financial transaction."
  ['18', final('Initiator Credential Check Failure')],
  ['19', notFinal('Message Sequencing Failure')],
  ['20', final('Unresolved Initiator')],
  // "Computed prior to issuing a financial transaction."
  ['21', final('The initiator is not allowed to initiate this request.')],
  ['22', final('Initiator to Receiver Party Permission Failure')],
  ['24', final('Missing mandatory fields')],
  ['25', final('InvalidRequestParameters')],
  // Documented as an acknowledgement's answer ("SystemTooBusy"); in a Result it says nothing certain.
  ['26', notFinal('Traffic blocking condition in place')],
  ['29', final('InvalidCommand')],
  ['2001', final('The initiator information is invalid.')],
  ['2006', final('Declined due to account rule: the account status does not allow this transaction.')],
  ['2028', final('The request is not permitted according to product assignment.')],
  [
    '2040',
    final(
      "Credit Party customer type (Unregistered or Registered Customer) can't be supported by the service.",
    ),
  ],
  ['8006', final('The security credential is locked.')],
  ['R000002', final('The OriginalTransactionID is invalid.')],
  ['SFC_IC0003', final('The operator does not exist.')],
]);

/** A reversal's "already reversed": the money is back with the payer, so the refund is done. */
export const ALREADY_REVERSED = 'R000001';

/**
 * What an initiator call's ResultCode says of the call: done, declined (a final code: no money moved), or
 * unknown (ask Transaction Status).
 *
 * @example
 * ```ts
 * import type { InitiatorOutcome } from '@topup/providers';
 *
 * const settles = (outcome: InitiatorOutcome) => outcome !== 'unknown';
 * ```
 */
export type InitiatorOutcome = 'done' | 'declined' | 'unknown';

/**
 * The outcome of an initiator call's ResultCode (as text).
 *
 * @example
 * ```ts
 * import { initiatorOutcome } from '@topup/providers';
 *
 * initiatorOutcome('0'); // 'done'
 * initiatorOutcome('R000002'); // 'declined'
 * initiatorOutcome('17'); // 'unknown'
 * ```
 */
export function initiatorOutcome(resultCode: string): InitiatorOutcome {
  if (resultCode === '0' || resultCode === ALREADY_REVERSED) return 'done';
  return INITIATOR_RESULT_CODES.get(resultCode)?.final === true ? 'declined' : 'unknown';
}
