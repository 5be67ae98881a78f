import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { createLedger, type Ledger } from './ledger.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

describe.each(testStoreKinds())('verify on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let account: Account;
  let references: {
    requestedFloat: string;
    completedFloat: string;
    requestedAirtime: string;
    completedAirtime: string;
  };

  beforeEach(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store);
    account = await ledger.createAccount({ name: 'Audited' });
    await ledger.fund(account.id, 'float', 1_000_000n);
    const [requestedFloat, completedFloat, cancelledFloat] = await Promise.all(
      [1, 2, 3].map(async () =>
        referenceOf(await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() })),
      ),
    );
    const [requestedAirtime, completedAirtime, refunded] = await Promise.all(
      [1, 2, 3].map(async () =>
        referenceOf(await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() })),
      ),
    );
    await ledger.complete(completedFloat ?? '', { providerCode: 'A' });
    await ledger.cancel(cancelledFloat ?? '', { reason: 'no' });
    await ledger.complete(completedAirtime ?? '', { providerCode: 'B' });
    await ledger.cancel(refunded ?? '', { reason: 'failed after payment', paymentCollected: true });
    references = {
      requestedFloat: requestedFloat ?? '',
      completedFloat: completedFloat ?? '',
      requestedAirtime: requestedAirtime ?? '',
      completedAirtime: completedAirtime ?? '',
    };
  });
  afterEach(async () => {
    await ledger.close();
    await test.dispose();
  });

  it('finds no breach in a ledger the ledger itself wrote, and counts what it checked', async () => {
    await expect(ledger.verify()).resolves.toEqual({
      ok: true,
      breaches: [],
      checked: { ledgerAccounts: 12, transfers: 10, transactions: 6 },
    });
  });

  it('reports balances that no longer sum to zero or to their transfers', async () => {
    await test.store.query(
      `UPDATE ledger_accounts SET credits_posted = credits_posted + 7 WHERE account_id = $1 AND channel = 'float'`,
      [account.id],
    );
    const report = await ledger.verify();
    expect(report.ok).toBe(false);
    expect(report.breaches).toEqual([
      'posted balances of all accounts sum to 7 cents, expected 0',
      `caller:${account.id}:float: balance columns (debits posted 10000, credits posted 1000007, debits pending 10000, ` +
        'credits pending 0) differ from its transfers (10000, 1000000, 10000, 0)',
    ]);
  });

  it('reports a caller channel below zero', async () => {
    await test.store.query('ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_never_negative');
    await test.store.query(
      `UPDATE ledger_accounts SET debits_posted = debits_posted + 2000000 WHERE account_id = $1 AND channel = 'float'`,
      [account.id],
    );
    await test.store.query(
      `UPDATE ledger_accounts SET credits_posted = credits_posted + 2000000 WHERE id = 1`,
    );
    const report = await ledger.verify();
    expect(report.breaches).toContain(
      `caller:${account.id}:float: available balance is -1020000 cents, below zero`,
    );
  });

  it('reports terminal transactions without their resolution, and requested ones with one', async () => {
    await test.store.query(`UPDATE transactions SET state = 'completed' WHERE reference = ANY($1::text[])`, [
      [references.requestedFloat, references.requestedAirtime],
    ]);
    await test.store.query(`UPDATE transactions SET state = 'requested' WHERE reference = $1`, [
      references.completedAirtime,
    ]);
    const report = await ledger.verify();
    expect(report.breaches).toEqual(
      expect.arrayContaining([
        `transaction ${references.requestedFloat} (Agent Float, completed): expected one pending and one post, found 1 transfer(s): 1 pending, 0 post, 0 void`,
        `transaction ${references.requestedAirtime} (Airtime, completed): expected one collection and one payout (and at most one commission), found 0 transfer(s): 0 collection, 0 payout, 0 refund, 0 commission`,
        `transaction ${references.completedAirtime} (Airtime, requested): expected no transfer, found 2 transfer(s): 1 collection, 1 payout, 0 refund, 0 commission`,
      ]),
    );
    expect(report.breaches).toHaveLength(3);
  });

  it('reports a post that does not match its pending transfer, and a movement without a transaction', async () => {
    await test.store.query(
      `UPDATE transfers SET amount = amount + 1 WHERE kind = 'post' AND reference = $1`,
      [references.completedFloat],
    );
    await test.store.query(
      `UPDATE transfers SET reference = NULL WHERE kind = 'pending' AND reference = $1`,
      [references.requestedFloat],
    );
    const report = await ledger.verify();
    expect(report.breaches).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^transfer \d+ resolves transfer \d+ but does not match it/),
        '1 transfer(s) are funding with a transaction reference, or a movement without one',
        expect.stringContaining(
          `transaction ${references.completedFloat} (Agent Float, completed): expected one pending and one post`,
        ),
        expect.stringContaining(
          `transaction ${references.requestedFloat} (Agent Float, requested): expected one pending transfer only`,
        ),
      ]),
    );
  });
});
