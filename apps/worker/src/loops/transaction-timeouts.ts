// Cancelling transactions the provider never answered: still `requested` after the transaction timeout
// (default 10 minutes). The reservation is voided and a cancellation callback goes out, in the ledger's
// one database transaction; a result arriving later finds the transaction resolved and is not applied.

import type { Ledger } from '@topup/ledger';
import type { Logger } from 'pino';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';

/** The reason a timed-out transaction carries in its cancellation callback. */
export const TIMEOUT_REASON = 'no result from the provider within the timeout';

export interface TransactionTimeoutsDependencies {
  readonly ledger: Pick<Ledger, 'listExpired' | 'cancel'>;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  readonly timeoutMs: number;
  readonly batchSize: number;
  readonly now: () => Date;
}

/** One round: cancels a batch of transactions older than the timeout that are still requested. */
export async function cancelTimedOutTransactions(
  deps: TransactionTimeoutsDependencies,
): Promise<RoundResult> {
  const { ledger, logger, metrics } = deps;
  const expired = await ledger.listExpired(new Date(deps.now().getTime() - deps.timeoutMs), deps.batchSize);
  const settled = await Promise.allSettled(
    expired.map((transaction) => ledger.cancel(transaction.reference, { reason: TIMEOUT_REASON })),
  );
  let failures = 0;
  settled.forEach((answer, index) => {
    const reference = expired[index]?.reference;
    if (answer.status === 'rejected') {
      failures += 1;
      logger.error(
        { reference, err: answer.reason },
        'cancelling a timed-out transaction failed; will retry',
      );
    } else if (answer.value.kind === 'resolved') {
      metrics.transactionsTimedOut.inc();
      logger.info({ reference }, 'transaction cancelled: no result from the provider within the timeout');
    }
  });
  return { more: expired.length === deps.batchSize && failures === 0 };
}
