// Settling transactions with no result, never on a guess. A transaction still `requested` some time after
// it was made (PROVIDER_QUERY_AFTER_SECONDS, or the transaction timeout when shorter) is asked about. A
// result the provider already has is applied, exactly as the provider-results loop would (a worker back
// from an outage finds results and timeouts due together, and the results must win). A transaction the
// provider never took is cancelled once the transaction timeout has passed, voiding the reservation and
// queueing a cancellation callback in the ledger's one database transaction. Anything else (the provider
// is still working on it, does not know it yet, or cannot be asked) is noted on its leg with when to ask
// again, after half the transaction's age (at most 15 minutes apart); a leg still unsettled at the end of
// the reconciliation window waits for an operator, and nothing is refunded on its account.
import type { Ledger, ResolveOutcome, TransactionRecord } from '@topup/ledger';
import type { Logger } from 'pino';
import { answerWithin, late } from '../answer-within.js';
import { firstLegNetwork } from '@topup/providers';
import type { Provider, ProviderStatus } from '@topup/providers';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult, type ResultApplication } from './result-application.js';
import { noteFirstLegOnSchedule } from './query-backoff.js';

/** The reason a timed-out transaction carries in its cancellation callback. */
export const TIMEOUT_REASON = 'no result from the provider within the timeout';

export interface TransactionTimeoutsDependencies {
  readonly ledger: Pick<Ledger, 'listExpired' | 'complete' | 'cancel' | 'noteUnsettledLeg' | 'applyLegEvent'>;
  /** The provider of each transaction's network is the one asked about it. */
  readonly providers: {
    forNetwork(network: string): Pick<Provider, 'name' | 'query' | 'acknowledge'> | undefined;
  };
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  readonly timeoutMs: number;
  /** A transaction with no result this long after it was made is asked about. */
  readonly queryAfterMs: number;
  /** How long past the timeout a leg may stay unsettled before it waits for an operator. */
  readonly reconciliationWindowMs: number;
  /** Longest wait for the provider's answer to a query. */
  readonly providerTimeoutMs: number;
  readonly batchSize: number;
  readonly now: () => Date;
}

/** What became of one transaction in a round. */
type Settlement =
  | { readonly kind: 'result'; readonly outcome: ResultApplication }
  | { readonly kind: 'timed_out'; readonly outcome: ResolveOutcome }
  | {
      readonly kind: 'left';
      readonly why: 'pending' | 'not yet known' | 'no answer';
      readonly review: boolean;
    };

async function leave(
  deps: TransactionTimeoutsDependencies,
  transaction: TransactionRecord,
  provider: string,
  why: 'pending' | 'not yet known' | 'no answer',
): Promise<Settlement> {
  const state = why === 'pending' ? 'pending' : 'unknown';
  const review = await noteFirstLegOnSchedule(
    deps.ledger,
    deps,
    transaction,
    { state, provider },
    deps.now(),
  );
  return { kind: 'left', why, review };
}

async function settle(
  deps: TransactionTimeoutsDependencies,
  transaction: TransactionRecord,
): Promise<Settlement> {
  const { reference } = transaction;
  const network = firstLegNetwork(transaction);
  const provider = deps.providers.forNetwork(network);
  if (provider === undefined) {
    // PROVIDERS changed since it was made: nobody can be asked, so nothing is done on a guess.
    deps.logger.warn({ reference, network }, 'no provider serves the network of an unsettled transaction');
    return leave(deps, transaction, '', 'no answer');
  }
  return settleWith(deps, transaction, provider);
}

async function settleWith(
  deps: TransactionTimeoutsDependencies,
  transaction: TransactionRecord,
  provider: Pick<Provider, 'name' | 'query' | 'acknowledge'>,
): Promise<Settlement> {
  const { ledger } = deps;
  const { reference } = transaction;
  const status: ProviderStatus | typeof late = await answerWithin(
    provider.query(reference),
    deps.providerTimeoutMs,
  ).catch((error: unknown) => {
    deps.logger.warn({ reference, err: error }, 'the provider could not be asked about a transaction');
    return late;
  });
  if (status === late) return leave(deps, transaction, provider.name, 'no answer');
  switch (status.kind) {
    case 'result': {
      const outcome = await applyProviderResult(deps, status.result, provider.name, 'query');
      await provider.acknowledge([status.result.id]);
      return { kind: 'result', outcome };
    }
    case 'pending':
      return leave(deps, transaction, provider.name, 'pending');
    case 'not_found': {
      const ageMs = deps.now().getTime() - transaction.createdAt.getTime();
      if (ageMs < deps.timeoutMs) return leave(deps, transaction, provider.name, 'not yet known');
      const outcome = await ledger.cancel(reference, {
        reason: TIMEOUT_REASON,
        provider: provider.name,
        timedOut: true,
      });
      return { kind: 'timed_out', outcome };
    }
  }
}

/**
 * One round: settles a batch of still-requested transactions due to be asked about. A round that left any
 * of them reports no more work, so the loop waits for its interval; each left one is not asked about again
 * before the time noted on its leg, so it stands in front of no other.
 */
export async function cancelTimedOutTransactions(
  deps: TransactionTimeoutsDependencies,
): Promise<RoundResult> {
  const { ledger, logger, metrics } = deps;
  const askAfterMs = Math.min(deps.queryAfterMs, deps.timeoutMs);
  const expired = await ledger.listExpired(new Date(deps.now().getTime() - askAfterMs), deps.batchSize);
  const settled = await Promise.allSettled(expired.map((transaction) => settle(deps, transaction)));
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
      if (settlement.review) {
        logger.error(
          { reference, provider: settlement.why },
          'transaction unsettled at the end of the reconciliation window: its leg waits for an operator (topup legs unresolved)',
        );
      } else if (settlement.why !== 'not yet known') {
        logger.warn(
          { reference, provider: settlement.why },
          'transaction left requested: the provider has not said it never took it; asking again later',
        );
      }
    } else if (
      settlement.kind === 'result' &&
      (settlement.outcome.action === 'complete' || settlement.outcome.action.startsWith('cancel'))
    ) {
      logger.info(
        { reference, state: settlement.outcome.transaction?.state },
        'transaction past the timeout resolved by the result its provider already had',
      );
    } else if (settlement.kind === 'timed_out' && settlement.outcome.kind === 'resolved') {
      metrics.transactionsTimedOut.inc();
      logger.info({ reference }, 'transaction cancelled: its provider never took it, and the timeout passed');
    }
  });
  return { more: expired.length === deps.batchSize && unsettled === 0 };
}
