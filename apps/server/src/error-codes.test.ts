import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import type { Provider } from '@topup/worker';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

const floatRequest = {
  mobile: '254722000123',
  amount: '500',
  network: 'MoneyNetB',
};

const formats = [
  { name: 'JSON', accept: 'application/json', contentType: 'application/json', body: JSON.stringify },
  {
    name: 'XML',
    accept: 'text/xml',
    contentType: 'text/xml',
    body: (fields: Record<string, string>) => xmlBody(fields),
  },
] as const;

describe.each(openTestStores())('every status code through HTTP on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let token: string;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      env: { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
    });
    ({ token } = await service.createCaller({ float: 100_000_000n }));
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  describe.each(formats)('in $name', (format) => {
    const call = (name: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      service.call(name, {
        token,
        body: format.body(fields),
        headers: { Accept: format.accept, 'Content-Type': format.contentType, ...headers },
      });

    it('answers an unknown function with 1000 and HTTP 404', async () => {
      const response = await call('send_money', floatRequest);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain(format.accept);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '1000', message: 'Invalid API Request' });
      expect(envelope.data.errors).toHaveLength(1);
      expect(Object.keys(envelope.data)).toEqual(['errors']);
    });

    it('answers an unsupported content type with 1000 and HTTP 400', async () => {
      const response = await call('send_agent_float', floatRequest, { 'Content-Type': 'text/plain' });
      expect(response.status).toBe(400);
      expect((await envelopeOf(response)).status.code).toBe('1000');
    });

    it('answers an unparsable body with 1000 and HTTP 400', async () => {
      const response = await service.call('send_agent_float', {
        token,
        body: format.name === 'JSON' ? '{"mobile":' : '<xml><mobile>1</xml>',
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(400);
      expect((await envelopeOf(response)).status.code).toBe('1000');
    });

    it('answers a GET with 2000, HTTP 405 and Allow: POST', async () => {
      const response = await service.call('send_agent_float', {
        token,
        method: 'GET',
        headers: { Accept: format.accept },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '2000', message: 'Invalid Request Method' });
    });

    it('answers missing and invalid parameters with 3000, HTTP 422 and every problem in field order', async () => {
      const response = await call('send_agent_float', { email: 'not-an-address', amount: '12.5' });
      expect(response.status).toBe(422);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({
        type: 'FAIL',
        code: '3000',
        message: 'Missing or Invalid Parameters',
      });
      expect(envelope.data.errors).toEqual([
        "'mobile is required.'",
        "'email is invalid'",
        "'amount is invalid'",
      ]);
    });

    it('answers a missing token with 4000, HTTP 401 and WWW-Authenticate: Bearer', async () => {
      const response = await service.call('send_agent_float', {
        body: format.body(floatRequest),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await envelopeOf(response)).status).toEqual({
        type: 'FAIL',
        code: '4000',
        message: 'Invalid API Token',
      });
    });

    it('answers an unknown token with 4000', async () => {
      const response = await service.call('get_balance', {
        token: 'tk_test_unknownunknownunknownunknown1',
        headers: { Accept: format.accept },
      });
      expect(response.status).toBe(401);
      expect((await envelopeOf(response)).status.code).toBe('4000');
    });

    it('answers an idempotency key reused with another body with 5000 and HTTP 409', async () => {
      const key = `conflict-${format.name}`;
      const first = await call('send_agent_float', floatRequest, { 'Idempotency-Key': key });
      expect(first.status).toBe(200);
      const second = await call(
        'send_agent_float',
        { ...floatRequest, amount: '600' },
        { 'Idempotency-Key': key },
      );
      expect(second.status).toBe(409);
      expect((await envelopeOf(second)).status).toEqual({
        type: 'FAIL',
        code: '5000',
        message: 'Request Not Allowed',
      });
    });

    it('answers a suspended account with 6000 and HTTP 403', async () => {
      const suspended = await service.createCaller({ float: 100_000n });
      await service.ledger.setAccountStatus(suspended.account.id, 'suspended');
      const response = await service.call('get_balance', {
        token: suspended.token,
        headers: { Accept: format.accept },
      });
      expect(response.status).toBe(403);
      expect((await envelopeOf(response)).status).toEqual({
        type: 'FAIL',
        code: '6000',
        message: 'Invalid Account',
      });
    });

    it('answers a float the channel cannot cover with 7000 and HTTP 402', async () => {
      const poor = await service.createCaller({ float: 100n });
      const response = await service.call('send_agent_float', {
        token: poor.token,
        body: format.body(floatRequest),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(402);
      expect((await envelopeOf(response)).status).toEqual({
        type: 'FAIL',
        code: '7000',
        message: 'Insufficient Balance',
      });
    });

    it('answers a float refused at once with 8000 Agent Float Cancelled and HTTP 409', async () => {
      const response = await call('send_agent_float', { ...floatRequest, mobile: '254722000003' });
      expect(response.status).toBe(409);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '8000', message: 'Agent Float Cancelled' });
      expect(envelope.data.errors).toHaveLength(1);
    });

    it('answers a purchase refused at once with 8000 Purchase Cancelled', async () => {
      const response = await call('buy_airtime', {
        mobile: '254733000123',
        amount: '50',
        payment_network: 'MoneyNetB',
        payment_mobile: '254722000003',
      });
      expect(response.status).toBe(409);
      expect((await envelopeOf(response)).status).toEqual({
        type: 'FAIL',
        code: '8000',
        message: 'Purchase Cancelled',
      });
    });

    it('answers an unavailable provider with 9000 and HTTP 502, and returns the reserved float', async () => {
      const caller = await service.createCaller({ float: 100_000n });
      const response = await service.call('send_agent_float', {
        token: caller.token,
        body: format.body({ ...floatRequest, mobile: '254722000004' }),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(502);
      expect((await envelopeOf(response)).status).toEqual({
        type: 'FAIL',
        code: '9000',
        message: 'Gateway Error',
      });
      expect((await service.ledger.balance(caller.account.id, 'float')).availableMinor).toBe(100_000n);
    });
  });
});

describe.each(openTestStores())('limits and outages on $name', (stores) => {
  it('answers a rate-limited token with 5000, HTTP 429 and Retry-After', async () => {
    const store = await stores.open();
    const service = await startTestService(store, {
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' },
    });
    try {
      const { token } = await service.createCaller();
      const statuses: number[] = [];
      let limited: Response | undefined;
      for (let i = 0; i < 4; i += 1) {
        const response = await service.call('get_balance', { token });
        statuses.push(response.status);
        if (response.status === 429) limited = response;
        else await response.arrayBuffer();
      }
      expect(statuses.slice(0, 2)).toEqual([200, 200]);
      expect(limited).toBeDefined();
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await envelopeOf(limited!)).status.code).toBe('5000');
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('answers a provider that throws with 9000 and never a stack trace', async () => {
    const store = await stores.open();
    const failing: Provider = {
      name: 'failing',
      submit: () => Promise.reject(new Error('socket hang up')),
      readyResults: () => Promise.resolve([]),
      acknowledge: () => Promise.resolve(),
    };
    const service = await startTestService(store, { provider: () => failing });
    try {
      const { token } = await service.createCaller({ float: 100_000n });
      const response = await service.call('send_agent_float', { token, json: floatRequest });
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(text).not.toMatch(/at .*\.ts:\d+/);
      expect(JSON.parse(text)).toMatchObject({ status: { code: '9000' } });
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('answers 9000 with HTTP 503 while the store is unreachable', async () => {
    const store = await stores.open();
    const service = await startTestService(store);
    try {
      const { token } = await service.createCaller();
      const original = store.query.bind(store);
      store.query = () =>
        Promise.reject(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        );
      try {
        const response = await service.call('get_balance', { token });
        expect(response.status).toBe(503);
        expect((await envelopeOf(response)).status.code).toBe('9000');
        expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
      } finally {
        store.query = original;
      }
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });
});
