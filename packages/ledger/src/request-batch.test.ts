import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome } from './outcomes.js';
import type { Queryable } from './store.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import { watchedStore, type WatchedStatement } from './testing/watched-store.js';

async function rowCounts(db: Queryable) {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM transfers) AS transfers,
            (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT count(*) FROM contacts) AS contacts,
            (SELECT sum(debits_pending) FROM ledger_accounts) AS pending`,
  );
  return rows[0];
}

async function ledgerState(db: Queryable) {
  const { rows: balances } = await db.query(
    `SELECT id, debits_posted, credits_posted, debits_pending, credits_pending FROM ledger_accounts ORDER BY id`,
  );
  const { rows: keys } = await db.query(
    'SELECT account_id, key, reference FROM idempotency_keys ORDER BY 1, 2',
  );
  return { counts: await rowCounts(db), balances, keys };
}

/**
 * One batch that reaches every write of a flush: a keyed float request that names its recipient (key
 * claim, transaction, transfer, balances, contact), a keyed one too large to pay (key release) and an
 * airtime purchase that names its payer.
 */
function everyWriteBatch(ledger: Ledger, accountId: string, round: string): Promise<RequestOutcome>[] {
  return [
    ledger.requestAgentFloat({
      accountId,
      request: floatRequest({ name: 'Recipient', email: 'recipient@example.com' }),
      idempotency: { key: `fits-${round}`, requestHash: 'h' },
    }),
    ledger.requestAgentFloat({
      accountId,
      request: floatRequest({ amount: 100_000 }),
      idempotency: { key: `too-large-${round}`, requestHash: 'h' },
    }),
    ledger.requestAirtime({ accountId, request: airtimeRequest({ payment_name: `Payer ${round}` }) }),
  ];
}

/** The writes of a statement, its data-modifying CTEs included, as "INSERT INTO table" and the like. */
function writesOf(statement: WatchedStatement): string[] {
  const writes = statement.sql.matchAll(/(?<!DO )\b(INSERT INTO|UPDATE|DELETE FROM) (\w+)/g);
  return [...writes].map((write) => `${write[1] ?? ''} ${write[2] ?? ''}`);
}

/** The ledger account ids a statement's balance UPDATE (alone or as a CTE) touches, if it has one. */
function balanceUpdateIds(statement: WatchedStatement): string[] | undefined {
  const update = /UPDATE ledger_accounts AS a SET[\s\S]*?unnest\(\$(\d+)::bigint\[\]/.exec(statement.sql);
  return update === null ? undefined : (statement.params[Number(update[1]) - 1] as string[]);
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

  it('rolls back a batch that fails at any statement, before or after it runs, rejecting every caller', async () => {
    const setup = createLedger(test.store);
    const account = await setup.createAccount({ name: 'Fault Injection Ltd' });
    await setup.fund(account.id, 'float', 1_000_000n);

    // A healthy run of the same batch shape, to learn the flush's statements.
    const seen: WatchedStatement[] = [];
    const counted = createLedger(watchedStore(test.store, { after: (statement) => seen.push(statement) }), {
      batch: { maxWaitMs: 50, maxSize: 100 },
    });
    const healthy = await Promise.all(everyWriteBatch(counted, account.id, 'healthy'));
    await counted.close();
    expect(healthy.map((outcome) => outcome.kind)).toEqual(['created', 'insufficient_balance', 'created']);
    expect(new Set(seen.map((statement) => statement.transaction))).toEqual(new Set([1]));
    expect(seen.flatMap(writesOf).sort()).toEqual([
      'DELETE FROM idempotency_keys',
      'INSERT INTO contacts',
      'INSERT INTO idempotency_keys',
      'INSERT INTO transactions',
      'INSERT INTO transfers',
      'UPDATE ledger_accounts',
    ]);
    const statementCount = seen.length;

    for (const phase of ['before', 'after'] as const) {
      for (let failAt = 1; failAt <= statementCount; failAt += 1) {
        const before = await ledgerState(test.store);
        const failure = new Error(`injected fault ${phase} statement ${failAt}`);
        const transactions = new Set<number>();
        const fail = (statement: WatchedStatement) => {
          transactions.add(statement.transaction);
          if (statement.index === failAt) throw failure;
        };
        const faulty = createLedger(watchedStore(test.store, { [phase]: fail }), {
          batch: { maxWaitMs: 50, maxSize: 100 },
        });
        const settled = await Promise.allSettled(everyWriteBatch(faulty, account.id, `${phase}-${failAt}`));
        await faulty.close();
        expect(settled).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: failure })));
        expect(transactions).toEqual(new Set([1]));
        expect(await ledgerState(test.store)).toEqual(before);
      }
    }
    expect((await setup.verify()).breaches).toEqual([]);

    // Nothing the failed batches touched is left held: their keys go through now.
    const retried = await Promise.all(everyWriteBatch(setup, account.id, `after-${statementCount}`));
    expect(retried.map((outcome) => outcome.kind)).toEqual(['created', 'insufficient_balance', 'created']);
    await setup.close();
  });

  it('updates each ledger account row once per batch, in a fixed number of statements whatever its size', async () => {
    const setup = createLedger(test.store);
    const [one, two] = [
      await setup.createAccount({ name: 'Once A' }),
      await setup.createAccount({ name: 'Once B' }),
    ];
    await setup.fund(one.id, 'float', 1_000_000n);
    await setup.fund(two.id, 'float', 1_000_000n);
    const { rows } = await test.store.query<{ id: string }>(
      `SELECT id FROM ledger_accounts WHERE channel = 'float' AND account_id = ANY($1::text[])`,
      [[one.id, two.id]],
    );
    const network = '2'; // system:network:MoneyNetA, the network of every request below
    const touched = [network, ...rows.map((row) => row.id)].sort();

    const seen: WatchedStatement[] = [];
    const ledger = createLedger(watchedStore(test.store, { after: (statement) => seen.push(statement) }), {
      batch: { maxWaitMs: 50, maxSize: 100 },
    });
    const statementsPerTransaction = () => {
      const counts = new Map<number, number>();
      for (const { transaction } of seen) counts.set(transaction, (counts.get(transaction) ?? 0) + 1);
      return [...counts.values()];
    };
    const balanceUpdates = () =>
      seen.flatMap((statement) => {
        const ids = balanceUpdateIds(statement);
        return ids === undefined ? [] : [{ transaction: statement.transaction, ids: [...ids].sort() }];
      });

    const small = await Promise.all(
      [one, two].map((caller) => ledger.requestAgentFloat({ accountId: caller.id, request: floatRequest() })),
    );
    const large = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        ledger.requestAgentFloat({ accountId: (index % 2 === 0 ? one : two).id, request: floatRequest() }),
      ),
    );
    expect([...small, ...large].every((outcome) => outcome.kind === 'created')).toBe(true);
    expect(statementsPerTransaction()).toHaveLength(2);
    const [smallStatements, largeStatements] = statementsPerTransaction();
    expect(largeStatements).toBe(smallStatements);
    expect(balanceUpdates()).toEqual([
      { transaction: 1, ids: touched },
      { transaction: 2, ids: touched },
    ]);

    seen.length = 0;
    const references = large.flatMap((outcome) =>
      outcome.kind === 'created' ? [outcome.transaction.reference] : [],
    );
    const resolved = await Promise.all(
      references.map((reference, index) =>
        index % 2 === 0
          ? ledger.complete(reference, { providerCode: 'P' })
          : ledger.cancel(reference, { reason: 'refused' }),
      ),
    );
    expect(resolved.every((outcome) => outcome.kind === 'resolved')).toBe(true);
    expect(balanceUpdates()).toEqual([{ transaction: 3, ids: touched }]);
    await ledger.close();
    await setup.close();
    expect((await setup.verify()).breaches).toEqual([]);
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
