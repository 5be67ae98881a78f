// Live mode against the fake Daraja and the fake Africa's Talking: an airtime purchase carried as three
// legs by two providers, from the caller's request to its resolution. M-Pesa collects the payer's payment by
// STK push, Africa's Talking delivers the airtime keyed by the delivery leg's id, and M-Pesa reverses the
// payment when the delivery fails. The service runs as configured for production (PROVIDERS, PUBLIC_BASE_URL,
// DARAJA_*, AT_*); both fakes check every call as their providers would and call back over HTTP to the
// webhook routes. How a payment ends is scripted by the last four digits of the payer's number
// (fake-stk-scripts.ts), how a delivery ends by the recipient's (fake-airtime-scripts.ts). On each store.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NOT_DELIVERED_REFUNDED, type Store } from '@topup/ledger';
import {
  startLiveFakes,
  type FakeAfricasTalking,
  type FakeDaraja,
  type LiveFakes,
} from '@topup/providers/fakes';
import { decodeJsonEnvelope } from '@topup/envelope';
import { verifyCallback } from '@topup/signing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startCallbackSink } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { freePort } from './testing/free-port.js';
import { startTestService, type TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

/** A self-signed certificate for 127.0.0.1: the callback receiver's, trusted through CALLBACK_CA_FILE. */
const receiverCertificate = fileURLToPath(
  new URL('./fixtures/loopback-receiver-certificate.pem', import.meta.url),
);
const receiverTls = {
  cert: readFileSync(receiverCertificate, 'utf8'),
  key: readFileSync(new URL('./fixtures/loopback-receiver-key.pem', import.meta.url), 'utf8'),
};
const webhookToken = 'wh_live_airtime_0123456789abcdef012';

/** The fakes on loopback for a service on `port`, and that service's environment. */
async function fakesFor(port: number): Promise<{ fakes: LiveFakes; env: Record<string, string> }> {
  const fakes = await startLiveFakes({
    publicBaseUrl: `http://127.0.0.1:${String(port)}`,
    webhookToken,
    delayMs: 50,
  });
  return {
    fakes,
    env: {
      ...fakes.environment,
      PORT: String(port),
      PROVIDER_QUERY_AFTER_SECONDS: '1',
      CALLBACK_CA_FILE: receiverCertificate,
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
    },
  };
}

/** A purchase of 50 KES of Safaricom airtime for `recipient`, paid by `payer` on M-Pesa. */
function purchase(payer: string, recipient: string) {
  return {
    mobile: recipient,
    amount: '50',
    network: 'CarrierA',
    payment_network: 'MoneyNetA',
    payment_mobile: payer,
  };
}

describe.each(openTestStores())(
  'airtime through M-Pesa and Africa’s Talking in live mode, on $name',
  (stores) => {
    let store: Store;
    let fakes: LiveFakes;
    let daraja: FakeDaraja;
    let africasTalking: FakeAfricasTalking;
    let service: TestService;

    beforeAll(async () => {
      store = await stores.open();
      const started = await fakesFor(await freePort());
      ({ fakes } = started);
      ({ daraja, africasTalking } = fakes);
      service = await startTestService(store, {
        worker: true,
        workerSettings: { pollIntervalMs: 50, resultPollIntervalMs: 50 },
        env: started.env,
      });
    }, 60_000);
    afterAll(async () => {
      await service.stop();
      await fakes.close();
      await stores.close(store);
    });

    async function buy(payer: string, recipient: string) {
      const { account, token } = await service.createCaller();
      const envelope = await envelopeOf(
        await service.call('buy_airtime', { token, json: purchase(payer, recipient) }),
      );
      const reference = (envelope.data['transaction'] as { reference: string } | undefined)?.reference ?? '';
      return { account, envelope, reference };
    }

    async function settled(accountId: string, reference: string) {
      return eventually(
        `${reference} to be resolved`,
        async () => {
          const transaction = await service.ledger.getTransaction(accountId, reference);
          return transaction?.state === 'requested' ? undefined : transaction;
        },
        20_000,
      );
    }

    const legsOf = async (reference: string) =>
      (await service.ledger.legs(reference)).map((leg) => `${leg.kind}:${leg.state}:${leg.provider}`);
    const sendsFor = (reference: string) =>
      africasTalking.requests.filter(
        (request) =>
          request.path === '/version1/airtime/send' &&
          request.headers.idempotencyKey === `${reference}-delivery`,
      );

    it('collects the payment by STK push, delivers the airtime keyed by its leg, and completes', async () => {
      const { account, envelope, reference } = await buy('254712340100', '254711080100');
      expect(envelope.status.code).toBe('0000');
      const push = daraja.requests.find(
        (request) =>
          request.path === '/mpesa/stkpush/v1/processrequest' &&
          (request.body as { PhoneNumber?: unknown }).PhoneNumber === '254712340100',
      );
      expect(push?.body).toMatchObject({
        BusinessShortCode: '600992',
        PartyA: '254712340100',
        TransactionType: 'CustomerPayBillOnline',
        Amount: 50,
        PartyB: '600992',
        CallBackURL: `${String(service.config.publicBaseUrl)}/providers/daraja/${webhookToken}/stk`,
      });
      const transaction = await settled(account.id, reference);
      expect(transaction.state).toBe('completed');
      expect(sendsFor(reference)).toHaveLength(1);
      expect(await legsOf(reference)).toEqual([
        'payment:succeeded:daraja',
        'delivery:succeeded:africastalking',
      ]);
      const [payment] = await service.ledger.legs(reference);
      expect(payment?.providerReference).toMatch(/\S/);
      expect((await service.ledger.verify()).ok).toBe(true);
    });

    it('cancels a purchase whose payer cancels the prompt, sending no airtime', async () => {
      const { account, reference } = await buy('254712341032', '254711080101');
      const transaction = await settled(account.id, reference);
      expect(transaction).toMatchObject({ state: 'cancelled', code: '1032' });
      expect(sendsFor(reference)).toHaveLength(0);
      expect(await legsOf(reference)).toEqual(['payment:failed:daraja']);
    });

    it.each([
      ['1037', '1037', "the payer's phone could not be reached with the payment prompt"],
      ['0001', '1', "the payer's M-Pesa balance was insufficient"],
      ['2001', '2001', 'the payer entered a wrong M-Pesa PIN'],
      ['0017', '17', 'the same amount was requested from this payer within the last two minutes'],
      [
        '0003',
        'SFC_IC0003',
        'M-Pesa does not know the paybill or till paid (wrong TransactionType or PartyB)',
      ],
    ])(
      'cancels a purchase whose payer ends %s with result code %s, naming why',
      async (ending, code, reason) => {
        const { account, reference } = await buy(`25471234${ending}`, '254711080108');
        const transaction = await settled(account.id, reference);
        expect(transaction).toMatchObject({ state: 'cancelled', code, cancelReason: reason });
        expect(sendsFor(reference)).toHaveLength(0);
      },
    );

    it('keeps a purchase whose prompt’s acknowledgement was lost requested, asks about it, and never prompts again', async () => {
      const payer = '254712349006';
      const { account, envelope, reference } = await buy(payer, '254711080111');
      // The prompt may have reached the payer: cancelling could refund money being paid, so it stays.
      expect(envelope.status.code).toBe('0000');
      const leg = await eventually('the payment leg to be asked about', async () => {
        const [payment] = await service.ledger.legs(reference);
        return payment !== undefined && payment.queries > 0 ? payment : undefined;
      });
      expect(leg).toMatchObject({ kind: 'payment', state: 'unknown', provider: 'daraja' });
      const prompts = daraja.requests.filter(
        (request) =>
          request.path === '/mpesa/stkpush/v1/processrequest' &&
          (request.body as { PhoneNumber?: unknown }).PhoneNumber === payer,
      );
      expect(prompts).toHaveLength(1);
      expect(await service.ledger.getTransaction(account.id, reference)).toMatchObject({
        state: 'requested',
      });
      expect(sendsFor(reference)).toHaveLength(0);
    });

    it('takes a Daraja token another process renewed without failing the purchase', async () => {
      daraja.issueTokenElsewhere();
      const { account, envelope, reference } = await buy('254712340109', '254711080109');
      expect(envelope.status.code).toBe('0000');
      expect((await settled(account.id, reference)).state).toBe('completed');
    });

    it('reverses the payment when the carrier fails to deliver, then cancels the purchase as refunded', async () => {
      const { account, reference } = await buy('254712340102', '254711080005');
      const transaction = await settled(account.id, reference);
      expect(transaction).toMatchObject({ state: 'cancelled', cancelReason: NOT_DELIVERED_REFUNDED });
      expect(await legsOf(reference)).toEqual([
        'payment:succeeded:daraja',
        'delivery:failed:africastalking',
        'refund:succeeded:daraja',
      ]);
      const [payment] = await service.ledger.legs(reference);
      const reversal = daraja.requests.find(
        (request) =>
          request.path === '/mpesa/reversal/v1/request' &&
          (request.body as { TransactionID?: string }).TransactionID === payment?.providerReference,
      );
      expect(reversal?.body).toMatchObject({ CommandID: 'TransactionReversal', Amount: 50 });
      expect((await service.ledger.verify()).ok).toBe(true);
    });

    it('recovers a lost payment callback by STK Query and a lost delivery callback by transaction query', async () => {
      const lostPayment = await buy('254712349003', '254711080103');
      const lostDelivery = await buy('254712340104', '254711089003');
      expect((await settled(lostPayment.account.id, lostPayment.reference)).state).toBe('completed');
      expect((await settled(lostDelivery.account.id, lostDelivery.reference)).state).toBe('completed');
      expect(daraja.requests.some((request) => request.path === '/mpesa/stkpushquery/v1/query')).toBe(true);
      expect(africasTalking.requests.some((request) => request.path === '/query/transaction/find')).toBe(
        true,
      );
    });

    it('applies callbacks that came twice, or before the acknowledgement, exactly once', async () => {
      const twice = await buy('254712349001', '254711089001');
      const early = await buy('254712349002', '254711089002');
      expect((await settled(twice.account.id, twice.reference)).state).toBe('completed');
      expect((await settled(early.account.id, early.reference)).state).toBe('completed');
      expect(sendsFor(twice.reference)).toHaveLength(1);
      expect((await service.ledger.verify()).ok).toBe(true);
    });

    it('sends airtime from the balance through Africa’s Talking, each recipient keyed by its own leg', async () => {
      const { account, token } = await service.createCaller();
      await service.ledger.fund(account.id, 'airtime', 100_000n);
      const prompts = () =>
        daraja.requests.filter((request) => request.path === '/mpesa/stkpush/v1/processrequest').length;
      const promptsBefore = prompts();
      const recipients = ['254711081200', '254711080006', '254711089003'];
      const envelope = await envelopeOf(
        await service.call('send_airtime', {
          token,
          json: { recipients: recipients.map((mobile) => ({ mobile, amount: '100', network: 'CarrierA' })) },
        }),
      );
      expect(envelope.status.code).toBe('0000');
      const references = (envelope.data['transactions'] as { reference: string }[]).map(
        (entry) => entry.reference,
      );
      expect(references).toHaveLength(3);
      const [delivered, failed, lostCallback] = await Promise.all(
        references.map((reference) => settled(account.id, reference)),
      );
      // 0006: the carrier fails it; 9003: its status callback is lost and the transaction query finds it.
      expect([delivered?.state, failed?.state, lostCallback?.state]).toEqual([
        'completed',
        'cancelled',
        'completed',
      ]);
      expect(failed?.cancelReason).toBe('Insufficient balance in the airtime wallet');
      for (const reference of references) expect(sendsFor(reference)).toHaveLength(1);
      expect(await legsOf(references[0] ?? '')).toEqual(['delivery:succeeded:africastalking']);
      expect(await legsOf(references[1] ?? '')).toEqual(['delivery:failed:africastalking']);
      // No payer: no prompt went to M-Pesa, and only the two delivered recipients left the balance.
      expect(prompts()).toBe(promptsBefore);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(80_000n);
      expect((await service.ledger.verify()).ok).toBe(true);
    });

    it('takes the purchase in XML as in JSON, and answers in XML', async () => {
      const { account, token } = await service.createCaller();
      const response = await service.call('buy_airtime', {
        token,
        body: xmlBody(purchase('254712340105', '254711080105')),
        headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
      });
      expect(response.headers.get('content-type')).toMatch(/xml/);
      const text = await response.text();
      expect(text).toContain('<code>0000</code>');
      const reference = /<reference>(TX[A-Z0-9]+)<\/reference>/.exec(text)?.[1] ?? '';
      expect((await settled(account.id, reference)).state).toBe('completed');
    });

    it.each([
      ['delivered', '254712340106', '254711080106', 'SUCCESS', '0000'],
      // Not 254711080005 again: AT refuses the same number and amount within five minutes as a duplicate.
      ['refunded', '254712340107', '254711090005', 'FAIL', '8000'],
    ])('calls back over https, signed, when a purchase is %s', async (_end, payer, recipient, type, code) => {
      const sink = await startCallbackSink(undefined, receiverTls);
      onTestFinished(() => sink.close());
      const { account, token } = await service.createCaller();
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', { token, json: { url: sink.url, format: 'json' } }),
      );
      expect(added.status.code).toBe('0000');
      const { secret } = added.data['endpoint'] as { secret: string };
      const bought = await envelopeOf(
        await service.call('buy_airtime', { token, json: purchase(payer, recipient) }),
      );
      const reference = (bought.data['transaction'] as { reference: string }).reference;
      await settled(account.id, reference);
      const callback = await eventually('the callback to arrive', () =>
        sink.arrived.find((arrived) => arrived.reference === reference),
      );
      const headers = Object.fromEntries(
        Object.entries(callback.headers).map(([name, value]) => [name, String(value)]),
      );
      expect(verifyCallback({ secrets: [secret], headers, body: callback.body }).ok).toBe(true);
      expect(decodeJsonEnvelope(callback.body).status).toMatchObject({ type, code });
    });
  },
);

describe.each(openTestStores())('airtime in live mode while M-Pesa cannot be reached, on $name', (stores) => {
  it('answers 9000 and frees the Idempotency-Key, half-writing nothing, since no prompt was sent', async () => {
    const store = await stores.open();
    // The fakes are closed at once: every call to either provider is refused before it is sent.
    const { fakes, env } = await fakesFor(await freePort());
    await fakes.close();
    const service = await startTestService(store, { env });
    try {
      const { account, token } = await service.createCaller();
      const headers = { 'Idempotency-Key': 'airtime-unreachable' };
      const request = { token, json: purchase('254712340110', '254711080110'), headers };
      const envelope = await envelopeOf(await service.call('buy_airtime', request));
      expect(envelope.status.code).toBe('9000');
      expect(envelope.data.errors).toEqual(['M-Pesa did not take the transaction']);
      const retry = await service.call('buy_airtime', request);
      expect(retry.headers.get('idempotency-replayed')).toBeNull();
      expect(await service.ledger.balance(account.id, 'airtime')).toMatchObject({
        postedMinor: 0n,
        pendingMinor: 0n,
      });
      expect((await service.ledger.verify()).ok).toBe(true);
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });
});
