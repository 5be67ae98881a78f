// Applying provider results: a completion completes the transaction (posting the reservation, or collecting
// the payment and paying the carrier), a decline cancels it, and a failure after payment cancels it with a
// refund. The ledger resolves a transaction once, so a result that finds it already resolved (say, by the
// timeout) is recorded in the log and acknowledged, never applied. A result is acknowledged only after the
// ledger took it, so a crash in between applies it again, which the ledger answers `already_resolved`.

import { parseLegId } from '@topup/ledger';
import type { Ledger } from '@topup/ledger';
import type { Logger } from 'pino';
import type { Provider, ProviderResult } from '@topup/providers';
import type { WorkerMetrics } from '../worker-metrics.js';
import { applyLegResult, type LegResultLedger, type ResultApplication } from './leg-results.js';
import type { RoundResult } from './poll-loop.js';

export interface ProviderResultsDependencies {
  readonly ledger: Pick<Ledger, 'complete' | 'cancel' | 'noteLeg'>;
  readonly provider: Provider;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  readonly batchSize: number;
}

/**
 * Applies a provider's result as it says: a result about a whole transaction resolves it; one about a leg
 * of a purchase (named by its leg id) moves that purchase's chain on. `provider` is named on its legs.
 */
export function applyProviderResult(
  ledger: LegResultLedger,
  result: ProviderResult,
  provider: string,
): Promise<ResultApplication> {
  const leg = parseLegId(result.reference);
  if (leg !== undefined && leg.kind !== 'disbursement') {
    return applyLegResult(ledger, { reference: leg.reference, kind: leg.kind }, result, provider);
  }
  const reference = leg?.reference ?? result.reference;
  const { providerCode } = result;
  switch (result.outcome) {
    case 'completed':
      return ledger.complete(reference, { providerCode, provider });
    case 'declined':
      return ledger.cancel(reference, { reason: result.reason, providerCode, provider });
    case 'failed_after_payment':
      // The payer paid and the airtime never arrived: the ledger records the collection and its refund.
      return ledger.cancel(reference, {
        reason: result.reason,
        providerCode,
        provider,
        paymentCollected: true,
      });
  }
}

function stateAfter(result: ProviderResult): 'completed' | 'cancelled' {
  return result.outcome === 'completed' ? 'completed' : 'cancelled';
}

/** One round: applies the results that are ready and acknowledges the ones the ledger took. */
export async function applyProviderResults(deps: ProviderResultsDependencies): Promise<RoundResult> {
  const { ledger, provider, logger, metrics } = deps;
  const results = await provider.readyResults(deps.batchSize);
  const settled = await Promise.allSettled(
    results.map((result) => applyProviderResult(ledger, result, provider.name)),
  );
  const taken: string[] = [];
  settled.forEach((answer, index) => {
    const result = results[index];
    if (result === undefined) return;
    const context = {
      reference: result.reference,
      outcome: result.outcome,
      providerCode: result.providerCode,
    };
    if (answer.status === 'rejected') {
      logger.error({ ...context, err: answer.reason }, 'applying a provider result failed; will retry');
      return;
    }
    taken.push(result.id);
    const resolution = answer.value;
    const applied = resolution.kind === 'resolved' || resolution.kind === 'leg_noted';
    metrics.providerResults.inc({ outcome: result.outcome, applied: String(applied) });
    if (resolution.kind === 'resolved') {
      logger.info({ ...context, state: resolution.transaction.state }, 'provider result applied');
    } else if (resolution.kind === 'leg_noted') {
      logger.info(context, 'provider result noted on its leg');
    } else if (resolution.kind === 'leg_unchanged') {
      logger.debug(context, 'provider result about a leg already ended, or a transaction resolved');
    } else if (
      resolution.kind === 'already_resolved' &&
      resolution.transaction.state === stateAfter(result)
    ) {
      // Another worker applied the same result first.
      logger.debug({ ...context, state: resolution.transaction.state }, 'provider result already applied');
    } else if (resolution.kind === 'already_resolved') {
      logger.warn(
        { ...context, state: resolution.transaction.state, ledger: resolution.kind },
        `provider result recorded, not applied: the transaction is already ${resolution.transaction.state}`,
      );
    } else {
      logger.warn(
        { ...context, ledger: resolution.kind },
        'provider result for an unknown transaction; acknowledged',
      );
    }
  });
  await provider.acknowledge(taken);
  return { more: results.length === deps.batchSize && taken.length === results.length };
}
