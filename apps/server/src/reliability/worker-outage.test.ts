// A worker outage must not cancel what the provider completed. With the worker stopped, floats are accepted
// and the simulator completes them; by the time a worker comes back they are all past the transaction
// timeout too. The worker must apply the results it finds, never cancel on the timeout's guess: no
// transaction ends cancelled, nothing lands among the unapplied resolutions, and the float channel holds
// exactly its funding less the completed floats. Through the HTTP API, on each store.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const floats = 500;
const amountShillings = 100;
const fundingCents = 10_000_000n;
/**
 * Results due 300 ms after submission, transactions timing out after 5 s (the shortest the configuration
 * takes with these request limits), and room for a burst of 500.
 */
const outageEnvironment = {
  SIMULATOR_DELAY_MS: '300',
  TRANSACTION_TIMEOUT: '5',
  PROVIDER_TIMEOUT_MS: '500',
  STORE_DEADLINE_MS: '2000',
  RATE_LIMIT_BURST: '1000',
};

describe.each(openTestStores())('a worker back from an outage, on $name', (stores) => {
  let store: Store;
  let server: TestService;
  let worker: TestService | undefined;

  beforeAll(async () => {
    store = await stores.open();
    server = await startTestService(store, { env: outageEnvironment });
  });

  afterAll(async () => {
    await worker?.stop();
    await server.stop();
    await stores.close(store);
  });

  it('applies the results the provider completed during the outage and cancels none of them', async () => {
    const { account, token } = await server.createCaller({ float: fundingCents });
    const references: string[] = [];
    for (let first = 0; first < floats; first += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, offset) => {
          // Endings 1000 to 1499: every one completes in the sandbox.
          const mobile = `25471234${String(1_000 + first + offset)}`;
          return envelopeOf(
            await server.call('send_agent_float', {
              token,
              json: {
                mobile,
                amount: String(amountShillings),
                agent_number: '300300',
                store_number: '400400',
              },
            }),
          );
        }),
      );
      for (const answer of answers) {
        expect(answer.status.code).toBe('0000');
        references.push((answer.data.transaction as { reference: string }).reference);
      }
    }
    // Every result is due and every transaction is past its timeout before the worker starts.
    await sleep(8_000);

    worker = await startTestService(store, { worker: true, env: outageEnvironment });
    const states = await eventually(
      'every transaction to be resolved',
      async () => {
        const { rows } = await store.query<{ state: string; count: string }>(
          `SELECT state, count(*)::text AS count FROM transactions WHERE account_id = $1 GROUP BY state`,
          [account.id],
        );
        const byState = Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
        return byState.requested === undefined ? byState : undefined;
      },
      30_000,
    );

    expect(references).toHaveLength(floats);
    expect(states).toEqual({ completed: floats });
    expect(await worker.ledger.listUnappliedResolutions({})).toEqual([]);
    const balance = await worker.ledger.balance(account.id, 'float');
    expect(balance.pendingMinor).toBe(0n);
    expect(balance.availableMinor).toBe(fundingCents - BigInt(floats * amountShillings * 100));
    expect((await worker.ledger.verify()).ok).toBe(true);
  });
});
