import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import { NOT_DELIVERED_REFUNDED } from './purchase-chain-legs.js';
import { airtimeRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('a purchase carried by two providers on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock: Date;
  let accountId: string;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });
  beforeEach(async () => {
    clock = new Date('2026-11-24T10:00:00.000Z');
    accountId = (await ledger.createAccount({ name: 'Chains Ltd' })).id;
  });

  const paidPurchase = async () => {
    const reference = referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() }));
    await ledger.markSubmitted(reference);
    await ledger.noteLeg(reference, {
      kind: 'payment',
      state: 'succeeded',
      provider: 'daraja',
      providerReference: 'NLJ7RT61SV',
    });
    return reference;
  };
  const underWay = async () =>
    (await ledger.purchasesUnderWay(1_000)).map(({ transaction }) => transaction.reference);
  const legs = async (reference: string) =>
    (await ledger.legs(reference)).map(
      (leg) => `${leg.kind}:${leg.state}:${leg.provider}:${leg.providerReference}`,
    );

  it('is under way once paid, and never offered to the timeout, which must not cancel a paid purchase', async () => {
    const reference = await paidPurchase();
    expect(await underWay()).toContain(reference);
    clock = new Date(clock.getTime() + 3_600_000);
    const expired = await ledger.listExpired(clock, 1_000);
    expect(expired.map((transaction) => transaction.reference)).not.toContain(reference);
  });

  it('waits while its delivery is with the carrier, and is due again when the carrier is to be asked', async () => {
    const reference = await paidPurchase();
    await ledger.noteLeg(reference, {
      kind: 'delivery',
      state: 'submitted',
      provider: 'africastalking',
      nextQueryAt: new Date(clock.getTime() + 60_000),
    });
    expect(await underWay()).not.toContain(reference);
    clock = new Date(clock.getTime() + 60_000);
    expect(await underWay()).toContain(reference);
  });

  it('completes with the payment’s receipt kept on its leg and the carrier’s id on the delivery', async () => {
    const reference = await paidPurchase();
    await ledger.noteLeg(reference, { kind: 'delivery', state: 'submitted', provider: 'africastalking' });
    const completed = await ledger.complete(reference, {
      providerCode: 'ATQid_1',
      provider: 'africastalking',
    });
    expect(completed.kind).toBe('resolved');
    expect(await legs(reference)).toEqual([
      'payment:succeeded:daraja:NLJ7RT61SV',
      'delivery:succeeded:africastalking:ATQid_1',
    ]);
    expect(await underWay()).not.toContain(reference);
  });

  it('is due for a refund once its delivery failed, and only one worker claims the refund', async () => {
    const reference = await paidPurchase();
    await ledger.noteLeg(reference, {
      kind: 'delivery',
      state: 'failed',
      provider: 'africastalking',
      providerReference: 'ATQid_2',
    });
    expect(await underWay()).toContain(reference);
    const claim = {
      kind: 'refund',
      state: 'unknown',
      provider: 'daraja',
      nextQueryAt: new Date(clock.getTime() + 60_000),
      onlyIfAbsent: true,
    } as const;
    const claims = await Promise.all([ledger.noteLeg(reference, claim), ledger.noteLeg(reference, claim)]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await underWay()).not.toContain(reference);

    const refunded = await ledger.cancel(reference, {
      reason: NOT_DELIVERED_REFUNDED,
      providerCode: 'NLJ7RT62XY',
      provider: 'daraja',
      paymentCollected: true,
    });
    expect(refunded.kind).toBe('resolved');
    expect(await legs(reference)).toEqual([
      'payment:succeeded:daraja:NLJ7RT61SV',
      'delivery:failed:africastalking:ATQid_2',
      'refund:succeeded:daraja:NLJ7RT62XY',
    ]);
    const report = await ledger.verify();
    expect(report.ok).toBe(true);
  });

  it('keeps an ended leg’s end: a late or repeated note changes nothing', async () => {
    const reference = await paidPurchase();
    await ledger.noteLeg(reference, { kind: 'delivery', state: 'failed', provider: 'africastalking' });
    const again = await ledger.noteLeg(reference, {
      kind: 'delivery',
      state: 'pending',
      provider: 'africastalking',
    });
    expect(again).toBe(false);
    expect(await legs(reference)).toContain('delivery:failed:africastalking:');
  });

  it('takes a payment’s receipt from a late callback when the payment was first learned without one', async () => {
    const reference = referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() }));
    const paid = { kind: 'payment', state: 'succeeded', provider: 'daraja' } as const;
    expect(await ledger.noteLeg(reference, paid)).toBe(true);
    expect(await ledger.noteLeg(reference, { ...paid, providerReference: 'NLJ7RT61SV' })).toBe(true);
    expect(await ledger.noteLeg(reference, { ...paid, providerReference: 'OTHER' })).toBe(false);
    expect(await legs(reference)).toEqual(['payment:succeeded:daraja:NLJ7RT61SV']);
  });

  it('lets an operator settle a refund only as succeeded, cancelling the purchase with the payment given back', async () => {
    const reference = await paidPurchase();
    await ledger.noteLeg(reference, { kind: 'delivery', state: 'failed', provider: 'africastalking' });
    await ledger.noteLeg(reference, { kind: 'refund', state: 'failed', provider: 'daraja', review: true });
    expect(await underWay()).not.toContain(reference);
    expect((await ledger.legsForReview()).map((leg) => leg.id)).toContain(`${reference}-refund`);

    await expect(
      ledger.settleReviewedLeg(`${reference}-refund`, { as: 'failed', by: 'ops@topup.example' }),
    ).rejects.toThrow(/refund leg to be settled as succeeded/);
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
    await ledger.noteLeg(reference, {
      kind: 'delivery',
      state: 'unknown',
      provider: 'africastalking',
      nextQueryAt: clock,
      review: true,
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
});
