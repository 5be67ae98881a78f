// `listTransactions`: every page walk shows each of the caller's transactions once, newest first, whatever
// the page sizes; each filter keeps exactly what it names; and nothing of another caller's ever shows.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransactionCursor } from '@topup/validation';
import type { Account } from './accounts.js';
import { createLedger, type Ledger } from './ledger.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { sendRequest, sentTransactions } from './testing/sends.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { TransactionFilter } from './transaction-listing.js';
import type { TransactionRecord } from './transaction-record.js';

/** Newest first: by creation time, then by reference, both descending. */
function newestFirst(a: TransactionRecord, b: TransactionRecord): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.reference < b.reference ? 1 : -1);
}

describe.each(testStoreKinds())('listing a caller’s transactions on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  // Nairobi is UTC+3: 20:59:59Z is 23:59:59 on the 21st there, 21:00:00Z midnight on the 22nd.
  let clock = new Date('2025-11-21T20:59:00.000Z');
  let caller: Account;
  let other: Account;
  let all: TransactionRecord[];
  let keyedSend: string[];
  let keyedFloat: string;
  let otherReference: string;

  async function transactionsOf(accountId: string): Promise<TransactionRecord[]> {
    const { transactions } = await ledger.listTransactions(accountId, { limit: 100 });
    return transactions;
  }

  /** Every page of a filter, with the page sizes given in turn (the last repeated). */
  async function walk(accountId: string, filter: TransactionFilter, sizes: readonly number[] = [100]) {
    const pages: TransactionRecord[][] = [];
    let cursor = filter.cursor;
    do {
      const limit = sizes[Math.min(pages.length, sizes.length - 1)] ?? 100;
      const page = await ledger.listTransactions(accountId, { ...filter, limit, cursor });
      pages.push(page.transactions);
      cursor = page.nextCursor === '' ? undefined : page.nextCursor;
      expect(pages.length).toBeLessThan(1000);
    } while (cursor !== undefined);
    return pages;
  }

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
    caller = await ledger.createAccount({ name: 'Duka Supplies', mobile: '254722000001' });
    other = await ledger.createAccount({ name: 'Other Holdings', mobile: '254722000002' });
    for (const account of [caller, other]) {
      await ledger.fund(account.id, 'float', 100_000_000n);
      await ledger.fund(account.id, 'airtime', 100_000_000n);
    }
    // Groups of transactions made at one instant, so the reference decides their order within it.
    for (let step = 0; step < 12; step += 1) {
      clock = new Date(clock.getTime() + 15_000);
      await Promise.all([
        ledger.requestAgentFloat({
          accountId: caller.id,
          request: floatRequest({ mobile: `2547120000${String(step).padStart(2, '0')}` }),
        }),
        ledger.requestAirtime({
          accountId: caller.id,
          // Step 7's payer buys for themself: one transaction on both sides of a mobile.
          request: airtimeRequest({
            payment_mobile: step % 2 === 0 ? '254711222333' : '254711222444',
            ...(step === 7 ? { mobile: '254711222444' } : {}),
          }),
        }),
        ledger.requestAgentFloat({ accountId: caller.id, request: floatRequest() }),
      ]).then(async (outcomes) => {
        const [float, airtime] = outcomes.map(referenceOf);
        if (step % 3 === 0) await ledger.complete(float ?? '', { providerCode: 'OK' });
        if (step % 4 === 1) await ledger.cancel(airtime ?? '', { reason: 'declined' });
      });
    }
    const sent = await ledger.sendAirtime({
      accountId: caller.id,
      request: sendRequest([10, 20, 30]),
      idempotency: { key: 'payroll-2025-11', requestHash: 'send' },
    });
    keyedSend = sentTransactions(sent).map((record) => record.reference);
    keyedFloat = referenceOf(
      await ledger.requestAgentFloat({
        accountId: caller.id,
        request: floatRequest({ amount: 250 }),
        idempotency: { key: 'order-1042', requestHash: 'float' },
      }),
    );
    otherReference = referenceOf(
      await ledger.requestAgentFloat({
        accountId: other.id,
        request: floatRequest(),
        idempotency: { key: 'order-1042', requestHash: 'other' },
      }),
    );
    all = [];
    for (const page of await walk(caller.id, {})) all.push(...page);
  });

  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  it('walks every transaction exactly once, newest first, whatever the page sizes', async () => {
    const { rows } = await test.store.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transactions WHERE account_id = $1',
      [caller.id],
    );
    expect(all).toHaveLength(rows[0]?.n ?? -1);
    expect(all.map((record) => record.reference)).toEqual(
      [...all].sort(newestFirst).map((record) => record.reference),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
        async (sizes) => {
          const pages = await walk(caller.id, {}, sizes);
          expect(pages.flat().map((record) => record.reference)).toEqual(
            all.map((record) => record.reference),
          );
          // Only the last page may be short, and it is never empty unless the list is.
          for (const [index, page] of pages.slice(0, -1).entries()) {
            expect(page).toHaveLength(sizes[Math.min(index, sizes.length - 1)] ?? 0);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('shows each transaction as getTransaction does', async () => {
    for (const record of all) {
      expect(record).toEqual(await ledger.getTransaction(caller.id, record.reference));
    }
  });

  it('keeps only the type, the state, or both, that the filter names', async () => {
    const cases: TransactionFilter[] = [
      { type: 'Airtime' },
      { type: 'Agent Float' },
      { state: 'completed' },
      { state: 'cancelled' },
      { type: 'Agent Float', state: 'requested' },
    ];
    for (const filter of cases) {
      const expected = all.filter(
        (record) =>
          (filter.type === undefined || record.type === filter.type) &&
          (filter.state === undefined || record.state === filter.state),
      );
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect((await walk(caller.id, filter, [5])).flat(), JSON.stringify(filter)).toEqual(expected);
    }
  });

  it('keeps what was created at or after from and before to, reading a bound without an offset in Nairobi time', async () => {
    // The first transactions were made at 20:59:15Z, 20:59:30Z and 20:59:45Z (the 21st in Nairobi), the next
    // at 21:00:00Z (the 22nd in Nairobi).
    const before = all.filter((record) => record.createdAt < new Date('2025-11-21T21:00:00Z'));
    const after = all.filter((record) => record.createdAt >= new Date('2025-11-21T21:00:00Z'));
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect((await walk(caller.id, { to: '2025-11-22' })).flat()).toEqual(before);
    expect((await walk(caller.id, { from: '2025-11-22' })).flat()).toEqual(after);
    expect((await walk(caller.id, { from: '2025-11-21T21:00:00Z' })).flat()).toEqual(after);
    expect((await walk(caller.id, { to: '2025-11-22T00:00:00+03:00' })).flat()).toEqual(before);
    const window = all.filter(
      (record) =>
        record.createdAt >= new Date('2025-11-21T20:59:30Z') &&
        record.createdAt < new Date('2025-11-21T21:00:15Z'),
    );
    expect(
      (await walk(caller.id, { from: '2025-11-21 23:59:30', to: '2025-11-22 00:00:15' }, [2])).flat(),
    ).toEqual(window);
  });

  it('finds one transaction by reference, and nothing by another caller’s', async () => {
    const [some] = all;
    expect(
      (await ledger.listTransactions(caller.id, { reference: some?.reference ?? '' })).transactions,
    ).toEqual([some]);
    expect(await ledger.listTransactions(caller.id, { reference: otherReference })).toEqual({
      transactions: [],
      nextCursor: '',
    });
  });

  it('finds what the request sent with an Idempotency-Key made: a float, or every transaction of a send', async () => {
    const byKey = async (idempotencyKey: string, accountId = caller.id) =>
      (await walk(accountId, { idempotencyKey }, [2])).flat().map((record) => record.reference);
    expect(await byKey('order-1042')).toEqual([keyedFloat]);
    expect((await byKey('payroll-2025-11')).sort()).toEqual([...keyedSend].sort());
    expect(await byKey('order-1042', other.id)).toEqual([otherReference]);
    expect(await byKey('never-sent')).toEqual([]);
  });

  it('forgets an Idempotency-Key after its 24 hours, as the key itself is forgotten', async () => {
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 24 * 60 * 60 * 1000 + 60_000);
      expect(
        (await ledger.listTransactions(caller.id, { idempotencyKey: 'order-1042' })).transactions,
      ).toEqual([]);
    } finally {
      clock = saved;
    }
  });

  it('finds transactions by the recipient’s mobile or the payer’s, each once', async () => {
    const byMobile = (mobile: string) =>
      all.filter((record) => record.recipient.mobile === mobile || record.payment?.mobile === mobile);
    for (const mobile of ['254712000003', '254711222444', '254733123456', '254733100001']) {
      expect(byMobile(mobile).length, mobile).toBeGreaterThan(0);
      expect((await walk(caller.id, { mobile }, [3])).flat(), mobile).toEqual(byMobile(mobile));
      expect((await walk(caller.id, { mobile }, [100])).flat(), mobile).toEqual(byMobile(mobile));
    }
    expect((await walk(caller.id, { mobile: '254700000000' })).flat()).toEqual([]);
  });

  it('never shows another caller’s transactions, whatever the filter or cursor', async () => {
    const theirs = (await transactionsOf(other.id)).map((record) => record.reference);
    expect(theirs).toEqual([otherReference]);
    const cursor = encodeTransactionCursor({ createdMicros: '9'.repeat(16), reference: otherReference });
    for (const filter of [{}, { cursor }, { type: 'Agent Float' as const }, { mobile: '254712345678' }]) {
      const shown = (await walk(caller.id, filter)).flat().map((record) => record.reference);
      expect(shown).not.toContain(otherReference);
    }
  });

  it('refuses a malformed cursor, limit or date bound with invalid_input', async () => {
    await expect(ledger.listTransactions(caller.id, { cursor: 'bm90IGEgY3Vyc29y' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    for (const limit of [0, 101, 1.5]) {
      await expect(ledger.listTransactions(caller.id, { limit })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    await expect(ledger.listTransactions(caller.id, { from: '2025-02-30' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});
