// Airtime sent from the caller's own Airtime balance (`send_airtime`): the whole send reserved at once or
// not at all, its keyed retries, its order, each transaction's completion, cancellation, legs, view and
// callback, `verify` over it, and a send decided in one batch with floats and purchases.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { createLedger, type Ledger } from './ledger.js';
import type { SendAirtimeOutcome } from './outcomes.js';
import type { Queryable } from './store.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { sendRequest, sentRecipient, sentTransactions } from './testing/sends.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { TransactionRecord } from './transaction-record.js';
import { sendAirtimeData, transactionDataFrom } from './transaction-view.js';

/** A ledger account's posted and pending balance (credits less debits), by code. */
async function ledgerAccount(db: Queryable, code: string) {
  const { rows } = await db.query<
    Record<'debits_posted' | 'credits_posted' | 'debits_pending' | 'credits_pending', string>
  >(
    'SELECT debits_posted, credits_posted, debits_pending, credits_pending FROM ledger_accounts WHERE code = $1',
    [code],
  );
  const row = rows[0];
  if (row === undefined) throw new Error(`Expected ledger account ${code}.`);
  return {
    posted: BigInt(row.credits_posted) - BigInt(row.debits_posted),
    pending: BigInt(row.credits_pending) - BigInt(row.debits_pending),
  };
}

/** Every transfer of transaction `reference`, oldest first, as `kind purpose amount debit→credit`. */
async function transfersOf(db: Queryable, reference: string): Promise<string[]> {
  const { rows } = await db.query<{ line: string }>(
    `SELECT x.kind || ' ' || x.purpose || ' ' || x.amount || ' ' || d.code || '>' || c.code AS line
     FROM transfers x
     JOIN ledger_accounts d ON d.id = x.debit_account_id
     JOIN ledger_accounts c ON c.id = x.credit_account_id
     WHERE x.reference = $1 ORDER BY x.id`,
    [reference],
  );
  return rows.map((row) => row.line);
}

/** What an account holds besides its channels: transactions, transfers touching them, idempotency keys. */
async function writtenFor(db: Queryable, accountId: string) {
  const { rows } = await db.query<{ transactions: number; transfers: number; keys: number }>(
    `SELECT (SELECT count(*)::int FROM transactions WHERE account_id = $1) AS transactions,
       (SELECT count(*)::int FROM transfers x JOIN ledger_accounts a
          ON a.id IN (x.debit_account_id, x.credit_account_id)
        WHERE a.account_id = $1 AND x.purpose <> 'funding') AS transfers,
       (SELECT count(*)::int FROM idempotency_keys WHERE account_id = $1) AS keys`,
    [accountId],
  );
  return rows[0];
}

const carrierB = 'system:carrier:CarrierB';
const carrierC = 'system:carrier:CarrierC';

