// What a provider throws (database or driver text, internal addresses) never reaches a caller: the 9000
// answer, the cancellation callback and get_transaction carry a fixed, documented reason, and the
// operator's log carries the detail beside the request id the caller was answered with. Through the HTTP
// API with the worker in the process, on each store.

import type { Store } from '@topup/ledger';
import { createSandboxSimulator } from '@topup/providers';
import type { Provider } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { captureLogs } from '../testing/log-capture.js';
import type { LogCapture } from '../testing/log-capture.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const internalText = 'relation "provider_jobs" does not exist (connection to 10.0.0.5:5432)';

/** The simulator, except that every submission throws with internal text. */
function throwingProvider(store: Store): Provider {
  return {
    ...createSandboxSimulator(store, { delayMs: 0 }),
    submit: () => Promise.reject(new Error(internalText)),
  };
}

describe.each(openTestStores())('a provider’s own error text, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let sink: CallbackSink;
  let logs: LogCapture;

  beforeAll(async () => {
    store = await stores.open();
    sink = await startCallbackSink();
    logs = captureLogs('info');
    service = await startTestService(store, {
      worker: true,
      logger: logs.logger,
      provider: throwingProvider,
    });
  });

  afterAll(async () => {
    await service.stop();
    await sink.close();
    await stores.close(store);
  });

  it('reaches the operator’s log with the request id, and never the caller', async () => {
    const { account, token } = await service.createCaller({ float: 1_000_000n });
    await service.ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json' });
    const response = await service.call('send_agent_float', {
      token,
      json: { mobile: '254712345678', amount: '100', agent_number: '300300', store_number: '400400' },
      headers: { 'X-Request-Id': 'req-provider-text-1' },
    });
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      status: { code: '9000' },
      data: { errors: ['the provider failed to take the transaction'] },
    });

    const [callback] = await eventually('the cancellation callback', () =>
      sink.arrived.length > 0 ? sink.arrived : undefined,
    );
    const reference = (JSON.parse(callback?.body ?? '{}') as { data: { transaction: { reference: string } } })
      .data.transaction.reference;
    const viewed = await service.call('get_transaction', { token, json: { reference } });
    for (const shown of [text, callback?.body ?? '', await viewed.text()]) {
      expect(shown).not.toContain('provider_jobs');
      expect(shown).not.toContain('10.0.0.5');
    }
    expect(
      await envelopeOf(await service.call('get_transaction', { token, json: { reference } })),
    ).toMatchObject({
      data: { transaction: { state: 'cancelled' } },
    });
    expect(logs.records()).toContainEqual(
      expect.objectContaining({ requestId: 'req-provider-text-1', reference, providerError: internalText }),
    );
  });
});
