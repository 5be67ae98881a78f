import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemResult } from './group-commit.js';
import { createLedger, type Ledger } from './ledger.js';
import {
  applyLegEvent,
  applyLegEvents,
  type LegEvent,
  type LegEventOutcome,
  type LegEventRequest,
} from './leg-events.js';
import { markAllSubmitted, type ResolutionContext } from './resolution.js';
import { airtimeRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { LegKind } from './transaction-legs.js';
import { verifyLedger } from './verify.js';

const at = new Date('2026-11-24T10:00:00.000Z');
const context: ResolutionContext = {
  now: at,
  timeZone: 'Africa/Nairobi',
  commissionBasisPoints: { CarrierA: 0, CarrierB: 0, CarrierC: 0 },
};

const result = (
  outcome: 'succeeded' | 'failed',
  provider: string,
  providerCode: string,
  evidence?: { amountMinor: bigint },
): LegEvent => ({
  kind: 'result',
  outcome,
  provider,
  providerCode,
  reason: 'said so',
  source: 'test',
  ...(evidence === undefined ? {} : { evidence }),
});
const claim = (provider: string, seenCalls: number): LegEvent => ({ kind: 'call', provider, seenCalls });
const accepted = (provider: string): LegEvent => ({ kind: 'accepted', provider, nextQueryAt: at });

/**
 * Each purchase's story, as the events about it in order: a delivered one, a refunded one, one whose
 * payment names another amount (review), one whose second claim lost, one whose refused settlement fails
 * alone, and one that is only asked about.
 */
const stories: readonly (readonly [LegKind, LegEvent][])[] = [
  [
    ['payment', result('succeeded', 'daraja', 'NLJ7RT61SV')],
    ['delivery', claim('africastalking', 0)],
    ['delivery', accepted('africastalking')],
    ['delivery', result('succeeded', 'africastalking', 'ATQid_1')],
  ],
  [
    ['payment', result('succeeded', 'daraja', 'NLJ7RT61SW')],
    ['delivery', claim('africastalking', 0)],
    ['delivery', result('failed', 'africastalking', 'ATQid_2')],
    ['refund', claim('daraja', 0)],
    ['refund', result('succeeded', 'daraja', 'RFD0001')],
  ],
  [['payment', result('succeeded', 'daraja', 'NLJ7RT61SX', { amountMinor: 100n })]],
  [
    ['payment', result('succeeded', 'daraja', 'NLJ7RT61SY')],
    ['delivery', claim('africastalking', 0)],
    ['delivery', claim('africastalking', 0)],
  ],
  [['refund', { kind: 'settled', as: 'failed', by: 'ops@example.com' }]],
  [
    [
      'payment',
      {
        kind: 'open',
        state: 'pending',
        provider: 'daraja',
        nextQueryAt: at,
        review: false,
        asked: true,
        said: 'still working on it',
      },
    ],
  ],
];

/** One story's events for the purchase `reference`, interleaved with the others' as they would arrive. */
function interleaved(references: readonly string[]): LegEventRequest[] {
  const longest = Math.max(...stories.map((story) => story.length));
  const requests: LegEventRequest[] = [];
  for (let step = 0; step < longest; step += 1) {
    stories.forEach((story, index) => {
      const entry = story[step];
      if (entry !== undefined)
        requests.push({ reference: references[index] ?? '', leg: entry[0], event: entry[1] });
    });
  }
  return requests;
}

/** What an outcome says, without the purchase's own reference and times. */
function summary(item: ItemResult<LegEventOutcome | undefined>): string {
  if (!item.ok) return `error: ${(item.error as Error).message.replace(/T[A-Z0-9]{13}/g, 'REF')}`;
  const outcome = item.value;
  if (outcome === undefined) return 'no such transaction';
  return [outcome.action, outcome.why, outcome.calls, outcome.review ?? '', outcome.transaction.state].join(
    ' | ',
  );
}

describe.each(testStoreKinds())('leg events applied together on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => at, chainedPurchases: true });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  const purchases = async (accountName: string) => {
    const accountId = (await ledger.createAccount({ name: accountName })).id;
    const references: string[] = [];
    for (const _ of stories) {
      const reference = referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() }));
      await ledger.markSubmitted(reference);
      references.push(reference);
    }
    return references;
  };
  const recorded = async (reference: string) => {
    const { rows } = await test.store.query(
      `SELECT t.state AS transaction_state, l.kind, l.state, l.provider, l.provider_reference, l.calls,
         l.queries, l.review_reason, l.reviewed_by,
         (SELECT string_agg(purpose, ',' ORDER BY id) FROM transfers WHERE reference = t.reference) AS postings
       FROM transactions t LEFT JOIN transaction_legs l ON l.reference = t.reference
       WHERE t.reference = $1 ORDER BY l.kind`,
      [reference],
    );
    return rows;
  };

  it('ends every purchase as applying its events one at a time does, each event with the same outcome', async () => {
    const alone = await purchases('One at a time Ltd');
    const together = await purchases('Together Ltd');

    const oneByOne: ItemResult<LegEventOutcome | undefined>[] = [];
    for (const request of interleaved(alone)) {
      try {
        oneByOne.push({
          ok: true,
          value: await applyLegEvent(test.store, request.reference, request.leg, request.event, context),
        });
      } catch (error) {
        oneByOne.push({ ok: false, error });
      }
    }
    const batched = await applyLegEvents(test.store, interleaved(together), () => context);

    expect(batched.map(summary)).toEqual(oneByOne.map(summary));
    expect(oneByOne.map(summary)).toContain(
      'complete | the carrier delivered the airtime | 1 |  | completed',
    );
    expect(oneByOne.map(summary)).toContainEqual(
      expect.stringMatching(/^error: Expected a settlement the ledger allows/),
    );
    for (const [index, reference] of alone.entries()) {
      expect(await recorded(together[index] ?? '')).toEqual(await recorded(reference));
    }
    expect((await verifyLedger(test.store)).ok).toBe(true);
  });

  it('applies an event about a transaction there is not as nothing, beside events that apply', async () => {
    const [reference = ''] = await purchases('Missing Ltd');
    const results = await applyLegEvents(
      test.store,
      [
        { reference: 'TNOSUCHTHING00', leg: 'payment', event: result('succeeded', 'daraja', 'X') },
        { reference, leg: 'payment', event: result('succeeded', 'daraja', 'NLJ7RT61SZ') },
      ],
      () => context,
    );
    expect(results.map(summary)).toEqual(['no such transaction', expect.stringMatching(/^end leg \|/)]);
  });

  it('gives each of many callers of the ledger its own event’s outcome when their events are batched', async () => {
    const references = await purchases('Concurrent Ltd');
    const outcomes = await Promise.all(
      references.map((reference) =>
        ledger.applyLegEvent(reference, 'payment', result('succeeded', 'daraja', `R${reference}`)),
      ),
    );
    expect(outcomes.map((outcome) => outcome?.transaction.reference)).toEqual(references);
    expect(outcomes.every((outcome) => outcome?.action === 'end leg')).toBe(true);
    for (const reference of references) {
      const legs = await ledger.legs(reference);
      expect(legs.find((leg) => leg.kind === 'payment')?.providerReference).toBe(`R${reference}`);
    }
  });
});

