// A provider that cannot deduplicate submissions (Daraja's B2B takes no id of ours) and is silent, or fails
// without saying it took nothing, may be moving the money: the transaction is not cancelled, which would
// refund the caller for a float the agent may receive. It stays requested with its leg unknown, for the
// query path and then an operator to settle, and it is never submitted again. On each store.

import type { Provider } from '@topup/providers';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const float = {
  mobile: '254712345678',
  amount: '100',
  network: 'MoneyNetA',
  agent_number: '300300',
  store_number: '400400',
};

/** A provider that cannot deduplicate, answering each submission as `answer` does. */
function nonIdempotent(answer: () => ReturnType<Provider['submit']>, submitted: string[]): Provider {
  return {
    name: 'b2b-like',
    idempotentSubmissions: false,
    submit: (transaction) => {
      submitted.push(transaction.reference);
      return answer();
    },
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),
    query: () => Promise.reject(new Error('no id was recorded: it cannot be asked')),
  };
}

describe.each(openTestStores())('a submission whose outcome is unknown, on $name', (stores) => {
  it.each([
    ['silent past PROVIDER_TIMEOUT_MS', () => new Promise<never>(() => undefined)],
    ['failing without saying it took nothing', () => Promise.reject(new Error('socket hang up'))],
  ])(
    'stays requested with its leg unknown when a provider that cannot deduplicate is %s',
    async (_how, answer) => {
      const store = await stores.open();
      const submitted: string[] = [];
      const service = await startTestService(store, {
        provider: () => nonIdempotent(answer, submitted),
        env: { PROVIDER_TIMEOUT_MS: '300', TRANSACTION_TIMEOUT: '60' },
        worker: true,
        workerSettings: { pollIntervalMs: 20 },
      });
      try {
        const { token, account } = await service.createCaller({ float: 100_000n });
        const response = await service.call('send_agent_float', { token, json: float });
        expect(response.status).toBe(200);
        const envelope = await envelopeOf(response);
        expect(envelope.status.code).toBe('0000');
        const [reference = ''] = submitted;
        const transaction = await service.ledger.getTransaction(account.id, reference);
        expect(transaction?.state).toBe('requested');
        expect(await service.ledger.balance(account.id, 'float')).toMatchObject({
          availableMinor: 90_000n,
          pendingMinor: 10_000n,
        });
        const [leg] = await service.ledger.legs(reference);
        expect(leg).toMatchObject({ state: 'unknown', provider: 'b2b-like' });
        // The worker's recovery of interrupted submissions must not send it again.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(submitted).toEqual([reference]);
      } finally {
        await service.stop();
        await stores.close(store);
      }
    },
  );
});
