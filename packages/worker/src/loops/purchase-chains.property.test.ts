// Property: purchases carried by two providers (a payer's money network and a recipient's carrier) under
// random provider behaviour (payments paid or declined; deliveries refused, lost at submission, delivered
// or failed; refunds refused, unanswered, done or failed), with results duplicated and chain rounds run by
// two workers at once, driven through the real ledger and the purchase-chains loop. Money is never lost or
// doubled: a declined payment is never delivered, a delivered purchase is never refunded, a purchase whose
// delivery failed is refunded exactly once (never twice, never without a refund leg), and every purchase
// ends completed, cancelled, or waiting on a refund an operator must settle.

import { NOT_DELIVERED_REFUNDED, createLedger, legId, type Ledger } from '@topup/ledger';
import type { LegOrder, Provider, ProviderResult, SubmitResult } from '@topup/providers';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestAirtime } from '../testing/scenario.js';
import { openTestStore, testStoreKinds, type TestStore } from '../testing/test-stores.js';
import { createWorkerMetrics } from '../worker-metrics.js';
import { applyProviderResult } from './result-application.js';
import { advancePurchaseChains } from './purchase-chains.js';

interface Script {
  readonly payment: 'paid' | 'declined';
  /** How the carrier answers the first submission of the delivery; a later one is always accepted. */
  readonly deliverySubmit: 'accepted' | 'refused' | 'unavailable';
  readonly delivery: 'delivered' | 'failed';
  readonly refundSubmit: 'accepted' | 'refused' | 'silent';
  readonly refund: 'refunded' | 'failed';
  /** Every pushed result arrives twice, at once. */
  readonly duplicated: boolean;
}

const script: fc.Arbitrary<Script> = fc.record({
  payment: fc.constantFrom('paid' as const, 'paid' as const, 'declined' as const),
  deliverySubmit: fc.constantFrom('accepted' as const, 'refused' as const, 'unavailable' as const),
  delivery: fc.constantFrom('delivered' as const, 'failed' as const),
  refundSubmit: fc.constantFrom('accepted' as const, 'refused' as const, 'silent' as const),
  refund: fc.constantFrom('refunded' as const, 'failed' as const),
  duplicated: fc.boolean(),
});

const scenario = fc.record({
  scripts: fc.array(script, { minLength: 1, maxLength: 4 }),
  /** Two workers run each chain round at once. */
  twoWorkers: fc.boolean(),
});

const QUERY_AFTER_MS = 2_000;

/** What the fake providers were asked: delivery submissions and refund submissions per reference. */
interface Calls {
  readonly deliveries: Map<string, string[]>;
  /** Purchases whose delivery the carrier accepted: its result will come. */
  readonly accepted: Set<string>;
  readonly refunds: Map<string, number>;
}

function providersFor(scripts: ReadonlyMap<string, Script>, calls: Calls) {
  const base = {
    submit: () => Promise.resolve<SubmitResult>({ kind: 'accepted' }),
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),
    query: () => Promise.resolve({ kind: 'pending' as const }),
    queryLeg: () => Promise.resolve({ kind: 'pending' as const }),
  };
  const scriptOf = (order: LegOrder) => {
    const found = scripts.get(order.transaction.reference);
    if (found === undefined) throw new Error(`Expected a script for ${order.transaction.reference}.`);
    return found;
  };
  const carrier: Provider = {
    ...base,
    name: 'carrier',
    idempotentSubmissions: true,
    laterLegs: ['delivery'],
    submitLeg(order) {
      const sent = calls.deliveries.get(order.transaction.reference) ?? [];
      calls.deliveries.set(order.transaction.reference, [...sent, order.id]);
      const first = scriptOf(order).deliverySubmit;
      if (sent.length > 0 || first === 'accepted') {
        calls.accepted.add(order.transaction.reference);
        return Promise.resolve({ kind: 'accepted' });
      }
      return Promise.resolve(
        first === 'refused'
          ? { kind: 'refused', reason: 'invalid phone number', providerCode: 'AT_REFUSED' }
          : { kind: 'unavailable', reason: 'no answer' },
      );
    },
    // A send that was never answered is unknown to the carrier, which takes it again under the same key.
    queryLeg: (id) => {
      const reference = id.slice(0, id.lastIndexOf('-'));
      const sent = calls.deliveries.get(reference) ?? [];
      return Promise.resolve(
        scripts.get(reference)?.deliverySubmit === 'unavailable' && sent.length === 1
          ? { kind: 'not_found' }
          : { kind: 'pending' },
      );
    },
  };
  const payer: Provider = {
    ...base,
    name: 'payer',
    idempotentSubmissions: false,
    laterLegs: ['refund'],
    submitLeg(order) {
      const { reference } = order.transaction;
      calls.refunds.set(reference, (calls.refunds.get(reference) ?? 0) + 1);
      switch (scriptOf(order).refundSubmit) {
        case 'accepted':
          return Promise.resolve({ kind: 'accepted' });
        case 'refused':
          return Promise.resolve({ kind: 'refused', reason: 'refused by M-Pesa', providerCode: '21' });
        case 'silent':
          return Promise.reject(new Error('socket hang up'));
      }
    },
  };
  return { forNetwork: (network: string) => (network.startsWith('Carrier') ? carrier : payer) };
}

