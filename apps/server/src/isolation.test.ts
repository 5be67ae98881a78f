import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

describe.each(openTestStores())('cross-account isolation on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('never shows one caller another caller’s transaction', async () => {
    const owner = await service.createCaller({ float: 10_000_000n });
    const other = await service.createCaller({ float: 10_000_000n });
    const created = await envelopeOf(
      await service.call('send_agent_float', {
        token: owner.token,
        json: { mobile: '254733000123', amount: '100' },
      }),
    );
    const reference = (created.data.transaction as { reference: string }).reference;
    const stranger = await service.call('get_transaction', { token: other.token, json: { reference } });
    expect(stranger.status).toBe(422);
    expect((await envelopeOf(stranger)).data.errors).toEqual(["'reference is invalid'"]);
    const unknown = await service.call('get_transaction', {
      token: other.token,
      json: { reference: 'TXNOSUCHREF0' },
    });
    expect(await unknown.text()).toBe(
      await (await service.call('get_transaction', { token: other.token, json: { reference } })).text(),
    );
  });

  it('never lists another caller’s transactions or postings, whatever the filter names', async () => {
    const owner = await service.createCaller({ float: 10_000_000n });
    const other = await service.createCaller({ float: 10_000_000n });
    const created = await envelopeOf(
      await service.call('send_agent_float', {
        token: owner.token,
        json: { mobile: '254733000123', amount: '100' },
        headers: { 'Idempotency-Key': 'owner-order-1' },
      }),
    );
    const reference = (created.data.transaction as { reference: string }).reference;
    await service.ledger.complete(reference, { providerCode: 'OWNER-1' });
    for (const json of [
      {},
      { reference },
      { idempotency_key: 'owner-order-1' },
      { mobile: '254733000123' },
    ]) {
      const listed = await service.call('list_transactions', { token: other.token, json });
      const text = await listed.text();
      expect(listed.status).toBe(200);
      expect(text).not.toContain(reference);
    }
    const statement = await service.call('list_statement', {
      token: other.token,
      json: { channel: 'Agent Float' },
    });
    const { data } = await envelopeOf(statement);
    expect(data.postings).toEqual([
      expect.objectContaining({ purpose: 'funding', reference: '', balance_after: '100000.00' }),
    ]);
  });

  it('moves only the calling caller’s balance', async () => {
    const first = await service.createCaller({ float: 1_000_000n });
    const second = await service.createCaller({ float: 1_000_000n });
    await (
      await service.call('send_agent_float', {
        token: first.token,
        json: { mobile: '254733000123', amount: '100' },
      })
    ).arrayBuffer();
    expect((await service.ledger.balance(first.account.id, 'float')).availableMinor).toBe(990_000n);
    expect((await service.ledger.balance(second.account.id, 'float')).availableMinor).toBe(1_000_000n);
    const balance = await envelopeOf(await service.call('get_balance', { token: second.token }));
    expect(balance.data.channels).toContainEqual({
      type: 'Agent Float',
      currency: 'KES',
      balance: '10000.00',
    });
  });

  it('never shows one caller the transactions of another caller’s send, nor moves their Airtime balance', async () => {
    const owner = await service.createCaller({ airtime: 1_000_000n });
    const other = await service.createCaller({ airtime: 1_000_000n });
    const sent = await envelopeOf(
      await service.call('send_airtime', {
        token: owner.token,
        json: {
          recipients: [
            { mobile: '254733000123', amount: '50', name: 'Owner Recipient' },
            { mobile: '254712000456', amount: '30' },
          ],
        },
      }),
    );
    expect(sent.status.code).toBe('0000');
    const references = (sent.data.transactions as { reference: string }[]).map((entry) => entry.reference);
    expect(references).toHaveLength(2);
    for (const reference of references) {
      const stranger = await service.call('get_transaction', { token: other.token, json: { reference } });
      expect(stranger.status).toBe(422);
      const text = await stranger.text();
      expect(text).not.toContain('Owner Recipient');
      expect(JSON.parse(text)).toMatchObject({ data: { errors: ["'reference is invalid'"] } });
    }
    expect((await service.ledger.balance(owner.account.id, 'airtime')).availableMinor).toBe(992_000n);
    expect((await service.ledger.balance(other.account.id, 'airtime')).availableMinor).toBe(1_000_000n);
  });

  it('never lets one caller resend or list another caller’s callbacks', async () => {
    const owner = await service.createCaller({ float: 10_000_000n });
    const other = await service.createCaller();
    const created = await envelopeOf(
      await service.call('send_agent_float', {
        token: owner.token,
        json: { mobile: '254733000123', amount: '100' },
      }),
    );
    const reference = (created.data.transaction as { reference: string }).reference;
    const resend = await service.call('resend_callback', { token: other.token, json: { reference } });
    expect(resend.status).toBe(422);
    const listed = await envelopeOf(
      await service.call('list_callback_deliveries', { token: other.token, json: { reference } }),
    );
    expect(listed.data.deliveries).toEqual([]);
  });
});
