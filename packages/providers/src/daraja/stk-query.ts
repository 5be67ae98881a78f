// STK Query, the pull path for a payment prompt: asked with the CheckoutRequestID the STK Push
// acknowledgement gave, it answers the prompt's result code (as a string here), or, while the prompt is
// still open, an error that means "pending". Anything else leaves the payment unknown, and unknown is
// never read as failed: only a final code of the one table (stk-result-codes.ts), Daraja saying the prompt
// ended and the payer was not charged, declines it. An undocumented code, any other error body, a 5xx or
// silence is unknown, and the prompt is asked about again.

import type { DarajaAnswer } from './daraja-client.js';
import { stkCredentials } from './daraja-timestamp.js';
import { isStillProcessing } from './daraja-error.js';
import { stkOutcome, type StkOutcome } from './stk-result-codes.js';
import { textOf } from '../tolerant-json.js';

/**
 * The body of an STK Query for one prompt.
 *
 * @example
 * ```ts
 * import { stkQueryRequest } from '@topup/providers';
 *
 * const body = stkQueryRequest({ shortCode: '174379', passkey: 'passkey', checkoutRequestId: 'ws_CO_1', at: new Date() });
 * body.CheckoutRequestID; // 'ws_CO_1'
 * ```
 */
export function stkQueryRequest(input: {
  readonly shortCode: string;
  readonly passkey: string;
  readonly checkoutRequestId: string;
  readonly at: Date;
}): Record<string, string> {
  return {
    ...stkCredentials(input.shortCode, input.passkey, input.at),
    CheckoutRequestID: input.checkoutRequestId,
  };
}

/**
 * What an STK Query said of a prompt: ended (paid or not), still open, or nothing to go by.
 *
 * @example
 * ```ts
 * import type { StkQueryStatus } from '@topup/providers';
 *
 * const open: StkQueryStatus = { kind: 'pending' };
 * ```
 */
export type StkQueryStatus =
  | {
      readonly kind: 'ended';
      readonly resultCode: string;
      readonly outcome: Exclude<StkOutcome, { kind: 'unknown' }>;
    }
  | { readonly kind: 'pending' }
  | { readonly kind: 'unknown'; readonly problem: string };

/**
 * Reads an STK Query's answer: only 0 or a documented final code ends the prompt.
 *
 * @example
 * ```ts
 * import { readStkQueryAnswer } from '@topup/providers';
 *
 * readStkQueryAnswer({ kind: 'ok', body: { ResponseCode: '0', ResultCode: '1032', ResultDesc: 'Request cancelled by user' } });
 * // { kind: 'ended', resultCode: '1032', outcome: { kind: 'declined', reason: 'the payer cancelled the payment prompt' } }
 * ```
 */
export function readStkQueryAnswer(answer: DarajaAnswer): StkQueryStatus {
  if (answer.kind === 'no_answer' || answer.kind === 'not_sent')
    return { kind: 'unknown', problem: answer.problem };
  if (answer.kind === 'error') {
    if (isStillProcessing(answer.error)) return { kind: 'pending' };
    const { status, errorCode, errorMessage } = answer.error;
    return {
      kind: 'unknown',
      problem: `HTTP ${String(status)} ${errorCode} ${errorMessage}`.replace(/\s+/g, ' ').trim(),
    };
  }
  const resultCode = textOf(answer.body['ResultCode'])?.trim();
  if (resultCode === undefined || resultCode === '') {
    return { kind: 'unknown', problem: 'expected a ResultCode in the STK Query answer, found none' };
  }
  const outcome = stkOutcome(resultCode);
  if (outcome.kind === 'unknown') {
    const desc = textOf(answer.body['ResultDesc']) ?? '';
    return { kind: 'unknown', problem: desc === '' ? outcome.reason : `${outcome.reason} (${desc})` };
  }
  return { kind: 'ended', resultCode, outcome };
}