describe.runIf(testStoreKinds().includes('postgres'))(
  'submissions noted beside leg events on postgres',
  () => {
    let test: TestStore;
    let ledger: Ledger;

    beforeAll(async () => {
      test = await openTestStore('postgres');
      ledger = createLedger(test.store, { now: () => at, chainedPurchases: true });
    });
    afterAll(async () => {
      await ledger.close();
      await test.dispose();
    });

    /** Waits (at most 5 s) until a statement noting submissions waits for a row lock. */
    const untilNoteWaits = async () => {
      for (let waited = 0; waited < 5_000; waited += 20) {
        const { rows } = await test.store.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE '%SET submitted_at%'`,
        );
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('Expected the note of submissions to wait for a row lock within 5 s, it never did.');
    };

    it('locks the transactions in reference order, as a batch of leg events does, so the two never deadlock', async () => {
      const accountId = (await ledger.createAccount({ name: 'Submissions Ltd' })).id;
      const references: string[] = [];
      for (let count = 0; count < 2; count += 1) {
        references.push(referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() })));
      }
      const [low = '', high = ''] = references.sort();
      // A new version of the lower row lies after the higher one on disk, where a scan meets it second.
      await test.store.query(`UPDATE transactions SET note = note WHERE reference = $1`, [low]);
      const second = await test.openSecondStore(2);

      let noting: Promise<void> | undefined;
      await test.store.transaction(async (tx) => {
        // What a batch of leg events about both does: the lower row first, then the higher.
        await tx.query(`SELECT 1 FROM transactions WHERE reference = $1 FOR UPDATE`, [low]);
        noting = markAllSubmitted(second, [low, high], at);
        await untilNoteWaits();
        await tx.query(`SELECT 1 FROM transactions WHERE reference = $1 FOR UPDATE`, [high]);
      });
      await noting;

      const { rows } = await test.store.query<{ submitted: number }>(
        `SELECT count(*)::int AS submitted FROM transactions WHERE reference = ANY($1) AND submitted_at IS NOT NULL`,
        [[low, high]],
      );
      expect(rows[0]?.submitted).toBe(2);
    });
  },
);
