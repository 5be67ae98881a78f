import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger } from './ledger.js';
import type { Queryable } from './store.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

async function rowCounts(db: Queryable) {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM transfers) AS transfers,
            (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT count(*) FROM contacts) AS contacts,
            (SELECT sum(debits_pending) FROM ledger_accounts) AS pending`,
  );
  return rows[0];
}

describe.each(testStoreKinds())('group commit on %s', (kind) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('applies concurrent requests in few batches, each caller getting its own answer', async () => {
    const sizes: number[] = [];
    const ledger = createLedger(test.store, {
      batch: { maxWaitMs: 5, maxSize: 50 },
      onBatch: (size) => sizes.push(size),
    });
    const rich = await ledger.createAccount({ name: 'Rich' });
    const poor = await ledger.createAccount({ name: 'Poor' });
    await ledger.fund(rich.id, 'float', 1_000_000n);
    const outcomes = await Promise.all(
      Array.from({ length: 120 }, (_, index) =>
        index % 3 === 0
          ? ledger.requestAgentFloat({ accountId: poor.id, request: floatRequest() })
          : index % 3 === 1
            ? ledger.requestAgentFloat({ accountId: rich.id, request: floatRequest() })
            : ledger.requestAirtime({ accountId: poor.id, request: airtimeRequest() }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(
      Array.from({ length: 120 }, (_, index) => (index % 3 === 0 ? 'insufficient_balance' : 'created')),
    );
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(120);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(sizes.length).toBeLessThan(10);
    await expect(ledger.balance(rich.id, 'float')).resolves.toMatchObject({ availableMinor: 600_000n });
    await ledger.close();
  });

  it('decides requests in arrival order against a running balance', async () => {
    const ledger = createLedger(test.store, { batch: { maxWaitMs: 5, maxSize: 100 } });
    const account = await ledger.createAccount({ name: 'Ordered' });
    await ledger.fund(account.id, 'float', 25_000n);
    const outcomes = await Promise.all(
      [100, 200, 150, 50, 100].map((amount) =>
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ amount }) }),
      ),
    );
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'created',
      'insufficient_balance',
      'created',
      'insufficient_balance',
      'insufficient_balance',
    ]);
    expect(
      outcomes.map((outcome) => ('channel' in outcome ? outcome.channel.availableMinor : undefined)),
    ).toEqual([15_000n, 15_000n, 0n, 0n, 0n]);
    await ledger.close();
  });

  it('rolls back a batch that fails before commit, writing nothing and rejecting every caller', async () => {
    const setup = createLedger(test.store);
    const account = await setup.createAccount({ name: 'Crash Test' });
    await setup.fund(account.id, 'float', 1_000_000n);
    await setup.close();
    const before = await rowCounts(test.store);
    const failure = new Error('power cut before commit');
    const ledger = createLedger(test.store, {
      batch: { maxWaitMs: 5, maxSize: 100 },
      faultInjection: {
        beforeCommit: () => {
          throw failure;
        },
      },
    });
    const settled = await Promise.allSettled([
      ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ name: 'Someone' }),
        idempotency: { key: 'crash', requestHash: 'h' },
      }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ amount: 100_000 }) }),
      ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ payment_name: 'Payer' }) }),
    ]);
    expect(settled).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: failure })));
    expect(await rowCounts(test.store)).toEqual(before);
    await expect(setup.balance(account.id, 'float')).resolves.toMatchObject({ availableMinor: 1_000_000n });
    await ledger.close();

    const healthy = createLedger(test.store);
    await expect(
      healthy.requestAgentFloat({
        accountId: account.id,
        request: floatRequest(),
        idempotency: { key: 'crash', requestHash: 'h' },
      }),
    ).resolves.toMatchObject({ kind: 'created' });
    expect((await healthy.verify()).breaches).toEqual([]);
    await healthy.close();
  });

  it('flushes queued requests when closed and refuses new ones after', async () => {
    const ledger = createLedger(test.store, { batch: { maxWaitMs: 60_000, maxSize: 1_000 } });
    const account = await ledger.createAccount({ name: 'Closing' });
    const pending = ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() });
    await ledger.close();
    await expect(pending).resolves.toMatchObject({ kind: 'created' });
    await expect(
      ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
    ).rejects.toMatchObject({
      code: 'ledger_closed',
    });
  });
});
