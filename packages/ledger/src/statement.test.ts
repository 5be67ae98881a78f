// `listStatement`: a channel's postings are exactly its posted transfers, newest first, each once whatever
// the page sizes; the balances chain from nothing to the posted balance now; a date bound or a cursor only
// chooses rows, never changes their balances; and another caller's postings never show.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeStatementCursor } from '@topup/validation';
import type { Account } from './accounts.js';
import { createLedger, type Ledger } from './ledger.js';
import type { ChannelName } from './ledger-accounts.js';
import type { Posting, StatementFilter } from './statement.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { sendRequest, sentTransactions } from './testing/sends.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('a channel’s statement on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock = new Date('2025-11-21T08:00:00.000Z');
  let caller: Account;
  let other: Account;

  /** Every page of a channel's statement, with the page sizes given in turn (the last repeated). */
  async function walk(
    channel: ChannelName,
    filter: StatementFilter = {},
    sizes: readonly number[] = [100],
    accountId = caller.id,
  ): Promise<Posting[][]> {
    const pages: Posting[][] = [];
    let cursor = filter.cursor;
    do {
      const limit = sizes[Math.min(pages.length, sizes.length - 1)] ?? 100;
      const page = await ledger.listStatement(accountId, channel, { ...filter, limit, cursor });
      pages.push(page.postings);
      cursor = page.nextCursor === '' ? undefined : page.nextCursor;
      expect(pages.length).toBeLessThan(1000);
    } while (cursor !== undefined);
    return pages;
  }

  /** The posted transfers on the caller's channel, newest first, as `id purpose signed-amount`. */
  async function postedTransfers(channel: ChannelName): Promise<string[]> {
    const { rows } = await test.store.query<{ line: string }>(
      `SELECT t.id || ' ' || t.purpose || ' ' || CASE WHEN t.debit_account_id = a.id THEN -t.amount ELSE t.amount END
         AS line
       FROM transfers t JOIN ledger_accounts a ON a.id IN (t.debit_account_id, t.credit_account_id)
       WHERE a.account_id = $1 AND a.channel = $2 AND t.kind IN ('single', 'post')
       ORDER BY t.id DESC`,
      [caller.id, channel],
    );
    return rows.map((row) => row.line);
  }

  const line = (posting: Posting) => `${posting.id} ${posting.purpose} ${posting.amountMinor}`;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock, commissionBasisPoints: { CarrierC: 250 } });
    caller = await ledger.createAccount({ name: 'Duka Supplies', mobile: '254722000001' });
    other = await ledger.createAccount({ name: 'Other Holdings', mobile: '254722000002' });
    await ledger.fund(other.id, 'float', 5_000_000n);
    for (let hour = 0; hour < 6; hour += 1) {
      clock = new Date(Date.UTC(2025, 10, 21, 8 + hour));
      await ledger.fund(caller.id, 'float', 1_000_000n);
      await ledger.fund(caller.id, 'airtime', 500_000n);
      const floats = await Promise.all(
        [100, 250, 400].map((amount) =>
          ledger.requestAgentFloat({ accountId: caller.id, request: floatRequest({ amount }) }),
        ),
      );
      const [completed, cancelled] = floats.map(referenceOf);
      await ledger.complete(completed ?? '', { providerCode: 'OK' });
      await ledger.cancel(cancelled ?? '', { reason: 'declined' });
      const purchase = referenceOf(
        await ledger.requestAirtime({
          accountId: caller.id,
          request: airtimeRequest({ network: 'CarrierC', mobile: '254771000111' }),
        }),
      );
      if (hour % 2 === 0) await ledger.complete(purchase, { providerCode: 'OK' });
      else await ledger.cancel(purchase, { reason: 'not delivered', paymentCollected: true });
      const sent = sentTransactions(
        await ledger.sendAirtime({ accountId: caller.id, request: sendRequest([10, 20]) }),
      );
      await ledger.complete(sent[0]?.reference ?? '', { providerCode: 'OK' });
      await ledger.cancel(sent[1]?.reference ?? '', { reason: 'declined' });
      await ledger
        .requestAgentFloat({ accountId: other.id, request: floatRequest() })
        .then(async (outcome) => {
          await ledger.complete(referenceOf(outcome), { providerCode: 'OK' });
        });
    }
  });

  afterAll(async () => {
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
    await test.dispose();
  });

  it.each(['float', 'airtime'] as const)(
    'lists exactly the %s channel’s posted transfers, newest first, signed from the channel’s side',
    async (channel) => {
      const postings = (await walk(channel)).flat();
      expect(postings.map(line)).toEqual(await postedTransfers(channel));
      expect(new Set(postings.map((posting) => posting.purpose))).toEqual(
        new Set(
          channel === 'float'
            ? ['funding', 'float']
            : ['funding', 'airtime_payout', 'airtime_collection', 'airtime_commission', 'airtime_refund'],
        ),
      );
      const funding = postings.find((posting) => posting.purpose === 'funding');
      expect(funding).toMatchObject({
        reference: '',
        amountMinor: channel === 'float' ? 1_000_000n : 500_000n,
      });
      expect(funding?.date).toMatch(/^2025-11-21 1\d:00:00$/);
    },
  );

  it.each(['float', 'airtime'] as const)(
    'chains the %s balances from nothing to the posted balance now, whatever the page sizes',
    async (channel) => {
      const { postedMinor } = await ledger.balance(caller.id, channel);
      const all = (await walk(channel)).flat();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 }),
          async (sizes) => {
            const pages = await walk(channel, {}, sizes);
            const postings = pages.flat();
            expect(postings).toEqual(all);
            for (const [index, page] of pages.slice(0, -1).entries()) {
              expect(page).toHaveLength(sizes[Math.min(index, sizes.length - 1)] ?? 0);
            }
          },
        ),
        { numRuns: 20 },
      );
      expect(all[0]?.balanceAfterMinor).toBe(postedMinor);
      expect(all.at(-1)?.balanceBeforeMinor).toBe(0n);
      expect(all.reduce((sum, posting) => sum + posting.amountMinor, 0n)).toBe(postedMinor);
      for (const [index, posting] of all.entries()) {
        expect(posting.balanceAfterMinor - posting.balanceBeforeMinor).toBe(posting.amountMinor);
        const older = all[index + 1];
        if (older !== undefined) expect(older.balanceAfterMinor).toBe(posting.balanceBeforeMinor);
      }
    },
  );

  it('keeps what was posted at or after from and before to, each with the balances of the whole statement', async () => {
    const all = (await walk('float')).flat();
    // 11:00Z is 14:00 in Nairobi.
    const inWindow = all.filter(
      (posting) =>
        posting.createdAt >= new Date('2025-11-21T10:00:00Z') &&
        posting.createdAt < new Date('2025-11-21T12:00:00Z'),
    );
    expect(inWindow.length).toBeGreaterThan(0);
    expect(inWindow.length).toBeLessThan(all.length);
    expect(
      (await walk('float', { from: '2025-11-21 13:00', to: '2025-11-21T12:00:00Z' }, [2])).flat(),
    ).toEqual(inWindow);
    expect((await walk('float', { to: '2025-11-21T08:00:00Z' })).flat()).toEqual([]);
  });

  it('goes on after a cursor with the balances it had, while newer postings arrive', async () => {
    const first = await ledger.listStatement(caller.id, 'float', { limit: 3 });
    clock = new Date(clock.getTime() + 60_000);
    await ledger.fund(caller.id, 'float', 77_700n);
    const next = await ledger.listStatement(caller.id, 'float', { limit: 3, cursor: first.nextCursor });
    expect(next.postings[0]?.balanceAfterMinor).toBe(first.postings.at(-1)?.balanceBeforeMinor);
    expect(next.channel.postedMinor).toBe(first.channel.postedMinor + 77_700n);
    const now = await ledger.listStatement(caller.id, 'float', { limit: 1 });
    expect(now.postings[0]).toMatchObject({
      amountMinor: 77_700n,
      balanceAfterMinor: now.channel.postedMinor,
    });
  });

  it('agrees with the balance it shows while others post to the channel', async () => {
    const reads = Array.from({ length: 20 }, async (_, index) => {
      if (index % 2 === 0) {
        await ledger.fund(caller.id, 'airtime', 100n + BigInt(index));
        return undefined;
      }
      return ledger.listStatement(caller.id, 'airtime', { limit: 5 });
    });
    for (const page of await Promise.all(reads)) {
      if (page === undefined) continue;
      expect(page.postings[0]?.balanceAfterMinor).toBe(page.channel.postedMinor);
    }
  });

  it('never shows another caller’s postings, nor lets a cursor reach them', async () => {
    const { rows } = await test.store.query<{ id: string }>(
      `SELECT max(t.id)::text AS id FROM transfers t JOIN ledger_accounts a ON a.id = t.debit_account_id
       WHERE a.account_id = $1`,
      [other.id],
    );
    const theirs = rows[0]?.id ?? '';
    const cursor = encodeStatementCursor({ postingId: theirs });
    const mine = (await walk('float', { cursor })).flat();
    expect(mine.map((posting) => posting.id)).not.toContain(theirs);
    expect(mine.every((posting) => BigInt(posting.id) < BigInt(theirs))).toBe(true);
    const ownPostings = (await walk('float', {}, [100], other.id)).flat();
    expect(ownPostings.map((posting) => posting.id)).toContain(theirs);
    expect(ownPostings.every((posting) => ['funding', 'float'].includes(posting.purpose))).toBe(true);
  });

  it('refuses a malformed cursor or limit with invalid_input, and an unknown account', async () => {
    await expect(
      ledger.listStatement(caller.id, 'float', { cursor: 'WyJzIiwiLTEiXQ' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(ledger.listStatement(caller.id, 'float', { limit: 0 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(ledger.listStatement('acct_unknown', 'float')).rejects.toMatchObject({
      code: 'account_not_found',
    });
  });
});
