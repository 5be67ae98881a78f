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
    createdAt: new Date(),
    leaseUntil: new Date(Date.now() + 60_000),
  };
}

function dispatcherWith(queue: ClaimedDelivery[], overrides: Partial<WorkerSettings> = {}) {
  const recorded: { id: string; attempt: DeliveryAttempt }[] = [];
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
      endpointSecrets: () => Promise.resolve([secret]),
    },
    logger: pino({ level: 'silent' }),
    settings: resolveWorkerSettings({
      mode: 'sandbox',
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
  return { dispatcher, recorded, claims };
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

  it('does not start a callback that waited for its endpoint past its start window, and records nothing for it', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 120 }));
    const queue = ['a', 'b', 'c'].map((id) => delivery(id, receiver!.url));
    const { dispatcher, recorded } = dispatcherWith(queue, {
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
      error: 'callback URL refused: expected an https URL in live mode, received an http URL',
    });
    expect(recorded[0]!.attempt.httpStatus).toBeUndefined();
  });

  it('finishes the callbacks in flight when stopped, and sends no more', async () => {
    receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 100 }));
    const queue = ['a', 'b'].map((id) => delivery(id, receiver!.url));
    const { dispatcher, recorded } = dispatcherWith(queue, { perEndpointConcurrency: 1 });
    await dispatcher.round();
    await receiver.waitFor(1);
    await dispatcher.stop();
    expect(recorded.map(({ id }) => id)).toEqual(['a']);
    expect(receiver.received).toHaveLength(1);
    expect(await dispatcher.round()).toEqual({ more: false });
  });
});
