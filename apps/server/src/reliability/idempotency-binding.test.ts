// An Idempotency-Key's stored answer belongs to the transaction the key holds. A key given back (its first
// transaction came to nothing) and claimed again by a retry must never take an answer about the first
// transaction from a request still waiting on it; and a request whose provider went silent must answer the
// state its transaction really reached. Through the HTTP API with scripted providers, on each store.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '@topup/ledger';
import { createSandboxSimulator } from '@topup/providers';
import type { Provider, SubmitResult } from '@topup/providers';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const float = { mobile: '254712345678', amount: '100', agent_number: '300300', store_number: '400400' };
const keyed = { 'Idempotency-Key': 'order-1042' };

/** The simulator, with each submission first held for the time `scripted` gives, or answered by it. */
function scriptedProvider(
  store: Store,
  scripted: (call: number, reference: string) => Promise<SubmitResult | undefined>,
): Provider {
  const simulator = createSandboxSimulator(store, { delayMs: 0 });
  let calls = 0;
  return {
    ...simulator,
    async submit(transaction) {
      calls += 1;
      return (await scripted(calls, transaction.reference)) ?? simulator.submit(transaction);
    },
  };
}

describe.each(openTestStores())('an Idempotency-Key bound to its transaction, on $name', (stores) => {
  it('never replays the answer about a transaction the key no longer holds', async () => {
    const store = await stores.open();
    // The first transaction's provider says, late, that it took nothing, so its key is given back; the
    // retry's transaction then takes long to be accepted, while a request sent with the first one waits.
    const provider = scriptedProvider(store, async (call) => {
      if (call === 1) {
        await sleep(2_900);
        return { kind: 'unavailable', reason: 'provider unavailable', taken: false };
      }
      if (call === 2) await sleep(2_800);
      return undefined;
    });
    const service = await startTestService(store, {
      provider: () => provider,
      env: { PROVIDER_TIMEOUT_MS: '3000', IDEMPOTENCY_WAIT_MS: '12000' },
    });
    try {
      const { token } = await service.createCaller({ float: 10_000_000n });
      const send = () => service.call('send_agent_float', { token, json: float, headers: keyed });
      const first = send();
      await sleep(200);
      const waiting = send();
      const firstAnswer = await envelopeOf(await first);
      expect(firstAnswer.status.code).toBe('9000');

      const retry = await envelopeOf(await send());
      expect(retry.status.code).toBe('0000');
      const reference = (retry.data.transaction as { reference: string }).reference;
      // The request that waited on the first transaction answers what the key now holds: the retry's.
      expect(await envelopeOf(await waiting)).toEqual(retry);
      expect(await envelopeOf(await send())).toEqual(retry);
      expect((await service.ledger.findTransaction(reference))?.state).not.toBe('cancelled');
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('answers the state a transaction reached while its submission went unanswered', async () => {
    const store = await stores.open();
    // The provider completes the transaction (its result applied at once), then never answers the submission.
    const provider = scriptedProvider(store, async (_call, reference) => {
      await service.ledger.complete(reference, { providerCode: 'DONE-1' });
      return new Promise<SubmitResult>(() => undefined);
    });
    const service = await startTestService(store, {
      provider: () => provider,
      env: { PROVIDER_TIMEOUT_MS: '300' },
    });
    try {
      const { token, account } = await service.createCaller({ float: 10_000_000n });
      const answer = await envelopeOf(
        await service.call('send_agent_float', { token, json: float, headers: keyed }),
      );
      expect(answer.status.code).toBe('0000');
      const reference = (answer.data.transaction as { reference: string }).reference;
      expect((await service.ledger.findTransaction(reference))?.state).toBe('completed');
      expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(10_000_000n - 10_000n);
      const replayed = await service.call('send_agent_float', { token, json: float, headers: keyed });
      expect(await envelopeOf(replayed)).toEqual(answer);
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });
});
