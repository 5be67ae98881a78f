import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome } from './outcomes.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

function transactionOf(outcome: RequestOutcome) {
  if (outcome.kind !== 'created')
    throw new Error(`Expected a created transaction, received ${outcome.kind}.`);
  return outcome.transaction;
}

describe.each(testStoreKinds())('contacts on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store);
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  async function caller() {
    const account = await ledger.createAccount({ name: 'Contact Keeper' });
    await ledger.fund(account.id, 'float', 10_000_000n);
    return account;
  }

  it('remembers the name and e-mail a request gives for a mobile', async () => {
    const account = await caller();
    await ledger.requestAgentFloat({
      accountId: account.id,
      request: floatRequest({ mobile: '254700000001', name: 'Achieng', email: 'achieng@example.com' }),
    });
    await expect(ledger.findContact(account.id, '254700000001')).resolves.toMatchObject({
      accountId: account.id,
      mobile: '254700000001',
      name: 'Achieng',
      email: 'achieng@example.com',
    });
  });

  it('never erases a stored field with a blank one, and updates with a new one', async () => {
    const account = await caller();
    const mobile = '254700000002';
    await ledger.requestAgentFloat({
      accountId: account.id,
      request: floatRequest({ mobile, name: 'Baraka', email: 'b@example.com' }),
    });
    await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ mobile }) });
    await expect(ledger.findContact(account.id, mobile)).resolves.toMatchObject({
      name: 'Baraka',
      email: 'b@example.com',
    });
    await ledger.requestAgentFloat({
      accountId: account.id,
      request: floatRequest({ mobile, name: 'Baraka Otieno' }),
    });
    await expect(ledger.findContact(account.id, mobile)).resolves.toMatchObject({
      name: 'Baraka Otieno',
      email: 'b@example.com',
    });
  });

  it("fills a request's blank recipient name and e-mail from the contact", async () => {
    const account = await caller();
    const mobile = '254700000003';
    await ledger.requestAgentFloat({
      accountId: account.id,
      request: floatRequest({ mobile, name: 'Chebet', email: 'c@example.com' }),
    });
    const later = transactionOf(
      await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ mobile }) }),
    );
    expect(later.recipient).toMatchObject({ name: 'Chebet', email: 'c@example.com' });
    const renamed = transactionOf(
      await ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ mobile, name: 'Chebet K.' }),
      }),
    );
    expect(renamed.recipient).toMatchObject({ name: 'Chebet K.', email: 'c@example.com' });
  });

  it('keeps the recipient and the payer of an airtime purchase as contacts and fills both', async () => {
    const account = await caller();
    await ledger.requestAirtime({
      accountId: account.id,
      request: airtimeRequest({
        mobile: '254733000004',
        name: 'Recipient R',
        payment_mobile: '254711000004',
        payment_name: 'Payer P',
        payment_email: 'p@example.com',
      }),
    });
    const later = transactionOf(
      await ledger.requestAirtime({
        accountId: account.id,
        request: airtimeRequest({ mobile: '254733000004', payment_mobile: '254711000004' }),
      }),
    );
    expect(later.recipient.name).toBe('Recipient R');
    expect(later.payment).toMatchObject({ name: 'Payer P', email: 'p@example.com' });
  });

  it('merges requests for one contact in one batch, later non-blank values winning', async () => {
    const account = await caller();
    const mobile = '254700000005';
    await Promise.all([
      ledger.requestAgentFloat({
        accountId: account.id,
        request: floatRequest({ mobile, name: 'First', email: 'first@example.com' }),
      }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ mobile, name: 'Second' }) }),
      ledger.requestAgentFloat({ accountId: account.id, request: floatRequest({ mobile }) }),
    ]);
    await expect(ledger.findContact(account.id, mobile)).resolves.toMatchObject({
      name: 'Second',
      email: 'first@example.com',
    });
  });

  it("keeps one caller's contacts from another's", async () => {
    const [one, two] = [await caller(), await caller()];
    await ledger.requestAgentFloat({
      accountId: one.id,
      request: floatRequest({ mobile: '254700000006', name: 'Private' }),
    });
    await expect(ledger.findContact(two.id, '254700000006')).resolves.toBeUndefined();
    const other = transactionOf(
      await ledger.requestAgentFloat({
        accountId: two.id,
        request: floatRequest({ mobile: '254700000006' }),
      }),
    );
    expect(other.recipient.name).toBe('');
  });

  it('writes no contact for a request refused for insufficient balance', async () => {
    const account = await ledger.createAccount({ name: 'Broke' });
    await ledger.requestAgentFloat({
      accountId: account.id,
      request: floatRequest({ mobile: '254700000007', name: 'Nobody' }),
    });
    await expect(ledger.findContact(account.id, '254700000007')).resolves.toBeUndefined();
  });
});
