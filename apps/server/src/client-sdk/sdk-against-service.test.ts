// The client SDK against the real server and worker, in process, on the embedded store (PGlite): every
// operation in both formats, reading listings to their end and waiting for transactions, callbacks
// verified by the README's receiver, errors and retries end to end.

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { failure } from '@topup/envelope';
import type { WireFormat } from '@topup/envelope';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackReceiver } from '@topup/client/examples/callback-receiver';
import {
  createClient,
  GatewayError,
  InsufficientBalanceError,
  InvalidAccountError,
  InvalidApiRequestError,
  InvalidParametersError,
  InvalidTokenError,
  RequestNotAllowedError,
  TransactionCancelledError,
  TransactionWaitError,
} from '@topup/client';
import type { CallbackEvent } from '@topup/client';
import { envelopeReply, eventually, rejectionOf, startFaultyProxy } from '@topup/client/testing';
import { eventually as pollUntil } from '../testing/eventually.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';

const formats: WireFormat[] = ['json', 'xml'];
/** A callback about a transaction: every one but a test. */
type TransactionEvent = Exclude<CallbackEvent, { kind: 'test' }>;
const quickRetries = { attempts: 4, baseDelayMs: 10, maxDelayMs: 2000 };
// 10,000.00 KES of float, in cents.
const floatFunding = 1_000_000n;
// 1,000.00 KES of airtime, in cents.
const airtimeFunding = 100_000n;

let store: Store;
let service: TestService;

beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
  service = await startTestService(store, { worker: true });
}, 60_000);

afterAll(async () => {
  await service.stop();
  await store.close();
});

function airtimeFor(payer: string, amount = 50) {
  return { mobile: '254712345678', amount, payment_network: 'MoneyNetA', payment_mobile: payer } as const;
}

function floatTo(mobile: string, amount = 1500) {
  return { mobile, amount, agent_number: '300300', store_number: '400400' } as const;
}

async function transactionsOf(accountId: string): Promise<number> {
  const { rows } = await store.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM transactions WHERE account_id = $1',
    [accountId],
  );
  return rows[0]?.count ?? 0;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
}

