// Live mode routes each network to the provider PROVIDERS names: a request on a network no provider serves
// is refused with 5000 naming it before any money is reserved, and a served one is carried, from submission
// to callback, by its own provider.

import { createSandboxSimulator } from '@topup/providers';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

describe.each(openTestStores())('live mode routing on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      worker: true,
      env: {
        TOPUP_MODE: 'live',
        PROVIDERS: 'MoneyNetA=netalpha,CarrierA=netalpha',
        PUBLIC_BASE_URL: 'https://topup.example',
        PROVIDER_WEBHOOK_TOKEN: 'wh_routing_0123456789abcdef0123456789',
      },
      // A provider of the test's own under a live id: the simulator's protocol, another name.
      liveProviders: new Map([
        [
          'netalpha',
          ({ store: own }) => ({ ...createSandboxSimulator(own, { delayMs: 0 }), name: 'netalpha' }),
        ],
      ]),
    });
  }, 60_000);
  afterAll(async () => {
    await service.stop();
    await store.close();
  });

  const float = { mobile: '254712340000', amount: '100', agent_number: '123456', store_number: '654321' };

  it('carries a float on a served network through its provider, named on its leg', async () => {
    const { token } = await service.createCaller({ float: 1_000_000n });
    const sent = await envelopeOf(await service.call('send_agent_float', { token, json: float }));
    expect(sent.status.code).toBe('0000');
    const reference = (sent.data['transaction'] as { reference: string }).reference;
    const legs = await eventually('the float’s leg to end', async () => {
      const found = await service.ledger.legs(reference);
      return found[0]?.state === 'succeeded' ? found : undefined;
    });
    expect(legs.map((leg) => [leg.kind, leg.provider])).toEqual([['disbursement', 'netalpha']]);
  });

  it.each(['json', 'xml'] as const)(
    'refuses a float on a network no provider serves with 5000 naming it, reserving nothing (%s)',
    async (format) => {
      const { account, token } = await service.createCaller({ float: 1_000_000n });
      const request = { mobile: '254733000100', amount: '100' };
      const response =
        format === 'json'
          ? await service.call('send_agent_float', { token, json: request })
          : await service.call('send_agent_float', {
              token,
              body: xmlBody(request),
              headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
            });
      const envelope = await envelopeOf(response);
      expect(envelope.status.code).toBe('5000');
      expect(envelope.data.errors).toEqual([
        'network MoneyNetB is not served here: no provider is configured for it',
      ]);
      expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(1_000_000n);
      const written = await store.query<{ count: string }>(
        'SELECT count(*)::text AS count FROM transactions WHERE account_id = $1',
        [account.id],
      );
      expect(written.rows[0]?.count).toBe('0');
    },
  );

  it('refuses a purchase whose payer’s network no provider serves, though its carrier is served', async () => {
    const { token } = await service.createCaller();
    const envelope = await envelopeOf(
      await service.call('buy_airtime', {
        token,
        json: {
          mobile: '254712340000',
          amount: '50',
          payment_network: 'MoneyNetC',
          payment_mobile: '254722000456',
        },
      }),
    );
    expect(envelope.status.code).toBe('5000');
    expect(envelope.data.errors).toEqual([
      'network MoneyNetC is not served here: no provider is configured for it',
    ]);
  });
});
