// The Daraja provider carrying an airtime purchase's payment leg (STK Push) and refund leg (Reversal),
// against the fake Daraja over real HTTP on loopback: what it records, how Daraja's callbacks and Results
// reach it back through its webhooks (a small receiver stands in for the server's route), and what asking
// about a leg answers.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLedger, legId, openStore } from '@topup/ledger';
import type { Ledger, Store, TransactionRecord } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDaraja, type FakeDaraja } from '../fakes/fake-daraja.js';
import type { LegOrder, Provider, ProviderReport } from '../provider.js';
import { migrateProviders } from '../provider-migrations.js';
import { submissionIdOf } from '../submission-ids.js';
import { requestAirtime, requestFloat } from '../testing/recorded-transactions.js';
import { createDarajaProvider, type DarajaProviderOptions } from './daraja-provider.js';
import { darajaWebhooks } from './daraja-webhooks.js';
import { securityCredential } from './security-credential.js';

const app = { shortCode: '174379', passkey: 'fake-passkey' };
const credentials = { consumerKey: 'key', consumerSecret: 'secret' };
const promptMs = 50;
const certificate = readFileSync(
  new URL('../fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
  'utf8',
);
const recipient = '254733123456';

describe('the Daraja provider’s airtime legs', () => {
  let fake: FakeDaraja;
  let store: Store;
  let ledger: Ledger;
  let accountId: string;
  let receiver: Server;
  let options: DarajaProviderOptions;
  let daraja: Provider;
  const reports: ProviderReport[] = [];

  beforeAll(async () => {
    fake = await startFakeDaraja({ ...credentials, ...app, promptMs });
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
    ledger = createLedger(store);
    accountId = (await ledger.createAccount({ name: 'Duka Ltd' })).id;
    // The server's webhook route, as far as a provider sees it: the call read by its webhooks.
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const event = darajaWebhooks.parse({
          event: (request.url ?? '').split('/').pop() ?? '',
          contentType: request.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (event.kind === 'reports') reports.push(...event.reports);
        const reply = darajaWebhooks.reply(event);
        response.writeHead(reply.status, { 'Content-Type': reply.contentType });
        response.end(reply.body);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    options = {
      store,
      endpoint: { baseUrl: fake.url, timeoutMs: 2_000 },
      credentials,
      shortCode: app.shortCode,
      initiatorName: 'testapi',
      securityCredential: securityCredential('Safaricom999!*!', certificate),
      b2bCommandId: 'BusinessBuyGoods',
      webhookUrl: `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/providers/daraja/token`,
      stk: { passkey: app.passkey, transactionType: 'CustomerPayBillOnline', partyB: app.shortCode },
    };
    daraja = createDarajaProvider(options);
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) =>
      receiver.close(() => {
        resolve();
      }),
    );
    await ledger.close();
    await store.close();
  });

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The reports about `providerId` once `count` have come (or three seconds have passed). */
  async function reportsAbout(providerId: string, count = 1): Promise<ProviderReport[]> {
    const about = () => reports.filter((report) => report.providerId === providerId);
    const deadline = Date.now() + 3_000;
    while (about().length < count && Date.now() < deadline) await wait(10);
    return about();
  }

  /** The id recorded for the submission of `reference`, which must have been recorded. */
  async function recordedFor(reference: string) {
    const recorded = await submissionIdOf(store, 'daraja', reference);
    if (recorded === undefined) throw new Error(`Expected an id recorded for ${reference}, found none.`);
    return recorded;
  }

  /** An airtime purchase paid by `payer`, its prompt accepted. */
  async function prompted(
    payer: string,
  ): Promise<{ transaction: TransactionRecord; checkoutRequestId: string }> {
    const transaction = await requestAirtime(ledger, accountId, recipient, payer);
    expect(await daraja.submit(transaction)).toEqual({ kind: 'accepted' });
    const recorded = await recordedFor(legId(transaction.reference, 'payment'));
    return { transaction, checkoutRequestId: recorded.providerId };
  }

  /** An airtime purchase paid, and the M-Pesa receipt its callback reported. */
  async function paid(): Promise<{ transaction: TransactionRecord; receipt: string }> {
    const { transaction, checkoutRequestId } = await prompted('254708374149');
    const [report] = await reportsAbout(checkoutRequestId);
    if (report?.outcome !== 'completed') throw new Error('Expected the prompt paid.');
    return { transaction, receipt: report.providerCode };
  }

  const refund = (transaction: TransactionRecord, paymentReference: string): LegOrder => ({
    id: legId(transaction.reference, 'refund'),
    kind: 'refund',
    transaction,
    paymentReference,
  });

  it('prompts the payer for the amount and records the CheckoutRequestID under the payment leg id', async () => {
    const before = fake.requests.length;
    const { transaction, checkoutRequestId } = await prompted('254708374149');
    const [push, ...more] = fake.requests.slice(before).filter((request) => request.path.includes('stkpush'));
    expect(more).toEqual([]);
    expect(push?.body).toMatchObject({
      BusinessShortCode: app.shortCode,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 50,
      PartyA: '254708374149',
      PartyB: app.shortCode,
      PhoneNumber: '254708374149',
      CallBackURL: `${options.webhookUrl}/stk`,
      AccountReference: transaction.reference.slice(-12),
      TransactionDesc: 'Airtime',
    });
    expect(await recordedFor(legId(transaction.reference, 'payment'))).toEqual({
      provider: 'daraja',
      providerId: checkoutRequestId,
      reference: legId(transaction.reference, 'payment'),
      purpose: 'submission',
      otherId: expect.stringMatching(/^\d+-\d+-1$/) as unknown,
    });
    expect(checkoutRequestId).toMatch(/^ws_CO_/);
  });

  it('does not prompt the payer again when the same purchase is submitted again', async () => {
    const { transaction } = await prompted('254708374149');
    const before = fake.requests.length;
    expect(await daraja.submit(transaction)).toEqual({ kind: 'accepted' });
    expect(fake.requests.length).toBe(before);
  });

  it('reads a paid prompt’s callback as a completed payment carrying its M-Pesa receipt', async () => {
    const { checkoutRequestId } = await prompted('254708374149');
    const [report, ...more] = await reportsAbout(checkoutRequestId);
    expect(more).toEqual([]);
    expect(report).toEqual({
      id: `stk:${checkoutRequestId}`,
      providerId: checkoutRequestId,
      about: 'submission',
      outcome: 'completed',
      providerCode: expect.stringMatching(/^TK[0-9A-F]{8}$/) as unknown,
      reason: '',
      evidence: { amountMinor: 5_000n, mobile: '254708374149' },
    });
  });

  it('reads the callback of a payer who cancels (1032) as a declined payment', async () => {
    const { checkoutRequestId } = await prompted('254708371032');
    expect(await reportsAbout(checkoutRequestId)).toEqual([
      {
        id: `stk:${checkoutRequestId}`,
        providerId: checkoutRequestId,
        about: 'submission',
        outcome: 'declined',
        providerCode: '1032',
        reason: 'the payer cancelled the payment prompt',
      },
    ]);
  });

  it('has the CheckoutRequestID recorded by the time a callback that overtook the acknowledgement is read', async () => {
    const { checkoutRequestId } = await prompted('254708379002');
    expect(await reportsAbout(checkoutRequestId)).toMatchObject([{ outcome: 'completed' }]);
  });

  it('answers a query about a prompt still open pending', async () => {
    const { transaction } = await prompted('254708379004');
    expect(await daraja.query(transaction.reference)).toEqual({ kind: 'pending' });
    expect(await daraja.queryLeg?.(legId(transaction.reference, 'payment'))).toEqual({ kind: 'pending' });
  });

  it('answers a query about a prompt that ended with its result, naming the payment leg', async () => {
    // 9003's callback is lost: only STK Query tells.
    const { transaction, checkoutRequestId } = await prompted('254708379003');
    await wait(promptMs * 3);
    expect(await daraja.query(transaction.reference)).toEqual({
      kind: 'result',
      result: {
        id: `stk-query:${checkoutRequestId}`,
        reference: legId(transaction.reference, 'payment'),
        outcome: 'completed',
        providerCode: '',
        reason: '',
      },
    });
    expect(reports.filter((report) => report.providerId === checkoutRequestId)).toEqual([]);
  });

  it('answers a leg query about a cancelled prompt with a declined payment and its result code', async () => {
    const { transaction } = await prompted('254708371032');
    await wait(promptMs * 3);
    expect(await daraja.queryLeg?.(legId(transaction.reference, 'payment'))).toMatchObject({
      kind: 'result',
      result: {
        reference: legId(transaction.reference, 'payment'),
        outcome: 'declined',
        providerCode: '1032',
        reason: 'the payer cancelled the payment prompt',
      },
    });
  });

  it('reverses a paid receipt and reads its Result as a completed refund, a second reversal’s R000001 too', async () => {
    const { transaction, receipt } = await paid();
    const order = refund(transaction, receipt);
    expect(daraja.laterLegs).toEqual(['refund']);
    expect(await daraja.submitLeg?.(order)).toEqual({ kind: 'accepted' });
    const reversal = await recordedFor(order.id);
    expect(reversal).toMatchObject({ reference: order.id, purpose: 'submission' });
    const [report] = await reportsAbout(reversal.providerId);
    const held = fake.reversals.find((one) => one.conversationId === reversal.providerId);
    expect(held).toMatchObject({ receipt, amount: 50, resultCode: 0, ended: true });
    expect(report).toEqual({
      id: `result:${reversal.providerId}`,
      providerId: reversal.providerId,
      about: 'submission',
      outcome: 'completed',
      providerCode: held?.reversalReceipt,
      reason: '',
      evidence: { amountMinor: 5_000n },
    });
    expect(fake.requests.at(-1)?.body).toMatchObject({
      CommandID: 'TransactionReversal',
      TransactionID: receipt,
      Amount: 50,
      // The short code the payer paid: the paybill, here the short code itself.
      ReceiverParty: app.shortCode,
      Remarks: 'Airtime not delivered',
    });

    // The same receipt refunded under another purchase's leg: M-Pesa says it is reversed already.
    const other = await requestAirtime(ledger, accountId, recipient, '254708374149');
    const again = refund(other, receipt);
    expect(await daraja.submitLeg?.(again)).toEqual({ kind: 'accepted' });
    const second = await recordedFor(again.id);
    expect(await reportsAbout(second.providerId)).toMatchObject([
      { about: 'submission', outcome: 'completed', providerCode: 'R000001' },
    ]);
  });

  it.each([
    ['a paybill other than the short code', 'CustomerPayBillOnline', '174380', '174380'],
    [
      'a till, whose payments the store’s short code receives',
      'CustomerBuyGoodsOnline',
      '5123456',
      app.shortCode,
    ],
  ] as const)(
    'names the short code paid as the reversal’s ReceiverParty when collecting on %s',
    async (_case, transactionType, partyB, receiverParty) => {
      const collecting = createDarajaProvider({
        ...options,
        stk: { passkey: app.passkey, transactionType, partyB },
      });
      const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
      expect(await collecting.submit(transaction)).toEqual({ kind: 'accepted' });
      const prompt = await recordedFor(legId(transaction.reference, 'payment'));
      const [payment] = await reportsAbout(prompt.providerId);
      const order = refund(transaction, payment?.providerCode ?? '');
      expect(await collecting.submitLeg?.(order)).toEqual({ kind: 'accepted' });
      expect(fake.requests.at(-1)?.body).toMatchObject({ ReceiverParty: receiverParty });
      const reversal = await recordedFor(order.id);
      expect(await reportsAbout(reversal.providerId)).toMatchObject([{ outcome: 'completed' }]);
    },
  );

  it('pays float from the disbursement short code as its initiator, and asks about it as that initiator', async () => {
    const split = await startFakeDaraja({
      ...credentials,
      ...app,
      promptMs,
      b2b: { shortCode: '700700', initiatorName: 'floatapi', initiatorPassword: 'float password' },
    });
    try {
      const floats = createDarajaProvider({
        ...options,
        endpoint: { baseUrl: split.url, timeoutMs: 2_000 },
        b2b: {
          shortCode: '700700',
          initiatorName: 'floatapi',
          securityCredential: securityCredential('float password', certificate),
        },
      });
      await ledger.fund(accountId, 'float', 10_000n);
      const float = await requestFloat(ledger, accountId, '254712300002');
      expect(await floats.submit(float)).toEqual({ kind: 'accepted' });
      expect(split.requests.at(-1)?.body).toMatchObject({ Initiator: 'floatapi', PartyA: '700700' });
      expect(await floats.query(float.reference)).toEqual({ kind: 'pending' });
      expect(split.requests.at(-1)).toMatchObject({
        path: '/mpesa/transactionstatus/v1/query',
        body: { Initiator: 'floatapi', PartyA: '700700' },
      });
      const payment = await recordedFor(float.reference);
      expect(await reportsAbout(payment.providerId)).toMatchObject([
        { outcome: 'completed', evidence: { amountMinor: 10_000n, partyCode: '765432' } },
      ]);
    } finally {
      await split.close();
    }
  });

  it('does not reverse again when the same refund leg is submitted again', async () => {
    const { transaction, receipt } = await paid();
    expect(await daraja.submitLeg?.(refund(transaction, receipt))).toEqual({ kind: 'accepted' });
    const before = fake.requests.length;
    expect(await daraja.submitLeg?.(refund(transaction, receipt))).toEqual({ kind: 'accepted' });
    expect(fake.requests.length).toBe(before);
  });

  it('reads the reversal of a receipt M-Pesa never issued as a declined refund', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
    const order = refund(transaction, 'TK00000000');
    expect(await daraja.submitLeg?.(order)).toEqual({ kind: 'accepted' });
    const reversal = await recordedFor(order.id);
    expect(await reportsAbout(reversal.providerId)).toMatchObject([
      { outcome: 'declined', providerCode: 'R000002', reason: 'declined by M-Pesa' },
    ]);
  });

  it('refuses a refund without a receipt without calling Daraja', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
    const before = fake.requests.length;
    expect(await daraja.submitLeg?.(refund(transaction, ''))).toEqual({
      kind: 'refused',
      reason: 'no M-Pesa receipt to reverse',
      providerCode: 'NO_RECEIPT',
    });
    expect(fake.requests.length).toBe(before);
  });

  it('asks Transaction Status about a refund leg, whose pushed answer reports the reversal completed', async () => {
    const { transaction, receipt } = await paid();
    const order = refund(transaction, receipt);
    await daraja.submitLeg?.(order);
    const reversal = await recordedFor(order.id);
    await reportsAbout(reversal.providerId);
    expect(await daraja.queryLeg?.(order.id)).toEqual({ kind: 'pending' });
    const asked = fake.requests.filter((request) => request.path.includes('transactionstatus')).at(-1);
    expect(asked?.body).toMatchObject({ OriginalConversationID: reversal.otherId });
    // The status query's own id, recorded for the refund leg as a status query.
    const { rows } = await store.query<{ provider_id: string }>(
      `SELECT provider_id FROM provider_submission_ids WHERE reference = $1 AND purpose = 'status'`,
      [order.id],
    );
    const queryId = rows[0]?.provider_id ?? '';
    const held = fake.reversals.find((one) => one.conversationId === reversal.providerId);
    expect(await reportsAbout(queryId)).toEqual([
      {
        id: `result:${queryId}`,
        providerId: queryId,
        about: 'status',
        outcome: 'completed',
        providerCode: held?.reversalReceipt,
        reason: '',
        evidence: { amountMinor: 5_000n, mobile: '254708374149' },
      },
    ]);
  });

  it('throws when asked about a leg it has no recorded id for', async () => {
    await expect(daraja.queryLeg?.('TXNOTSUBMITTED-payment')).rejects.toThrow(/CheckoutRequestID/);
    await expect(daraja.queryLeg?.('TXNOTSUBMITTED-refund')).rejects.toThrow(/ConversationID/);
    await expect(daraja.queryLeg?.('TXNOTSUBMITTED-delivery')).rejects.toThrow(/payment or refund/);
  });

  it('finds a transaction it never sent not_found, so it may be sent now', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
    expect(await daraja.query(transaction.reference)).toEqual({ kind: 'not_found' });
  });

  it('cannot be asked about a prompt sent whose acknowledgement was lost, and never calls it not found', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708379006');
    const prompts = () =>
      fake.requests.filter(
        (request) =>
          request.path === '/mpesa/stkpush/v1/processrequest' &&
          (request.body as { PhoneNumber?: unknown }).PhoneNumber === '254708379006',
      ).length;
    expect(await daraja.submit(transaction)).toMatchObject({ kind: 'unavailable' });
    const again = await daraja.submit(transaction);
    expect(again).toMatchObject({ kind: 'unavailable' });
    expect(again).not.toHaveProperty('taken');
    expect(prompts()).toBe(1);
    await expect(daraja.query(transaction.reference)).rejects.toThrow(/acknowledgement never arrived/);
  });

  it('takes no delivery leg, and no airtime without the STK settings', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
    const notTaken = { kind: 'unavailable', reason: 'M-Pesa did not take the transaction', taken: false };
    expect(
      await daraja.submitLeg?.({
        ...refund(transaction, ''),
        id: legId(transaction.reference, 'delivery'),
        kind: 'delivery',
      }),
    ).toEqual(notTaken);
    const { stk: _stk, ...withoutStk } = options;
    expect(await createDarajaProvider(withoutStk).submit(transaction)).toEqual(notTaken);
  });

  it('refuses an amount with cents without prompting the payer', async () => {
    const transaction = await requestAirtime(ledger, accountId, recipient, '254708374149');
    const before = fake.requests.length;
    expect(await daraja.submit({ ...transaction, amountMinor: 5_050n })).toEqual({
      kind: 'refused',
      reason: 'M-Pesa moves whole shillings only',
      providerCode: 'AMOUNT',
    });
    expect(fake.requests.length).toBe(before);
  });
});