describe.each(formats)('against the real service in %s', (format) => {
  it('answers every method with typed data', { timeout: 60_000 }, async () => {
    const { token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const secrets: string[] = [];
    const events: TransactionEvent[] = [];
    const receiver = callbackReceiver(secrets, (event) => {
      if (event.kind !== 'test') events.push(event);
      return Promise.resolve();
    });
    const receiverUrl = await listen(receiver);
    try {
      const balance = await client.getBalance();
      expect(balance.message).toBe('Balance found');
      expect(balance.requestId).toMatch(/^req_/);
      expect(balance.channels).toStrictEqual([
        { type: 'Agent Float', currency: 'KES', balance: '10000.00' },
        { type: 'Airtime', currency: 'KES', balance: '0.00' },
      ]);

      const added = await client.addCallbackEndpoint({ url: receiverUrl, format, description: 'tests' });
      expect(added.message).toBe('Callback endpoint added');
      expect(added.endpoint).toMatchObject({
        url: receiverUrl,
        format,
        description: 'tests',
        enabled: 'true',
        disabled_reason: '',
      });
      expect(added.endpoint.secret).toMatch(/^whsec_/);
      secrets.push(added.endpoint.secret);

      const float = await client.sendAgentFloat(floatTo('254712345678'));
      expect(float.message).toBe('Agent float requested');
      expect(float.replayed).toBe(false);
      expect(float.transaction).toMatchObject({ type: 'Agent Float', amount: '1500', status: 'Requested' });
      expect(float.channel).toStrictEqual({ type: 'Agent Float', currency: 'KES', balance: '8500.00' });
      expect(float.recipient).toMatchObject({ mobile: '254712345678', agent_number: '300300' });

      const airtime = await client.buyAirtime(airtimeFor('254711222333'));
      expect(airtime.message).toBe('Airtime purchase requested');
      expect(airtime.transaction).toMatchObject({ type: 'Airtime', amount: '50' });
      expect(airtime.payment).toMatchObject({ network: 'MoneyNetA', mobile: '254711222333' });

      const delivered = await eventually('the airtime completion callback', () =>
        events.find((event) => event.transaction.reference === airtime.transaction.reference),
      );
      expect(delivered).toMatchObject({ kind: 'completed', message: 'Airtime delivered', errors: [] });
      expect(delivered.id).toMatch(/^cb_/);
      const deposited = await eventually('the float completion callback', () =>
        events.find((event) => event.transaction.reference === float.transaction.reference),
      );
      expect(deposited).toMatchObject({ kind: 'completed', message: 'Agent float deposited' });

      const found = await client.getTransaction({ reference: float.transaction.reference });
      expect(found.message).toBe('Transaction found');
      expect(found.transaction).toMatchObject({ reference: float.transaction.reference, state: 'completed' });

      const listed = await client.listCallbackEndpoints();
      expect(listed.endpoints.map((endpoint) => endpoint.id)).toStrictEqual([added.endpoint.id]);
      expect(listed.endpoints[0]).not.toHaveProperty('secret');

      const rotated = await client.rotateCallbackSecret({ endpoint_id: added.endpoint.id });
      expect(rotated.endpoint.id).toBe(added.endpoint.id);
      expect(rotated.endpoint.secret).not.toBe(added.endpoint.secret);
      // Only the new secret: the service signs with both during the grace period.
      secrets.splice(0, secrets.length, rotated.endpoint.secret);

      const deliveries = await client.listCallbackDeliveries({ reference: airtime.transaction.reference });
      expect(deliveries.deliveries.length).toBeGreaterThanOrEqual(1);
      expect(deliveries.deliveries[0]).toMatchObject({
        endpoint_id: added.endpoint.id,
        reference: airtime.transaction.reference,
      });

      const removed = await client.removeCallbackEndpoint({ endpoint_id: added.endpoint.id });
      expect(removed.endpoint.id).toBe(added.endpoint.id);
      expect((await client.listCallbackEndpoints()).endpoints).toStrictEqual([]);
    } finally {
      await close(receiver);
    }
  });

  it('sends airtime to each recipient, answering one transaction per recipient in order', async () => {
    const { token } = await service.createCaller({ airtime: airtimeFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const input = {
      recipients: [
        { mobile: '254733000123', amount: 50, name: 'Achieng & <Co>' },
        // The sandbox refuses numbers ending in 0003 at once: that recipient alone is cancelled.
        { mobile: '254712340003', amount: 20 },
        { mobile: 254712345678, amount: '30', email: undefined },
      ],
      note: `staff airtime ${format}`,
    };

    const sent = await client.sendAirtime(input);
    expect(sent.message).toBe('Airtime send requested');
    expect(sent.replayed).toBe(false);
    expect(
      sent.transactions.map((entry) => [entry.recipient.mobile, entry.amount, entry.network, entry.status]),
    ).toStrictEqual([
      ['254733000123', '50', 'CarrierB', 'Requested'],
      ['254712340003', '20', 'CarrierA', 'Cancelled'],
      ['254712345678', '30', 'CarrierA', 'Requested'],
    ]);
    expect(sent.transactions[0]?.recipient.name).toBe('Achieng & <Co>');
    expect(sent.transactions[0]?.errors).toStrictEqual([]);
    expect(sent.transactions[1]?.errors).toHaveLength(1);
    expect(new Set(sent.transactions.map((entry) => entry.reference)).size).toBe(3);
    // The channel as the reservation of the whole total left it.
    expect(sent.channel).toStrictEqual({ type: 'Airtime', currency: 'KES', balance: '900.00' });

    const again = await client.sendAirtime(input, { idempotencyKey: sent.idempotencyKey });
    expect(again.replayed).toBe(true);
    expect(again.transactions).toStrictEqual(sent.transactions);

    const found = await client.getTransaction({ reference: sent.transactions[2]?.reference ?? '' });
    expect(found.transaction).toMatchObject({ type: 'Airtime', amount: '30', note: input.note });
    expect(found).not.toHaveProperty('payment');
  });

  it('pages through the transactions and a statement, and throws 3000 for a bad filter', async () => {
    const { token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const first = await client.sendAgentFloat(floatTo('254712345678', 100), {
      idempotencyKey: `a-${format}`,
    });
    const second = await client.sendAgentFloat(floatTo('254712345679', 200));
    await pollUntil('both floats completed by the worker', async () => {
      const page = await client.listTransactions({ state: 'completed' });
      return page.transactions.length === 2 ? page : undefined;
    });

    const newest = await client.listTransactions({ limit: 1 });
    expect(newest.message).toBe('Transactions found');
    expect(newest.transactions.map((entry) => entry.transaction.reference)).toStrictEqual([
      second.transaction.reference,
    ]);
    const older = await client.listTransactions({ limit: 1, cursor: newest.next_cursor });
    expect(older.transactions[0]?.transaction.reference).toBe(first.transaction.reference);
    expect(older.transactions[0]?.recipient).toMatchObject({
      mobile: '254712345678',
      agent_number: '300300',
    });
    expect(older.next_cursor).toBe('');
    const keyed = await client.listTransactions({ idempotency_key: `a-${format}` });
    expect(keyed.transactions.map((entry) => entry.transaction.reference)).toStrictEqual([
      first.transaction.reference,
    ]);

    const statement = await client.listStatement({ channel: 'Agent Float' });
    expect(statement.message).toBe('Statement found');
    expect(statement.channel).toStrictEqual({ type: 'Agent Float', currency: 'KES', balance: '9700.00' });
    expect(
      statement.postings.map((posting) => [posting.purpose, posting.amount, posting.balance_after]),
    ).toStrictEqual([
      ['float', '-200.00', '9700.00'],
      ['float', '-100.00', '9900.00'],
      ['funding', '10000.00', '10000.00'],
    ]);

    const invalid = await rejectionOf(client.listStatement({ channel: 'Airtime', from: '2025-02-30' }));
    expect(invalid).toBeInstanceOf(InvalidParametersError);
    expect(invalid).toMatchObject({ httpStatus: 422, errors: ["'from is invalid'"] });
  });

  it('reads every page of a listing and waits for transactions to end', { timeout: 30_000 }, async () => {
    const { token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const references: string[] = [];
    // The sandbox declines a number ending in 0001: that float is cancelled.
    for (const mobile of ['254712345601', '254712345602', '254712340001']) {
      references.push((await client.sendAgentFloat(floatTo(mobile, 100))).transaction.reference);
    }
    const ended = await Promise.all(
      references.map((reference) => client.waitForTransaction(reference, { intervalMs: 50 })),
    );
    expect(
      ended.map(({ message, transaction }) => [message, transaction.reference, transaction.state]),
    ).toStrictEqual([
      ['Transaction found', references[0], 'completed'],
      ['Transaction found', references[1], 'completed'],
      ['Transaction found', references[2], 'cancelled'],
    ]);

    const listed: string[] = [];
    for await (const { transaction } of client.listAllTransactions({ limit: 1 }))
      listed.push(transaction.reference);
    expect(listed).toStrictEqual([...references].reverse());
    const completed: string[] = [];
    for await (const { transaction } of client.listAllTransactions({ state: 'completed', limit: 1 })) {
      completed.push(transaction.reference);
    }
    expect(completed).toStrictEqual([references[1], references[0]]);
    const postings: string[][] = [];
    for await (const posting of client.listAllStatement({ channel: 'Agent Float', limit: 2 })) {
      postings.push([posting.purpose, posting.amount, posting.balance_after]);
    }
    expect(postings).toStrictEqual([
      ['float', '-100.00', '9800.00'],
      ['float', '-100.00', '9900.00'],
      ['funding', '10000.00', '10000.00'],
    ]);

    // The sandbox never answers a number ending in 0002: the wait gives up, the transaction goes on.
    const silent = await client.sendAgentFloat(floatTo('254712340002', 100));
    const waited = await rejectionOf(
      client.waitForTransaction(silent.transaction.reference, { timeoutMs: 400, intervalMs: 50 }),
    );
    expect(waited).toBeInstanceOf(TransactionWaitError);
    expect(waited).toMatchObject({
      reason: 'timeout',
      reference: silent.transaction.reference,
      transaction: { transaction: { state: 'requested', status: 'Requested' } },
    });
  });

  it('throws a 7000 as InsufficientBalanceError when the Airtime channel cannot cover the total', async () => {
    const { account, token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const unfunded = await rejectionOf(
      client.sendAirtime({ recipients: [{ mobile: '254733000123', amount: 50 }] }),
    );
    expect(unfunded).toBeInstanceOf(InsufficientBalanceError);
    expect(unfunded).toMatchObject({ code: '7000', httpStatus: 402, message: 'Insufficient Balance' });
    expect(await transactionsOf(account.id)).toBe(0);

    const invalid = await rejectionOf(
      client.sendAirtime({
        recipients: [
          { mobile: '254733000123', amount: 50 },
          { mobile: '2547', amount: 50 },
        ],
      }),
    );
    expect(invalid).toBeInstanceOf(InvalidParametersError);
    expect(invalid).toMatchObject({ httpStatus: 422, errors: ["'recipients[1].mobile is invalid'"] });
  });

  it('resends a callback', { timeout: 30_000 }, async () => {
    const { token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format, retries: 0 });
    const secrets: string[] = [];
    const events: TransactionEvent[] = [];
    const receiver = callbackReceiver(secrets, (event) => {
      if (event.kind !== 'test') events.push(event);
      return Promise.resolve();
    });
    try {
      const added = await client.addCallbackEndpoint({ url: await listen(receiver), format });
      secrets.push(added.endpoint.secret);
      const purchase = await client.buyAirtime(airtimeFor('254711222333'));
      const { reference } = purchase.transaction;
      await eventually('the first callback', () =>
        events.find((event) => event.transaction.reference === reference),
      );
      const resent = await client.resendCallback({ reference });
      expect(resent.resend).toEqual({ reference, queued: '1' });
      await eventually('the resent callback', () =>
        events.filter((event) => event.transaction.reference === reference).length === 2 ? true : undefined,
      );
    } finally {
      await close(receiver);
    }
  });

  it(
    'sends a test callback the README receiver verifies, and resends failed callbacks',
    { timeout: 30_000 },
    async () => {
      const { account, token } = await service.createCaller({ float: floatFunding });
      const client = createClient({ baseUrl: service.url, token, format, retries: 0 });
      const secrets: string[] = [];
      const events: CallbackEvent[] = [];
      const receiver = callbackReceiver(secrets, (event) => {
        events.push(event);
        return Promise.resolve();
      });
      try {
        const added = await client.addCallbackEndpoint({ url: await listen(receiver), format });
        secrets.push(added.endpoint.secret);
        const tested = await client.sendTestCallback({ endpoint_id: added.endpoint.id });
        expect(tested.message).toBe('Test callback sent');
        // The receiver is on loopback, not public: its status shows, never what it answered.
        expect(tested.test).toMatchObject({
          endpoint_id: added.endpoint.id,
          http_status: '200',
          outcome: 'delivered',
          response_excerpt: '',
          error: '',
        });
        expect(events).toMatchObject([
          { kind: 'test', endpointId: added.endpoint.id, message: 'Test callback' },
        ]);

        // Nothing has failed: nothing is queued, and the test left no delivery behind.
        const resent = await client.resendFailedCallbacks({ since: '2025-01-01T00:00:00Z' });
        expect(resent.resend).toStrictEqual({
          since: '2025-01-01T00:00:00.000Z',
          endpoint_id: '',
          queued: '0',
          more: 'false',
        });
        const page = await client.listCallbackDeliveries({ endpoint_id: added.endpoint.id, limit: 10 });
        expect(page).toMatchObject({ deliveries: [], next_cursor: '' });
        expect(await service.ledger.listDeliveries(account.id, {})).toStrictEqual([]);
      } finally {
        await close(receiver);
      }
    },
  );

  it('delivers a cancellation callback with the full transaction', { timeout: 30_000 }, async () => {
    const { token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format });
    const secrets: string[] = [];
    const events: TransactionEvent[] = [];
    const receiver = callbackReceiver(secrets, (event) => {
      if (event.kind !== 'test') events.push(event);
      return Promise.resolve();
    });
    try {
      const added = await client.addCallbackEndpoint({ url: await listen(receiver), format });
      secrets.push(added.endpoint.secret);
      // The sandbox payer ending in 0001 declines the payment prompt.
      const purchase = await client.buyAirtime(airtimeFor('254711220001'));
      const cancelled = await eventually('the cancellation callback', () =>
        events.find((event) => event.transaction.reference === purchase.transaction.reference),
      );
      expect(cancelled.kind).toBe('cancelled');
      expect(cancelled.message).toBe('Purchase Cancelled');
      expect(cancelled.errors.length).toBeGreaterThan(0);
      expect(cancelled.transaction).toMatchObject({ status: 'Cancelled', state: 'cancelled', amount: '50' });
    } finally {
      await close(receiver);
    }
  });

  it('throws each typed error the client can meet', { timeout: 60_000 }, async () => {
    const { account, token } = await service.createCaller({ float: floatFunding });
    const client = createClient({ baseUrl: service.url, token, format, retries: quickRetries });

    const tooLarge = await rejectionOf(
      client.buyAirtime({ ...airtimeFor('254711222333'), note: 'x'.repeat(1_100_000) }),
    );
    expect(tooLarge).toBeInstanceOf(InvalidApiRequestError);
    expect(tooLarge).toMatchObject({ httpStatus: 400 });

    const invalid = await rejectionOf(client.buyAirtime(airtimeFor('254711222333', 5)));
    expect(invalid).toBeInstanceOf(InvalidParametersError);
    expect(invalid).toMatchObject({ httpStatus: 422, errors: ["'amount is invalid'"] });

    const unknownToken = createClient({ baseUrl: service.url, token: `tk_test_${'x'.repeat(32)}`, format });
    expect(await rejectionOf(unknownToken.getBalance())).toBeInstanceOf(InvalidTokenError);

    await client.sendAgentFloat(floatTo('254712345678'), { idempotencyKey: `conflict-${format}` });
    const conflict = await rejectionOf(
      client.sendAgentFloat(floatTo('254712345678', 2000), { idempotencyKey: `conflict-${format}` }),
    );
    expect(conflict).toBeInstanceOf(RequestNotAllowedError);
    expect(conflict).toMatchObject({ httpStatus: 409 });

    const { token: liveToken } = await service.ledger.issueToken(account.id, 'live');
    const live = createClient({ baseUrl: service.url, token: liveToken, format });
    expect(await rejectionOf(live.getBalance())).toMatchObject({ code: '5000', httpStatus: 403 });

    const insufficient = await rejectionOf(client.sendAgentFloat(floatTo('254712345678', 20_000)));
    expect(insufficient).toBeInstanceOf(InsufficientBalanceError);
    expect(insufficient).toMatchObject({ httpStatus: 402 });

    // Sandbox numbers ending in 0003 are refused at once, 0004 find the provider unavailable.
    const refused = await rejectionOf(client.buyAirtime(airtimeFor('254711220003')));
    expect(refused).toBeInstanceOf(TransactionCancelledError);
    expect(refused).toMatchObject({ httpStatus: 409, message: 'Purchase Cancelled' });

    const unavailable = await rejectionOf(client.sendAgentFloat(floatTo('254712340004')));
    expect(unavailable).toBeInstanceOf(GatewayError);
    // The provider said it took nothing, so the service gave the key back and each retry was tried afresh
    // (and found the provider unavailable again) until the client ran out of retries.
    expect(unavailable).toMatchObject({ httpStatus: 502, replayed: false });

    const suspended = await service.createCaller({ float: floatFunding });
    await service.ledger.setAccountStatus(suspended.account.id, 'suspended');
    const suspendedClient = createClient({ baseUrl: service.url, token: suspended.token, format });
    expect(await rejectionOf(suspendedClient.getBalance())).toBeInstanceOf(InvalidAccountError);
  });
});

describe('retries against the real service', () => {
  it('buys airtime exactly once through a dropped connection and a 9000', { timeout: 30_000 }, async () => {
    const { account, token } = await service.createCaller({ float: floatFunding });
    const gatewayError = envelopeReply(failure('9000', ['upstream failed']), { status: 502 });
    const proxy = await startFaultyProxy(service.url, (index) =>
      index === 0 ? 'forward-then-drop' : index === 1 ? gatewayError : 'forward',
    );
    try {
      const client = createClient({ baseUrl: proxy.url, token, retries: quickRetries });
      const purchase = await client.buyAirtime(airtimeFor('254711222333'));
      expect(proxy.requests.map((request) => request.action)).toStrictEqual([
        'forward-then-drop',
        gatewayError,
        'forward',
      ]);
      expect(new Set(proxy.requests.map((request) => request.idempotencyKey))).toStrictEqual(
        new Set([purchase.idempotencyKey]),
      );
      expect(purchase.replayed).toBe(true);
      expect(await transactionsOf(account.id)).toBe(1);
      const found = await createClient({ baseUrl: service.url, token }).getTransaction({
        reference: purchase.transaction.reference,
      });
      expect(found.transaction.reference).toBe(purchase.transaction.reference);
    } finally {
      await proxy.close();
    }
  });

  it('reserves float exactly once through the same failures', { timeout: 30_000 }, async () => {
    const { account, token } = await service.createCaller({ float: floatFunding });
    const proxy = await startFaultyProxy(service.url, (index) =>
      index === 0
        ? 'forward-then-drop'
        : index === 1
          ? envelopeReply(failure('9000', ['upstream failed']), { status: 502 })
          : 'forward',
    );
    try {
      const client = createClient({ baseUrl: proxy.url, token, format: 'xml', retries: quickRetries });
      const float = await client.sendAgentFloat(floatTo('254712345678'));
      expect(float.replayed).toBe(true);
      expect(await transactionsOf(account.id)).toBe(1);
      const { channels } = await createClient({ baseUrl: service.url, token }).getBalance();
      expect(channels[0]?.balance).toBe('8500.00');
    } finally {
      await proxy.close();
    }
  });

  it('waits out a real rate limit and then succeeds', { timeout: 30_000 }, async () => {
    const limited = await startTestService(store, {
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '1' },
    });
    try {
      const { token } = await limited.createCaller({ float: floatFunding });
      const once = createClient({ baseUrl: limited.url, token, retries: 0 });
      await once.getBalance();
      const limitedError = await rejectionOf(once.getBalance());
      expect(limitedError).toBeInstanceOf(RequestNotAllowedError);
      expect(limitedError).toMatchObject({ httpStatus: 429 });
      expect((limitedError as RequestNotAllowedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);

      const patient = createClient({
        baseUrl: limited.url,
        token,
        retries: { attempts: 3, maxDelayMs: 5000 },
      });
      const balance = await patient.getBalance();
      expect(balance.channels).toHaveLength(2);
    } finally {
      await limited.stop();
    }
  });
});
