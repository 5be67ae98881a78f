// Callback delivery end to end: ledger on PGlite (and PostgreSQL when configured), the worker, and a real
// HTTP receiver on 127.0.0.1.

import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import { createLedger } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { verifyCallback } from '@topup/signing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { startWorker } from './start-worker.js';
import { startCallbackReceiver } from './testing/callback-receiver.js';
import type { CallbackReceiver, ReceivedCallback } from './testing/callback-receiver.js';
import {
  callerWithEndpoint,
  eventually,
  requestAirtime,
  requestFloat,
  submitLikeTheServer,
} from './testing/scenario.js';
import { standardWebhook } from './testing/standard-webhooks.js';
import { openTestStore, testStoreKinds } from './testing/test-stores.js';
import type { TestStore } from './testing/test-stores.js';
import type { WorkerSettings } from './worker-settings.js';

const logger = pino({ level: 'silent' });

/** Settings that make a test run in seconds: a short retry schedule and polling only as a backstop. */
function settings(overrides: Partial<WorkerSettings> = {}): WorkerSettings {
  return {
    mode: 'sandbox',
    // The test's receivers listen on loopback, as a developer's do on their own machine.
    allowLoopbackCallbacks: true,
    transactionTimeoutSeconds: 600,
    retryScheduleSeconds: [0, 0.2, 0.2, 0.2],
    slowDownFloorSeconds: 0.2,
    providerTimeoutMs: 10_000,
    pollIntervalMs: 60_000,
    resultPollIntervalMs: 20,
    ...overrides,
  };
}

function headersOf(callback: ReceivedCallback): Record<string, string> {
  return Object.fromEntries(Object.entries(callback.headers).map(([name, value]) => [name, String(value)]));
}

function dataOf(callback: ReceivedCallback): Record<string, Record<string, unknown>> {
  const text = callback.body.toString('utf8');
  const envelope = text.startsWith('<?xml') ? decodeXmlEnvelope(text) : decodeJsonEnvelope(text);
  return envelope.data as unknown as Record<string, Record<string, unknown>>;
}

