// Provider results, timeouts and interrupted submissions end to end: the sandbox simulator's outcomes
// resolve each transaction once, with the right money effect and the right callback.

import { decodeJsonEnvelope } from '@topup/envelope';
import { createLedger } from '@topup/ledger';
import type { Ledger, Store, TransactionRecord } from '@topup/ledger';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TIMEOUT_REASON } from './loops/transaction-timeouts.js';
import type { Provider } from '@topup/providers';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { startWorker } from './start-worker.js';
import type { StartWorkerOptions } from './start-worker.js';
import { startCallbackReceiver } from './testing/callback-receiver.js';
import type { CallbackReceiver } from './testing/callback-receiver.js';
import {
  callerWithEndpoint,
  eventually,
  requestAirtime,
  requestFloat,
  submitLikeTheServer,
} from './testing/scenario.js';
import type { Caller } from './testing/scenario.js';
import { openTestStore, testStoreKinds } from './testing/test-stores.js';
import type { TestStore } from './testing/test-stores.js';

const logger = pino({ level: 'silent' });

describe.each(testStoreKinds())('transaction resolution on %s', (kind) => {
  let testStore: TestStore;
  let store: Store;
  let ledger: Ledger;
  let receiver: CallbackReceiver;
  let caller: Caller;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    store = testStore.store;
    ledger = createLedger(store);
    receiver = await startCallbackReceiver();
    caller = await callerWithEndpoint(ledger, receiver.url);
  });

  afterAll(async () => {
    await receiver.close();
    await ledger.close();
    await testStore.dispose();
  });

  function start(
    provider: Provider,
    options: Partial<Pick<StartWorkerOptions, 'now'>> & { providerTimeoutMs?: number } = {},
  ) {
    const worker = startWorker({
      store,
      ledger,
      providers: routeEveryNetworkTo(provider),
      logger,
      ...(options.now === undefined ? {} : { now: options.now }),
      settings: {
        mode: 'sandbox',
        // The test's receivers listen on loopback, as a developer's do on their own machine.
        allowLoopbackCallbacks: true,
        transactionTimeoutSeconds: 600,
        retryScheduleSeconds: [0, 0.2, 0.2],
        providerTimeoutMs: options.providerTimeoutMs ?? 10_000,
        pollIntervalMs: 50,
        resultPollIntervalMs: 20,
      },
    });
    onTestFinished(() => worker.stop());
    return worker;
  }

  async function resolved(reference: string): Promise<TransactionRecord> {
    return eventually(`transaction ${reference} to resolve`, async () => {
      const found = await ledger.findTransaction(reference);
      return found?.state === 'requested' ? undefined : found;
    });
  }

  async function callbackFor(reference: string) {
    const callback = await eventually(`a callback for ${reference}`, () =>
      Promise.resolve(receiver.received.find((each) => each.body.toString('utf8').includes(reference))),
    );
    return decodeJsonEnvelope(callback.body.toString('utf8'));
  }

  it('completes a float after the simulated delay: the reservation is posted and a SUCCESS callback sent', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 100 });
    start(provider);
    const before = await ledger.balance(caller.account.id, 'float');
    const transaction = await requestFloat(ledger, caller.account.id, '254712345678', 400);
    await submitLikeTheServer(ledger, provider, transaction);

    expect(await resolved(transaction.reference)).toMatchObject({
      state: 'completed',
      code: expect.stringMatching(/^SIM/) as string,
    });
    const after = await ledger.balance(caller.account.id, 'float');
    expect(before.postedMinor - after.postedMinor).toBe(40_000n);
    expect(after.pendingMinor).toBe(before.pendingMinor);
    expect((await callbackFor(transaction.reference)).status.code).toBe('0000');
  });

  it('cancels a declined airtime purchase with no money moved, and announces it with 8000', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    start(provider);
    const before = await ledger.balance(caller.account.id, 'airtime');
    const transaction = await requestAirtime(ledger, caller.account.id, '254733123456', '254711000001');
    await submitLikeTheServer(ledger, provider, transaction);

    expect(await resolved(transaction.reference)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'payment declined',
    });
    expect(await ledger.balance(caller.account.id, 'airtime')).toEqual(before);
    const envelope = await callbackFor(transaction.reference);
    expect(envelope.status).toEqual({ type: 'FAIL', code: '8000', message: 'Purchase Cancelled' });
  });

  it('refunds an airtime purchase whose delivery fails after payment, so the payer nets zero', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    start(provider);
    const before = await ledger.balance(caller.account.id, 'airtime');
    const transaction = await requestAirtime(ledger, caller.account.id, '254733120005', '254711222333');
    await submitLikeTheServer(ledger, provider, transaction);

    expect(await resolved(transaction.reference)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'delivery failed after payment',
    });
    expect(await ledger.balance(caller.account.id, 'airtime')).toEqual(before);
    const { rows } = await store.query<{ purpose: string }>(
      `SELECT purpose FROM transfers WHERE reference = $1 ORDER BY id`,
      [transaction.reference],
    );
    expect(rows.map((row) => row.purpose)).toEqual(['airtime_collection', 'airtime_refund']);
    expect((await callbackFor(transaction.reference)).data.errors).toEqual(['delivery failed after payment']);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('cancels a transaction the provider never answers once the timeout passes, voiding its reservation', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    const before = await ledger.balance(caller.account.id, 'float');
    const transaction = await requestFloat(ledger, caller.account.id, '254712340002', 700);
    await submitLikeTheServer(ledger, provider, transaction);
    expect((await ledger.balance(caller.account.id, 'float')).availableMinor).toBe(
      before.availableMinor - 70_000n,
    );
    // The worker's clock runs eleven minutes ahead: the transaction is past the ten-minute timeout.
    start(provider, { now: () => new Date(Date.now() + 11 * 60_000) });

    expect(await resolved(transaction.reference)).toMatchObject({
      state: 'cancelled',
      cancelReason: TIMEOUT_REASON,
    });
    expect(await ledger.balance(caller.account.id, 'float')).toEqual(before);
    const envelope = await callbackFor(transaction.reference);
    expect(envelope.status.code).toBe('8000');
    expect(envelope.data.errors).toEqual([TIMEOUT_REASON]);
  });

  it('records a result that arrives after the timeout cancelled the transaction, without applying it', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    const transaction = await requestFloat(ledger, caller.account.id, '254712345679', 100);
    await submitLikeTheServer(ledger, provider, transaction);
    await ledger.cancel(transaction.reference, { reason: TIMEOUT_REASON });
    const worker = start(provider);

    await eventually('the late result to be taken', async () => {
      const { rows } = await store.query(
        'SELECT reference FROM provider_simulator_jobs WHERE reference = $1',
        [transaction.reference],
      );
      return rows.length === 0 ? true : undefined;
    });
    expect(await ledger.findTransaction(transaction.reference)).toMatchObject({
      state: 'cancelled',
      cancelReason: TIMEOUT_REASON,
    });
    expect(await ledger.listUnappliedResolutions({ reference: transaction.reference })).toEqual([
      expect.objectContaining({ asked: 'completed', state: 'cancelled' }),
    ]);
    expect(await worker.metrics.getSingleMetricAsString('topup_provider_results_total')).toContain(
      'topup_provider_results_total{outcome="completed",applied="false"} 1',
    );
  });

  it('submits an interrupted submission once, then lets its result complete it', async () => {
    const simulator = createSandboxSimulator(store, { delayMs: 0 });
    const submitted: string[] = [];
    const counting: Provider = {
      ...simulator,
      submit: (transaction) => {
        submitted.push(transaction.reference);
        return simulator.submit(transaction);
      },
    };
    // Recorded by the ledger, never submitted: the server died in between.
    const transaction = await requestFloat(ledger, caller.account.id, '254712345680', 100);
    // With a 1 s provider timeout the transaction counts as interrupted after 6 s; the clock is ahead by 7 s.
    start(counting, { providerTimeoutMs: 1_000, now: () => new Date(Date.now() + 7_000) });

    expect(await resolved(transaction.reference)).toMatchObject({ state: 'completed' });
    expect(submitted).toEqual([transaction.reference]);
    expect((await ledger.findTransaction(transaction.reference))?.submittedAt).toBeInstanceOf(Date);
  });

  it('cancels an interrupted submission the provider refuses, with its code', async () => {
    const provider = createSandboxSimulator(store, { delayMs: 0 });
    const transaction = await requestFloat(ledger, caller.account.id, '254712340003', 100);
    start(provider, { providerTimeoutMs: 1_000, now: () => new Date(Date.now() + 7_000) });

    expect(await resolved(transaction.reference)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'refused by the provider',
      code: expect.stringMatching(/^SIM/) as string,
    });
  });
});
