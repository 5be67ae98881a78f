// Giving up on transactions that are still `requested` after the transaction timeout (default 10 minutes),
// but never on a guess: the provider is asked first. A result it already has is applied, exactly as the
// provider-results loop would (a worker back from an outage finds results and timeouts due together, and
// the results must win); a transaction it is still working on is left for its result; only one it never
// took is cancelled, voiding the reservation and queueing a cancellation callback in the ledger's one
// database transaction. A result arriving after that finds the transaction resolved and is not applied.

import type { Ledger, ResolveOutcome } from '@topup/ledger';
import type { Logger } from 'pino';
import { answerWithin, late } from '../answer-within.js';
import type { Provider } from '@topup/providers';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult } from './provider-results.js';

/** The reason a timed-out transaction carries in its cancellation callback. */
export const TIMEOUT_REASON = 'no result from the provider within the timeout';

export interface TransactionTimeoutsDependencies {
  readonly ledger: Pick<Ledger, 'listExpired' | 'complete' | 'cancel'>;
  readonly provider: Pick<Provider, 'query' | 'acknowledge'>;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  readonly timeoutMs: number;
  /** Longest wait for the provider's answer to a query. */
  readonly providerTimeoutMs: number;
  readonly batchSize: number;
  readonly now: () => Date;
}

/** What became of one expired transaction in a round. */
type Settlement =
  | { readonly kind: 'result'; readonly outcome: ResolveOutcome }
  | { readonly kind: 'timed_out'; readonly outcome: ResolveOutcome }
  | { readonly kind: 'left'; readonly why: 'pending' | 'no answer' };

async function settle(deps: TransactionTimeoutsDependencies, reference: string): Promise<Settlement> {
  const { ledger, provider } = deps;
  const status = await answerWithin(provider.query(reference), deps.providerTimeoutMs);
  if (status === late) return { kind: 'left', why: 'no answer' };
  switch (status.kind) {
    case 'result': {
      const outcome = await applyProviderResult(ledger, status.result);
      await provider.acknowledge([status.result.id]);
      return { kind: 'result', outcome };
    }
    case 'pending':
      return { kind: 'left', why: 'pending' };
    case 'not_found':
      return { kind: 'timed_out', outcome: await ledger.cancel(reference, { reason: TIMEOUT_REASON }) };
  }
}

/**
 * One round: settles a batch of transactions older than the timeout that are still requested. A round that
 * left any of them (the provider is still working, or did not answer) reports no more work, so the loop
 * waits for its interval instead of asking about the same transactions at once again.
 */
export async function cancelTimedOutTransactions(
  deps: TransactionTimeoutsDependencies,
): Promise<RoundResult> {
  const { ledger, logger, metrics } = deps;
  const expired = await ledger.listExpired(new Date(deps.now().getTime() - deps.timeoutMs), deps.batchSize);
  const settled = await Promise.allSettled(expired.map((transaction) => settle(deps, transaction.reference)));
  let unsettled = 0;
  settled.forEach((answer, index) => {
    const reference = expired[index]?.reference;
    if (answer.status === 'rejected') {
      unsettled += 1;
      logger.error({ reference, err: answer.reason }, 'settling a timed-out transaction failed; will retry');
      return;
    }
    const settlement = answer.value;
    if (settlement.kind === 'left') {
      unsettled += 1;
      logger.warn(
        { reference, provider: settlement.why },
        'transaction past the timeout left requested: the provider has not said it never took it',
      );
    } else if (settlement.kind === 'result' && settlement.outcome.kind === 'resolved') {
      logger.info(
        { reference, state: settlement.outcome.transaction.state },
        'transaction past the timeout resolved by the result its provider already had',
      );
    } else if (settlement.kind === 'timed_out' && settlement.outcome.kind === 'resolved') {
      metrics.transactionsTimedOut.inc();
      logger.info({ reference }, 'transaction cancelled: its provider never took it, and the timeout passed');
    }
  });
  return { more: expired.length === deps.batchSize && unsettled === 0 };
}
