import { setTimeout as sleep } from 'node:timers/promises';
import type { ClaimedDelivery } from '@topup/ledger';
import { success } from '@topup/envelope';
import { generateSecret } from '@topup/signing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startCallbackReceiver } from '../testing/callback-receiver.js';
import type { CallbackReceiver } from '../testing/callback-receiver.js';
import { createWorkerMetrics } from '../worker-metrics.js';
import { resolveWorkerSettings } from '../worker-settings.js';
import type { WorkerSettings } from '../worker-settings.js';
import { CallbackDispatcher } from './callback-dispatcher.js';
import type { CallbackDispatcherOptions } from './callback-dispatcher.js';

type DeliveryAttempt = Parameters<CallbackDispatcherOptions['ledger']['recordDeliveryAttempt']>[1];

const secret = generateSecret();
let receiver: CallbackReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function delivery(id: string, url: string, endpointId = 'ep_1'): ClaimedDelivery {
  return {
    id,
    endpointId,
    accountId: 'acc_1',
    reference: `TX${id}`,
    event: 'completed',
    url,
    format: 'json',
    payload: JSON.stringify(success('Agent float deposited', { transaction: { reference: `TX${id}` } })),
    attempts: 0,
    attemptsInSchedule: 0,
    createdAt: new Date(),
    leaseUntil: new Date(Date.now() + 60_000),
  };
}

function dispatcherWith(queue: ClaimedDelivery[], overrides: Partial<WorkerSettings> = {}) {
  const recorded: { id: string; attempt: DeliveryAttempt }[] = [];
  const released: string[] = [];
  const claims: number[] = [];
  const dispatcher = new CallbackDispatcher({
    ledger: {
      claimDeliveries: ({ limit }) => {
        claims.push(limit);
        return Promise.resolve(queue.splice(0, limit));
      },
      recordDeliveryAttempt: (id, attempt) => {
        recorded.push({ id, attempt });
        return Promise.resolve();
      },
      releaseDeliveries: (workerId, ids) => {
        expect(workerId).toBe('worker-test');
        released.push(...ids);
        return Promise.resolve(ids.length);
      },
      endpointSecrets: () => Promise.resolve([secret]),
    },
    logger: pino({ level: 'silent' }),
    settings: resolveWorkerSettings({
      mode: 'sandbox',
      // The test's receivers listen on loopback, as a developer's do on their own machine.
      allowLoopbackCallbacks: true,
      transactionTimeoutSeconds: 600,
      retryScheduleSeconds: [0, 1, 1],
      providerTimeoutMs: 1_000,
      workerId: 'worker-test',
      ...overrides,
    }),
    metrics: createWorkerMetrics(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 })),
    wake: () => {},
    random: () => 0.5,
  });
  return { dispatcher, recorded, released, claims };
}

