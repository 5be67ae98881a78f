import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ProviderResult, ProviderStatus } from '@topup/providers';
import { createWorkerMetrics } from '../worker-metrics.js';
import { cancelTimedOutTransactions, TIMEOUT_REASON } from './transaction-timeouts.js';
import type { TransactionTimeoutsDependencies } from './transaction-timeouts.js';

type Ledger = TransactionTimeoutsDependencies['ledger'];
type Expired = Awaited<ReturnType<Ledger['listExpired']>>[number];

const noQueue = () => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 });

function completion(reference: string): ProviderResult {
  return {
    id: `job-${reference}`,
    reference,
    outcome: 'completed',
    providerCode: `SIM-${reference}`,
    reason: '',
  };
}

/** A round over expired transactions whose provider answers each query as `status` says. */
function harness(references: string[], status: (reference: string) => Promise<ProviderStatus>) {
  const calls: string[] = [];
  const acknowledged: string[] = [];
  const resolved = (reference: string) =>
    Promise.resolve({
      kind: 'resolved',
      transaction: { reference, state: 'completed' },
    } as unknown as Awaited<ReturnType<Ledger['complete']>>);
  const deps: TransactionTimeoutsDependencies = {
    ledger: {
      listExpired: () => Promise.resolve(references.map((reference) => ({ reference }) as Expired)),
      complete: (reference, input) => {
        calls.push(`complete ${reference} ${input.providerCode}`);
        return resolved(reference);
      },
      cancel: (reference, input) => {
        calls.push(`cancel ${reference} ${input.reason}`);
        return resolved(reference);
      },
    },
    provider: {
      query: status,
      acknowledge: (ids) => {
        acknowledged.push(...ids);
        return Promise.resolve();
      },
    },
    logger: pino({ level: 'silent' }),
    metrics: createWorkerMetrics(noQueue),
    timeoutMs: 600_000,
    providerTimeoutMs: 50,
    batchSize: references.length,
    now: () => new Date(),
  };
  return { deps, calls, acknowledged };
}

describe('cancelTimedOutTransactions', () => {
  it('applies a result the provider already has instead of cancelling, and acknowledges it', async () => {
    const { deps, calls, acknowledged } = harness(['TX1'], (reference) =>
      Promise.resolve({ kind: 'result', result: completion(reference) }),
    );
    await cancelTimedOutTransactions(deps);
    expect(calls).toEqual(['complete TX1 SIM-TX1']);
    expect(acknowledged).toEqual(['job-TX1']);
  });

  it('cancels only a transaction the provider says it never took', async () => {
    const { deps, calls } = harness(['TX2'], () => Promise.resolve({ kind: 'not_found' }));
    await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([`cancel TX2 ${TIMEOUT_REASON}`]);
  });

  it('leaves a transaction the provider is still working on, or is silent about, and waits before asking again', async () => {
    const { deps, calls } = harness(['TX3', 'TX4'], (reference) =>
      reference === 'TX3'
        ? Promise.resolve({ kind: 'pending' })
        : new Promise<ProviderStatus>(() => undefined),
    );
    const round = await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(round.more).toBe(false);
  });

  it('leaves a transaction whose provider could not be asked, for a later round', async () => {
    const { deps, calls } = harness(['TX5'], () => Promise.reject(new Error('connection reset')));
    const round = await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(round.more).toBe(false);
  });
});
