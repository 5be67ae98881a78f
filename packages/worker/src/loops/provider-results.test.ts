import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ProviderResult } from '@topup/providers';
import { createWorkerMetrics } from '../worker-metrics.js';
import { applyProviderResults } from './provider-results.js';
import type { ProviderResultsDependencies } from './provider-results.js';

type ResolveOutcome = Awaited<ReturnType<ProviderResultsDependencies['ledger']['complete']>>;

const noQueue = () => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 });

function result(reference: string, outcome: ProviderResult['outcome']): ProviderResult {
  return {
    id: `job-${reference}`,
    reference,
    outcome,
    providerCode: `SIM-${reference}`,
    reason: outcome === 'completed' ? '' : 'payment declined',
  };
}

function harness(ready: ProviderResult[], answer: (reference: string) => ResolveOutcome | Error) {
  const calls: string[] = [];
  const acknowledged: string[] = [];
  const transaction = (state: string) =>
    ({ state }) as unknown as Extract<ResolveOutcome, { kind: 'resolved' }>['transaction'];
  const respond = (reference: string) => {
    const outcome = answer(reference);
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
  };
  const deps: ProviderResultsDependencies = {
    ledger: {
      complete: (reference, input) => {
        calls.push(`complete ${reference} ${input.providerCode}`);
        return respond(reference);
      },
      cancel: (reference, input) => {
        calls.push(
          `cancel ${reference} ${input.reason} ${input.providerCode ?? ''} collected=${String(input.paymentCollected ?? false)}`,
        );
        return respond(reference);
      },
      applyLegEvent: (reference, leg, event) => {
        const said = event.kind === 'result' ? `${event.outcome} ${event.providerCode}` : '';
        calls.push(`event ${reference} ${leg} ${event.kind} ${said}`);
        return Promise.resolve({
          action: 'end leg',
          why: '',
          transaction: transaction('requested'),
          calls: 0,
        });
      },
    },
    provider: {
      name: 'fake',
      idempotentSubmissions: true,
      submit: () => Promise.resolve({ kind: 'accepted' }),
      readyResults: (limit) => Promise.resolve(ready.slice(0, limit)),
      acknowledge: (ids) => {
        acknowledged.push(...ids);
        return Promise.resolve();
      },
      query: () => Promise.resolve({ kind: 'pending' }),
    },
    logger: pino({ level: 'silent' }),
    metrics: createWorkerMetrics(noQueue),
    batchSize: 10,
  };
  return { deps, calls, acknowledged, transaction };
}

describe('applyProviderResults', () => {
  it('completes on a completion and cancels on a decline, then acknowledges both', async () => {
    const { deps, calls, acknowledged, transaction } = harness(
      [result('TX1', 'completed'), result('TX2', 'declined')],
      () => ({ kind: 'resolved', transaction: transaction('completed') }),
    );
    await applyProviderResults(deps);
    expect(calls).toEqual(['complete TX1 SIM-TX1', 'cancel TX2 payment declined SIM-TX2 collected=false']);
    expect(acknowledged).toEqual(['job-TX1', 'job-TX2']);
  });

  it('cancels a failure after payment with the payment marked collected, so the ledger refunds it', async () => {
    const { deps, calls, transaction } = harness(
      [{ ...result('TX6', 'failed_after_payment'), reason: 'delivery failed after payment' }],
      () => ({
        kind: 'resolved',
        transaction: transaction('cancelled'),
      }),
    );
    await applyProviderResults(deps);
    expect(calls).toEqual(['cancel TX6 delivery failed after payment SIM-TX6 collected=true']);
  });

  it('acknowledges a result that finds the transaction already resolved, counting it as not applied', async () => {
    const { deps, acknowledged, transaction } = harness([result('TX3', 'completed')], () => ({
      kind: 'already_resolved',
      transaction: transaction('cancelled'),
    }));
    await applyProviderResults(deps);
    expect(acknowledged).toEqual(['job-TX3']);
    const metric = await deps.metrics.registry.getSingleMetricAsString('topup_provider_results_total');
    expect(metric).toContain('topup_provider_results_total{outcome="completed",applied="false"} 1');
  });

  it('keeps a result that the ledger failed to take, so it is applied on a later round', async () => {
    const { deps, acknowledged, transaction } = harness(
      [result('TX4', 'completed'), result('TX5', 'completed')],
      (reference) =>
        reference === 'TX4'
          ? new Error('connection reset')
          : { kind: 'resolved', transaction: transaction('completed') },
    );
    const round = await applyProviderResults(deps);
    expect(acknowledged).toEqual(['job-TX5']);
    expect(round.more).toBe(false);
  });

  it('asks for another round at once when the batch was full', async () => {
    const ready = Array.from({ length: 12 }, (_, i) => result(`TX${i}`, 'completed'));
    const { deps, transaction } = harness(ready, () => ({
      kind: 'resolved',
      transaction: transaction('completed'),
    }));
    expect((await applyProviderResults(deps)).more).toBe(true);
  });

  it('hands a result about one leg of a purchase to the ledger’s transition table, by the leg it names', async () => {
    const { deps, calls, transaction } = harness(
      [
        result('TX7-payment', 'completed'),
        result('TX9-delivery', 'declined'),
        result('TX11-refund', 'completed'),
      ],
      () => ({ kind: 'resolved', transaction: transaction('completed') }),
    );
    await applyProviderResults(deps);
    expect(calls).toEqual([
      'event TX7 payment result succeeded SIM-TX7-payment',
      'event TX9 delivery result failed SIM-TX9-delivery',
      'event TX11 refund result succeeded SIM-TX11-refund',
    ]);
  });

  it('hands a whole transaction’s result with evidence to the transition table, which compares it', async () => {
    const { deps, calls } = harness(
      [{ ...result('TX13', 'completed'), evidence: { amountMinor: 100n } }],
      () => new Error('Expected no group-committed resolution.'),
    );
    await applyProviderResults(deps);
    expect(calls).toEqual(['event TX13 first result succeeded SIM-TX13']);
  });

  it('counts a result that contradicts the transaction’s end as a review', async () => {
    const { deps, acknowledged, transaction } = harness([result('TX14', 'completed')], () => ({
      kind: 'already_resolved',
      transaction: transaction('cancelled'),
    }));
    await applyProviderResults(deps);
    expect(acknowledged).toEqual(['job-TX14']);
    const metric = await deps.metrics.registry.getSingleMetricAsString('topup_reviews_opened_total');
    expect(metric).toContain('topup_reviews_opened_total{reason="contradiction"} 1');
  });
});