describe('CallbackDispatcher', () => {
  it('claims only as many deliveries as it has room for', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 50 }));
    const queue = ['a', 'b', 'c', 'd', 'e'].map((id) => delivery(id, receiver!.url, `ep_${id}`));
    const { dispatcher, claims } = dispatcherWith(queue, { deliveryConcurrency: 3 });
    await dispatcher.round();
    expect(dispatcher.inHand).toBe(3);
    await dispatcher.round();
    expect(claims).toEqual([3]);
    await receiver.waitFor(3);
    await dispatcher.stop();
    expect(receiver.received).toHaveLength(3);
  });

  it('does not start a callback that waited for its endpoint past its start window, and releases it unrecorded', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 120 }));
    const queue = ['a', 'b', 'c'].map((id) => delivery(id, receiver!.url));
    const { dispatcher, recorded, released } = dispatcherWith(queue, {
      perEndpointConcurrency: 1,
      deliveryTimeoutMs: 200,
    });
    await dispatcher.round();
    // 'b' ends about 240 ms after the claim, past the 200 ms window in which 'c' could still have started.
    await receiver.waitFor(2);
    await sleep(250);
    expect(dispatcher.inHand).toBe(0);
    await dispatcher.stop();
    expect(receiver.received.map((callback) => callback.headers['webhook-id'])).toEqual(['a', 'b']);
    expect(recorded.map(({ id, attempt }) => [id, attempt.outcome])).toEqual([
      ['a', 'delivered'],
      ['b', 'delivered'],
    ]);
    expect(released).toEqual(['c']);
  });

  it('records a URL the policy refuses as a failed attempt to retry, without sending anything', async () => {
    const { dispatcher, recorded } = dispatcherWith([delivery('a', 'http://127.0.0.1:9/hook')], {
      mode: 'live',
    });
    await dispatcher.round();
    await dispatcher.stop();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.attempt).toMatchObject({
      workerId: 'worker-test',
      outcome: 'retry',
      error: 'callback URL refused by the callback URL policy',
    });
    expect(recorded[0]!.attempt.httpStatus).toBeUndefined();
  });

  it('finishes the callbacks in flight when stopped, releases those still waiting, and sends no more', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 100 }));
    const queue = ['a', 'b'].map((id) => delivery(id, receiver!.url));
    const { dispatcher, recorded, released } = dispatcherWith(queue, { perEndpointConcurrency: 1 });
    await dispatcher.round();
    await receiver.waitFor(1);
    await dispatcher.stop();
    expect(recorded.map(({ id }) => id)).toEqual(['a']);
    // 'b' was claimed and never sent: released, not left for its 35 s lease to run out.
    expect(released).toEqual(['b']);
    expect(receiver.received).toHaveLength(1);
    expect(await dispatcher.round()).toEqual({ more: false });
  });
});

describe('CallbackDispatcher retries', () => {
  it('claims a retry no earlier than it is due, even when its timer fires early', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith((_, index) => (index === 0 ? { status: 500 } : { status: 200 }));
    const url = receiver.url;
    // The outbox as the database keeps it: a delivery is handed out only once it is due by the wall clock.
    let dueAt = Date.now();
    let pending: ClaimedDelivery | undefined = delivery('a', url);
    const emptyClaims: number[] = [];
    const outcomes: string[] = [];
    let dispatcher: CallbackDispatcher | undefined = undefined;
    dispatcher = new CallbackDispatcher({
      ledger: {
        claimDeliveries: () => {
          if (pending === undefined || Date.now() < dueAt) {
            emptyClaims.push(Date.now());
            return Promise.resolve([]);
          }
          const claimed = pending;
          pending = undefined;
          return Promise.resolve([claimed]);
        },
        recordDeliveryAttempt: (id, attempt) => {
          outcomes.push(attempt.outcome);
          if (attempt.outcome === 'retry') {
            dueAt = (attempt.nextAttemptAt ?? new Date()).getTime();
            pending = { ...delivery(id, url), attempts: 1, attemptsInSchedule: 1 };
          }
          return Promise.resolve();
        },
        releaseDeliveries: () => Promise.resolve(0),
        endpointSecrets: () => Promise.resolve([secret]),
      },
      logger: pino({ level: 'silent' }),
      settings: resolveWorkerSettings({
        mode: 'sandbox',
        // The test's receivers listen on loopback, as a developer's do on their own machine.
        allowLoopbackCallbacks: true,
        transactionTimeoutSeconds: 600,
        retryScheduleSeconds: [0, 0.1],
        providerTimeoutMs: 1_000,
        workerId: 'worker-test',
      }),
      metrics: createWorkerMetrics(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 })),
      // Only the timer wakes the dispatcher here: no polling stands behind it.
      wake: () => void dispatcher?.round(),
      random: () => 0.5,
      // Fires 30 ms early, as an exaggeration of the millisecond by which Node's timers may.
      setTimer: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs - 30)),
    });
    await dispatcher.round();
    await receiver.waitFor(2, 5_000);
    await dispatcher.stop();
    expect(outcomes).toEqual(['retry', 'delivered']);
    expect(emptyClaims).toEqual([]);
  });
});
