import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import { floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('resolutions that come too late, on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  const clock = new Date('2025-11-21T11:05:09.000Z');
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
  });
  afterAll(async () => {
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
    await test.dispose();
  });

  async function requestedFloat(): Promise<{ accountId: string; reference: string }> {
    const account = await ledger.createAccount({ name: 'Duka Supplies' });
    await ledger.fund(account.id, 'float', 100_000n);
    const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() });
    if (outcome.kind !== 'created')
      throw new Error(`Expected a created transaction, received ${outcome.kind}.`);
    return { accountId: account.id, reference: outcome.transaction.reference };
  }

  it('keeps a completion that arrives after a cancellation, without applying it', async () => {
    const { accountId, reference } = await requestedFloat();
    await ledger.cancel(reference, { reason: 'no result from the provider within the timeout' });
    const late = await ledger.complete(reference, { providerCode: 'LATE-1' });

    expect(late).toMatchObject({ kind: 'already_resolved', transaction: { state: 'cancelled' } });
    expect(await ledger.listUnappliedResolutions({ reference })).toEqual([
      {
        reference,
        asked: 'completed',
        state: 'cancelled',
        providerCode: 'LATE-1',
        reason: '',
        receivedAt: clock,
      },
    ]);
    expect(await ledger.balance(accountId, 'float')).toMatchObject({
      availableMinor: 100_000n,
      pendingMinor: 0n,
    });
  });

  it('keeps the second of a completion and a cancellation resolved in one batch', async () => {
    const { reference } = await requestedFloat();
    const [completed, cancelled] = await Promise.all([
      ledger.complete(reference, { providerCode: 'P-2' }),
      ledger.cancel(reference, { reason: 'declined', providerCode: 'P-3' }),
    ]);
    expect(completed.kind).toBe('resolved');
    expect(cancelled.kind).toBe('already_resolved');
    expect(await ledger.listUnappliedResolutions({ reference })).toMatchObject([
      { asked: 'cancelled', state: 'completed', providerCode: 'P-3', reason: 'declined' },
    ]);
  });

  it('keeps nothing for a repeat of the outcome the transaction already has', async () => {
    const { reference } = await requestedFloat();
    await ledger.complete(reference, { providerCode: 'P-4' });
    expect(await ledger.complete(reference, { providerCode: 'P-4' })).toMatchObject({
      kind: 'already_resolved',
    });
    expect(await ledger.listUnappliedResolutions({ reference })).toEqual([]);
  });

  it('keeps nothing for a timeout’s cancellation that a result beat, since the result is the truth', async () => {
    const { accountId, reference } = await requestedFloat();
    await ledger.complete(reference, { providerCode: 'P-5' });
    const timedOut = await ledger.cancel(reference, {
      reason: 'no result from the provider within the timeout',
      timedOut: true,
    });
    expect(timedOut).toMatchObject({ kind: 'already_resolved', transaction: { state: 'completed' } });
    expect(await ledger.listUnappliedResolutions({ reference })).toEqual([]);
    expect((await ledger.balance(accountId, 'float')).pendingMinor).toBe(0n);
  });

  it('lists every transaction’s unapplied resolutions, newest first, within the limit', async () => {
    const all = await ledger.listUnappliedResolutions({});
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(await ledger.listUnappliedResolutions({ limit: 1 })).toHaveLength(1);
  });
});
