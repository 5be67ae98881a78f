// Live mode against the fake Daraja: agent float carried as a B2B payment, from the caller's request to the
// resolution its callback announces (live mode calls back over https only, which a loopback test receiver
// is not; delivery itself is the same in every mode and tested on its own). The service runs as configured for production (PROVIDERS, PUBLIC_BASE_URL, DARAJA_*,
// the initiator's credential encrypted with the certificate), the fake checks every call as Daraja would,
// and its Results come back over HTTP to the webhook route. How each B2B ends is scripted by the last four
// digits of the agent's store number (fake-b2b-scripts.ts). On each store.

import { fileURLToPath } from 'node:url';
import type { Store } from '@topup/ledger';
import { startFakeDaraja, type FakeDaraja } from '@topup/providers/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './testing/eventually.js';
import { freePort } from './testing/free-port.js';
import { startTestService, type TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

const certificate = fileURLToPath(
  new URL('../../../packages/providers/src/fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
);
const app = { consumerKey: 'topup-key', consumerSecret: 'topup-secret', shortCode: '600992', passkey: 'pk' };
const initiator = { initiatorName: 'topupapi', initiatorPassword: 'Initiator#2026' };

/**
 * The environment of a service in live mode whose Daraja is at `darajaUrl`; Daraja's callbacks come from
 * loopback here, not from Safaricom's addresses.
 */
function liveEnvironment(
  port: number,
  darajaUrl: string,
  allowedSources = '127.0.0.1',
): Record<string, string> {
  return {
    DARAJA_ALLOWED_SOURCES: allowedSources,
    PORT: String(port),
    TOPUP_MODE: 'live',
    PROVIDERS: 'MoneyNetA=daraja',
    PUBLIC_BASE_URL: `http://127.0.0.1:${String(port)}`,
    PROVIDER_WEBHOOK_TOKEN: 'wh_live_daraja_0123456789abcdef0123',
    PROVIDER_QUERY_AFTER_SECONDS: '1',
    DARAJA_BASE_URL: darajaUrl,
    DARAJA_CONSUMER_KEY: app.consumerKey,
    DARAJA_CONSUMER_SECRET: app.consumerSecret,
    DARAJA_SHORTCODE: app.shortCode,
    DARAJA_INITIATOR_NAME: initiator.initiatorName,
    DARAJA_INITIATOR_PASSWORD: initiator.initiatorPassword,
    DARAJA_CERTIFICATE: certificate,
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
  };
}

function float(storeNumber: string) {
  return {
    mobile: '254712345678',
    amount: '1500',
    network: 'MoneyNetA',
    agent_number: '300300',
    store_number: storeNumber,
  };
}

describe.each(openTestStores())('agent float through Daraja B2B in live mode, on $name', (stores) => {
  let store: Store;
  let fake: FakeDaraja;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    fake = await startFakeDaraja({ ...app, ...initiator, promptMs: 50 });
    const port = await freePort();
    service = await startTestService(store, {
      worker: true,
      workerSettings: { pollIntervalMs: 50, resultPollIntervalMs: 50 },
      env: liveEnvironment(port, fake.url),
    });
  }, 60_000);
  afterAll(async () => {
    await service.stop();
    await fake.close();
    await stores.close(store);
  });

  const caller = () => service.createCaller({ float: 1_000_000n });

  async function sendFloat(token: string, storeNumber: string) {
    const envelope = await envelopeOf(
      await service.call('send_agent_float', { token, json: float(storeNumber) }),
    );
    return {
      envelope,
      reference: (envelope.data['transaction'] as { reference: string } | undefined)?.reference ?? '',
    };
  }

  async function settled(accountId: string, reference: string) {
    return eventually(`${reference} to be resolved`, async () => {
      const transaction = await service.ledger.getTransaction(accountId, reference);
      return transaction?.state === 'requested' ? undefined : transaction;
    });
  }

  it('pays the agent’s store by B2B and completes the float once the Result arrives', async () => {
    const { account, token } = await caller();
    const { envelope, reference } = await sendFloat(token, '400400');
    expect(envelope.status.code).toBe('0000');
    const b2b = fake.requests.find(
      (request) =>
        request.path === '/mpesa/b2b/v1/paymentrequest' &&
        (request.body as { Remarks?: string }).Remarks === `Float ${reference}`,
    );
    expect(b2b?.body).toMatchObject({
      Initiator: 'topupapi',
      CommandID: 'BusinessBuyGoods',
      Amount: 1500,
      PartyA: '600992',
      PartyB: '400400',
      AccountReference: '300300',
    });
    const transaction = await settled(account.id, reference);
    expect(transaction.state).toBe('completed');
    expect(transaction.code).toMatch(/^TK[0-9A-F]{8}$/);
    expect(await service.ledger.legs(reference)).toMatchObject([
      { kind: 'disbursement', provider: 'daraja', state: 'succeeded' },
    ]);
    expect(await service.ledger.balance(account.id, 'float')).toMatchObject({
      availableMinor: 850_000n,
      pendingMinor: 0n,
    });
  });

  it.each([
    ['the debit party is in an invalid state', '400011', '11'],
    ['the balance is insufficient', '400001', '1'],
  ])('cancels a float M-Pesa declines because %s, giving the float back', async (_why, storeNumber, code) => {
    const { account, token } = await caller();
    const { envelope, reference } = await sendFloat(token, storeNumber);
    expect(envelope.status.code).toBe('0000');
    const transaction = await settled(account.id, reference);
    expect(transaction).toMatchObject({ state: 'cancelled', cancelReason: 'declined by M-Pesa', code });
    expect(await service.ledger.balance(account.id, 'float')).toMatchObject({
      availableMinor: 1_000_000n,
      pendingMinor: 0n,
    });
  });

  it('applies a Result that came twice, or before the acknowledgement, exactly once', async () => {
    const { account, token } = await caller();
    const twice = await sendFloat(token, '409001');
    const early = await sendFloat(token, '409002');
    expect((await settled(account.id, twice.reference)).state).toBe('completed');
    expect((await settled(account.id, early.reference)).state).toBe('completed');
    expect(await service.ledger.balance(account.id, 'float')).toMatchObject({
      availableMinor: 700_000n,
      pendingMinor: 0n,
    });
    const report = await service.ledger.verify();
    expect(report.ok).toBe(true);
  });

  it('recovers a lost Result through a Transaction Status query', async () => {
    const { account, token } = await caller();
    const { reference } = await sendFloat(token, '409003');
    const transaction = await settled(account.id, reference);
    expect(transaction.state).toBe('completed');
    expect(fake.requests.some((request) => request.path === '/mpesa/transactionstatus/v1/query')).toBe(true);
  });

  it('takes a token another process renewed without failing the float', async () => {
    const { account, token } = await caller();
    fake.issueTokenElsewhere();
    const { envelope, reference } = await sendFloat(token, '400400');
    expect(envelope.status.code).toBe('0000');
    expect((await settled(account.id, reference)).state).toBe('completed');
  });

  it('takes the float in XML as in JSON, and answers in XML', async () => {
    const { account, token } = await caller();
    const response = await service.call('send_agent_float', {
      token,
      body: xmlBody(float('400400')),
      headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
    });
    expect(response.headers.get('content-type')).toMatch(/xml/);
    const text = await response.text();
    expect(text).toContain('<code>0000</code>');
    const reference = /<reference>(TX[A-Z0-9]+)<\/reference>/.exec(text)?.[1] ?? '';
    expect((await settled(account.id, reference)).state).toBe('completed');
  });
});

