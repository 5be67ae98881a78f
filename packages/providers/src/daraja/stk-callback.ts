// The STK Push callback Daraja POSTs to our CallBackURL when a payment prompt ends, read in every shape it
// is known to come in: ResultCode a number or a string, CallbackMetadata only on success, its Item list a
// bare object when it holds one item, values missing (Balance usually is), PhoneNumber a number or masked
// text. Correlated by CheckoutRequestID, the id the STK Push acknowledgement gave. What a code means is the
// one table's word (stk-result-codes.ts), an undocumented code read as `unknown`.

import { minorUnitsOf } from '../minor-units.js';
import { stkOutcome, type StkOutcome } from './stk-result-codes.js';
import { listOf, objectOf, textOf } from '../tolerant-json.js';

/**
 * One ended payment prompt.
 *
 * @example
 * ```ts
 * import { parseStkCallback } from '@topup/providers';
 *
 * const read = parseStkCallback({ Body: { stkCallback: {
 *   MerchantRequestID: '29115-34620561-1', CheckoutRequestID: 'ws_CO_191220191020363925',
 *   ResultCode: 1032, ResultDesc: 'Request cancelled by user' } } });
 * if (read.ok) read.callback.outcome; // { kind: 'declined', reason: 'the payer cancelled the payment prompt' }
 * ```
 */
export interface StkCallback {
  readonly merchantRequestId: string;
  readonly checkoutRequestId: string;
  /** As text, whichever way it was sent. */
  readonly resultCode: string;
  readonly resultDesc: string;
  readonly outcome: StkOutcome;
  /** The M-Pesa receipt of a payment made (what a reversal names); blank otherwise. */
  readonly receipt: string;
  /** The amount paid in minor units, when the callback says it. */
  readonly amountMinor: bigint | undefined;
  /** The number that paid, as the callback writes it (possibly masked with `*`), when it says it. */
  readonly mobile: string | undefined;
}

/**
 * An STK callback read, or what kept it from being read.
 *
 * @example
 * ```ts
 * import { parseStkCallback, type StkCallbackReading } from '@topup/providers';
 *
 * const read: StkCallbackReading = parseStkCallback({});
 * if (!read.ok) read.problem; // 'expected Body.stkCallback, found none'
 * ```
 */
export type StkCallbackReading =
  { readonly ok: true; readonly callback: StkCallback } | { readonly ok: false; readonly problem: string };

function metadataOf(callback: Readonly<Record<string, unknown>>): ReadonlyMap<string, unknown> {
  const items = listOf(objectOf(callback['CallbackMetadata'])?.['Item']);
  const entries = items.flatMap((item) => {
    const fields = objectOf(item);
    const name = textOf(fields?.['Name']);
    return name === undefined ? [] : [[name, fields?.['Value']] as const];
  });
  return new Map(entries);
}

/** The payer's number, sent as a number or as text (masked numbers are text): digits and `*` only. */
function mobileOf(value: unknown): string | undefined {
  const text = textOf(value)?.trim().replace(/^\+/, '');
  return text !== undefined && /^[\d*]+$/.test(text) ? text : undefined;
}

/**
 * Reads an STK callback body (parsed JSON); never throws.
 *
 * @example
 * ```ts
 * import { parseStkCallback } from '@topup/providers';
 *
 * declare const body: string; // the raw body Daraja POSTed
 * const read = parseStkCallback(JSON.parse(body));
 * if (read.ok && read.callback.outcome.kind === 'paid') console.log('paid', read.callback.receipt);
 * ```
 */
export function parseStkCallback(body: unknown): StkCallbackReading {
  const callback = objectOf(objectOf(objectOf(body)?.['Body'])?.['stkCallback']);
  if (callback === undefined) return { ok: false, problem: 'expected Body.stkCallback, found none' };
  const checkoutRequestId = textOf(callback['CheckoutRequestID']);
  const resultCode = textOf(callback['ResultCode'])?.trim();
  if (checkoutRequestId === undefined || checkoutRequestId === '') {
    return { ok: false, problem: 'expected a CheckoutRequestID, found none' };
  }
  if (resultCode === undefined || resultCode === '') {
    return { ok: false, problem: `expected a ResultCode for ${checkoutRequestId}, found none` };
  }
  const metadata = metadataOf(callback);
  const outcome = stkOutcome(resultCode);
  const receipt = textOf(metadata.get('MpesaReceiptNumber')) ?? '';
  if (outcome.kind === 'paid' && receipt === '') {
    return {
      ok: false,
      problem: `expected an MpesaReceiptNumber on the payment ${checkoutRequestId}, found none`,
    };
  }
  return {
    ok: true,
    callback: {
      merchantRequestId: textOf(callback['MerchantRequestID']) ?? '',
      checkoutRequestId,
      resultCode,
      resultDesc: textOf(callback['ResultDesc']) ?? '',
      outcome,
      receipt,
      amountMinor: minorUnitsOf(metadata.get('Amount')),
      mobile: mobileOf(metadata.get('PhoneNumber')),
    },
  };
}
