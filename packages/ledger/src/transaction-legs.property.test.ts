// Property: random leg events (provider results, timeouts, unsettled queries, operators' reviews), each
// possibly duplicated, reordered, late, concurrent or missing, driven through the ledger: money is never
// lost, doubled or negative, every leg agrees with its transaction's state, and every transaction ends
// resolved or waiting for an operator's review.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerError } from './ledger-error.js';
import { createLedger, type Ledger } from './ledger.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { TransactionRecord } from './transaction-record.js';

const commissionBasisPoints = 100;
const funding = 10_000_000n;

type LegEvent =
  | { kind: 'result'; outcome: 'completed' | 'declined' | 'failed_after_payment' }
  | { kind: 'timeout' }
  | { kind: 'unsettled'; review: boolean }
  | { kind: 'operator'; as: 'succeeded' | 'failed' };

interface Step {
  /** Which transaction the event is about. */
  readonly target: number;
  readonly event: LegEvent;
  /** Applied together with the step before it. */
  readonly concurrent: boolean;
}

const legEvent: fc.Arbitrary<LegEvent> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('result' as const),
      outcome: fc.constantFrom('completed' as const, 'declined' as const, 'failed_after_payment' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('timeout' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('unsettled' as const), review: fc.boolean() }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('operator' as const),
      as: fc.constantFrom('succeeded' as const, 'failed' as const),
    }),
    weight: 2,
  },
);

const scenario = fc.record({
  types: fc.array(fc.constantFrom('float' as const, 'airtime' as const), { minLength: 1, maxLength: 5 }),
  steps: fc.array(fc.record({ target: fc.nat({ max: 4 }), event: legEvent, concurrent: fc.boolean() }), {
    maxLength: 30,
  }),
});

function apply(ledger: Ledger, record: TransactionRecord, event: LegEvent, now: Date): Promise<unknown> {
  const { reference } = record;
  switch (event.kind) {
    case 'result':
      if (event.outcome === 'completed')
        return ledger.complete(reference, { providerCode: 'P', provider: 'sim' });
      return ledger.cancel(reference, {
        reason: event.outcome === 'declined' ? 'payment declined' : 'delivery failed after payment',
        provider: 'sim',
        // A float has no payment to collect: its provider reports a failure as a decline.
        paymentCollected: event.outcome === 'failed_after_payment' && record.type === 'Airtime',
      });
    case 'timeout':
      return ledger.cancel(reference, { reason: 'no result from the provider within the timeout' });
    case 'unsettled':
      return ledger.noteUnsettledLeg(reference, {
        state: 'unknown',
        provider: 'sim',
        nextQueryAt: now,
        review: event.review,
      });
    case 'operator':
      // Only a leg waiting for review can be settled; any other answers leg_not_found and changes nothing.
      return ledger
        .settleReviewedLeg(`${reference}-${record.type === 'Airtime' ? 'payment' : 'disbursement'}`, {
          as: event.as,
          by: 'operator',
        })
        .catch((error: unknown) => {
          if (!(error instanceof LedgerError) || error.code !== 'leg_not_found') throw error;
        });
  }
}

describe.each(testStoreKinds())('legs under random events on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  const now = new Date('2026-11-24T10:00:00.000Z');

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, {
      now: () => now,
      commissionBasisPoints: { CarrierB: commissionBasisPoints },
    });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  it('never loses, doubles or overdraws money, and ends every transaction resolved or under review', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ types, steps }) => {
        const accountId = (await ledger.createAccount({ name: 'Property Legs Ltd' })).id;
        await ledger.fund(accountId, 'float', funding);
        const records: TransactionRecord[] = [];
        for (const type of types) {
          const outcome =
            type === 'float'
              ? await ledger.requestAgentFloat({ accountId, request: floatRequest() })
              : await ledger.requestAirtime({ accountId, request: airtimeRequest() });
          if (outcome.kind !== 'created')
            throw new Error(`Expected a transaction, received ${outcome.kind}.`);
          records.push(outcome.transaction);
          if (records.length % 2 === 0) await ledger.markSubmitted(outcome.transaction.reference);
        }

        // Steps marked concurrent join the group before them.
        const groups: Step[][] = [];
        for (const step of steps) {
          const last = groups.at(-1);
          if (step.concurrent && last !== undefined) last.push(step);
          else groups.push([step]);
        }
        for (const group of groups) {
          await Promise.all(
            group.flatMap((step) => {
              const record = records[step.target % records.length];
              return record === undefined ? [] : [apply(ledger, record, step.event, now)];
            }),
          );
        }
        // The end of the reconciliation window: whatever is still requested waits for an operator.
        for (const record of records) {
          await ledger.noteUnsettledLeg(record.reference, {
            state: 'unknown',
            provider: 'sim',
            nextQueryAt: now,
            review: true,
          });
        }

        await expect(ledger.verify()).resolves.toMatchObject({ ok: true, breaches: [] });
        const waiting = await ledger.legsForReview(1_000);
        const reviewing = new Set(waiting.map((leg) => leg.reference));
        // A resolved transaction waits for an operator only for a result that contradicted its end.
        const contradicted = new Set(
          waiting.filter((leg) => leg.reviewReason === 'contradiction').map((leg) => leg.reference),
        );
        let floatPaid = 0n;
        let floatReserved = 0n;
        let commission = 0n;
        for (const created of records) {
          const record = await ledger.findTransaction(created.reference);
          if (record === undefined) throw new Error(`Expected ${created.reference} to exist.`);
          const legs = (await ledger.legs(record.reference)).map((leg) => `${leg.kind}:${leg.state}`);
          if (record.state === 'requested') {
            expect(reviewing.has(record.reference)).toBe(true);
            if (record.type === 'Agent Float') floatReserved += record.amountMinor;
          } else if (record.state === 'completed') {
            expect(reviewing.has(record.reference)).toBe(contradicted.has(record.reference));
            expect(legs).toEqual(
              record.type === 'Agent Float'
                ? ['disbursement:succeeded']
                : ['payment:succeeded', 'delivery:succeeded'],
            );
            if (record.type === 'Agent Float') floatPaid += record.amountMinor;
            else commission += (record.amountMinor * BigInt(commissionBasisPoints)) / 10_000n;
          } else {
            expect(reviewing.has(record.reference)).toBe(contradicted.has(record.reference));
            expect([
              ['disbursement:failed'],
              ['payment:failed'],
              ['payment:succeeded', 'delivery:failed', 'refund:succeeded'],
            ]).toContainEqual(legs);
          }
        }
        const float = await ledger.balance(accountId, 'float');
        expect(float.postedMinor).toBe(funding - floatPaid);
        expect(float.pendingMinor).toBe(floatReserved);
        expect(float.availableMinor >= 0n).toBe(true);
        // Airtime is paid by the payer: the caller's channel keeps only the commission.
        expect((await ledger.balance(accountId, 'airtime')).postedMinor).toBe(commission);
        const { rows: doubled } = await test.store.query<{ reference: string }>(
          `SELECT reference FROM transfers WHERE reference = ANY($1::text[])
           GROUP BY reference, purpose, kind HAVING count(*) > 1`,
          [records.map((record) => record.reference)],
        );
        expect(doubled).toEqual([]);
      }),
      { numRuns: 20 },
    );
  });
});
