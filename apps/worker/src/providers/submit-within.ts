// Submitting a transaction to a provider with a bound on the wait, as the server does within a request and
// the worker does for an interrupted submission: a provider that stays silent or throws is `unavailable`,
// never an error of ours.

import type { TransactionRecord } from '@topup/ledger';
import { answerWithin, late } from '../answer-within.js';
import type { Provider, SubmitResult } from './provider.js';

export async function submitWithin(
  provider: Provider,
  transaction: TransactionRecord,
  timeoutMs: number,
): Promise<SubmitResult> {
  try {
    const answer = await answerWithin(provider.submit(transaction), timeoutMs);
    return answer === late ? { kind: 'unavailable', reason: 'the provider did not answer in time' } : answer;
  } catch (error) {
    return {
      kind: 'unavailable',
      reason: error instanceof Error ? `provider error: ${error.message}` : 'provider error',
    };
  }
}
