import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('the legs of a transaction on %s', (kind) => {
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
    accountId = (await ledger.createAccount({ name: 'Legs Ltd' })).id;
    await ledger.fund(accountId, 'float', 1_000_000n);
  });

  const float = async () =>
    referenceOf(await ledger.requestAgentFloat({ accountId, request: floatRequest() }));
  const airtime = async () =>
    referenceOf(await ledger.requestAirtime({ accountId, request: airtimeRequest() }));
  const states = async (reference: string) =>
    (await ledger.legs(reference)).map((leg) => `${leg.kind}:${leg.state}`);

  it('shows no leg before submission, the first leg submitted after it, and its end with the resolution', async () => {
    const reference = await float();
    await expect(ledger.legs(reference)).resolves.toEqual([]);
    await ledger.markSubmitted(reference);
    await expect(states(reference)).resolves.toEqual(['disbursement:submitted']);
    await ledger.complete(reference, { providerCode: 'MNA-1', provider: 'sandbox' });
    const [leg] = await ledger.legs(reference);
    expect(leg).toMatchObject({
      id: `${reference}-disbursement`,
      provider: 'sandbox',
      state: 'succeeded',
      providerReference: 'MNA-1',
    });
  });

  it('ends an airtime purchase’s legs as its resolution says', async () => {
    const completed = await airtime();
    await ledger.complete(completed, { providerCode: 'C-1' });
    await expect(states(completed)).resolves.toEqual(['payment:succeeded', 'delivery:succeeded']);

    const declined = await airtime();
    await ledger.cancel(declined, { reason: 'payment declined' });
    await expect(states(declined)).resolves.toEqual(['payment:failed']);

    const undelivered = await airtime();
    await ledger.cancel(undelivered, { reason: 'delivery failed after payment', paymentCollected: true });
    await expect(states(undelivered)).resolves.toEqual([
      'payment:succeeded',
      'delivery:failed',
      'refund:succeeded',
    ]);
  });

  it('turns a failed payment into a refunded one when the payment is reported collected late', async () => {
    const reference = await airtime();
    await ledger.cancel(reference, { reason: 'no result from the provider within the timeout' });
    await ledger.cancel(reference, { reason: 'delivery failed after payment', paymentCollected: true });
    await expect(states(reference)).resolves.toEqual([
      'payment:succeeded',
      'delivery:failed',
      'refund:succeeded',
    ]);
  });

  it('leaves a leg out of the expired list until it is to be asked about again', async () => {
    const reference = await float();
    await ledger.markSubmitted(reference);
    clock = new Date(clock.getTime() + 60_000);
    const nextQueryAt = new Date(clock.getTime() + 30_000);
    await expect(
      ledger.noteUnsettledLeg(reference, {
        state: 'pending',
        provider: 'sandbox',
        nextQueryAt,
        review: false,
      }),
    ).resolves.toBe(true);
    const listed = async () => (await ledger.listExpired(clock, 100)).map((record) => record.reference);
    expect(await listed()).not.toContain(reference);
    clock = new Date(nextQueryAt.getTime() + 1);
    expect(await listed()).toContain(reference);
    const [leg] = await ledger.legs(reference);
    expect(leg).toMatchObject({ state: 'pending', queries: 1, nextQueryAt, reviewSince: undefined });
  });

  it('never reopens a leg that has ended', async () => {
    const reference = await float();
    await ledger.complete(reference, { providerCode: 'MNA-2' });
    await expect(
      ledger.noteUnsettledLeg(reference, {
        state: 'unknown',
        provider: 'sandbox',
        nextQueryAt: clock,
        review: true,
      }),
    ).resolves.toBe(false);
    await expect(states(reference)).resolves.toEqual(['disbursement:succeeded']);
  });

  it('lists a leg marked for review until an operator settles it, and records who did', async () => {
    const succeeded = await float();
    const failed = await float();
    for (const reference of [succeeded, failed]) {
      await ledger.noteUnsettledLeg(reference, {
        state: 'unknown',
        provider: 'sandbox',
        nextQueryAt: clock,
        review: true,
      });
    }
    const waiting = (await ledger.legsForReview()).map((leg) => leg.id);
    expect(waiting).toEqual(expect.arrayContaining([`${succeeded}-disbursement`, `${failed}-disbursement`]));
    // Under review, the timeout leaves it alone: nothing is cancelled or refunded automatically.
    expect(
      (await ledger.listExpired(new Date(clock.getTime() + 1), 100)).map((r) => r.reference),
    ).not.toContain(succeeded);

    const before = await ledger.balance(accountId, 'float');
    const done = await ledger.settleReviewedLeg(`${succeeded}-disbursement`, {
      as: 'succeeded',
      by: 'amina',
    });
    expect(done).toMatchObject({ kind: 'resolved', transaction: { state: 'completed' } });
    const refused = await ledger.settleReviewedLeg(`${failed}-disbursement`, { as: 'failed', by: 'amina' });
    expect(refused).toMatchObject({
      kind: 'resolved',
      transaction: { state: 'cancelled', cancelReason: 'the provider did not carry it out' },
    });
    const after = await ledger.balance(accountId, 'float');
    // One float paid out, the other's reservation given back.
    expect(after.postedMinor).toBe(before.postedMinor - before.pendingMinor / 2n);
    expect(after.pendingMinor).toBe(0n);
    const [leg] = await ledger.legs(succeeded);
    expect(leg).toMatchObject({ state: 'succeeded', reviewedBy: 'amina', reviewedAt: clock });
    expect((await ledger.legsForReview()).map((entry) => entry.id)).not.toContain(
      `${succeeded}-disbursement`,
    );
    await expect(ledger.verify()).resolves.toMatchObject({ ok: true });
  });

  it('refuses to settle a leg that does not wait for review, naming it', async () => {
    const reference = await float();
    await expect(
      ledger.settleReviewedLeg(`${reference}-disbursement`, { as: 'failed', by: 'amina' }),
    ).rejects.toMatchObject({ code: 'leg_not_found', message: expect.stringContaining(reference) as string });
    await expect(ledger.settleReviewedLeg('nonsense', { as: 'failed', by: 'amina' })).rejects.toMatchObject({
      code: 'leg_not_found',
    });
    await expect(
      ledger.settleReviewedLeg(`${reference}-disbursement`, { as: 'failed', by: ' ' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
