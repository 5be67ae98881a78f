// The Africa's Talking provider against the fake Africa's Talking over real HTTP on loopback, carrying
// delivery legs of airtime purchases and airtime sent from the balance, recorded by the real ledger: sends
// keyed by the delivery leg id, refusals, silence and closed ports, and what the transaction query and the
// status callback say afterwards.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLedger, legId, openStore } from '@topup/ledger';
import type { Ledger, Store, TransactionRecord } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../fakes/fake-africastalking.js';
import type { LegOrder, Provider, WebhookEvent } from '../provider.js';
import { migrateProviders } from '../provider-migrations.js';
import { submissionIdOf } from '../submission-ids.js';
import { requestAirtime, requestFloat, sendAirtime } from '../testing/recorded-transactions.js';
import { createAfricasTalkingProvider } from './africastalking-provider.js';
import { africastalkingWebhooks } from './africastalking-webhooks.js';
import { airtimeSendRequest } from './airtime-send.js';

const account = { username: 'topup', apiKey: 'at-key-do-not-log' };
const deliveryMs = 20;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done`, for three seconds at most. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!done() && Date.now() < deadline) await wait(5);
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}

describe('the Africa’s Talking provider against the fake Africa’s Talking', () => {
  let store: Store;
  let ledger: Ledger;
  let accountId: string;
  let fake: FakeAfricasTalking;
  let receiver: Server;
  let provider: Provider;
  /** What our webhook receiver read of each status callback the fake POSTed. */
  const received: WebhookEvent[] = [];

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
    ledger = createLedger(store);
    accountId = (await ledger.createAccount({ name: 'Duka Ltd' })).id;
    await ledger.fund(accountId, 'airtime', 10_000_000n);
    await ledger.fund(accountId, 'float', 10_000_000n);
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const event = africastalkingWebhooks.parse({
          event: 'airtime-status',
          contentType: request.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        received.push(event);
        const reply = africastalkingWebhooks.reply(event);
        response.writeHead(reply.status, { 'Content-Type': reply.contentType });
        response.end(reply.body);
      });
    });
    const receiverUrl = await listening(receiver);
    fake = await startFakeAfricasTalking({
      ...account,
      callbackUrl: `${receiverUrl}/providers/africastalking/token/airtime-status`,
      deliveryMs,
    });
    provider = createAfricasTalkingProvider({ store, baseUrl: fake.url, ...account, timeoutMs: 2_000 });
  }, 60_000);

  afterAll(async () => {
    await fake.close();
    await closed(receiver);
    await ledger.close();
    await store.close();
  });

  /** The delivery leg of a recorded airtime purchase of 50 KES for `mobile`. */
  async function deliveryOf(mobile: string): Promise<LegOrder> {
    const transaction = await requestAirtime(ledger, accountId, mobile, '254733123456');
    return {
      id: legId(transaction.reference, 'delivery'),
      kind: 'delivery',
      transaction,
      paymentReference: 'SIM1A2B3C4D5E',
    };
  }

  /** The requestId the fake gave the send keyed by `legId`, once it has one. */
  const requestIdOf = (id: string) =>
    fake.deliveries.find((delivery) => delivery.idempotencyKey === id)?.requestId ?? '';
  const statusOf = (id: string) => fake.deliveries.find((delivery) => delivery.idempotencyKey === id)?.status;

  const submitLeg = (order: LegOrder, to: Provider = provider) => {
    if (to.submitLeg === undefined) throw new Error('Expected the provider to carry later legs.');
    return to.submitLeg(order);
  };
  const queryLeg = (id: string, to: Provider = provider) => {
    if (to.queryLeg === undefined) throw new Error('Expected the provider to query later legs.');
    return to.queryLeg(id);
  };

  it('carries delivery legs only, keyed by the leg id, and takes no purchase or float as a first leg', async () => {
    expect(provider).toMatchObject({
      name: 'africastalking',
      idempotentSubmissions: false,
      laterLegs: ['delivery'],
    });
    const order = await deliveryOf('254711082310');
    expect(await provider.submit(order.transaction)).toEqual({
      kind: 'unavailable',
      reason: "Africa's Talking carries airtime deliveries only",
      taken: false,
    });
    expect(
      await submitLeg({ ...order, id: legId(order.transaction.reference, 'refund'), kind: 'refund' }),
    ).toMatchObject({
      kind: 'unavailable',
      taken: false,
    });
    expect(await provider.query(order.transaction.reference)).toEqual({ kind: 'not_found' });
    const float = await requestFloat(ledger, accountId, '254711082319');
    expect(await provider.submit(float)).toEqual({
      kind: 'unavailable',
      reason: "Africa's Talking carries airtime deliveries only",
      taken: false,
    });
    expect(await provider.readyResults(10)).toEqual([]);
    await provider.acknowledge(['anything']);
    expect(fake.requests).toHaveLength(0);
    expect(provider.webhooks).toBe(africastalkingWebhooks);
  });

  it('has a send handed to the carrier accepted, and records its requestId under the leg id', async () => {
    const order = await deliveryOf('254711082300');
    expect(order.id).toMatch(/^TX[A-Z0-9]+-delivery$/);
    expect(await submitLeg(order)).toEqual({ kind: 'accepted' });
    const requestId = requestIdOf(order.id);
    expect(requestId).toMatch(/^ATQid_/);
    expect(await submissionIdOf(store, 'africastalking', order.id)).toEqual({
      provider: 'africastalking',
      providerId: requestId,
      reference: order.id,
      purpose: 'submission',
      otherId: '',
    });
    const sent = fake.requests.find((request) => request.headers.idempotencyKey === order.id);
    expect(JSON.parse(new URLSearchParams(sent?.body).get('recipients') ?? '')).toEqual([
      { phoneNumber: '+254711082300', amount: 'KES 50' },
    ]);
  });

  it('sends the recipient once when the same leg is submitted twice, the second time not calling AT', async () => {
    const order = await deliveryOf('254711082301');
    expect(await submitLeg(order)).toEqual({ kind: 'accepted' });
    expect(await submitLeg(order)).toEqual({ kind: 'accepted' });
    expect(fake.deliveries.filter((delivery) => delivery.idempotencyKey === order.id)).toHaveLength(1);
    expect(fake.requests.filter((request) => request.headers.idempotencyKey === order.id)).toHaveLength(1);
  });

  it('reads AT’s duplicate of an earlier send under the same key as taken, its outcome unknown', async () => {
    const order = await deliveryOf('254711082311');
    // A send AT took under the leg's key that this store never recorded (its answer lost elsewhere).
    const earlier = await fetch(`${fake.url}/version1/airtime/send`, {
      method: 'POST',
      ...airtimeSendRequest({
        ...account,
        idempotencyKey: order.id,
        mobile: '254711082311',
        amountMinor: 5_000n,
        currency: 'KES',
      }),
    });
    expect(earlier.status).toBe(201);
    expect(await submitLeg(order)).toEqual({
      kind: 'unavailable',
      reason:
        "Africa's Talking answered that the send is a duplicate of one it took (HTTP 201: A duplicate request " +
        'was received within the last 5 minutes); its outcome is unknown',
    });
    // Claimed, no requestId: asking about it is unknown, never not_found, and it is never sent again.
    await expect(queryLeg(order.id)).rejects.toThrow(/may have been taken/);
    expect(await submitLeg(order)).toMatchObject({ kind: 'unavailable', reason: /claimed already/ });
    expect(fake.requests.filter((request) => request.headers.idempotencyKey === order.id)).toHaveLength(2);
  });

  it('reads AT’s five-minute duplicate of another purchase’s same number and amount as unknown, not refused', async () => {
    const first = await deliveryOf('254711082312');
    const second = await deliveryOf('254711082312');
    expect(await submitLeg(first)).toEqual({ kind: 'accepted' });
    const answer = await submitLeg(second);
    expect(answer).toEqual({
      kind: 'unavailable',
      reason:
        "Africa's Talking answered that the send is a duplicate of one it took (A duplicate request was " +
        'received within the last 5 minutes); its outcome is unknown',
    });
    expect(answer).not.toHaveProperty('taken');
  });

  it('tells of a send refused for the airtime wallet, and of each send taken with its discount', async () => {
    const walletLow: unknown[] = [];
    const sent: unknown[] = [];
    const watched = createAfricasTalkingProvider({
      store,
      baseUrl: fake.url,
      ...account,
      timeoutMs: 2_000,
      onWalletLow: (refusal) => walletLow.push(refusal),
      onSent: (send) => sent.push(send),
    });
    const short = await deliveryOf('254711080007');
    expect(await submitLeg(short, watched)).toEqual({
      kind: 'refused',
      reason: 'Insufficient Credit',
      providerCode: 'AT_REFUSED',
    });
    expect(walletLow).toEqual([{ reference: short.id, amountMinor: 5_000n, reason: 'Insufficient Credit' }]);
    const order = await deliveryOf('254711082313');
    expect(await submitLeg(order, watched)).toEqual({ kind: 'accepted' });
    expect(sent).toEqual([
      { reference: order.id, requestId: requestIdOf(order.id), amountMinor: 5_000n, discount: 'KES 2.0000' },
    ]);
    expect(walletLow).toHaveLength(1);
  });

  it('has a number AT refuses at once refused, with AT’s reason, and records nothing', async () => {
    const order = await deliveryOf('254711082302');
    // A number the ledger would not take, so AT's own check is the one that refuses it.
    const transaction: TransactionRecord = {
      ...order.transaction,
      recipient: { ...order.transaction.recipient, mobile: '254811082302' },
    };
    expect(await submitLeg({ ...order, transaction })).toEqual({
      kind: 'refused',
      reason: 'Invalid phone number',
      providerCode: 'AT_REFUSED',
    });
    expect(await submissionIdOf(store, 'africastalking', order.id)).toBeUndefined();
  });

  it('has a send with a wrong apiKey unavailable and not taken, never quoting either key', async () => {
    const wrongKey = createAfricasTalkingProvider({
      store,
      baseUrl: fake.url,
      username: account.username,
      apiKey: 'not-the-key',
      timeoutMs: 2_000,
    });
    const order = await deliveryOf('254711082303');
    const result = await submitLeg(order, wrongKey);
    expect(result).toEqual({
      kind: 'unavailable',
      reason: "Africa's Talking did not take the delivery: HTTP 401: The supplied authentication is invalid",
      taken: false,
    });
    expect(JSON.stringify(result)).not.toContain('not-the-key');
    expect(requestIdOf(order.id)).toBe('');
  });

  it('has a send to a closed port unavailable and not taken', async () => {
    const server = createServer();
    const url = await listening(server);
    await closed(server);
    const nowhere = createAfricasTalkingProvider({ store, baseUrl: url, ...account, timeoutMs: 2_000 });
    const order = await deliveryOf('254711082304');
    expect(await submitLeg(order, nowhere)).toEqual({
      kind: 'unavailable',
      reason: `Africa's Talking could not be reached: ${new URL(url).host} could not be reached (ECONNREFUSED)`,
      taken: false,
    });
    // Its claim given up: it counts as never made, so it may be sent later.
    expect(await queryLeg(order.id)).toEqual({ kind: 'not_found' });
    expect(await submitLeg(order)).toEqual({ kind: 'accepted' });
  });

  it('has a send AT never answers unavailable, its taking unknown', async () => {
    const silent = createServer(() => undefined);
    const url = await listening(silent);
    const slow = createAfricasTalkingProvider({ store, baseUrl: url, ...account, timeoutMs: 100 });
    try {
      const order = await deliveryOf('254711082305');
      expect(await submitLeg(order, slow)).toEqual({
        kind: 'unavailable',
        reason: "Africa's Talking did not answer: no answer within 100 ms",
      });
      // It may have been taken: never not_found, and never sent again.
      await expect(queryLeg(order.id)).rejects.toThrow(/its send was claimed and may have been taken/);
      expect(await submitLeg(order)).toMatchObject({ kind: 'unavailable' });
    } finally {
      await closed(silent);
    }
  });

  it.each([
    ['a delivered leg completed', '254711082306', 'Success', 'completed', ''],
    [
      'a leg to a 0005 number declined, with AT’s description',
      '254711080005',
      'Failed',
      'declined',
      'Failed to deliver airtime: carrier error',
    ],
  ] as const)(
    'finds %s, its result naming the leg id, with the number and value as evidence',
    async (_what, mobile, status, outcome, reason) => {
      const order = await deliveryOf(mobile);
      await submitLeg(order);
      const requestId = requestIdOf(order.id);
      await until(() => statusOf(order.id) === status);
      expect(await queryLeg(order.id)).toEqual({
        kind: 'result',
        result: {
          id: `at-query:${requestId}`,
          reference: order.id,
          outcome,
          providerCode: requestId,
          reason,
          evidence: { mobile, amountMinor: 5_000n },
        },
      });
    },
  );

  it('finds a leg still with the carrier pending', async () => {
    const order = await deliveryOf('254711089004');
    await submitLeg(order);
    await wait(deliveryMs * 2);
    expect(await queryLeg(order.id)).toEqual({ kind: 'pending' });
  });

  it('finds a leg AT never acknowledged not_found, without asking AT', async () => {
    const order = await deliveryOf('254711082307');
    const before = fake.requests.length;
    expect(await queryLeg(order.id)).toEqual({ kind: 'not_found' });
    expect(fake.requests).toHaveLength(before);
  });

  it('throws, naming the problem and not the apiKey, when AT cannot be asked', async () => {
    const order = await deliveryOf('254711082308');
    await submitLeg(order);
    const wrongKey = createAfricasTalkingProvider({
      store,
      baseUrl: fake.url,
      username: account.username,
      apiKey: 'not-the-key',
      timeoutMs: 2_000,
    });
    const refused = queryLeg(order.id, wrongKey);
    await expect(refused).rejects.toThrow(
      /could not be read: HTTP 401: "The supplied authentication is invalid"\.$/,
    );
    await refused.catch((error: unknown) => {
      expect(String(error)).not.toContain('not-the-key');
    });
    const silent = createServer(() => undefined);
    const slow = createAfricasTalkingProvider({
      store,
      baseUrl: await listening(silent),
      ...account,
      timeoutMs: 100,
    });
    try {
      await expect(queryLeg(order.id, slow)).rejects.toThrow(
        `Africa's Talking could not be asked about ${order.id} (${requestIdOf(order.id)}): no answer within 100 ms.`,
      );
    } finally {
      await closed(silent);
    }
  });

  it('reads the status callback of an accepted leg into a report naming the requestId it recorded', async () => {
    const order = await deliveryOf('254711082309');
    await submitLeg(order);
    const recorded = await submissionIdOf(store, 'africastalking', order.id);
    const reportAbout = (event: WebhookEvent) =>
      event.kind === 'reports' && event.reports.some((report) => report.providerId === recorded?.providerId);
    await until(() => received.some(reportAbout));
    expect(received.find(reportAbout)).toMatchObject({
      kind: 'reports',
      reports: [{ providerId: recorded?.providerId, about: 'submission', outcome: 'completed' }],
    });
    await until(() => fake.callbacks.some((callback) => callback.body.includes(recorded?.providerId ?? '?')));
    expect(
      fake.callbacks.find((callback) => callback.body.includes(recorded?.providerId ?? '?'))?.status,
    ).toBe(200);
  });

  // Numbers other than the legs' above (with the same last four digits): AT refuses the same number and
  // amount within five minutes as a duplicate.
  describe('airtime sent from the balance', () => {
    /** A recorded transaction of airtime sent from the balance: 50 KES for `mobile`. */
    async function sentTo(mobile: string): Promise<TransactionRecord> {
      const [transaction] = await sendAirtime(ledger, accountId, [mobile]);
      if (transaction === undefined) throw new Error('Expected the send to create a transaction.');
      return transaction;
    }

    it('delivers it as its first leg, keyed by its delivery leg id, recording the requestId under the bare reference', async () => {
      const transaction = await sentTo('254711082320');
      const key = `${transaction.reference}-delivery`;
      expect(await provider.submit(transaction)).toEqual({ kind: 'accepted' });
      const requestId = requestIdOf(key);
      expect(requestId).toMatch(/^ATQid_/);
      const sent = fake.requests.find((request) => request.headers.idempotencyKey === key);
      expect(sent).toMatchObject({ path: '/version1/airtime/send', headers: { apiKeyMatched: true } });
      expect(JSON.parse(new URLSearchParams(sent?.body).get('recipients') ?? '')).toEqual([
        { phoneNumber: '+254711082320', amount: 'KES 50' },
      ]);
      expect(await submissionIdOf(store, 'africastalking', transaction.reference)).toEqual({
        provider: 'africastalking',
        providerId: requestId,
        reference: transaction.reference,
        purpose: 'submission',
        otherId: '',
      });
      expect(await submissionIdOf(store, 'africastalking', key)).toBeUndefined();
    });

    it('sends the recipient once when the same transaction is submitted twice', async () => {
      const transaction = await sentTo('254711082321');
      const key = `${transaction.reference}-delivery`;
      expect(await provider.submit(transaction)).toEqual({ kind: 'accepted' });
      expect(await provider.submit(transaction)).toEqual({ kind: 'accepted' });
      expect(fake.deliveries.filter((delivery) => delivery.idempotencyKey === key)).toHaveLength(1);
      expect(fake.requests.filter((request) => request.headers.idempotencyKey === key)).toHaveLength(1);
    });

    it.each([
      ['delivered completed', '254711082322', 'Success', 'completed', ''],
      [
        'to a 0005 number declined, with AT’s description',
        '254711090005',
        'Failed',
        'declined',
        'Failed to deliver airtime: carrier error',
      ],
    ] as const)(
      'finds one %s by its bare reference, the result naming that reference',
      async (_what, mobile, status, outcome, reason) => {
        const transaction = await sentTo(mobile);
        const key = `${transaction.reference}-delivery`;
        await provider.submit(transaction);
        const requestId = requestIdOf(key);
        await until(() => statusOf(key) === status);
        expect(statusOf(key)).toBe(status);
        expect(await provider.query(transaction.reference)).toEqual({
          kind: 'result',
          result: {
            id: `at-query:${requestId}`,
            reference: transaction.reference,
            outcome,
            providerCode: requestId,
            reason,
            evidence: { mobile, amountMinor: 5_000n },
          },
        });
      },
    );

    it('finds one still with the carrier pending, and one never acknowledged not_found without asking AT', async () => {
      const open = await sentTo('254711099004');
      await provider.submit(open);
      expect(await provider.query(open.reference)).toEqual({ kind: 'pending' });
      const unsent = await sentTo('254711082323');
      const before = fake.requests.length;
      expect(await provider.query(unsent.reference)).toEqual({ kind: 'not_found' });
      expect(fake.requests).toHaveLength(before);
    });

    it('has a number AT refuses at once refused, recording nothing', async () => {
      const recorded = await sentTo('254711082324');
      const transaction: TransactionRecord = {
        ...recorded,
        recipient: { ...recorded.recipient, mobile: '254811082324' },
      };
      expect(await provider.submit(transaction)).toEqual({
        kind: 'refused',
        reason: 'Invalid phone number',
        providerCode: 'AT_REFUSED',
      });
      expect(await submissionIdOf(store, 'africastalking', recorded.reference)).toBeUndefined();
    });

    it('reads the status callback of a sent transaction into a report naming the requestId recorded under its reference', async () => {
      const transaction = await sentTo('254711082325');
      await provider.submit(transaction);
      const recorded = await submissionIdOf(store, 'africastalking', transaction.reference);
      expect(recorded?.providerId).toMatch(/^ATQid_/);
      const reportAbout = (event: WebhookEvent) =>
        event.kind === 'reports' &&
        event.reports.some((report) => report.providerId === recorded?.providerId);
      await until(() => received.some(reportAbout));
      expect(received.find(reportAbout)).toMatchObject({
        kind: 'reports',
        reports: [{ providerId: recorded?.providerId, about: 'submission', outcome: 'completed' }],
      });
    });
  });
});