function result(reference: string, outcome: ProviderResult['outcome'], code: string): ProviderResult {
  return { id: `${reference}:${outcome}`, reference, outcome, providerCode: code, reason: 'declined' };
}

describe.each(testStoreKinds())('purchases across two providers under random events on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock = new Date('2026-11-24T10:00:00.000Z');

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  it('never loses or doubles the payer’s money, and ends every purchase delivered, refunded or under review', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ scripts, twoWorkers }) => {
        const accountId = (await ledger.createAccount({ name: 'Chains Property Ltd' })).id;
        const byReference = new Map<string, Script>();
        for (const [index, each] of scripts.entries()) {
          const record = await requestAirtime(
            ledger,
            accountId,
            `25473300${String(index).padStart(4, '0')}`,
            '254711222333',
          );
          await ledger.markSubmitted(record.reference);
          byReference.set(record.reference, each);
        }
        const calls: Calls = { deliveries: new Map(), accepted: new Set(), refunds: new Map() };
        const deps = {
          ledger,
          providers: providersFor(byReference, calls),
          logger: pino({ level: 'silent' }),
          metrics: createWorkerMetrics(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 })),
          batchSize: 100,
          providerTimeoutMs: 1_000,
          queryAfterMs: QUERY_AFTER_MS,
          timeoutMs: 1_000,
          reconciliationWindowMs: 60_000,
          now: () => clock,
        };
        const push = (each: Script, results: ProviderResult[], provider: string) =>
          Promise.all(
            results.flatMap((pushed) =>
              (each.duplicated ? [pushed, pushed] : [pushed]).map((one) =>
                applyProviderResult(deps, one, provider, 'webhook'),
              ),
            ),
          );

        for (const [reference, each] of byReference) {
          const payment = legId(reference, 'payment');
          await push(
            each,
            [
              each.payment === 'paid'
                ? result(payment, 'completed', `R-${reference}`)
                : result(payment, 'declined', '1032'),
            ],
            'payer',
          );
        }
        for (let round = 0; round < 8; round += 1) {
          await Promise.all((twoWorkers ? [1, 2] : [1]).map(() => advancePurchaseChains(deps)));
          // The providers' results come whatever our legs say, for what each provider took.
          for (const [reference, each] of byReference) {
            const legs = await ledger.legs(reference);
            const open = (kind: string) => {
              const leg = legs.find((found) => found.kind === kind);
              return leg !== undefined && leg.state !== 'succeeded' && leg.state !== 'failed';
            };
            if (calls.accepted.has(reference) && open('delivery')) {
              const id = legId(reference, 'delivery');
              await push(
                each,
                [
                  each.delivery === 'delivered'
                    ? result(id, 'completed', 'ATQ')
                    : result(id, 'declined', 'ATQ'),
                ],
                'carrier',
              );
            }
            if (
              each.refundSubmit === 'accepted' &&
              (calls.refunds.get(reference) ?? 0) > 0 &&
              open('refund')
            ) {
              const id = legId(reference, 'refund');
              await push(
                each,
                [
                  each.refund === 'refunded'
                    ? result(id, 'completed', 'REV')
                    : result(id, 'declined', 'R000002'),
                ],
                'payer',
              );
            }
          }
          clock = new Date(clock.getTime() + QUERY_AFTER_MS + 1_000);
        }

        await expect(ledger.verify()).resolves.toMatchObject({ ok: true, breaches: [] });
        for (const [reference, each] of byReference) {
          const record = await ledger.findTransaction(reference);
          const legs = (await ledger.legs(reference)).map((leg) => `${leg.kind}:${leg.state}`);
          const deliveries = calls.deliveries.get(reference) ?? [];
          const refunds = calls.refunds.get(reference) ?? 0;
          expect(deliveries.every((id) => id === legId(reference, 'delivery'))).toBe(true);
          if (each.payment === 'declined') {
            expect(record?.state).toBe('cancelled');
            expect(deliveries).toEqual([]);
            expect(refunds).toBe(0);
            continue;
          }
          const delivered = each.deliverySubmit !== 'refused' && each.delivery === 'delivered';
          if (delivered) {
            expect(record?.state).toBe('completed');
            expect(legs).toEqual(['payment:succeeded', 'delivery:succeeded']);
            expect(refunds).toBe(0);
            continue;
          }
          // Not delivered: refunded exactly once, whatever became of the refund.
          expect(refunds).toBe(1);
          expect(legs.slice(0, 2)).toEqual(['payment:succeeded', 'delivery:failed']);
          if (each.refundSubmit === 'accepted' && each.refund === 'refunded') {
            expect(record).toMatchObject({ state: 'cancelled', cancelReason: NOT_DELIVERED_REFUNDED });
            expect(legs[2]).toBe('refund:succeeded');
          } else {
            expect(record?.state).toBe('requested');
            expect(legs[2]).toMatch(/^refund:(failed|unknown|pending)$/);
          }
        }
      }),
      { numRuns: 15 },
    );
  });
});