describe.each(testStoreKinds())('callback delivery on %s', (kind) => {
  let testStore: TestStore;
  let store: Store;
  let ledger: Ledger;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    store = testStore.store;
    ledger = createLedger(store);
  });

  afterAll(async () => {
    await ledger.close();
    await testStore.dispose();
  });

  function start(overrides: Partial<WorkerSettings> = {}) {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    const worker = startWorker({
      store,
      ledger,
      providers: routeEveryNetworkTo(provider),
      logger,
      settings: settings(overrides),
    });
    onTestFinished(() => worker.stop());
    return { worker, provider };
  }

  async function freshReceiver(): Promise<CallbackReceiver> {
    receiver = await startCallbackReceiver();
    onTestFinished(() => receiver.close());
    return receiver;
  }

  it('delivers a completed float as a signed SUCCESS callback that both signature libraries verify', async () => {
    await freshReceiver();
    const caller = await callerWithEndpoint(ledger, receiver.url, 'json');
    const { provider } = start();
    const transaction = await requestFloat(ledger, caller.account.id, '254712345678', 250);
    await submitLikeTheServer(ledger, provider, transaction);

    const [callback] = await receiver.waitFor(1);
    const headers = headersOf(callback!);
    expect(verifyCallback({ secrets: [caller.secret], headers, body: callback!.body })).toMatchObject({
      ok: true,
    });
    expect(() =>
      standardWebhook(caller.secret).verify(callback!.body.toString('utf8'), headers),
    ).not.toThrow();
    expect(headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(callback!.body.byteLength),
      'signature-algorithm': 'HMAC-SHA256',
    });

    const envelope = decodeJsonEnvelope(callback!.body.toString('utf8'));
    expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Agent float deposited' });
    const data = dataOf(callback!);
    expect(data.transaction).toMatchObject({
      reference: transaction.reference,
      state: 'completed',
      amount: '250',
    });
    expect(data.messaging?.message).toBe('You have received KES 250.00 agent float');

    const deliveries = await eventually('the delivery to be recorded as delivered', async () => {
      const found = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found[0]?.status === 'delivered' ? found : undefined;
    });
    expect(deliveries[0]!.id).toBe(headers['webhook-id']);
    expect(deliveries[0]!.attempts).toMatchObject([{ outcome: 'delivered', httpStatus: 200 }]);
  });

  it('picks up a new callback within 100 ms of the transaction resolving, with polling a minute away', async () => {
    await freshReceiver();
    const caller = await callerWithEndpoint(ledger, receiver.url);
    start();
    const transaction = await requestFloat(ledger, caller.account.id, '254712345600');
    // Marked submitted without reaching the simulator, so only this test resolves it.
    await ledger.markSubmitted(transaction.reference);
    await sleep(100);
    const resolvedAt = Date.now();
    expect(await ledger.complete(transaction.reference, { providerCode: 'DIRECT' })).toMatchObject({
      kind: 'resolved',
    });
    const [callback] = await receiver.waitFor(1);
    expect(callback!.receivedAt - resolvedAt).toBeLessThan(100);
  });

  it('delivers a completed airtime purchase in XML without a payment object', async () => {
    await freshReceiver();
    const caller = await callerWithEndpoint(ledger, receiver.url, 'xml');
    const { provider } = start();
    const transaction = await requestAirtime(ledger, caller.account.id, '254733123456', '254711222333', 50);
    await submitLikeTheServer(ledger, provider, transaction);

    const [callback] = await receiver.waitFor(1);
    const body = callback!.body.toString('utf8');
    expect(callback!.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(
      verifyCallback({ secrets: [caller.secret], headers: headersOf(callback!), body: callback!.body }).ok,
    ).toBe(true);
    expect(() =>
      standardWebhook(caller.secret).verify(body, headersOf(callback!), { jsonParse: false }),
    ).not.toThrow();
    expect(decodeXmlEnvelope(body).status).toEqual({
      type: 'SUCCESS',
      code: '0000',
      message: 'Airtime delivered',
    });
    expect(body).not.toContain('<payment>');
    expect(dataOf(callback!).transaction).toMatchObject({
      reference: transaction.reference,
      type: 'Airtime',
    });
  });

  it('announces a declined float as FAIL/8000 with the reason and the full transaction data', async () => {
    await freshReceiver();
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start();
    const transaction = await requestFloat(ledger, caller.account.id, '254712340001', 300);
    await submitLikeTheServer(ledger, provider, transaction);

    const [callback] = await receiver.waitFor(1);
    const envelope = decodeJsonEnvelope(callback!.body.toString('utf8'));
    expect(envelope.status).toEqual({ type: 'FAIL', code: '8000', message: 'Agent Float Cancelled' });
    expect(envelope.data.errors).toEqual(['payment declined']);
    const data = dataOf(callback!);
    expect(Object.keys(data)).toEqual([
      'errors',
      'sender',
      'recipient',
      'transaction',
      'messaging',
      'channel',
    ]);
    expect(data.transaction).toMatchObject({
      reference: transaction.reference,
      status: 'Cancelled',
      state: 'cancelled',
      amount: '300',
    });
    expect(data.recipient).toMatchObject({ mobile: '254712340001', agent_number: '234567' });
    expect((await ledger.balance(caller.account.id, 'float')).availableMinor).toBe(1_000_000n);
  });

  it('retries after 500s with identical bytes and the same webhook-id, recording every attempt', async () => {
    await freshReceiver();
    receiver.answerWith((_, index) =>
      index < 2 ? { status: 500, body: `failure ${index}` } : { status: 204 },
    );
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start();
    const transaction = await requestFloat(ledger, caller.account.id, '254712345601');
    await submitLikeTheServer(ledger, provider, transaction);

    const received = await receiver.waitFor(3);
    expect(new Set(received.map((callback) => callback.headers['webhook-id'])).size).toBe(1);
    expect(received[1]!.body.equals(received[0]!.body)).toBe(true);
    expect(received[2]!.body.equals(received[0]!.body)).toBe(true);
    const delivery = await eventually('three recorded attempts', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(
      delivery.attempts.map(({ outcome, httpStatus, responseExcerpt }) => ({
        outcome,
        httpStatus,
        responseExcerpt,
      })),
    ).toEqual([
      // The receiver is on loopback, not public: its status is recorded, never what it answered.
      { outcome: 'retry', httpStatus: 500, responseExcerpt: '' },
      { outcome: 'retry', httpStatus: 500, responseExcerpt: '' },
      { outcome: 'delivered', httpStatus: 204, responseExcerpt: '' },
    ]);
    expect(delivery.attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);
  });

  it('disables the endpoint when the receiver answers 410 Gone, and sends it nothing more', async () => {
    await freshReceiver();
    receiver.answerWith(() => ({ status: 410, body: 'gone' }));
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start();
    const first = await requestFloat(ledger, caller.account.id, '254712345602');
    await submitLikeTheServer(ledger, provider, first);
    await receiver.waitFor(1);

    const [endpoint] = await eventually('the endpoint to be disabled', async () => {
      const endpoints = await ledger.listCallbackEndpoints(caller.account.id);
      return endpoints[0]?.enabled === false ? endpoints : undefined;
    });
    expect(endpoint!.disabledReason).toContain('410');
    const [delivery] = await ledger.listDeliveries(caller.account.id, { reference: first.reference });
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: [{ outcome: 'endpoint_gone', httpStatus: 410 }],
    });

    const second = await requestFloat(ledger, caller.account.id, '254712345603');
    await submitLikeTheServer(ledger, provider, second);
    await eventually('the second transaction to complete', async () => {
      const found = await ledger.findTransaction(second.reference);
      return found?.state === 'completed' ? found : undefined;
    });
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
  });

  it('retries a receiver slower than the timeout without ever sending the same callback twice at once', async () => {
    await freshReceiver();
    receiver.answerWith((_, index) => (index < 2 ? { status: 200, delayMs: 1_500 } : { status: 200 }));
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start({
      deliveryTimeoutMs: 300,
      retryScheduleSeconds: [0, 0.1, 0.1, 0.1],
      slowDownFloorSeconds: 0.1,
    });
    const transaction = await requestFloat(ledger, caller.account.id, '254712345604');
    await submitLikeTheServer(ledger, provider, transaction);

    await receiver.waitFor(3);
    const delivery = await eventually('the slow delivery to be delivered', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(delivery.attempts.map((attempt) => attempt.outcome)).toEqual(['retry', 'retry', 'delivered']);
    // A loopback receiver's timeout reads like any failed connection (the log has the detail).
    expect(delivery.attempts[0]!.error).toBe('connection failed');
    expect(delivery.attempts[0]!.httpStatus).toBeUndefined();
    expect(receiver.peakOpenPerCallback).toBe(1);
  });

  it('delivers on a later attempt when the receiver was down and comes back up', async () => {
    const down = await startCallbackReceiver();
    const { port, url } = down;
    await down.close();
    const caller = await callerWithEndpoint(ledger, url);
    const { provider } = start({ retryScheduleSeconds: [0, 0.2, 0.3, 0.5, 0.5, 0.5, 0.5] });
    const transaction = await requestFloat(ledger, caller.account.id, '254712345605');
    await submitLikeTheServer(ledger, provider, transaction);

    await eventually('two refused attempts', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return (found?.attempts.length ?? 0) >= 2 ? found : undefined;
    });
    receiver = await startCallbackReceiver(port);
    onTestFinished(() => receiver.close());
    const [callback] = await receiver.waitFor(1);
    expect(dataOf(callback!).transaction?.reference).toBe(transaction.reference);
    const delivery = await eventually('the delivery to be delivered', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(delivery.attempts.at(0)).toMatchObject({
      outcome: 'retry',
      error: 'connection failed',
    });
    expect(delivery.attempts.at(-1)).toMatchObject({ outcome: 'delivered', httpStatus: 200 });
  });

  it('keeps an exhausted delivery as failed, and delivers it when resent', async () => {
    await freshReceiver();
    receiver.answerWith(() => ({ status: 503 }));
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start({ retryScheduleSeconds: [0, 0.1] });
    const transaction = await requestFloat(ledger, caller.account.id, '254712345606');
    await submitLikeTheServer(ledger, provider, transaction);

    const failed = await eventually('the delivery to fail after its last attempt', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.status === 'failed' ? found : undefined;
    });
    expect(failed.attempts.map((attempt) => attempt.outcome)).toEqual(['retry', 'failed']);

    // The resend gets the whole schedule again: its first attempt fails and is retried, not failed for good.
    receiver.answerWith((_, index) => (index === 2 ? { status: 500, body: 'still busy' } : { status: 200 }));
    expect(await ledger.resendCallbacks(caller.account.id, transaction.reference)).toBe(1);
    await receiver.waitFor(4);
    const resent = await eventually('the resent delivery to be delivered', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(resent.id).toBe(failed.id);
    expect(resent.attemptCount).toBe(4);
    expect(resent.attempts.map(({ outcome, httpStatus }) => [outcome, httpStatus])).toEqual([
      ['retry', 503],
      ['failed', 503],
      ['retry', 500],
      ['delivered', 200],
    ]);
    expect(receiver.received.map((callback) => callback.headers['webhook-id'])).toEqual(
      Array.from({ length: 4 }, () => failed.id),
    );
  });

  it('shares the work between two workers on one store without sending any callback twice at once', async () => {
    await freshReceiver();
    // Each worker holds at most two callbacks at a time and each answer takes 20 ms, so neither can take
    // all forty before the other, woken by the same notifications, claims its share.
    receiver.answerWith(() => ({ status: 200, delayMs: 20 }));
    const caller = await callerWithEndpoint(ledger, receiver.url);
    const { provider } = start({ workerId: 'worker-a', deliveryConcurrency: 2 });
    start({ workerId: 'worker-b', deliveryConcurrency: 2 });
    const transactions = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        requestFloat(ledger, caller.account.id, `2547123470${String(index).padStart(2, '0')}`),
      ),
    );
    await Promise.all(transactions.map((transaction) => submitLikeTheServer(ledger, provider, transaction)));

    const received = await receiver.waitFor(40, 20_000);
    const references = new Set(received.map((callback) => dataOf(callback).transaction?.reference));
    expect(references).toEqual(new Set(transactions.map((transaction) => transaction.reference)));
    expect(receiver.peakOpenPerCallback).toBe(1);
    const workers = await eventually('every delivery to be recorded', async () => {
      const deliveries = await ledger.listDeliveries(caller.account.id, { status: 'delivered' });
      return deliveries.length === 40
        ? new Set(deliveries.flatMap((delivery) => delivery.attempts.map((a) => a.workerId)))
        : undefined;
    });
    expect([...workers].sort()).toEqual(['worker-a', 'worker-b']);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('reports the outbox depth and the oldest pending age when scraped', async () => {
    const down = await startCallbackReceiver();
    await down.close();
    const caller = await callerWithEndpoint(ledger, down.url);
    const { worker, provider } = start({ retryScheduleSeconds: [0, 60] });
    const gauge = async (name: string) =>
      (await worker.metrics.getSingleMetric(name)!.get()).values[0]!.value;
    const depthBefore = await gauge('topup_callback_queue_depth');
    const transaction = await requestFloat(ledger, caller.account.id, '254712345607');
    await submitLikeTheServer(ledger, provider, transaction);
    await eventually('a refused first attempt', async () => {
      const [found] = await ledger.listDeliveries(caller.account.id, { reference: transaction.reference });
      return found?.attempts.length === 1 ? found : undefined;
    });
    await sleep(50);
    expect(await gauge('topup_callback_queue_depth')).toBe(depthBefore + 1);
    expect(await gauge('topup_callback_oldest_pending_age_seconds')).toBeGreaterThan(0);
    const text = await worker.metrics.metrics();
    expect(text).toContain('topup_callback_deliveries_total{outcome="retry"} 1');
    expect(text).toContain('topup_callback_attempt_duration_seconds_count{result="error"} 1');
  });
});
