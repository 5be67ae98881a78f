import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LegEvent } from './leg-events.js';
import { createLedger, type Ledger } from './ledger.js';
import { NOT_DELIVERED_REFUNDED } from './purchase-chain-legs.js';
import { airtimeRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { LegKind } from './transaction-legs.js';

describe.each(testStoreKinds())('a purchase carried by two providers on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock: Date;
  let accountId: string;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock, chainedPurchases: true });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });
  beforeEach(async () => {
    clock = new Date('2026-11-24T10:00:00.000Z');
    accountId = (await ledger.createAccount({ name: 'Chains Ltd' })).id;
  });

  const result = (
    outcome: 'succeeded' | 'failed',
    provider: string,
    providerCode = '',
    extra: Partial<Extract<LegEvent, { kind: 'result' }>> = {},
  ): LegEvent => ({
    kind: 'result',
    outcome,
    provider,
    providerCode,
    reason: 'said so',
    source: 'test',
    ...extra,
  });
  const apply = async (reference: string, leg: LegKind, event: LegEvent) => {
    const outcome = await ledger.applyLegEvent(reference, leg, event);
    if (outcome === undefined) throw new Error(`Expected ${reference} to exist.`);
    return outcome;
  };
  const claim = async (reference: string, leg: LegKind, provider: string) => {
    const seenCalls = (await ledger.legs(reference)).find((found) => found.kind === leg)?.calls ?? 0;
    return apply(reference, leg, { kind: 'call', provider, seenCalls });
  };
  const purchase = async () => {
    const reference = referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() }));
    await ledger.markSubmitted(reference);
    return reference;
  };
  const paidPurchase = async () => {
    const reference = await purchase();
    await apply(reference, 'payment', result('succeeded', 'daraja', 'NLJ7RT61SV'));
    return reference;
  };
  /** A paid purchase whose delivery failed and whose refund was claimed and sent. */
  const refunding = async () => {
    const reference = await paidPurchase();
    expect((await claim(reference, 'delivery', 'africastalking')).action).toBe('claim');
    await apply(reference, 'delivery', result('failed', 'africastalking', 'ATQid_2'));
    expect((await claim(reference, 'refund', 'daraja')).action).toBe('claim');
    await apply(reference, 'refund', { kind: 'accepted', provider: 'daraja', nextQueryAt: clock });
    return reference;
  };
  const underWay = async () =>
    (await ledger.purchasesUnderWay(1_000)).map(({ transaction }) => transaction.reference);
  const legs = async (reference: string) =>
    (await ledger.legs(reference)).map(
      (leg) => `${leg.kind}:${leg.state}:${leg.provider}:${leg.providerReference}`,
    );
  const postings = async (reference: string) =>
    (
      await test.store.query<{ purpose: string }>(
        `SELECT purpose FROM transfers WHERE reference = $1 AND purpose LIKE 'airtime_%' ORDER BY id`,
        [reference],
      )
    ).rows.map((row) => row.purpose);
  const review = async (reference: string, leg: LegKind) =>
    (await ledger.legsForReview()).find((found) => found.id === `${reference}-${leg}`);

  it('is under way once paid, and never offered to the timeout, which must not cancel a paid purchase', async () => {
    const reference = await paidPurchase();
    expect(await underWay()).toContain(reference);
    clock = new Date(clock.getTime() + 3_600_000);
    const expired = await ledger.listExpired(clock, 1_000);
    expect(expired.map((transaction) => transaction.reference)).not.toContain(reference);
  });

  it('waits while its delivery is with the carrier, and is due again when the carrier is to be asked', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', {
      kind: 'accepted',
      provider: 'africastalking',
      nextQueryAt: new Date(clock.getTime() + 60_000),
    });
    expect(await underWay()).not.toContain(reference);
    clock = new Date(clock.getTime() + 60_000);
    expect(await underWay()).toContain(reference);
  });

  it('is due again when a claimed delivery’s claimant never said what came of it, at the time its claim named or at once', async () => {
    const reference = await paidPurchase();
    const claimed = await apply(reference, 'delivery', {
      kind: 'call',
      provider: 'africastalking',
      seenCalls: 0,
      nextQueryAt: new Date(clock.getTime() + 60_000),
    });
    expect(claimed.action).toBe('claim');
    expect(await underWay()).not.toContain(reference);
    clock = new Date(clock.getTime() + 60_000);
    expect(await underWay()).toContain(reference);

    const unnamed = await paidPurchase();
    expect((await claim(unnamed, 'delivery', 'africastalking')).action).toBe('claim');
    expect(await underWay()).toContain(unnamed);
  });

  it('completes with the payment’s receipt kept on its leg and the carrier’s id on the delivery', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    const completed = await apply(reference, 'delivery', result('succeeded', 'africastalking', 'ATQid_1'));
    expect(completed).toMatchObject({ action: 'complete', transaction: { state: 'completed' } });
    expect(await legs(reference)).toEqual([
      'payment:succeeded:daraja:NLJ7RT61SV',
      'delivery:succeeded:africastalking:ATQid_1',
    ]);
    expect(await underWay()).not.toContain(reference);
  });

  it('is due for a refund once its delivery failed, and of two workers only one claims the refund', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', result('failed', 'africastalking', 'ATQid_2'));
    expect(await underWay()).toContain(reference);
    const claims = await Promise.all([
      claim(reference, 'refund', 'daraja'),
      claim(reference, 'refund', 'daraja'),
    ]);
    expect(claims.map((outcome) => outcome.action).sort()).toEqual(['claim', 'refuse']);

    const refunded = await apply(reference, 'refund', result('succeeded', 'daraja', 'NLJ7RT62XY'));
    expect(refunded).toMatchObject({ action: 'cancel refunded', transaction: { state: 'cancelled' } });
    expect(await legs(reference)).toEqual([
      'payment:succeeded:daraja:NLJ7RT61SV',
      'delivery:failed:africastalking:ATQid_2',
      'refund:succeeded:daraja:NLJ7RT62XY',
    ]);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('claims a delivery’s next call once: two workers that saw the same claims race for one call', async () => {
    const reference = await paidPurchase();
    const first = await Promise.all([
      claim(reference, 'delivery', 'africastalking'),
      claim(reference, 'delivery', 'africastalking'),
    ]);
    expect(first.map((outcome) => outcome.action).sort()).toEqual(['claim', 'refuse']);
    await apply(reference, 'delivery', {
      kind: 'never taken',
      provider: 'africastalking',
      nextQueryAt: clock,
    });
    const again = await Promise.all([
      apply(reference, 'delivery', { kind: 'call', provider: 'africastalking', seenCalls: 1 }),
      apply(reference, 'delivery', { kind: 'call', provider: 'africastalking', seenCalls: 1 }),
    ]);
    expect(again.map((outcome) => outcome.action).sort()).toEqual(['claim', 'refuse']);
    expect((await ledger.legs(reference)).find((leg) => leg.kind === 'delivery')?.calls).toBe(2);
  });

  it('keeps an ended leg’s end: a repeat changes nothing, and a late “still working” is ignored', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', result('failed', 'africastalking'));
    const repeat = await apply(reference, 'delivery', result('failed', 'africastalking'));
    expect(repeat.action).toBe('ignore');
    const late = await apply(reference, 'delivery', {
      kind: 'open',
      state: 'pending',
      provider: 'africastalking',
      nextQueryAt: clock,
      review: false,
      asked: true,
      said: 'Sent',
    });
    expect(late.action).toBe('ignore');
    expect(await legs(reference)).toContain('delivery:failed:africastalking:');
  });

  it('takes a payment’s receipt from a late callback when the payment was first learned without one', async () => {
    const reference = await purchase();
    expect((await apply(reference, 'payment', result('succeeded', 'daraja'))).action).toBe('end leg');
    expect((await apply(reference, 'payment', result('succeeded', 'daraja', 'NLJ7RT61SV'))).action).toBe(
      'ignore',
    );
    await apply(reference, 'payment', result('succeeded', 'daraja', 'OTHER'));
    expect(await legs(reference)).toEqual(['payment:succeeded:daraja:NLJ7RT61SV']);
  });

  it('never completes a purchase whose refund is under way: a late delivery success after a failure waits for an operator', async () => {
    const reference = await refunding();
    const late = await apply(reference, 'delivery', result('succeeded', 'africastalking', 'ATQid_2'));
    expect(late).toMatchObject({
      action: 'review',
      review: 'contradiction',
      transaction: { state: 'requested' },
    });
    // The reversal already sent still lands, and the payer has their money back: nothing completes.
    const refunded = await apply(reference, 'refund', result('succeeded', 'daraja', 'NLJ7RT62XY'));
    expect(refunded).toMatchObject({ action: 'cancel refunded', transaction: { state: 'cancelled' } });
    expect(await postings(reference)).toEqual(['airtime_collection', 'airtime_refund']);
    const waiting = await review(reference, 'delivery');
    expect(waiting).toMatchObject({ reviewReason: 'contradiction', state: 'failed' });
    expect(waiting?.reviewEvidence[0]).toMatchObject({ outcome: 'succeeded', recorded: 'failed' });
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('keeps a delivery success that comes after the refund as a contradiction, moving nothing', async () => {
    const reference = await refunding();
    await apply(reference, 'refund', result('succeeded', 'daraja', 'NLJ7RT62XY'));
    const late = await apply(reference, 'delivery', result('succeeded', 'africastalking', 'ATQid_2'));
    expect(late).toMatchObject({ action: 'review', transaction: { state: 'cancelled' } });
    expect(await postings(reference)).toEqual(['airtime_collection', 'airtime_refund']);
    expect(await review(reference, 'delivery')).toBeDefined();
  });

  it('holds a delivery success that contradicts a failure before any refund, and the refund is not claimed', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', result('failed', 'africastalking'));
    await apply(reference, 'delivery', result('succeeded', 'africastalking'));
    expect((await claim(reference, 'refund', 'daraja')).action).toBe('refuse');
    expect(await underWay()).not.toContain(reference);
    // The operator finds the airtime arrived: the purchase completes, and the payer is never refunded.
    const settled = await ledger.settleReviewedLeg(`${reference}-delivery`, {
      as: 'succeeded',
      by: 'ops@topup.example',
    });
    expect(settled).toMatchObject({ kind: 'resolved', transaction: { state: 'completed' } });
    expect(await review(reference, 'delivery')).toBeUndefined();
  });

  it('sends a paid result naming another amount to review, and it moves no money', async () => {
    const reference = await purchase();
    const paid = await apply(
      reference,
      'payment',
      result('succeeded', 'daraja', 'NLJ7RT61SV', {
        evidence: { amountMinor: 100n, mobile: '254711222333' },
      }),
    );
    expect(paid).toMatchObject({ action: 'review', review: 'mismatch', transaction: { state: 'requested' } });
    expect(await underWay()).not.toContain(reference);
    const waiting = await review(reference, 'payment');
    expect(waiting?.reviewEvidence[0]?.['differences']).toMatch(/amount 100 cents where 5000 were asked/);
    expect(await postings(reference)).toEqual([]);
  });

  it('reads a masked phone number digit by digit, and a different one as a mismatch', async () => {
    const reference = await purchase();
    const masked = result('succeeded', 'daraja', 'NLJ7RT61SV', { evidence: { mobile: '254711***333' } });
    expect((await apply(reference, 'payment', masked)).action).toBe('end leg');
    const other = await purchase();
    const wrong = result('succeeded', 'daraja', 'NLJ7RT61SW', { evidence: { mobile: '254799000111' } });
    expect((await apply(other, 'payment', wrong)).review).toBe('mismatch');
  });

  it('records an operator’s payment and lets the chain deliver: it never completes a purchase unsent', async () => {
    const reference = await purchase();
    await apply(reference, 'payment', {
      kind: 'open',
      state: 'unknown',
      provider: 'daraja',
      nextQueryAt: clock,
      review: true,
      asked: true,
      said: 'acknowledgement lost',
    });
    const settled = await ledger.settleReviewedLeg(`${reference}-payment`, {
      as: 'succeeded',
      by: 'ops@topup.example',
      receipt: 'NLJ7RT61SV',
    });
    expect(settled).toMatchObject({ kind: 'leg_settled', transaction: { state: 'requested' } });
    expect(await legs(reference)).toEqual(['payment:succeeded:daraja:NLJ7RT61SV']);
    expect(await underWay()).toContain(reference);
    expect((await claim(reference, 'delivery', 'africastalking')).action).toBe('claim');
  });

  it('puts a payment reported after the purchase was declined in review, and refunds it once an operator confirms', async () => {
    const reference = await purchase();
    await apply(reference, 'payment', result('failed', 'daraja', '1032'));
    const late = await apply(reference, 'payment', result('succeeded', 'daraja', 'NLJ7RT61SV'));
    expect(late).toMatchObject({ action: 'review', transaction: { state: 'cancelled' } });
    expect(await underWay()).not.toContain(reference);

    const settled = await ledger.settleReviewedLeg(`${reference}-payment`, {
      as: 'succeeded',
      by: 'ops@topup.example',
      receipt: 'NLJ7RT61SV',
    });
    expect(settled).toMatchObject({ kind: 'leg_settled', transaction: { state: 'cancelled' } });
    expect(await underWay()).toContain(reference);
    expect((await claim(reference, 'delivery', 'africastalking')).action).toBe('refuse');
    expect((await claim(reference, 'refund', 'daraja')).action).toBe('claim');
    const refunded = await apply(reference, 'refund', result('succeeded', 'daraja', 'NLJ7RT62XY'));
    expect(refunded.action).toBe('cancel refunded');
    expect(await postings(reference)).toEqual(['airtime_collection', 'airtime_refund']);
    expect(await underWay()).not.toContain(reference);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('lets an operator settle a refund only as succeeded, cancelling the purchase with the payment given back', async () => {
    const reference = await refunding();
    await apply(reference, 'refund', result('failed', 'daraja', 'R000002'));
    expect(await underWay()).not.toContain(reference);
    expect(await review(reference, 'refund')).toMatchObject({ reviewReason: 'refused' });

    await expect(
      ledger.settleReviewedLeg(`${reference}-refund`, { as: 'failed', by: 'ops@topup.example' }),
    ).rejects.toThrow(/payer must have their money back/);
    const settled = await ledger.settleReviewedLeg(`${reference}-refund`, {
      as: 'succeeded',
      by: 'ops@topup.example',
    });
    expect(settled.kind).toBe('resolved');
    const transaction = await ledger.findTransaction(reference);
    expect(transaction).toMatchObject({ state: 'cancelled', cancelReason: NOT_DELIVERED_REFUNDED });
    const [, , refund] = await ledger.legs(reference);
    expect(refund).toMatchObject({ kind: 'refund', state: 'succeeded', reviewedBy: 'ops@topup.example' });
  });

  it('lets an operator settle a delivery as failed, after which the purchase is due for its refund', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', {
      kind: 'open',
      state: 'unknown',
      provider: 'africastalking',
      nextQueryAt: clock,
      review: true,
      asked: true,
      said: 'could not be asked',
    });
    expect(await underWay()).not.toContain(reference);
    const settled = await ledger.settleReviewedLeg(`${reference}-delivery`, {
      as: 'failed',
      by: 'ops@topup.example',
    });
    expect(settled).toMatchObject({ kind: 'leg_settled', transaction: { state: 'requested' } });
    const [, delivery] = await ledger.legs(reference);
    expect(delivery).toMatchObject({ state: 'failed', reviewedBy: 'ops@topup.example' });
    expect(await underWay()).toContain(reference);
  });

  it('keeps another leg’s contradiction waiting when an operator’s settlement of one leg ends the purchase', async () => {
    const reference = await refunding();
    await apply(reference, 'refund', result('failed', 'daraja', 'R000002'));
    const late = await apply(reference, 'delivery', result('succeeded', 'africastalking', 'ATQid_2'));
    expect(late.action).toBe('review');

    const settled = await ledger.settleReviewedLeg(`${reference}-refund`, {
      as: 'succeeded',
      by: 'ops@topup.example',
    });
    expect(settled).toMatchObject({ kind: 'resolved', transaction: { state: 'cancelled' } });
    // The operator gave the payer their money back; whether the airtime arrived is still theirs to settle.
    expect(await review(reference, 'refund')).toBeUndefined();
    expect(await review(reference, 'delivery')).toMatchObject({
      reviewReason: 'contradiction',
      reviewedBy: '',
    });
  });

  it('keeps a payment’s contradiction waiting when an operator’s settlement of the delivery completes the purchase', async () => {
    const reference = await paidPurchase();
    await claim(reference, 'delivery', 'africastalking');
    await apply(reference, 'delivery', result('failed', 'africastalking'));
    await apply(reference, 'delivery', result('succeeded', 'africastalking'));
    expect((await apply(reference, 'payment', result('failed', 'daraja', '1032'))).action).toBe('review');

    const settled = await ledger.settleReviewedLeg(`${reference}-delivery`, {
      as: 'succeeded',
      by: 'ops@topup.example',
    });
    expect(settled).toMatchObject({ kind: 'resolved', transaction: { state: 'completed' } });
    expect(await review(reference, 'delivery')).toBeUndefined();
    expect(await review(reference, 'payment')).toMatchObject({ reviewReason: 'contradiction' });
  });

  it('counts the legs waiting for an operator', async () => {
    const before = await ledger.countLegsForReview();
    const reference = await refunding();
    await apply(reference, 'refund', result('failed', 'daraja', 'R000002'));
    expect(await ledger.countLegsForReview()).toBe(before + 1);
  });

  it('lists each purchase under way with the legs the ledger reads for it alone', async () => {
    const paid = await paidPurchase();
    const failedDelivery = await paidPurchase();
    await claim(failedDelivery, 'delivery', 'africastalking');
    await apply(failedDelivery, 'delivery', result('failed', 'africastalking', 'ATQid_9'));
    const refund = await refunding();
    clock = new Date(clock.getTime() + 1_000);
    const listed = await ledger.purchasesUnderWay(1_000);
    const statesOf = new Map(
      listed.map(({ transaction, legs: listedLegs }) => [
        transaction.reference,
        listedLegs.map((leg) => `${leg.kind}:${leg.state}`),
      ]),
    );
    expect([paid, failedDelivery, refund].map((reference) => statesOf.get(reference))).toEqual([
      ['payment:succeeded'],
      ['payment:succeeded', 'delivery:failed'],
      ['payment:succeeded', 'delivery:failed', 'refund:submitted'],
    ]);
    for (const { transaction, legs: listedLegs } of listed) {
      expect(listedLegs).toEqual(await ledger.legs(transaction.reference));
    }
  });
});
