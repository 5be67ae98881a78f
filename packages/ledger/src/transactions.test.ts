import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome } from './outcomes.js';
import type { Queryable } from './store.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import type { TransactionRecord } from './transaction-record.js';

function created(outcome: RequestOutcome): TransactionRecord {
  if (outcome.kind !== 'created')
    throw new Error(`Expected a created transaction, received ${outcome.kind}.`);
  return outcome.transaction;
}

async function systemAccount(db: Queryable, code: string) {
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

async function transfersOf(db: Queryable, reference: string) {
  const { rows } = await db.query<{ kind: string; purpose: string; amount: string }>(
    'SELECT kind, purpose, amount FROM transfers WHERE reference = $1 ORDER BY id',
    [reference],
  );
  return rows.map((row) => `${row.kind} ${row.purpose} ${row.amount}`);
}

describe.each(testStoreKinds())('transactions and their money on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock = new Date('2025-11-21T11:05:09.000Z');
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock, commissionBasisPoints: { CarrierC: 250 } });
  });
  afterAll(async () => {
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
    await test.dispose();
  });

  async function fundedAccount(floatMinor = 100_000n): Promise<Account> {
    const account = await ledger.createAccount({
      name: 'Duka Supplies',
      mobile: '254722000001',
      agent_number: '1',
    });
    if (floatMinor > 0n) await ledger.fund(account.id, 'float', floatMinor);
    return account;
  }

  describe('funding', () => {
    it('credits the channel from outside funding', async () => {
      const account = await fundedAccount(0n);
      const before = await systemAccount(test.store, 'system:funding');
      const balance = await ledger.fund(account.id, 'airtime', 12_345n);
      expect(balance).toEqual({
        channel: 'airtime',
        currency: 'KES',
        postedMinor: 12_345n,
        pendingMinor: 0n,
        availableMinor: 12_345n,
      });
      expect((await systemAccount(test.store, 'system:funding')).posted).toBe(before.posted - 12_345n);
    });

    it('refuses a zero or negative amount, an unknown account and a closed one', async () => {
      const account = await fundedAccount(0n);
      await expect(ledger.fund(account.id, 'float', 0n)).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(ledger.fund(account.id, 'float', -1n)).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(ledger.fund('acct_nobody', 'float', 1n)).rejects.toMatchObject({
        code: 'account_not_found',
      });
      await ledger.setAccountStatus(account.id, 'closed');
      await expect(ledger.fund(account.id, 'float', 1n)).rejects.toMatchObject({ code: 'account_closed' });
    });

    it('reports an unknown account when asked for a balance', async () => {
      await expect(ledger.balance('acct_nobody', 'float')).rejects.toMatchObject({
        code: 'account_not_found',
      });
    });
  });

  describe('agent float', () => {
    it('reserves the amount with a pending transfer to the network and records every field', async () => {
      const account = await fundedAccount(100_000n);
      const networkBefore = await systemAccount(test.store, 'system:network:MoneyNetA');
      const outcome = await ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ amount: 150, name: 'Wanjiku Agency', agent_name: 'Wanjiku', note: 'INV-42' }),
      });
      expect(outcome).toMatchObject({
        kind: 'created',
        channel: { channel: 'float', postedMinor: 100_000n, pendingMinor: 15_000n, availableMinor: 85_000n },
      });
      const transaction = created(outcome);
      expect(transaction).toMatchObject({
        accountId: account.id,
        type: 'Agent Float',
        state: 'requested',
        status: 'Requested',
        date: '2025-11-21 14:05:09',
        amountMinor: 15_000n,
        currency: 'KES',
        country: 'KE',
        network: 'MoneyNetA',
        note: 'INV-42',
        code: '',
        source: 'API',
        recipient: {
          name: 'Wanjiku Agency',
          mobile: '254712345678',
          email: '',
          agent_name: 'Wanjiku',
          agent_number: '234567',
          store_number: '765432',
        },
        payment: undefined,
        sender: { name: 'Duka Supplies', mobile: '254722000001', agent_number: '1' },
        messaging: { sender: '', recipient: '', message: '' },
        cancelReason: '',
        submittedAt: undefined,
        resolvedAt: undefined,
      });
      expect(transaction.reference).toMatch(/^TX[0-9A-Z]{12}$/);
      expect(await transfersOf(test.store, transaction.reference)).toEqual(['pending float 15000']);
      expect((await systemAccount(test.store, 'system:network:MoneyNetA')).pending).toBe(
        networkBefore.pending + 15_000n,
      );
      await expect(ledger.getTransaction(account.id, transaction.reference)).resolves.toEqual(transaction);
    });

    it('refuses a request the available balance cannot cover and writes nothing', async () => {
      const account = await fundedAccount(9_999n);
      const { rows: before } = await test.store.query<{ n: string }>(
        'SELECT count(*) AS n FROM transactions',
      );
      const outcome = await ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ amount: 100 }),
      });
      expect(outcome).toEqual({
        kind: 'insufficient_balance',
        channel: {
          channel: 'float',
          currency: 'KES',
          postedMinor: 9_999n,
          pendingMinor: 0n,
          availableMinor: 9_999n,
        },
      });
      const { rows: after } = await test.store.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
      expect(after).toEqual(before);
    });

    it('withdraws a request whose caller gave up before its batch started, writing nothing', async () => {
      const account = await fundedAccount(100_000n);
      const gaveUp = new AbortController();
      const withdrawn = ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ amount: 100 }),
        idempotency: { key: 'withdrawn-1', requestHash: 'h' },
        signal: gaveUp.signal,
      });
      gaveUp.abort(new Error('the request ran out of time'));
      await expect(withdrawn).rejects.toThrow('the request ran out of time');
      const { rows } = await test.store.query<{ transactions: number; keys: number }>(
        `SELECT (SELECT count(*)::int FROM transactions WHERE account_id = $1) AS transactions,
                (SELECT count(*)::int FROM idempotency_keys WHERE account_id = $1) AS keys`,
        [account.id],
      );
      expect(rows).toEqual([{ transactions: 0, keys: 0 }]);
      expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(100_000n);
    });

    it('counts what is already reserved against later requests', async () => {
      const account = await fundedAccount(25_000n);
      const first = await ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ amount: 200 }),
      });
      const second = await ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ amount: 100 }),
      });
      expect(first.kind).toBe('created');
      expect(second).toMatchObject({ kind: 'insufficient_balance', channel: { availableMinor: 5_000n } });
    });

    it('posts the reservation on completion, once', async () => {
      const account = await fundedAccount(100_000n);
      const transaction = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      const outcome = await ledger.complete(transaction.reference, { providerCode: 'MNA-1' });
      expect(outcome).toMatchObject({
        kind: 'resolved',
        transaction: {
          state: 'completed',
          status: 'Requested',
          code: 'MNA-1',
          messaging: { recipient: '254712345678', message: 'You have received KES 100.00 agent float' },
        },
      });
      const balance = {
        channel: 'float',
        currency: 'KES',
        postedMinor: 90_000n,
        pendingMinor: 0n,
        availableMinor: 90_000n,
      };
      await expect(ledger.balance(account.id, 'float')).resolves.toEqual(balance);

      const again = await ledger.complete(transaction.reference, { providerCode: 'MNA-2' });
      expect(again).toMatchObject({
        kind: 'already_resolved',
        transaction: { state: 'completed', code: 'MNA-1' },
      });
      await expect(ledger.cancel(transaction.reference, { reason: 'late timeout' })).resolves.toMatchObject({
        kind: 'already_resolved',
      });
      await expect(ledger.balance(account.id, 'float')).resolves.toEqual(balance);
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'pending float 10000',
        'post float 10000',
      ]);
    });

    it('voids the reservation on cancellation, and the balance returns', async () => {
      const account = await fundedAccount(100_000n);
      const transaction = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      const outcome = await ledger.cancel(transaction.reference, {
        reason: 'agent unknown',
        providerCode: 'MNA-9',
      });
      expect(outcome).toMatchObject({
        kind: 'resolved',
        transaction: {
          state: 'cancelled',
          status: 'Cancelled',
          code: 'MNA-9',
          cancelReason: 'agent unknown',
        },
      });
      await expect(ledger.balance(account.id, 'float')).resolves.toMatchObject({
        availableMinor: 100_000n,
        pendingMinor: 0n,
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'pending float 10000',
        'void float 10000',
      ]);
    });

    it('resolves exactly once when a result, a retry and a timeout race', async () => {
      const account = await fundedAccount(100_000n);
      const transaction = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      const outcomes = await Promise.all([
        ledger.complete(transaction.reference, { providerCode: 'A' }),
        ledger.cancel(transaction.reference, { reason: 'timed out' }),
        ledger.complete(transaction.reference, { providerCode: 'B' }),
      ]);
      expect(outcomes.filter((outcome) => outcome.kind === 'resolved')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === 'already_resolved')).toHaveLength(2);
      expect(await transfersOf(test.store, transaction.reference)).toHaveLength(2);
    });

    it('lets the database refuse a second post or void of one pending transfer', async () => {
      const account = await fundedAccount(100_000n);
      const transaction = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      await ledger.complete(transaction.reference, { providerCode: 'X' });
      const second = test.store.query(
        `INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, pending_id, purpose, reference, created_at)
         SELECT debit_account_id, credit_account_id, amount, 'void', id, purpose, reference, now()
         FROM transfers WHERE reference = $1 AND kind = 'pending'`,
        [transaction.reference],
      );
      await expect(second).rejects.toThrow(/transfers_resolve_pending_once/);
    });

    it('answers not_found for an unknown reference', async () => {
      await expect(ledger.complete('TXNOSUCHTHING0', { providerCode: 'X' })).resolves.toEqual({
        kind: 'not_found',
      });
      await expect(ledger.cancel('TXNOSUCHTHING0', { reason: 'x' })).resolves.toEqual({ kind: 'not_found' });
    });

    it('rejects an amount that is not whole shillings or a currency other than KES, before queueing', async () => {
      const account = await fundedAccount();
      await expect(
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ amount: 1.5 }) }),
      ).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ currency: 'UGX' }) }),
      ).rejects.toThrow(/Expected currency KES/);
    });

    it('refuses requests of a closed account, alone in its batch', async () => {
      const closed = await fundedAccount();
      const open = await fundedAccount();
      await ledger.setAccountStatus(closed.id, 'closed');
      const [refused, accepted] = await Promise.allSettled([
        ledger.requestAirtime({ accountId: closed.id, request: airtimeRequest() }),
        ledger.requestAirtime({ accountId: open.id, request: airtimeRequest() }),
      ]);
      expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'account_closed' } });
      expect(accepted).toMatchObject({ status: 'fulfilled', value: { kind: 'created' } });
    });

    it('answers an unknown caller with an error and no one else', async () => {
      const account = await fundedAccount();
      const [unknown, known] = await Promise.allSettled([
        ledger.requestAgentFloat({ accountId: 'acct_nobody', request: floatRequest() }),
        ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      ]);
      expect(unknown).toMatchObject({ status: 'rejected', reason: { code: 'account_not_found' } });
      expect(known).toMatchObject({ status: 'fulfilled', value: { kind: 'created' } });
    });
  });

  describe('airtime', () => {
    it('moves no money at request time and is never blocked by the balance', async () => {
      const account = await fundedAccount(0n);
      const outcome = await ledger.requestAirtime({
        accountId: account.id,
        request: airtimeRequest({ amount: 500, payment_name: 'Otieno' }),
      });
      expect(outcome).toMatchObject({ kind: 'created', channel: { channel: 'airtime', availableMinor: 0n } });
      const transaction = created(outcome);
      expect(transaction).toMatchObject({
        type: 'Airtime',
        network: 'CarrierB',
        amountMinor: 50_000n,
        payment: { network: 'MoneyNetB', name: 'Otieno', mobile: '254711222333', email: '' },
        recipient: { agent_name: '', agent_number: '', store_number: '' },
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([]);
    });

    it('on completion collects the payment into the channel and pays the carrier', async () => {
      const account = await fundedAccount(0n);
      const carrierBefore = await systemAccount(test.store, 'system:carrier:CarrierB');
      const transaction = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ amount: 500 }) }),
      );
      const outcome = await ledger.complete(transaction.reference, { providerCode: 'QK41' });
      expect(outcome).toMatchObject({
        kind: 'resolved',
        transaction: { state: 'completed', messaging: { message: 'You have received KES 500.00 airtime' } },
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'single airtime_collection 50000',
        'single airtime_payout 50000',
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({ availableMinor: 0n });
      expect((await systemAccount(test.store, 'system:carrier:CarrierB')).posted).toBe(
        carrierBefore.posted + 50_000n,
      );
    });

    it("keeps the carrier's commission in the caller's Airtime channel", async () => {
      const account = await fundedAccount(0n);
      const transaction = created(
        await ledger.requestAirtime({
          accountId: account.id,
          request: airtimeRequest({ amount: 500, network: 'CarrierC' }),
        }),
      );
      await ledger.complete(transaction.reference, { providerCode: 'C1' });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'single airtime_collection 50000',
        'single airtime_payout 50000',
        'single airtime_commission 1250',
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({ availableMinor: 1_250n });
    });

    it('moves nothing when cancelled before the payment was taken', async () => {
      const account = await fundedAccount(0n);
      const transaction = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
      );
      await expect(
        ledger.cancel(transaction.reference, { reason: 'payment declined' }),
      ).resolves.toMatchObject({
        kind: 'resolved',
        transaction: { status: 'Cancelled', cancelReason: 'payment declined' },
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([]);
    });

    it('collects and refunds when cancelled after the payment was taken, so the payer nets zero', async () => {
      const account = await fundedAccount(0n);
      const collectionsBefore = await systemAccount(test.store, 'system:payer-collections');
      const transaction = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ amount: 80 }) }),
      );
      await ledger.cancel(transaction.reference, {
        reason: 'delivery failed after payment',
        paymentCollected: true,
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'single airtime_collection 8000',
        'single airtime_refund 8000',
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
        availableMinor: 0n,
        postedMinor: 0n,
      });
      expect(await systemAccount(test.store, 'system:payer-collections')).toEqual(collectionsBefore);
    });
    it('records the payment and its refund when a failure after payment comes for a purchase already cancelled', async () => {
      const account = await fundedAccount(0n);
      const collectionsBefore = await systemAccount(test.store, 'system:payer-collections');
      const transaction = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest({ amount: 80 }) }),
      );
      await ledger.cancel(transaction.reference, {
        reason: 'no result from the provider within the timeout',
      });
      expect(await transfersOf(test.store, transaction.reference)).toEqual([]);

      const late = { reason: 'delivery failed after payment', paymentCollected: true };
      await expect(ledger.cancel(transaction.reference, late)).resolves.toMatchObject({
        kind: 'already_resolved',
        transaction: { state: 'cancelled', cancelReason: 'no result from the provider within the timeout' },
      });
      await ledger.cancel(transaction.reference, late);
      expect(await transfersOf(test.store, transaction.reference)).toEqual([
        'single airtime_collection 8000',
        'single airtime_refund 8000',
      ]);
      await expect(ledger.balance(account.id, 'airtime')).resolves.toMatchObject({
        availableMinor: 0n,
        postedMinor: 0n,
      });
      expect(await systemAccount(test.store, 'system:payer-collections')).toEqual(collectionsBefore);
    });
  });

  describe('finding transactions', () => {
    it('shows a caller only its own transactions, and the operator any', async () => {
      const owner = await fundedAccount();
      const other = await fundedAccount();
      const transaction = created(
        await ledger.requestAgentFloat({ accountId: owner.id, request: floatRequest() }),
      );
      await expect(ledger.getTransaction(other.id, transaction.reference)).resolves.toBeUndefined();
      await expect(ledger.findTransaction(transaction.reference)).resolves.toEqual(transaction);
      await expect(ledger.findTransaction('TXNOSUCHTHING0')).resolves.toBeUndefined();
    });

    it('lists requested transactions past a cutoff, and the never-submitted ones among them', async () => {
      const account = await fundedAccount();
      clock = new Date('2025-11-21T10:00:00.000Z');
      const submitted = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      const silent = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
      );
      const resolved = created(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
      );
      clock = new Date('2025-11-21T10:30:00.000Z');
      const recent = created(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      await ledger.markSubmitted(submitted.reference);
      await ledger.markSubmitted(submitted.reference);
      await ledger.complete(resolved.reference, { providerCode: 'done' });

      const cutoff = new Date('2025-11-21T10:10:00.000Z');
      const expired = (await ledger.listExpired(cutoff, 1_000)).map((t) => t.reference);
      expect(expired).toEqual(expect.arrayContaining([submitted.reference, silent.reference]));
      expect(expired).not.toContain(resolved.reference);
      expect(expired).not.toContain(recent.reference);
      const unsubmitted = (await ledger.listUnsubmitted(cutoff, 1_000)).map((t) => t.reference);
      expect(unsubmitted).toContain(silent.reference);
      expect(unsubmitted).not.toContain(submitted.reference);
      expect((await ledger.findTransaction(submitted.reference))?.submittedAt).toEqual(clock);
      await expect(ledger.listExpired(cutoff, 1)).resolves.toHaveLength(1);
    });
  });
});
