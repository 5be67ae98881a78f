// The pulled results of a provider that hands them out (the sandbox simulator): each ready result is
// applied through the ledger (result-application.ts), then acknowledged. A result is acknowledged only after
// the ledger took it, so a crash in between applies it again, which the table answers as a repeat.

import type { Ledger } from '@topup/ledger';
import type { Logger } from 'pino';
import type { Provider } from '@topup/providers';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult } from './result-application.js';

export interface ProviderResultsDependencies {
  readonly ledger: Pick<Ledger, 'complete' | 'cancel' | 'applyLegEvent'>;
  readonly provider: Provider;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  readonly batchSize: number;
}

/** One round: applies the results that are ready and acknowledges the ones the ledger took. */
export async function applyProviderResults(deps: ProviderResultsDependencies): Promise<RoundResult> {
  const { provider, logger, metrics } = deps;
  const results = await provider.readyResults(deps.batchSize);
  const settled = await Promise.allSettled(
    results.map((result) => applyProviderResult(deps, result, provider.name, 'pulled')),
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
    const { action, transaction } = answer.value;
    const applied = action !== 'ignore' && action !== 'review' && action !== 'not_found';
    metrics.providerResults.inc({ outcome: result.outcome, applied: String(applied) });
    if (action === 'not_found') {
      logger.warn(context, 'provider result for an unknown transaction; acknowledged');
    } else if (applied) {
      logger.info({ ...context, state: transaction?.state, action }, 'provider result applied');
    } else if (action === 'ignore') {
      // Another worker applied the same result first, or the provider repeated it.
      logger.debug({ ...context, state: transaction?.state }, 'provider result already applied');
    }
  });
  await provider.acknowledge(taken);
  return { more: results.length === deps.batchSize && taken.length === results.length };
}
