import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody, xmlRequestBody } from './testing/wire.js';

const airtime = {
  mobile: '254733000123',
  amount: '50',
  payment_network: 'MoneyNetB',
  payment_mobile: '254722000456',
};

describe.each(openTestStores())('Idempotency-Key on $name', (stores) => {
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

  async function transactionsOf(accountId: string): Promise<number> {
    const { rows } = await store.query<{ count: string | number }>(
      'SELECT count(*) AS count FROM transactions WHERE account_id = $1',
      [accountId],
    );
    return Number(rows[0]?.count);
  }

  it('replays the first answer byte for byte with Idempotency-Replayed: true', async () => {
    const { token, account } = await service.createCaller({ float: 10_000_000n });
    const request = { mobile: '254733000123', amount: '500' };
    const first = await service.call('send_agent_float', {
      token,
      json: request,
      headers: { 'Idempotency-Key': 'k-1' },
    });
    const firstBody = await first.text();
    const again = await service.call('send_agent_float', {
      token,
      json: request,
      headers: { 'Idempotency-Key': 'k-1' },
    });
    expect(again.status).toBe(first.status);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(await again.text()).toBe(firstBody);
    expect(await transactionsOf(account.id)).toBe(1);
    expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(10_000_000n - 50_000n);
  });

  it('treats the same request sent as XML as the same request', async () => {
    const { token, account } = await service.createCaller();
    const key = 'k-xml';
    await (
      await service.call('buy_airtime', { token, json: airtime, headers: { 'Idempotency-Key': key } })
    ).arrayBuffer();
    const again = await service.call('buy_airtime', {
      token,
      body: xmlBody({ ...airtime, mobile: '0733 000 123' }),
      headers: { 'Idempotency-Key': key, 'Content-Type': 'text/xml' },
    });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await transactionsOf(account.id)).toBe(1);
  });

  it('treats a send_airtime list sent as XML as the same list sent as JSON', async () => {
    const { token, account } = await service.createCaller({ airtime: 1_000_000n });
    const key = 'k-send-xml';
    const recipients = [
      { mobile: '254733000123', amount: '50', name: 'Otieno' },
      { mobile: '254712000456', amount: '30' },
    ];
    const first = await service.call('send_airtime', {
      token,
      json: { recipients, note: 'march' },
      headers: { 'Idempotency-Key': key },
    });
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const again = await service.call('send_airtime', {
      token,
      body: xmlRequestBody({
        recipients: [{ ...recipients[0], mobile: '0733 000 123' }, { ...recipients[1] }],
        note: 'march',
      }),
      headers: { 'Idempotency-Key': key, 'Content-Type': 'text/xml', Accept: 'application/json' },
    });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await transactionsOf(account.id)).toBe(2);
    // The same recipients in another order are another request.
    const reordered = await service.call('send_airtime', {
      token,
      json: { recipients: [...recipients].reverse(), note: 'march' },
      headers: { 'Idempotency-Key': key },
    });
    expect(reordered.status).toBe(409);
    expect((await envelopeOf(reordered)).status.code).toBe('5000');
    expect(await transactionsOf(account.id)).toBe(2);
  });

  it('refuses the key reused with another body with 5000 and HTTP 409, changing nothing', async () => {
    const { token, account } = await service.createCaller();
    await (
      await service.call('buy_airtime', { token, json: airtime, headers: { 'Idempotency-Key': 'k-2' } })
    ).arrayBuffer();
    const conflict = await service.call('buy_airtime', {
      token,
      json: { ...airtime, amount: '60' },
      headers: { 'Idempotency-Key': 'k-2' },
    });
    expect(conflict.status).toBe(409);
    expect((await envelopeOf(conflict)).status.code).toBe('5000');
    expect(await transactionsOf(account.id)).toBe(1);
  });

  it('keeps keys apart per caller', async () => {
    const first = await service.createCaller();
    const second = await service.createCaller();
    for (const caller of [first, second]) {
      const response = await service.call('buy_airtime', {
        token: caller.token,
        json: airtime,
        headers: { 'Idempotency-Key': 'shared-key' },
      });
      expect(response.headers.get('idempotency-replayed')).toBeNull();
      await response.arrayBuffer();
    }
    expect(await transactionsOf(first.account.id)).toBe(1);
    expect(await transactionsOf(second.account.id)).toBe(1);
  });

  it('creates exactly one transaction from 50 concurrent requests with one key', async () => {
    const { token, account } = await service.createCaller({ float: 10_000_000n });
    const request = { mobile: '254733000123', amount: '100' };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        service.call('send_agent_float', {
          token,
          json: request,
          headers: { 'Idempotency-Key': 'k-concurrent' },
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((response) => response.text()));
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(new Set(bodies).size).toBe(1);
    expect(await transactionsOf(account.id)).toBe(1);
    expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(10_000_000n - 10_000n);
  });

  it('tries a retry afresh after a 9000 from a provider that said it did not take the transaction', async () => {
    const { token, account } = await service.createCaller({ float: 10_000_000n });
    const headers = { 'Idempotency-Key': 'k-unavailable' };
    // Payer numbers ending 0004 find the sandbox provider unavailable: it answers without taking anything.
    const request = { ...airtime, payment_mobile: '254722000004' };
    const first = await service.call('buy_airtime', { token, json: request, headers });
    expect(first.status).toBe(502);
    expect((await envelopeOf(first)).status.code).toBe('9000');

    const retry = await service.call('buy_airtime', { token, json: request, headers });
    expect(retry.status).toBe(502);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(await transactionsOf(account.id)).toBe(2);

    const { rows } = await store.query<{ state: string }>(
      'SELECT state FROM transactions WHERE account_id = $1',
      [account.id],
    );
    expect(rows.map((row) => row.state)).toEqual(['cancelled', 'cancelled']);
  });

  it('refuses an unusable Idempotency-Key header with 1000', async () => {
    const { token } = await service.createCaller();
    const response = await service.call('buy_airtime', {
      token,
      json: airtime,
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    expect(response.status).toBe(400);
    expect((await envelopeOf(response)).status.code).toBe('1000');
  });

  it('refuses a key on a function that does not honour one with 1000, doing nothing', async () => {
    const { token, account } = await service.createCaller();
    const endpoint = { url: 'https://hooks.example.com/topup', format: 'json' };
    for (const attempt of [1, 2]) {
      const response = await service.call('add_callback_endpoint', {
        token,
        json: endpoint,
        headers: { 'Idempotency-Key': 'endpoint-1' },
      });
      expect(`${attempt}: ${response.status}`).toBe(`${attempt}: 400`);
      const envelope = await envelopeOf(response);
      expect(envelope.status.code).toBe('1000');
      expect(envelope.data.errors).toHaveLength(1);
      // Names every function that honours a key, and the one that does not.
      expect(envelope.data.errors[0]).toBe(
        'Idempotency-Key is honoured only by send_agent_float, buy_airtime and send_airtime, not by ' +
          'add_callback_endpoint; send the request without it',
      );
    }
    expect(await service.ledger.listCallbackEndpoints(account.id)).toEqual([]);
    const balance = await service.call('get_balance', {
      token,
      headers: { 'Idempotency-Key': 'balance-1' },
    });
    expect((await envelopeOf(balance)).status.code).toBe('1000');
  });
});
