// Submitting a transaction to a provider with a bound on the wait, as the server does within a request and
// the worker does for an interrupted submission: a provider that stays silent or throws is `unavailable`,
// never an error of ours. What a provider threw (driver or database text, addresses) is never a reason a
// caller reads: the reason is a fixed text, and the detail is handed back for the operator's log.

import type { TransactionRecord } from '@topup/ledger';
import { answerWithin, late } from './answer-within.js';
import type { Provider, SubmitResult } from '@topup/providers';

/** The reason a caller reads when a provider failed in a way of its own (the log has the detail). */
export const PROVIDER_FAILED = 'the provider failed to take the transaction';
/** The reason a caller reads when a provider did not answer within the provider timeout. */
export const PROVIDER_SILENT = 'the provider did not answer in time';

/** An `unavailable` answer, with what the provider threw for the log, never for the caller. */
export type SubmitAnswer = SubmitResult & { readonly detail?: string };

export async function submitWithin(
  provider: Provider,
  transaction: TransactionRecord,
  timeoutMs: number,
): Promise<SubmitAnswer> {
  try {
    const answer = await answerWithin(provider.submit(transaction), timeoutMs);
    return answer === late ? { kind: 'unavailable', reason: PROVIDER_SILENT } : answer;
  } catch (error) {
    return {
      kind: 'unavailable',
      reason: PROVIDER_FAILED,
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
