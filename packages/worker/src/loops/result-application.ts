// Applying a provider's result through the ledger, as the transition table says. A result about one leg of
// a purchase carried by two providers (named by its leg id) and a result carrying evidence of what it moved
// go through the table under the transaction's row lock, group-committed with the other leg events; a whole
// transaction's plain result (the simulator's, which carries no evidence) is group-committed with other
// resolutions, the table's whole-transaction rows written as SQL. Whatever path it took, a result that
// contradicts what is recorded moves no money: it waits for an operator with its evidence, is counted, and
// is logged at error.

import { parseLegId } from '@topup/ledger';
import type {
  Ledger,
  LegAction,
  LegEvent,
  ResolveOutcome,
  ReviewReason,
  TransactionRecord,
} from '@topup/ledger';
import type { ProviderResult } from '@topup/providers';
import type { Logger } from 'pino';
import type { WorkerMetrics } from '../worker-metrics.js';

/** What applying a result did, as the table names it. */
export interface ResultApplication {
  readonly action: LegAction | 'not_found';
  readonly why: string;
  readonly transaction?: TransactionRecord;
  /** Why the result put a leg in review, when it did. */
  readonly review?: ReviewReason;
}

export interface ResultDependencies {
  readonly ledger: Pick<Ledger, 'complete' | 'cancel' | 'applyLegEvent'>;
  readonly logger: Logger;
  readonly metrics: Pick<WorkerMetrics, 'reviews'>;
}

const notFound: ResultApplication = { action: 'not_found', why: 'no such transaction' };

function batchApplication(outcome: ResolveOutcome, result: ProviderResult): ResultApplication {
  if (outcome.kind === 'not_found') return notFound;
  const asked = result.outcome === 'completed' ? 'completed' : 'cancelled';
  const { transaction } = outcome;
  if (outcome.kind === 'resolved') {
    const action =
      asked === 'completed'
        ? 'complete'
        : result.outcome === 'failed_after_payment'
          ? 'cancel refunded'
          : 'cancel';
    return { action, why: 'the provider reported its end', transaction };
  }
  return transaction.state === asked
    ? { action: 'ignore', why: 'a repeat of the result already applied', transaction }
    : {
        action: 'review',
        why: `reported ${asked} after it was ${transaction.state}`,
        transaction,
        review: 'contradiction',
      };
}

/**
 * Applies `result` as it says: a result naming a leg of a purchase, or carrying evidence, goes through the
 * transition table; a plain result about a whole transaction is group-committed. `provider` is named on the
 * legs, and `source` (webhook, query, pulled) in a review's evidence.
 */
export async function applyProviderResult(
  deps: ResultDependencies,
  result: ProviderResult,
  provider: string,
  source: string,
): Promise<ResultApplication> {
  const { ledger } = deps;
  const named = parseLegId(result.reference);
  const reference = named?.reference ?? result.reference;
  const { providerCode, reason } = result;
  let application: ResultApplication;
  if (
    (named !== undefined && named.kind !== 'disbursement') ||
    (result.evidence !== undefined && result.outcome !== 'failed_after_payment')
  ) {
    const event: LegEvent = {
      kind: 'result',
      outcome: result.outcome === 'completed' ? 'succeeded' : 'failed',
      provider,
      providerCode,
      reason,
      source,
      ...(result.evidence === undefined ? {} : { evidence: result.evidence }),
    };
    const leg = named !== undefined && named.kind !== 'disbursement' ? named.kind : 'first';
    application = (await ledger.applyLegEvent(reference, leg, event)) ?? notFound;
  } else if (result.outcome === 'completed') {
    application = batchApplication(await ledger.complete(reference, { providerCode, provider }), result);
  } else {
    const outcome = await ledger.cancel(reference, {
      reason,
      providerCode,
      provider,
      // The payer paid and the airtime never arrived: the ledger records the collection and its refund.
      ...(result.outcome === 'failed_after_payment' ? { paymentCollected: true } : {}),
    });
    application = batchApplication(outcome, result);
  }
  if (application.review !== undefined) deps.metrics.reviews.inc({ reason: application.review });
  if (application.action === 'review') {
    deps.logger.error(
      {
        reference: result.reference,
        outcome: result.outcome,
        providerCode,
        provider,
        source,
        why: application.why,
      },
      'provider result contradicts what is recorded: nothing moved; it waits for an operator (topup legs unresolved)',
    );
  }
  return application;
}
