// Concurrency on real PostgreSQL: a thousand float requests race for an account that can pay for half
// of them, through one ledger and through two and four ledgers on separate pools (processes' worth);
// airtime sends of many recipients race for an Airtime balance far short of their total, each all or
// nothing; completions race cancellations of the same transactions across pools; and requests,
// resolutions and funding run together on overlapping accounts across pools without a deadlock.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome, ResolveOutcome } from './outcomes.js';
import type { TransactionRecord } from './transaction-record.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { sendRequest } from './testing/sends.js';

const requestCount = 1_000;
const requestShillings = 100;
const fundingMinor = 5_000_000n; // KES 50,000.00: exactly 500 requests of KES 100

/** Fires the requests round-robin across the ledgers, sampling the balance until all are answered. */
async function raceFor(ledgers: readonly Ledger[], accountId: string) {
  const samples: bigint[] = [];
  const done = { value: false };
  const sampler = (async () => {
    while (!done.value) {
      samples.push((await (ledgers[0] as Ledger).balance(accountId, 'float')).availableMinor);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const outcomes = await Promise.all(
    Array.from({ length: requestCount }, (_, index) =>
      (ledgers[index % ledgers.length] as Ledger).requestAgentFloat({
        accountId,
        request: floatRequest({ amount: requestShillings }),
      }),
    ),
  );
  done.value = true;
  await sampler;
  return { outcomes, samples };
}

function count(outcomes: readonly RequestOutcome[], kind: RequestOutcome['kind']): number {
  return outcomes.filter((outcome) => outcome.kind === kind).length;
}

describe.each(testStoreKinds())('concurrent float requests through one ledger on %s', (kind) => {
  let test: TestStore;

  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('gives exactly 500 created and 500 insufficient balance, never going below zero', async () => {
    const ledger = createLedger(test.store);
    const account = await ledger.createAccount({ name: 'Hot Account Ltd' });
    await ledger.fund(account.id, 'float', fundingMinor);

    const { outcomes, samples } = await raceFor([ledger], account.id);

    expect(count(outcomes, 'created')).toBe(500);
    expect(count(outcomes, 'insufficient_balance')).toBe(500);
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(0n);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.filter((sample) => sample < 0n)).toEqual([]);
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
  });
});

/** Awaits every operation and fails with the reasons when any was rejected (a deadlock, a timeout). */
async function allFulfilled<T>(operations: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(operations);
  const reasons = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  if (reasons.length > 0) {
    throw new Error(
      `Expected every operation to succeed, ${reasons.length} failed: ${reasons.slice(0, 5).join('; ')}`,
    );
  }
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}

function createdTransaction(outcome: RequestOutcome): TransactionRecord {
  if (outcome.kind !== 'created')
    throw new Error(`Expected a created transaction, received ${outcome.kind}.`);
  return outcome.transaction;
}

describe.skipIf(!testStoreKinds().includes('postgres'))(
  'concurrency across separate pools on PostgreSQL',
  () => {
    let test: TestStore;

    // A schema per test: each test's extra pools are closed as soon as it ends.
    beforeEach(async () => {
      test = await openTestStore('postgres');
    });
    afterEach(async () => {
      await test.dispose();
    });

    async function ledgersOnSeparatePools(count: number): Promise<Ledger[]> {
      const others = await Promise.all(Array.from({ length: count - 1 }, () => test.openSecondStore(4)));
      return [test.store, ...others].map((store) => createLedger(store));
    }

    it.each([2, 4])(
      'gives exactly 500 created and 500 insufficient balance across %i ledgers on separate pools',
      async (pools) => {
        const ledgers = await ledgersOnSeparatePools(pools);
        const [first, last] = [ledgers[0] as Ledger, ledgers[pools - 1] as Ledger];
        const account = await first.createAccount({ name: 'Many Process Traders' });
        await first.fund(account.id, 'float', fundingMinor);

        const { outcomes, samples } = await raceFor(ledgers, account.id);

        expect(count(outcomes, 'created')).toBe(500);
        expect(count(outcomes, 'insufficient_balance')).toBe(500);
        expect((await last.balance(account.id, 'float')).availableMinor).toBe(0n);
        expect(samples.filter((sample) => sample < 0n)).toEqual([]);
        expect((await first.verify()).breaches).toEqual([]);
        await Promise.all(ledgers.map((ledger) => ledger.close()));
      },
    );

    it.each([1, 3])(
      'never overdraws when sends of many recipients race for one Airtime balance through %i ledger(s), each send all or nothing',
      async (pools) => {
        const ledgers = await ledgersOnSeparatePools(pools);
        const first = ledgers[0] as Ledger;
        const account = await first.createAccount({ name: 'Bulk Airtime Ltd' });
        const fundedMinor = 500_000n; // KES 5,000.00, a seventh or so of what the sends ask for
        await first.fund(account.id, 'airtime', fundedMinor);
        const sends = Array.from({ length: 400 }, (_, index) =>
          Array.from({ length: 1 + (index % 5) }, (_, position) => 10 + ((index * 7 + position * 3) % 41)),
        );
        const totalOf = (amounts: readonly number[]) =>
          amounts.reduce((sum, amount) => sum + BigInt(amount) * 100n, 0n);

        const samples: bigint[] = [];
        const done = { value: false };
        const sampler = (async () => {
          while (!done.value) {
            samples.push((await first.balance(account.id, 'airtime')).availableMinor);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })();
        const outcomes = await allFulfilled(
          sends.map((amounts, index) =>
            (ledgers[index % pools] as Ledger).sendAirtime({
              accountId: account.id,
              request: sendRequest(amounts),
            }),
          ),
        );
        done.value = true;
        await sampler;

        const balance = await first.balance(account.id, 'airtime');
        let createdMinor = 0n;
        let createdTransactions = 0;
        const refusedTotals: bigint[] = [];
        for (const [index, outcome] of outcomes.entries()) {
          const amounts = sends[index] as number[];
          if (outcome.kind === 'insufficient_balance') {
            refusedTotals.push(totalOf(amounts));
            continue;
          }
          if (outcome.kind !== 'created')
            throw new Error(`Expected created or refused, received ${outcome.kind}.`);
          expect(outcome.transactions.map((transaction) => transaction.amountMinor)).toEqual(
            amounts.map((amount) => BigInt(amount) * 100n),
          );
          const listed = await first.listSentAirtime(account.id, outcome.transactions[0]?.reference ?? '');
          expect(listed.map((transaction) => transaction.reference)).toEqual(
            outcome.transactions.map((transaction) => transaction.reference),
          );
          createdMinor += totalOf(amounts);
          createdTransactions += amounts.length;
        }
        expect(createdTransactions).toBeGreaterThan(0);
        expect(refusedTotals.length).toBeGreaterThan(0);
        expect(createdMinor).toBeLessThanOrEqual(fundedMinor);
        expect(balance).toMatchObject({
          postedMinor: fundedMinor,
          pendingMinor: createdMinor,
          availableMinor: fundedMinor - createdMinor,
        });
        // The balance only fell during the race, so a send refused then cannot fit in what is left now.
        expect(refusedTotals.filter((total) => total <= balance.availableMinor)).toEqual([]);
        const { rows } = await test.store.query<{ transactions: number; reserved: string | null }>(
          `SELECT count(*)::int AS transactions, sum(amount_minor)::text AS reserved
           FROM transactions WHERE account_id = $1`,
          [account.id],
        );
        expect(rows[0]).toEqual({ transactions: createdTransactions, reserved: createdMinor.toString() });
        expect(samples.filter((sample) => sample < 0n)).toEqual([]);
        expect((await first.verify()).breaches).toEqual([]);
        await Promise.all(ledgers.map((ledger) => ledger.close()));
      },
    );

    it('resolves each transaction exactly once when completions and cancellations race across two pools', async () => {
      const [first, second] = (await ledgersOnSeparatePools(2)) as [Ledger, Ledger];
      const account = await first.createAccount({ name: 'Resolution Race Ltd' });
      await first.fund(account.id, 'float', fundingMinor);
      const transactions = (
        await allFulfilled(
          Array.from({ length: 200 }, (_, index) =>
            (index % 2 === 0 ? first : second).requestAgentFloat({
              accountId: account.id,
              request: floatRequest({ amount: 100 + (index % 7) }),
            }),
          ),
        )
      ).map(createdTransaction);

      // Every transaction is completed and cancelled through each pool at the same moment.
      const attempts = await allFulfilled(
        transactions.map(({ reference }, index) => {
          const [one, other] = index % 2 === 0 ? [first, second] : [second, first];
          return allFulfilled([
            one.complete(reference, { providerCode: 'P-1' }),
            other.cancel(reference, { reason: 'timed out' }),
            other.complete(reference, { providerCode: 'P-2' }),
            one.cancel(reference, { reason: 'provider refused' }),
          ]);
        }),
      );

      let completedMinor = 0n;
      const winningStates = new Set<string>();
      for (const [index, outcomes] of attempts.entries()) {
        const transaction = transactions[index] as TransactionRecord;
        const winners = outcomes.filter((outcome) => outcome.kind === 'resolved');
        expect(winners).toHaveLength(1);
        const state = (winners[0] as Extract<ResolveOutcome, { kind: 'resolved' }>).transaction.state;
        winningStates.add(state);
        for (const outcome of outcomes) {
          expect(outcome).toMatchObject({ transaction: { reference: transaction.reference, state } });
        }
        await expect(second.findTransaction(transaction.reference)).resolves.toMatchObject({ state });
        if (state === 'completed') completedMinor += transaction.amountMinor;
      }
      expect(winningStates).toEqual(new Set(['completed', 'cancelled']));

      const { rows } = await test.store.query<{ resolutions: string; references: string }>(
        `SELECT count(*) AS resolutions, count(DISTINCT reference) AS references FROM transfers
       WHERE kind IN ('post', 'void') AND reference = ANY($1::text[])`,
        [transactions.map((transaction) => transaction.reference)],
      );
      expect(rows[0]).toEqual({ resolutions: '200', references: '200' });
      await expect(first.balance(account.id, 'float')).resolves.toMatchObject({
        postedMinor: fundingMinor - completedMinor,
        pendingMinor: 0n,
      });
      expect((await second.verify()).breaches).toEqual([]);
      await Promise.all([first.close(), second.close()]);
    });

    it('runs requests, resolutions and funding on overlapping accounts across three pools without a deadlock', async () => {
      const ledgers = await ledgersOnSeparatePools(3);
      const on = (index: number) => ledgers[index % ledgers.length] as Ledger;
      const accounts = await Promise.all(
        [0, 1, 2, 3].map((index) => on(0).createAccount({ name: `Overlap ${index}` })),
      );
      const expected = accounts.map(() => ({ floatPosted: 0n, floatPending: 0n, airtime: 0n }));
      const tallyOf = (accountId: string) =>
        expected[accounts.findIndex((account) => account.id === accountId)];
      const fund = async (ledger: Ledger, index: number, channel: 'float' | 'airtime', minor: bigint) => {
        await ledger.fund((accounts[index] as { id: string }).id, channel, minor);
        const tally = expected[index] as (typeof expected)[number];
        if (channel === 'float') tally.floatPosted += minor;
        else tally.airtime += minor;
      };
      await Promise.all(accounts.map((_, index) => fund(on(index), index, 'float', 20_000n)));

      let open: TransactionRecord[] = [];
      for (let round = 0; round < 4; round += 1) {
        const created: TransactionRecord[] = [];
        const request = async (outcome: Promise<RequestOutcome>) => {
          const settled = await outcome;
          if (settled.kind !== 'created') return;
          created.push(settled.transaction);
          const tally = tallyOf(settled.transaction.accountId);
          if (tally !== undefined && settled.transaction.type === 'Agent Float')
            tally.floatPending += settled.transaction.amountMinor;
        };
        const resolve = async (outcome: Promise<ResolveOutcome>) => {
          const settled = await outcome;
          if (settled.kind !== 'resolved' || settled.transaction.type !== 'Agent Float') return;
          const tally = tallyOf(settled.transaction.accountId);
          if (tally === undefined) return;
          tally.floatPending -= settled.transaction.amountMinor;
          if (settled.transaction.state === 'completed') tally.floatPosted -= settled.transaction.amountMinor;
        };
        const operations: Promise<void>[] = [
          ...Array.from({ length: 120 }, (_, index) => {
            const accountId = (accounts[(index * 7 + round) % accounts.length] as { id: string }).id;
            const amount = 1 + (index % 5);
            return request(
              on(index).requestAgentFloat({
                accountId,
                request: floatRequest({ amount, ...(index % 4 === 0 ? { name: `Agent ${index % 3}` } : {}) }),
                ...(index % 6 === 0
                  ? { idempotency: { key: `k-${index % 12}`, requestHash: `${amount}` } }
                  : {}),
              }),
            );
          }),
          ...Array.from({ length: 20 }, (_, index) =>
            request(
              on(index + 1).requestAirtime({
                accountId: (accounts[index % accounts.length] as { id: string }).id,
                request: airtimeRequest({ payment_name: `Payer ${index % 2}` }),
              }),
            ),
          ),
          ...Array.from({ length: 12 }, (_, index) =>
            fund(on(index + 2), index % accounts.length, index % 3 === 0 ? 'airtime' : 'float', 5_000n),
          ),
          ...open.flatMap(({ reference }, index) => [
            resolve(
              index % 2 === 0
                ? on(index).complete(reference, { providerCode: 'P' })
                : on(index).cancel(reference, { reason: 'refused' }),
            ),
            resolve(on(index + 1).cancel(reference, { reason: 'timed out' })),
          ]),
        ];
        await allFulfilled(operations);
        expect(created.length).toBeGreaterThan(0);
        open = created;
      }

      for (const [index, account] of accounts.entries()) {
        const tally = expected[index] as (typeof expected)[number];
        await expect(on(index).balance(account.id, 'float')).resolves.toMatchObject({
          postedMinor: tally.floatPosted,
          pendingMinor: tally.floatPending,
        });
        await expect(on(index).balance(account.id, 'airtime')).resolves.toMatchObject({
          availableMinor: tally.airtime,
        });
      }
      expect((await on(0).verify()).breaches).toEqual([]);
      await Promise.all(ledgers.map((ledger) => ledger.close()));
    });
  },
);
