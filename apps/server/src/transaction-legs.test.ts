// get_transaction shows a transaction's legs, in JSON and XML: the first leg submitted while the provider
// works on it, then every leg's end once its result is applied, with the provider that carried it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionLegView } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

describe.each(openTestStores())('the legs get_transaction shows on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, { worker: true });
  }, 60_000);
  afterAll(async () => {
    await service.stop();
    await store.close();
  });

  async function legsOf(
    token: string,
    reference: string,
    format: 'json' | 'xml',
  ): Promise<TransactionLegView[]> {
    const response =
      format === 'json'
        ? await service.call('get_transaction', { token, json: { reference } })
        : await service.call('get_transaction', {
            token,
            body: xmlBody({ reference }),
            headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
          });
    const envelope = await envelopeOf(response);
    expect(envelope.status.code).toBe('0000');
    return envelope.data['legs'] as TransactionLegView[];
  }

  it.each(['json', 'xml'] as const)(
    'shows an airtime purchase’s payment and delivery once they succeed (%s)',
    async (format) => {
      const { token } = await service.createCaller();
      const bought = await envelopeOf(
        await service.call('buy_airtime', {
          token,
          json: {
            mobile: '254733000123',
            amount: '50',
            payment_network: 'MoneyNetB',
            payment_mobile: '254722000456',
          },
        }),
      );
      const reference = (bought.data['transaction'] as { reference: string }).reference;
      const legs = await eventually('the purchase’s legs to end', async () => {
        const found = await legsOf(token, reference, format);
        return found.length === 2 ? found : undefined;
      });
      expect(legs).toEqual([
        {
          id: `${reference}-payment`,
          kind: 'payment',
          provider: 'sandbox',
          state: 'succeeded',
          provider_reference: expect.stringMatching(/^SIM[0-9A-F]{10}$/) as string,
          updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) as string,
        },
        expect.objectContaining({ id: `${reference}-delivery`, kind: 'delivery', state: 'succeeded' }),
      ]);
    },
  );

  it('shows a declined float’s disbursement as failed, and a never-answered one’s as submitted', async () => {
    const { token } = await service.createCaller({ float: 1_000_000n });
    const float = async (mobile: string) => {
      const envelope = await envelopeOf(
        await service.call('send_agent_float', {
          token,
          json: { mobile, amount: '100', agent_number: '123456', store_number: '654321' },
        }),
      );
      return (envelope.data['transaction'] as { reference: string }).reference;
    };
    const declined = await float('254712340001');
    const silent = await float('254712340002');
    const ended = await eventually('the declined float’s leg to end', async () => {
      const legs = await legsOf(token, declined, 'json');
      return legs[0]?.state === 'submitted' ? undefined : legs;
    });
    expect(ended).toMatchObject([{ kind: 'disbursement', state: 'failed', provider: 'sandbox' }]);
    expect(await legsOf(token, silent, 'xml')).toMatchObject([{ kind: 'disbursement', state: 'submitted' }]);
  });
});
