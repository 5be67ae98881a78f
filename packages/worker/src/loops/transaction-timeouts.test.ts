import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ProviderResult, ProviderStatus } from '@topup/providers';
import { createWorkerMetrics } from '../worker-metrics.js';
import { cancelTimedOutTransactions, TIMEOUT_REASON } from './transaction-timeouts.js';
import type { TransactionTimeoutsDependencies } from './transaction-timeouts.js';

/** Every network to `provider`, as sandbox mode routes them. */
const routeTo = <P>(provider: P) => ({ forNetwork: (): P | undefined => provider });

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

const now = new Date('2026-11-24T12:00:00.000Z');

/**
 * A round over expired transactions whose provider answers each query as `status` says; each was made
 * `ageMs` before now (default: just past the 10-minute timeout).
 */
function harness(
  references: string[],
  status: (reference: string) => Promise<ProviderStatus>,
  ageMs = 600_001,
) {
  const calls: string[] = [];
  const noted: { reference: string; state: string; waitMs: number; review: boolean }[] = [];
  const acknowledged: string[] = [];
  const resolved = (reference: string) =>
    Promise.resolve({
      kind: 'resolved',
      transaction: { reference, state: 'completed' },
    } as unknown as Awaited<ReturnType<Ledger['complete']>>);
  const deps: TransactionTimeoutsDependencies = {
    ledger: {
      listExpired: () =>
        Promise.resolve(
          references.map(
            (reference) => ({ reference, createdAt: new Date(now.getTime() - ageMs) }) as Expired,
          ),
        ),
      complete: (reference, input) => {
        calls.push(`complete ${reference} ${input.providerCode}`);
        return resolved(reference);
      },
      cancel: (reference, input) => {
        calls.push(`cancel ${reference} ${input.reason}`);
        return resolved(reference);
      },
      applyLegEvent: () =>
        Promise.reject(new Error('Expected no leg of a purchase chain to be told anything.')),
      noteUnsettledLeg: (reference, leg) => {
        noted.push({
          reference,
          state: leg.state,
          waitMs: leg.nextQueryAt.getTime() - now.getTime(),
          review: leg.review,
        });
        return Promise.resolve(true);
      },
    },
    providers: routeTo({
      name: 'sandbox',
      query: status,
      acknowledge: (ids) => {
        acknowledged.push(...ids);
        return Promise.resolve();
      },
    }),
    logger: pino({ level: 'silent' }),
    metrics: createWorkerMetrics(noQueue),
    timeoutMs: 600_000,
    queryAfterMs: 60_000,
    reconciliationWindowMs: 86_400_000,
    providerTimeoutMs: 50,
    batchSize: references.length,
    now: () => now,
  };
  return { deps, calls, acknowledged, noted };
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

  it('leaves a transaction the provider is still working on, or is silent about, and asks again after half its age', async () => {
    const { deps, calls, noted } = harness(['TX3', 'TX4'], (reference) =>
      reference === 'TX3'
        ? Promise.resolve({ kind: 'pending' })
        : new Promise<ProviderStatus>(() => undefined),
    );
    const round = await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(round.more).toBe(false);
    expect(noted).toEqual([
      { reference: 'TX3', state: 'pending', waitMs: 300_000, review: false },
      { reference: 'TX4', state: 'unknown', waitMs: 300_000, review: false },
    ]);
  });

  it('leaves a transaction whose provider could not be asked, for a later round', async () => {
    const { deps, calls, noted } = harness(['TX5'], () => Promise.reject(new Error('connection reset')));
    const round = await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(round.more).toBe(false);
    expect(noted).toMatchObject([{ reference: 'TX5', state: 'unknown', review: false }]);
  });

  it('asks nobody and cancels nothing when no provider serves the transaction’s network any more', async () => {
    const { deps, calls, noted } = harness(['TX6'], () => Promise.resolve({ kind: 'not_found' }));
    await cancelTimedOutTransactions({ ...deps, providers: { forNetwork: () => undefined } });
    expect(calls).toEqual([]);
    expect(noted).toMatchObject([{ reference: 'TX6', state: 'unknown', review: false }]);
  });

  it('asks a young transaction again no sooner than PROVIDER_QUERY_AFTER_SECONDS, and an old one at most 15 minutes apart', async () => {
    const young = harness(['TX6'], () => Promise.resolve({ kind: 'pending' }), 61_000);
    await cancelTimedOutTransactions(young.deps);
    expect(young.noted).toMatchObject([{ waitMs: 60_000 }]);
    const old = harness(['TX7'], () => Promise.resolve({ kind: 'pending' }), 6 * 3_600_000);
    await cancelTimedOutTransactions(old.deps);
    expect(old.noted).toMatchObject([{ waitMs: 900_000 }]);
  });

  it('does not cancel a transaction the provider does not know yet before the timeout', async () => {
    const { deps, calls, noted } = harness(['TX8'], () => Promise.resolve({ kind: 'not_found' }), 61_000);
    await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(noted).toMatchObject([{ reference: 'TX8', state: 'unknown', review: false }]);
  });

  it('marks a leg still unsettled at the end of the reconciliation window for review, and refunds nothing', async () => {
    const { deps, calls, noted } = harness(
      ['TX9'],
      () => Promise.reject(new Error('provider down')),
      600_000 + 86_400_000,
    );
    await cancelTimedOutTransactions(deps);
    expect(calls).toEqual([]);
    expect(noted).toMatchObject([{ reference: 'TX9', state: 'unknown', review: true }]);
  });
});
