// The Result Daraja POSTs to a ResultURL when an initiator call (B2B, B2C, Transaction Status, Reversal)
// ends, read in every shape it comes in: codes as numbers or strings, ResultParameter as a list or one bare
// object, parameters without values, and no parameters at all on failure. Correlated by ConversationID (or
// OriginatorConversationID), which the call's acknowledgement gave.

import { listOf, objectOf, textOf } from '../tolerant-json.js';

/**
 * One ended initiator call.
 *
 * @example
 * ```ts
 * import { parseInitiatorResult } from '@topup/providers';
 *
 * const read = parseInitiatorResult({ Result: { ResultType: 0, ResultCode: 2001,
 *   ResultDesc: 'The initiator information is invalid.', OriginatorConversationID: '1236-7134259-1',
 *   ConversationID: 'AG_20260101_1234', TransactionID: 'OAI0000000' } });
 * if (read.ok) read.result.resultCode; // '2001'
 * ```
 */
export interface InitiatorResult {
  readonly resultType: string;
  /** As text, whichever way it was sent; `0` is success. */
  readonly resultCode: string;
  readonly resultDesc: string;
  readonly originatorConversationId: string;
  readonly conversationId: string;
  /** M-Pesa's receipt; a placeholder on failure, so read it only on success. */
  readonly transactionId: string;
  /** ResultParameter's keys and values (as text); a key sent without a value is absent. */
  readonly parameters: ReadonlyMap<string, string>;
}

/**
 * A Result read, or what kept it from being read.
 *
 * @example
 * ```ts
 * import { parseInitiatorResult, type InitiatorResultReading } from '@topup/providers';
 *
 * const read: InitiatorResultReading = parseInitiatorResult({});
 * if (!read.ok) read.problem; // 'expected a Result object, found none'
 * ```
 */
export type InitiatorResultReading =
  { readonly ok: true; readonly result: InitiatorResult } | { readonly ok: false; readonly problem: string };

function parametersOf(result: Readonly<Record<string, unknown>>): ReadonlyMap<string, string> {
  const items = listOf(objectOf(result['ResultParameters'])?.['ResultParameter']);
  const entries = items.flatMap((item) => {
    const fields = objectOf(item);
    const key = textOf(fields?.['Key']);
    const value = textOf(fields?.['Value']);
    return key === undefined || value === undefined ? [] : [[key, value] as const];
  });
  return new Map(entries);
}

/**
 * Reads a Result body (parsed JSON); never throws.
 *
 * @example
 * ```ts
 * import { parseInitiatorResult } from '@topup/providers';
 *
 * declare const body: string; // the raw body Daraja POSTed
 * const read = parseInitiatorResult(JSON.parse(body));
 * if (read.ok && read.result.resultCode === '0') console.log('paid', read.result.transactionId);
 * ```
 */
export function parseInitiatorResult(body: unknown): InitiatorResultReading {
  const result = objectOf(objectOf(body)?.['Result']);
  if (result === undefined) return { ok: false, problem: 'expected a Result object, found none' };
  const conversationId = textOf(result['ConversationID']) ?? '';
  const originatorConversationId = textOf(result['OriginatorConversationID']) ?? '';
  if (conversationId === '' && originatorConversationId === '') {
    return { ok: false, problem: 'expected a ConversationID or OriginatorConversationID, found neither' };
  }
  const resultCode = textOf(result['ResultCode'])?.trim() ?? '';
  if (resultCode === '') {
    return {
      ok: false,
      problem: `expected a ResultCode for ${conversationId || originatorConversationId}, found none`,
    };
  }
  return {
    ok: true,
    result: {
      resultType: textOf(result['ResultType']) ?? '',
      resultCode,
      resultDesc: textOf(result['ResultDesc']) ?? '',
      originatorConversationId,
      conversationId,
      transactionId: textOf(result['TransactionID']) ?? '',
      parameters: parametersOf(result),
    },
  };
}
