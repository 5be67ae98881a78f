// A provider that cannot be asked never makes the service guess. A transaction it took and then went silent
// about is asked about again and again, stays requested with its money reserved, and at the end of the
// reconciliation window waits for an operator: no cancellation, no refund, no callback until an operator
// settles its leg. Through the HTTP API with the worker in the process, on each store.

import type { Store } from '@topup/ledger';
import { createSandboxSimulator } from '@topup/providers';
import type { Provider } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

/** The simulator, except that it can never be asked about a transaction. */
function unreachableForQueries(store: Store): Provider {
  return {
    ...createSandboxSimulator(store, { delayMs: 0 }),
    query: () => Promise.reject(new Error('status endpoint unreachable')),
  };
}

describe.each(openTestStores())('a leg its provider cannot settle, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let sink: CallbackSink;

  beforeAll(async () => {
    store = await stores.open();
    sink = await startCallbackSink();
    service = await startTestService(store, {
      worker: true,
      provider: unreachableForQueries,
      workerSettings: {
        transactionTimeoutSeconds: 1,
        providerQueryAfterSeconds: 1,
        reconciliationWindowSeconds: 1,
        pollIntervalMs: 100,
      },
    });
  });

  afterAll(async () => {
    await service.stop();
    await sink.close();
    await stores.close(store);
  });

  it('waits for an operator instead of cancelling, and is settled by one', async () => {
    const { account, token } = await service.createCaller({ float: 1_000_000n });
    await service.ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json' });
    // 0002: the simulator takes it and never produces a result.
    const sent = await envelopeOf(
      await service.call('send_agent_float', {
        token,
        json: { mobile: '254712340002', amount: '100', agent_number: '300300', store_number: '400400' },
      }),
    );
    expect(sent.status.code).toBe('0000');
    const reference = (sent.data['transaction'] as { reference: string }).reference;

    const [waiting] = await eventually('the leg to wait for review', async () => {
      const legs = await service.ledger.legsForReview();
      const found = legs.filter((leg) => leg.reference === reference);
      return found.length > 0 ? found : undefined;
    });
    expect(waiting).toMatchObject({ state: 'unknown', provider: 'sandbox' });
    expect(waiting?.queries).toBeGreaterThanOrEqual(1);
    await expect(service.ledger.findTransaction(reference)).resolves.toMatchObject({ state: 'requested' });
    await expect(service.ledger.balance(account.id, 'float')).resolves.toMatchObject({
      pendingMinor: 10_000n,
    });
    expect(sink.arrived).toEqual([]);

    const settled = await service.ledger.settleReviewedLeg(`${reference}-disbursement`, {
      as: 'failed',
      by: 'amina',
    });
    expect(settled).toMatchObject({ kind: 'resolved', transaction: { state: 'cancelled' } });
    await expect(service.ledger.balance(account.id, 'float')).resolves.toMatchObject({
      pendingMinor: 0n,
      availableMinor: 1_000_000n,
    });
    const callback = await eventually('the cancellation callback', () =>
      sink.arrived.find((arrived) => arrived.reference === reference),
    );
    expect(callback.body).toContain('the provider did not carry it out');
  });
});