describe.each(openTestStores())(
  'agent float in live mode while Daraja cannot be reached, on $name',
  (stores) => {
    it('answers 9000, gives the float back and frees the Idempotency-Key, since nothing was sent', async () => {
      const store = await stores.open();
      // Nothing listens on this port: every call to Daraja is refused before it is sent.
      const [port, closedPort] = [await freePort(), await freePort()];
      const service = await startTestService(store, {
        env: liveEnvironment(port, `http://127.0.0.1:${String(closedPort)}`),
      });
      try {
        const { account, token } = await service.createCaller({ float: 1_000_000n });
        const headers = { 'Idempotency-Key': 'float-unreachable' };
        const response = await service.call('send_agent_float', { token, json: float('400400'), headers });
        const envelope = await envelopeOf(response);
        expect(envelope.status.code).toBe('9000');
        expect(envelope.data.errors).toEqual(['M-Pesa did not take the transaction']);
        expect(await service.ledger.balance(account.id, 'float')).toMatchObject({
          availableMinor: 1_000_000n,
          pendingMinor: 0n,
        });
        const retry = await service.call('send_agent_float', { token, json: float('400400'), headers });
        expect(retry.headers.get('idempotency-replayed')).toBeNull();
        expect((await service.ledger.verify()).ok).toBe(true);
      } finally {
        await service.stop();
        await stores.close(store);
      }
    });

    it('refuses Daraja’s routes to a caller outside Safaricom’s addresses by default, and takes them with any', async () => {
      const store = await stores.open();
      const [port, darajaPort] = [await freePort(), await freePort()];
      const env = { ...liveEnvironment(port, `http://127.0.0.1:${String(darajaPort)}`) };
      delete env['DARAJA_ALLOWED_SOURCES'];
      const service = await startTestService(store, { env });
      const result = () =>
        fetch(`${service.url}/providers/daraja/${env['PROVIDER_WEBHOOK_TOKEN'] ?? ''}/result`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"Result":{}}',
        });
      try {
        expect(service.config.providerSources.get('daraja')).toContain('196.201.214.200');
        expect((await result()).status).toBe(403);
      } finally {
        await service.stop();
      }
      const open = await startTestService(store, {
        env: liveEnvironment(port, `http://127.0.0.1:${String(darajaPort)}`, 'any'),
      });
      try {
        const answer = await fetch(
          `${open.url}/providers/daraja/${env['PROVIDER_WEBHOOK_TOKEN'] ?? ''}/result`,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{"Result":{}}',
          },
        );
        // Read and kept as garbled: it came through.
        expect(answer.status).toBe(400);
      } finally {
        await open.stop();
        await stores.close(store);
      }
    });
  },
);
