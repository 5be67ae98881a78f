// One caller cannot starve another's callbacks. Account A has a backlog of 3,000 deliveries to ten slow
// endpoints (each answer takes 1.5 s, so at 128 deliveries in flight the backlog takes half a minute);
// account B's callback, written after all of them, must still arrive within the usual latency. Deliveries
// are claimed fairly across accounts, so A's backlog delays only A. With the worker in the process.

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const floodEndpoints = 10;
const floodTransactions = 300;
const env = { RATE_LIMIT_BURST: '1000', CALLBACK_RETRY_SCHEDULE: '0,60' };

async function sendFloats(service: TestService, token: string, count: number): Promise<string[]> {
  const references: string[] = [];
  for (let first = 0; first < count; first += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, count - first) }, async (_, offset) =>
        envelopeOf(
          await service.call('send_agent_float', {
            token,
            json: {
              mobile: `25471234${String(1_000 + first + offset)}`,
              amount: '100',
              agent_number: '300300',
              store_number: '400400',
            },
          }),
        ),
      ),
    );
    for (const answer of answers)
      references.push((answer.data.transaction as { reference: string }).reference);
  }
  return references;
}

describe.each(openTestStores())('callbacks of a flooded account and a quiet one, on $name', (stores) => {
  let store: Store;
  let setup: TestService;
  let worker: TestService | undefined;
  let slow: Server;
  let sink: CallbackSink;

  beforeAll(async () => {
    store = await stores.open();
    setup = await startTestService(store, { env });
    slow = createServer((_request, response) => {
      setTimeout(() => response.end('slow'), 1_500).unref();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    sink = await startCallbackSink();
  });

  afterAll(async () => {
    await worker?.stop();
    await setup.stop();
    slow.closeAllConnections();
    slow.close();
    await sink.close();
    await stores.close(store);
  });

  it('delivers the quiet account’s callback within the usual latency while the flooded one’s backlog waits', async () => {
    const flooded = await setup.createCaller({ float: 100_000_000n });
    const slowUrl = `http://127.0.0.1:${String((slow.address() as AddressInfo).port)}/hook`;
    for (let index = 0; index < floodEndpoints; index += 1) {
      await setup.ledger.addCallbackEndpoint(flooded.account.id, {
        url: `${slowUrl}?${String(index)}`,
        format: 'json',
      });
    }
    for (const reference of await sendFloats(setup, flooded.token, floodTransactions)) {
      await setup.ledger.complete(reference, { providerCode: 'FLOOD' });
    }
    const quiet = await setup.createCaller({ float: 1_000_000n });
    await setup.ledger.addCallbackEndpoint(quiet.account.id, { url: sink.url, format: 'json' });
    const [reference = ''] = await sendFloats(setup, quiet.token, 1);

    worker = await startTestService(store, { worker: true, env });
    // The flood is under way: the slow endpoints hold the worker's slots.
    await sleepUntilBusy(store);
    const completedAt = Date.now();
    await setup.ledger.complete(reference, { providerCode: 'QUIET' });
    const arrived = await eventually(
      'the quiet account’s callback',
      () => sink.arrived.find((callback) => callback.reference === reference),
      20_000,
    );
    const latencyMs = arrived.receivedAt - completedAt;
    expect(latencyMs).toBeLessThan(3_000);
    const { rows } = await store.query<{ pending: string }>(
      `SELECT count(*)::text AS pending FROM callback_deliveries WHERE account_id = $1 AND status = 'pending'`,
      [flooded.account.id],
    );
    // The flooded account's own backlog is still far from drained: only it waits.
    expect(Number(rows[0]?.pending)).toBeGreaterThan(1_000);
  }, 120_000);
});

/** Waits until the worker has slow attempts in flight, so the quiet callback meets a busy worker. */
async function sleepUntilBusy(store: Store): Promise<void> {
  await eventually('the flood to be in flight', async () => {
    const { rows } = await store.query<{ leased: string }>(
      `SELECT count(*)::text AS leased FROM callback_deliveries WHERE lease_until IS NOT NULL`,
    );
    return Number(rows[0]?.leased) >= 100 ? true : undefined;
  });
}