describe.each(testStoreKinds())('airtime sent from the balance on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  const clock = new Date('2026-03-02T07:30:00.000Z');
  /** The size of each batch committed since the last test began. */
  let batches: number[] = [];

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, {
      now: () => clock,
      commissionBasisPoints: { CarrierC: 250 },
      onBatch: (size) => batches.push(size),
    });
  });
  beforeEach(() => {
    batches = [];
  });
  afterAll(async () => {
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
    await test.dispose();
  });

  async function accountWith(airtimeMinor: bigint, floatMinor = 0n): Promise<Account> {
    const account = await ledger.createAccount({ name: 'Shamba Sends', mobile: '254722000009' });
    if (airtimeMinor > 0n) await ledger.fund(account.id, 'airtime', airtimeMinor);
    if (floatMinor > 0n) await ledger.fund(account.id, 'float', floatMinor);
    return account;
  }

  const send = (
    account: Account,
    amounts: readonly number[],
    options: { key?: string; hash?: string; network?: (position: number) => 'CarrierB' | 'CarrierC' } = {},
  ): Promise<SendAirtimeOutcome> =>
    ledger.sendAirtime({
      accountId: account.id,
      request: sendRequest(amounts, (position) =>
        options.network === undefined ? {} : { network: options.network(position) },
      ),
      ...(options.key === undefined
        ? {}
        : { idempotency: { key: options.key, requestHash: options.hash ?? amounts.join(',') } }),
    });

  describe('reserving', () => {
    it('reserves the whole total in one batch, one pending payout per transaction to its carrier', async () => {
      const account = await accountWith(20_000n);
      const carriers = {
        b: await ledgerAccount(test.store, carrierB),
        c: await ledgerAccount(test.store, carrierC),
      };
      const outcome = await send(account, [50, 20, 30], {
        network: (position) => (position === 1 ? 'CarrierC' : 'CarrierB'),
      });
      expect(batches).toEqual([1]);
      expect(outcome).toMatchObject({
        kind: 'created',
        channel: {
          channel: 'airtime',
          currency: 'KES',
          postedMinor: 20_000n,
          pendingMinor: 10_000n,
          availableMinor: 10_000n,
        },
      });
      const transactions = sentTransactions(outcome);
      expect(
        transactions.map((t) => ({
          type: t.type,
          state: t.state,
          amountMinor: t.amountMinor,
          network: t.network,
          mobile: t.recipient.mobile,
          payment: t.payment,
        })),
      ).toEqual([
        {
          type: 'Airtime',
          state: 'requested',
          amountMinor: 5_000n,
          network: 'CarrierB',
          mobile: '254733100000',
          payment: undefined,
        },
        {
          type: 'Airtime',
          state: 'requested',
          amountMinor: 2_000n,
          network: 'CarrierC',
          mobile: '254733100001',
          payment: undefined,
        },
        {
          type: 'Airtime',
          state: 'requested',
          amountMinor: 3_000n,
          network: 'CarrierB',
          mobile: '254733100002',
          payment: undefined,
        },
      ]);
      const channel = `caller:${account.id}:airtime`;
      expect(await Promise.all(transactions.map((t) => transfersOf(test.store, t.reference)))).toEqual([
        [`pending airtime_payout 5000 ${channel}>${carrierB}`],
        [`pending airtime_payout 2000 ${channel}>${carrierC}`],
        [`pending airtime_payout 3000 ${channel}>${carrierB}`],
      ]);
      expect(await ledgerAccount(test.store, carrierB)).toEqual({
        posted: carriers.b.posted,
        pending: carriers.b.pending + 8_000n,
      });
      expect(await ledgerAccount(test.store, carrierC)).toEqual({
        posted: carriers.c.posted,
        pending: carriers.c.pending + 2_000n,
      });
      await expect(ledger.balance(account.id, 'airtime')).resolves.toEqual(
        (outcome as Extract<SendAirtimeOutcome, { kind: 'created' }>).channel,
      );
      const { rows } = await test.store.query<{
        reference: string;
        send_reference: string;
        send_position: number;
      }>(
        `SELECT reference, send_reference, send_position FROM transactions WHERE account_id = $1
         ORDER BY send_position`,
        [account.id],
      );
      const first = transactions[0]?.reference;
      expect(rows).toEqual(
        transactions.map((t, position) => ({
          reference: t.reference,
          send_reference: first,
          send_position: position,
        })),
      );
    });

    it('refuses a total one cent over what is available, writing nothing and giving the key back', async () => {
      const account = await accountWith(19_999n);
      sentTransactions(await send(account, [50]));
      const before = {
        written: await writtenFor(test.store, account.id),
        carrier: await ledgerAccount(test.store, carrierB),
      };
      expect(before.written).toEqual({ transactions: 1, transfers: 1, keys: 0 });

      // 149.99 KES available, 150 KES asked: refused, though its first recipient alone would fit.
      const refused = await send(account, [100, 50], { key: 'over-by-one', hash: 'h' });
      expect(refused).toEqual({
        kind: 'insufficient_balance',
        channel: {
          channel: 'airtime',
          currency: 'KES',
          postedMinor: 19_999n,
          pendingMinor: 5_000n,
          availableMinor: 14_999n,
        },
      });
      expect(await writtenFor(test.store, account.id)).toEqual(before.written);
      expect(await ledgerAccount(test.store, carrierB)).toEqual(before.carrier);

      // The key was given back: the same request under it, once the cent is there, is tried afresh.
      await ledger.fund(account.id, 'airtime', 1n);
      const retried = await send(account, [100, 50], { key: 'over-by-one', hash: 'h' });
      expect(retried).toMatchObject({
        kind: 'created',
        channel: { postedMinor: 20_000n, pendingMinor: 20_000n, availableMinor: 0n },
      });
      expect(sentTransactions(retried).map((t) => t.amountMinor)).toEqual([10_000n, 5_000n]);
      expect(await writtenFor(test.store, account.id)).toEqual({ transactions: 3, transfers: 3, keys: 1 });
    });
    it('takes a mobile that repeats, remembering the name given and filling it into a later send', async () => {
      const account = await accountWith(10_000n);
      const mobile = '254733200300';
      const outcome = await ledger.sendAirtime({
        accountId: account.id,
        request: {
          recipients: [
            sentRecipient({ mobile, amount: 10, name: 'Achieng' }),
            sentRecipient({ mobile, amount: 20 }),
            sentRecipient({ mobile, amount: 30, email: 'achieng@example.com' }),
          ],
          note: 'staff airtime',
        },
      });
      expect(
        sentTransactions(outcome).map((t) => [t.recipient.mobile, t.amountMinor, t.recipient.name, t.note]),
      ).toEqual([
        [mobile, 1_000n, 'Achieng', 'staff airtime'],
        [mobile, 2_000n, '', 'staff airtime'],
        [mobile, 3_000n, '', 'staff airtime'],
      ]);
      await expect(ledger.findContact(account.id, mobile)).resolves.toMatchObject({
        name: 'Achieng',
        email: 'achieng@example.com',
      });
      const [later] = sentTransactions(
        await ledger.sendAirtime({
          accountId: account.id,
          request: { recipients: [sentRecipient({ mobile, amount: 10 })] },
        }),
      );
      expect(later?.recipient).toMatchObject({ name: 'Achieng', email: 'achieng@example.com' });
    });

    it('refuses a send of a closed account, and withdraws one whose caller gave up, writing nothing', async () => {
      const closed = await accountWith(10_000n);
      await ledger.setAccountStatus(closed.id, 'closed');
      await expect(send(closed, [10])).rejects.toMatchObject({ code: 'account_closed' });
      const open = await accountWith(10_000n);
      const gaveUp = new AbortController();
      const withdrawn = ledger.sendAirtime({
        accountId: open.id,
        request: sendRequest([10, 20]),
        idempotency: { key: 'gave-up', requestHash: 'h' },
        signal: gaveUp.signal,
      });
      gaveUp.abort(new Error('the request ran out of time'));
      await expect(withdrawn).rejects.toThrow('the request ran out of time');
      for (const account of [closed, open]) {
        expect(await writtenFor(test.store, account.id)).toEqual({ transactions: 0, transfers: 0, keys: 0 });
        await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
          availableMinor: 10_000n,
        });
      }
    });
    it('refuses an empty send alone, failing no other request of its batch', async () => {
      const account = await accountWith(10_000n);
      const empty = ledger.sendAirtime({ accountId: account.id, request: { recipients: [] } });
      const other = send(account, [10]);
      await expect(empty).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(other).resolves.toMatchObject({ kind: 'created' });
    });
  });

  describe('keyed retries', () => {
    it('answers a retry under the key in progress, then with the saved answer, and another body as a conflict', async () => {
      const account = await accountWith(100_000n);
      const transactions = sentTransactions(await send(account, [10, 20], { key: 'send-1', hash: 'h1' }));
      const first = transactions[0]?.reference ?? '';
      const written = await writtenFor(test.store, account.id);

      await expect(send(account, [10, 20], { key: 'send-1', hash: 'h1' })).resolves.toEqual({
        kind: 'idempotency_in_progress',
        reference: first,
      });
      const response = { httpStatus: 200, contentType: 'application/json', body: '{"sent":2}' };
      await expect(ledger.saveIdempotentResponse(account.id, 'send-1', first, response)).resolves.toEqual({
        kind: 'saved',
      });
      await expect(send(account, [10, 20], { key: 'send-1', hash: 'h1' })).resolves.toEqual({
        kind: 'idempotent_replay',
        response,
      });
      await expect(send(account, [10, 30], { key: 'send-1', hash: 'h2' })).resolves.toEqual({
        kind: 'idempotency_conflict',
      });
      expect(await writtenFor(test.store, account.id)).toEqual(written);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({ pendingMinor: 3_000n });
    });

    it('decides requests sharing a key in one batch by the first: in progress after it, a conflict with another body', async () => {
      const account = await accountWith(100_000n, 100_000n);
      const [firstSend, sameSend, float] = await Promise.all([
        send(account, [10, 20, 30], { key: 'batch-key', hash: 'send' }),
        send(account, [10, 20, 30], { key: 'batch-key', hash: 'send' }),
        ledger.requestAgentFloat({
          accountId: account.id,
          request: floatRequest(),
          idempotency: { key: 'batch-key', requestHash: 'float' },
        }),
      ]);
      expect(batches).toEqual([3]);
      const first = sentTransactions(firstSend)[0]?.reference;
      expect(sameSend).toEqual({ kind: 'idempotency_in_progress', reference: first });
      expect(float).toEqual({ kind: 'idempotency_conflict' });
      expect(await writtenFor(test.store, account.id)).toEqual({ transactions: 3, transfers: 3, keys: 1 });
    });

    it('refuses every request under the key of a send refused in the same batch, and gives the key back', async () => {
      const account = await accountWith(5_000n);
      const outcomes = await Promise.all([
        send(account, [30, 30], { key: 'short', hash: 'h' }),
        send(account, [30, 30], { key: 'short', hash: 'h' }),
      ]);
      expect(outcomes.map((outcome) => outcome.kind)).toEqual([
        'insufficient_balance',
        'insufficient_balance',
      ]);
      expect(await writtenFor(test.store, account.id)).toEqual({ transactions: 0, transfers: 0, keys: 0 });
    });
  });

  describe('order', () => {
    it('gives and lists a send’s transactions in request order, only to its own caller', async () => {
      const account = await accountWith(100_000n);
      const amounts = [70, 10, 50, 30, 90, 20, 60, 40];
      const transactions = sentTransactions(await send(account, amounts));
      expect(transactions.map((t) => [t.recipient.mobile, t.amountMinor])).toEqual(
        amounts.map((amount, position) => [
          `2547331000${String(position).padStart(2, '0')}`,
          BigInt(amount) * 100n,
        ]),
      );
      const [first, second] = transactions as [TransactionRecord, TransactionRecord];
      await expect(ledger.listSentAirtime(account.id, first.reference)).resolves.toEqual(transactions);
      await expect(ledger.listSentAirtime(account.id, second.reference)).resolves.toEqual([]);
      const other = await accountWith(0n);
      await expect(ledger.listSentAirtime(other.id, first.reference)).resolves.toEqual([]);
      // A transaction made alone belongs to no send.
      const purchase = referenceOf(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
      );
      await expect(ledger.listSentAirtime(account.id, purchase)).resolves.toEqual([]);
    });
  });

  describe('resolution', () => {
    it('posts the reservation on completion, pays the carrier and credits its commission to the channel', async () => {
      const account = await accountWith(50_000n);
      const before = {
        b: await ledgerAccount(test.store, carrierB),
        c: await ledgerAccount(test.store, carrierC),
        commission: await ledgerAccount(test.store, 'system:commission'),
      };
      const [toB, toC] = sentTransactions(
        await send(account, [100, 200], {
          network: (position) => (position === 0 ? 'CarrierB' : 'CarrierC'),
        }),
      ) as [TransactionRecord, TransactionRecord];
      await expect(ledger.complete(toB.reference, { providerCode: 'ATQid_B' })).resolves.toMatchObject({
        kind: 'resolved',
        transaction: {
          state: 'completed',
          code: 'ATQid_B',
          messaging: { recipient: '254733100000', message: 'You have received KES 100.00 airtime' },
        },
      });
      await ledger.complete(toC.reference, { providerCode: 'ATQid_C' });
      const channel = `caller:${account.id}:airtime`;
      expect(await transfersOf(test.store, toB.reference)).toEqual([
        `pending airtime_payout 10000 ${channel}>${carrierB}`,
        `post airtime_payout 10000 ${channel}>${carrierB}`,
      ]);
      expect(await transfersOf(test.store, toC.reference)).toEqual([
        `pending airtime_payout 20000 ${channel}>${carrierC}`,
        `post airtime_payout 20000 ${channel}>${carrierC}`,
        `single airtime_commission 500 system:commission>${channel}`,
      ]);
      // 500 KES funded, 300 KES paid out, 2.5 % of the CarrierC 200 KES back.
      await expect(ledger.balance(account.id, 'airtime')).resolves.toEqual({
        channel: 'airtime',
        currency: 'KES',
        postedMinor: 20_500n,
        pendingMinor: 0n,
        availableMinor: 20_500n,
      });
      expect(await ledgerAccount(test.store, carrierB)).toEqual({
        posted: before.b.posted + 10_000n,
        pending: before.b.pending,
      });
      expect(await ledgerAccount(test.store, carrierC)).toEqual({
        posted: before.c.posted + 20_000n,
        pending: before.c.pending,
      });
      expect(await ledgerAccount(test.store, 'system:commission')).toEqual({
        posted: before.commission.posted - 500n,
        pending: 0n,
      });
    });

    it('voids the reservation on cancellation, giving the amount back, and ignores a payment said collected', async () => {
      const account = await accountWith(20_000n);
      const before = {
        carrier: await ledgerAccount(test.store, carrierB),
        collections: await ledgerAccount(test.store, 'system:payer-collections'),
      };
      const [refused, kept] = sentTransactions(await send(account, [100, 50])) as [
        TransactionRecord,
        TransactionRecord,
      ];
      await expect(
        ledger.cancel(refused.reference, {
          reason: 'carrier refused the number',
          providerCode: 'AT_REFUSED',
          paymentCollected: true,
        }),
      ).resolves.toMatchObject({
        kind: 'resolved',
        transaction: { state: 'cancelled', status: 'Cancelled', cancelReason: 'carrier refused the number' },
      });
      const channel = `caller:${account.id}:airtime`;
      expect(await transfersOf(test.store, refused.reference)).toEqual([
        `pending airtime_payout 10000 ${channel}>${carrierB}`,
        `void airtime_payout 10000 ${channel}>${carrierB}`,
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
        postedMinor: 20_000n,
        pendingMinor: 5_000n,
        availableMinor: 15_000n,
      });
      await expect(ledger.findTransaction(kept.reference)).resolves.toMatchObject({ state: 'requested' });
      expect(await ledgerAccount(test.store, carrierB)).toEqual({
        posted: before.carrier.posted,
        pending: before.carrier.pending + 5_000n,
      });
      expect(await ledgerAccount(test.store, 'system:payer-collections')).toEqual(before.collections);
      // A late word that the payment was collected, for a transaction that has no payer, changes nothing.
      await ledger.cancel(refused.reference, { reason: 'late', paymentCollected: true });
      expect(await transfersOf(test.store, refused.reference)).toHaveLength(2);
    });
  });

  describe('verify', () => {
    it('finds no breach after mixed ends, and reports a sent transaction whose transfers do not fit its state', async () => {
      const account = await accountWith(100_000n);
      const [completed, cancelled, requested] = sentTransactions(
        await send(account, [10, 20, 30], { network: () => 'CarrierC' }),
      ) as [TransactionRecord, TransactionRecord, TransactionRecord];
      await ledger.complete(completed.reference, { providerCode: 'C' });
      await ledger.cancel(cancelled.reference, { reason: 'no', paymentCollected: true });
      expect((await ledger.verify()).breaches).toEqual([]);

      const tamper = async (state: string, reference: string) =>
        test.store.query('UPDATE transactions SET state = $2 WHERE reference = $1', [reference, state]);
      await tamper('completed', requested.reference);
      await tamper('requested', completed.reference);
      try {
        const report = await ledger.verify();
        expect(report.ok).toBe(false);
        expect(report.breaches).toEqual([
          ...[
            `transaction ${requested.reference} (Sent Airtime, completed): expected one pending and one post (and at most one commission), found 1 transfer(s): 1 pending, 0 post, 0 void, 0 commission`,
            `transaction ${completed.reference} (Sent Airtime, requested): expected one pending transfer only, found 3 transfer(s): 1 pending, 1 post, 0 void, 1 commission`,
          ].sort(),
        ]);
      } finally {
        await tamper('requested', requested.reference);
        await tamper('completed', completed.reference);
      }
      expect((await ledger.verify()).breaches).toEqual([]);
    });
  });

  describe('legs', () => {
    const states = async (reference: string) =>
      (await ledger.legs(reference)).map((leg) => `${leg.kind}:${leg.state}`);

    it('has one delivery leg, submitted, then succeeded or failed with its resolution', async () => {
      const account = await accountWith(100_000n);
      const [delivered, failed, unsubmitted] = sentTransactions(await send(account, [10, 20, 30])) as [
        TransactionRecord,
        TransactionRecord,
        TransactionRecord,
      ];
      await expect(ledger.legs(delivered.reference)).resolves.toEqual([]);
      await ledger.markSubmitted(delivered.reference);
      await ledger.markSubmitted(failed.reference);
      await expect(states(delivered.reference)).resolves.toEqual(['delivery:submitted']);

      await ledger.complete(delivered.reference, { providerCode: 'ATQid_1', provider: 'africastalking' });
      await expect(ledger.legs(delivered.reference)).resolves.toMatchObject([
        {
          id: `${delivered.reference}-delivery`,
          kind: 'delivery',
          provider: 'africastalking',
          state: 'succeeded',
          providerReference: 'ATQid_1',
        },
      ]);
      await ledger.cancel(failed.reference, { reason: 'undelivered', paymentCollected: true });
      await expect(states(failed.reference)).resolves.toEqual(['delivery:failed']);
      await ledger.cancel(unsubmitted.reference, { reason: 'never sent' });
      await expect(states(unsubmitted.reference)).resolves.toEqual(['delivery:failed']);
    });

    it('notes an unsettled delivery as its first leg, and cancels the transaction when an operator settles it failed', async () => {
      const account = await accountWith(10_000n);
      const [transaction] = sentTransactions(await send(account, [40])) as [TransactionRecord];
      await ledger.markSubmitted(transaction.reference);
      await expect(
        ledger.noteUnsettledLeg(transaction.reference, {
          state: 'unknown',
          provider: 'africastalking',
          nextQueryAt: new Date(clock.getTime() + 60_000),
          review: true,
        }),
      ).resolves.toBe(true);
      await expect(states(transaction.reference)).resolves.toEqual(['delivery:unknown']);
      const id = `${transaction.reference}-delivery`;
      expect((await ledger.legsForReview(1_000)).map((leg) => leg.id)).toContain(id);

      await expect(
        ledger.settleReviewedLeg(id, { as: 'failed', by: 'operator@topup' }),
      ).resolves.toMatchObject({
        kind: 'resolved',
        transaction: { reference: transaction.reference, state: 'cancelled' },
      });
      await expect(ledger.legs(transaction.reference)).resolves.toMatchObject([
        { kind: 'delivery', state: 'failed', reviewedBy: 'operator@topup' },
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
        postedMinor: 10_000n,
        pendingMinor: 0n,
      });
    });
  });

  describe('view and callbacks', () => {
    it('shows a sent transaction without a payment, and the send’s entries in request order', async () => {
      const account = await accountWith(10_000n);
      const outcome = await send(account, [25, 15]);
      const [first, second] = sentTransactions(outcome) as [TransactionRecord, TransactionRecord];
      const record = await ledger.getTransaction(account.id, first.reference);
      expect(record).toEqual(first);
      expect(record?.payment).toBeUndefined();
      const channel = await ledger.balance(account.id, 'airtime');
      const data = transactionDataFrom(record as TransactionRecord, channel, first.sender);
      expect(Object.keys(data)).toEqual(['sender', 'recipient', 'transaction', 'messaging', 'channel']);
      expect(data).toMatchObject({
        recipient: { mobile: '254733100000' },
        transaction: { type: 'Airtime', reference: first.reference, amount: '25', network: 'CarrierB' },
        channel: { type: 'Airtime', balance: '60.00' },
      });

      await ledger.cancel(second.reference, { reason: 'number not on CarrierB' });
      const now = await ledger.listSentAirtime(account.id, first.reference);
      const answer = sendAirtimeData(now, await ledger.balance(account.id, 'airtime'), account);
      expect(answer.transactions).toEqual([
        expect.objectContaining({ reference: first.reference, amount: '25', state: 'requested', errors: [] }),
        expect.objectContaining({
          reference: second.reference,
          amount: '15',
          status: 'Cancelled',
          state: 'cancelled',
          errors: ['number not on CarrierB'],
        }),
      ]);
      expect(answer.channel).toEqual({ type: 'Airtime', currency: 'KES', balance: '75.00' });
    });

    it('announces a cancelled sent transaction with FAIL/8000 Airtime Cancelled and a completed one as delivered, neither with a payment', async () => {
      const account = await accountWith(10_000n);
      await ledger.addCallbackEndpoint(account.id, { url: 'https://hooks.example.com/sent', format: 'json' });
      const [delivered, cancelled] = sentTransactions(await send(account, [30, 20])) as [
        TransactionRecord,
        TransactionRecord,
      ];
      await ledger.complete(delivered.reference, { providerCode: 'ATQid_9' });
      await ledger.cancel(cancelled.reference, { reason: 'Failed to deliver airtime' });
      const claimed = await ledger.claimDeliveries({ workerId: 'w1', limit: 100, leaseMs: 60_000 });
      const payloadOf = (reference: string) => {
        const delivery = claimed.find((each) => each.reference === reference);
        if (delivery === undefined) throw new Error(`Expected a callback for ${reference}.`);
        return JSON.parse(delivery.payload) as { status: unknown; data: Record<string, unknown> };
      };
      const cancellation = payloadOf(cancelled.reference);
      expect(cancellation.status).toEqual({ type: 'FAIL', code: '8000', message: 'Airtime Cancelled' });
      expect(Object.keys(cancellation.data)).toEqual([
        'errors',
        'sender',
        'recipient',
        'transaction',
        'messaging',
        'channel',
      ]);
      expect(cancellation.data.errors).toEqual(['Failed to deliver airtime']);
      expect(cancellation.data.transaction).toMatchObject({
        type: 'Airtime',
        reference: cancelled.reference,
        status: 'Cancelled',
        state: 'cancelled',
      });
      const completion = payloadOf(delivered.reference);
      expect(completion.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Airtime delivered' });
      expect(completion.data).not.toHaveProperty('payment');
    });
  });

  describe('in one batch with floats and purchases', () => {
    it('weighs a send by its transactions: one larger than maxTransactions is committed alone', async () => {
      const sizes: number[] = [];
      const small = createLedger(test.store, {
        now: () => clock,
        batch: { maxWaitMs: 10_000, maxTransactions: 4 },
        onBatch: (size) => sizes.push(size),
      });
      try {
        const account = await accountWith(100_000n, 100_000n);
        const request = { accountId: account.id, request: floatRequest() };
        const outcomes = await Promise.all([
          small.requestAgentFloat(request),
          small.sendAirtime({ accountId: account.id, request: sendRequest([10, 10, 10, 10, 10, 10]) }),
          small.requestAgentFloat(request),
          small.requestAgentFloat(request),
        ]);
        expect(outcomes.map((outcome) => outcome.kind)).toEqual(['created', 'created', 'created', 'created']);
        // Counted by requests alone, all four would have made one batch of 4.
        expect(sizes).toEqual([1, 1, 2]);
      } finally {
        await small.close();
      }
    });

    it('decides each request against the running balances in arrival order, a send all or nothing', async () => {
      const account = await accountWith(10_000n, 10_000n);
      const [floatTaken, sendTaken, purchase, floatRefused, sendRefused, sendLast] = await Promise.all([
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ amount: 60 }) }),
        send(account, [40, 30]),
        ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ amount: 500 }) }),
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ amount: 50 }) }),
        // 40 KES asked of 30 available: refused whole, though its first 20 would fit.
        send(account, [20, 20]),
        send(account, [30]),
      ]);
      expect(batches).toEqual([6]);
      expect(floatTaken).toMatchObject({
        kind: 'created',
        channel: { channel: 'float', availableMinor: 4_000n },
      });
      expect(sendTaken).toMatchObject({
        kind: 'created',
        channel: { channel: 'airtime', availableMinor: 3_000n },
      });
      expect(purchase).toMatchObject({
        kind: 'created',
        channel: { channel: 'airtime', availableMinor: 3_000n },
      });
      expect(floatRefused).toMatchObject({
        kind: 'insufficient_balance',
        channel: { availableMinor: 4_000n },
      });
      expect(sendRefused).toMatchObject({
        kind: 'insufficient_balance',
        channel: { channel: 'airtime', availableMinor: 3_000n },
      });
      expect(sendLast).toMatchObject({ kind: 'created', channel: { availableMinor: 0n } });
      expect(await writtenFor(test.store, account.id)).toEqual({ transactions: 5, transfers: 4, keys: 0 });

      const [forty, thirty] = sentTransactions(sendTaken) as [TransactionRecord, TransactionRecord];
      const [last] = sentTransactions(sendLast) as [TransactionRecord];
      await Promise.all([
        ledger.complete(referenceOf(floatTaken), { providerCode: 'F' }),
        ledger.cancel(forty.reference, { reason: 'undelivered' }),
        ledger.complete(thirty.reference, { providerCode: 'A1' }),
        ledger.complete(referenceOf(purchase), { providerCode: 'P' }),
        ledger.complete(last.reference, { providerCode: 'A2' }),
      ]);
      await expect(ledger.balance(account.id, 'float')).resolves.toMatchObject({
        postedMinor: 4_000n,
        pendingMinor: 0n,
      });
      // 100 KES less 30 and 30 delivered; the purchase is paid by its payer and nets nothing here.
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
        postedMinor: 4_000n,
        pendingMinor: 0n,
      });
      expect((await ledger.verify()).breaches).toEqual([]);
    });
  });
});
