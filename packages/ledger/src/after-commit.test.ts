import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from './ledger.js';
import type { Store } from './store.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('what happens after a commit, on %s', (kind) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('answers each caller of a committed batch even when the onBatch observer throws', async () => {
    const ledger = createLedger(test.store, {
      onBatch: () => {
        throw new Error('metrics are broken');
      },
    });
    const account = await ledger.createAccount({ name: 'Duka Supplies' });
    await ledger.fund(account.id, 'float', 100_000n);
    const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() });
    expect(outcome.kind).toBe('created');
    expect((await ledger.balance(account.id, 'float')).pendingMinor).toBe(10_000n);
    await ledger.close();
  });

  it('reports a committed resolution as resolved even when waking the workers fails', async () => {
    const failingNotify: Store = {
      ...test.store,
      notify: () => Promise.reject(new Error('the listener connection is gone')),
    };
    const ledger = createLedger(failingNotify);
    const account = await ledger.createAccount({ name: 'Duka Supplies' });
    await ledger.fund(account.id, 'float', 100_000n);
    await ledger.addCallbackEndpoint(account.id, { url: 'https://caller.example/cb', format: 'json' });
    const first = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() });
    const second = await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() });
    if (first.kind !== 'created' || second.kind !== 'created') throw new Error('Expected two transactions.');

    const [completed, cancelled] = await Promise.all([
      ledger.complete(first.transaction.reference, { providerCode: 'P1' }),
      ledger.cancel(second.transaction.reference, { reason: 'declined' }),
    ]);
    expect(completed).toMatchObject({ kind: 'resolved', transaction: { state: 'completed' } });
    expect(cancelled).toMatchObject({ kind: 'resolved', transaction: { state: 'cancelled' } });
    expect(await ledger.listDeliveries(account.id, { reference: first.transaction.reference })).toHaveLength(
      1,
    );
    await ledger.close();
  });
});

describe.each(testStoreKinds())('text the ledger refuses, on %s', (kind) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('refuses a request whose text XML cannot carry, alone, and serves the requests batched with it', async () => {
    const ledger = createLedger(test.store);
    const account = await ledger.createAccount({ name: 'Duka Supplies' });
    await ledger.fund(account.id, 'float', 100_000n);
    const results = await Promise.allSettled([
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ name: 'A\u0000B' }) }),
      ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ payment_name: 'x\u0001' }) }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ note: 'lone \uD800' }) }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(results[1]).toMatchObject({
      reason: {
        code: 'invalid_input',
        message: 'Expected recipient name without characters XML cannot carry, received one with U+0000.',
      },
    });
    expect(results[2]).toMatchObject({
      reason: { message: expect.stringContaining('payment name') as string },
    });
    expect(results[3]).toMatchObject({ reason: { message: expect.stringContaining('U+D800') as string } });
    expect((await ledger.balance(account.id, 'float')).pendingMinor).toBe(20_000n);
    await ledger.close();
  });

  it('refuses an account profile or a callback endpoint description XML cannot carry', async () => {
    const ledger = createLedger(test.store);
    await expect(ledger.createAccount({ name: 'Duka\u0007 Supplies' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'Expected account name without characters XML cannot carry, received one with U+0007.',
    });
    await expect(ledger.createAccount({ name: 'Duka', email: 'a\uFFFE@b.example' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const account = await ledger.createAccount({ name: 'Duka' });
    await expect(
      ledger.addCallbackEndpoint(account.id, {
        url: 'https://caller.example/cb',
        format: 'xml',
        description: 'prod\u001b',
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await ledger.listCallbackEndpoints(account.id)).toEqual([]);
    await ledger.close();
  });
});
