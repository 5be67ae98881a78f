import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import type { Provider } from '@topup/providers';
import { freePort } from './testing/free-port.js';
import { frozenRateLimiter } from './testing/frozen-rate-limiter.js';
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
    idempotentSubmissions: true,
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

    it('answers bad listing filters with 3000, HTTP 422 and one problem per field in field order', async () => {
      const transactions = await call('list_transactions', {
        type: 'airtime',
        from: '2025-02-30',
        to: 'tomorrow',
        mobile: '12',
        limit: '101',
        cursor: 'bm90IGEgY3Vyc29y',
      });
      expect(transactions.status).toBe(422);
      expect((await envelopeOf(transactions)).data.errors).toEqual([
        "'type is invalid'",
        "'from is invalid'",
        "'to is invalid'",
        "'mobile is invalid'",
        "'limit is invalid'",
        "'cursor is invalid'",
      ]);
      const statement = await call('list_statement', { limit: '0' });
      expect(statement.status).toBe(422);
      expect((await envelopeOf(statement)).data.errors).toEqual([
        "'channel is required.'",
        "'limit is invalid'",
      ]);
    });

    it('answers bad callback-function parameters with 3000, HTTP 422 and one problem per field in field order', async () => {
      const deliveries = await call('list_callback_deliveries', {
        status: 'lost',
        endpoint_id: '',
        from: '2025-02-30',
        limit: '0',
        cursor: 'bm90IGEgY3Vyc29y',
      });
      expect(deliveries.status).toBe(422);
      expect((await envelopeOf(deliveries)).data.errors).toEqual([
        "'status is invalid'",
        "'from is invalid'",
        "'limit is invalid'",
        "'cursor is invalid'",
      ]);
      const resend = await call('resend_failed_callbacks', { endpoint_id: 'ep_1' });
      expect(resend.status).toBe(422);
      expect((await envelopeOf(resend)).data.errors).toEqual(["'since is required.'"]);
      const test = await call('send_test_callback', { endpoint_id: 'ep_not_mine' });
      expect(test.status).toBe(422);
      expect((await envelopeOf(test)).data.errors).toEqual(["'endpoint_id is invalid'"]);
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

    it('answers a live token on a sandbox service with 5000 and HTTP 403', async () => {
      const caller = await service.createCaller({ float: 100_000n });
      const live = await service.ledger.issueToken(caller.account.id, 'live');
      const response = await service.call('send_agent_float', {
        token: live.token,
        body: format.body(floatRequest),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(403);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '5000', message: 'Request Not Allowed' });
      expect(envelope.data.errors).toEqual([
        'a live token cannot be used against a sandbox service; use a tk_test_ token',
      ]);
      expect((await service.ledger.balance(caller.account.id, 'float')).availableMinor).toBe(100_000n);
    });

    it('answers amounts outside the default bounds with 3000 amount is invalid, and takes the bounds themselves', async () => {
      // No float funds: an amount that passes validation reaches the ledger and is refused there (7000).
      const poor = await service.createCaller();
      const floatCall = (amount: string) =>
        service.call('send_agent_float', {
          token: poor.token,
          body: format.body({ ...floatRequest, amount }),
          headers: { Accept: format.accept, 'Content-Type': format.contentType },
        });
      const airtimeCall = (amount: string) =>
        call('buy_airtime', {
          mobile: '254733000123',
          amount,
          payment_network: 'MoneyNetB',
          payment_mobile: '254722000456',
        });
      const answers = async (responses: Promise<Response>[]) =>
        Promise.all(
          responses.map(async (pending) => {
            const envelope = await envelopeOf(await pending);
            return [envelope.status.code, envelope.data.errors];
          }),
        );
      const invalid = ['3000', ["'amount is invalid'"]];
      expect(await answers([floatCall('99'), floatCall('1000001')])).toEqual([invalid, invalid]);
      expect((await answers([floatCall('100'), floatCall('1000000')])).map(([code]) => code)).toEqual([
        '7000',
        '7000',
      ]);
      expect(await answers([airtimeCall('9'), airtimeCall('10001')])).toEqual([invalid, invalid]);
      expect((await answers([airtimeCall('10'), airtimeCall('10000')])).map(([code]) => code)).toEqual([
        '0000',
        '0000',
      ]);
    });

    it('answers a suspended account with 6000 before looking at its malformed body or wrong-mode token', async () => {
      const suspended = await service.createCaller({ float: 100_000n });
      await service.ledger.setAccountStatus(suspended.account.id, 'suspended');
      const live = await service.ledger.issueToken(suspended.account.id, 'live');
      for (const request of [
        { token: suspended.token, body: format.name === 'JSON' ? '{"mobile":' : '<xml><mobile>' },
        { token: suspended.token, body: format.body({ amount: 'lots' }) },
        { token: live.token, body: format.body(floatRequest) },
      ]) {
        const response = await service.call('send_agent_float', {
          ...request,
          headers: {
            Accept: format.accept,
            'Content-Type': format.contentType,
            'Idempotency-Key': 'not a valid key',
          },
        });
        expect(response.status).toBe(403);
        expect((await envelopeOf(response)).status.code).toBe('6000');
      }
    });

    it('answers a missing token with 4000 before looking at the content type', async () => {
      const response = await service.call('send_agent_float', {
        body: 'hello',
        headers: { Accept: format.accept, 'Content-Type': 'text/plain' },
      });
      expect(response.status).toBe(401);
      expect((await envelopeOf(response)).status.code).toBe('4000');
    });

    it('answers a malformed Idempotency-Key with 1000 before validating the body', async () => {
      const response = await call(
        'send_agent_float',
        { amount: 'lots' },
        { 'Idempotency-Key': 'has spaces' },
      );
      expect(response.status).toBe(400);
      const envelope = await envelopeOf(response);
      expect(envelope.status.code).toBe('1000');
      expect(envelope.data.errors).toEqual([
        'the Idempotency-Key header must be 1 to 255 visible ASCII characters',
      ]);
    });

    it('answers invalid parameters with 3000 before refusing a wrong-mode token with 5000', async () => {
      const caller = await service.createCaller();
      const live = await service.ledger.issueToken(caller.account.id, 'live');
      const invalid = await service.call('send_agent_float', {
        token: live.token,
        body: format.body({ amount: 'lots' }),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(invalid.status).toBe(422);
      expect((await envelopeOf(invalid)).status.code).toBe('3000');
      const unparsable = await service.call('send_agent_float', {
        token: live.token,
        body: format.name === 'JSON' ? '{"mobile":' : '<xml><mobile>',
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(unparsable.status).toBe(400);
      expect((await envelopeOf(unparsable)).status.code).toBe('1000');
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

    it('answers a float refused at once with 8000 Agent Float Cancelled and HTTP 409, and voids it', async () => {
      const caller = await service.createCaller({ float: 100_000n });
      const response = await service.call('send_agent_float', {
        token: caller.token,
        body: format.body({ ...floatRequest, mobile: '254722000003' }),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(409);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '8000', message: 'Agent Float Cancelled' });
      expect(envelope.data.errors).toHaveLength(1);
      const balance = await service.ledger.balance(caller.account.id, 'float');
      expect(balance).toMatchObject({ availableMinor: 100_000n, pendingMinor: 0n });
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
      rateLimiter: frozenRateLimiter(2),
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

  it('refuses a limited token (5000) before reading its body, so it learns nothing about its parameters', async () => {
    const store = await stores.open();
    const service = await startTestService(store, {
      rateLimiter: frozenRateLimiter(1),
    });
    try {
      const { token } = await service.createCaller();
      await (await service.call('get_balance', { token })).arrayBuffer();
      const invalid = await service.call('send_agent_float', { token, json: { amount: 'lots' } });
      expect(invalid.status).toBe(429);
      expect((await envelopeOf(invalid)).status.code).toBe('5000');
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('applies configured amount bounds instead of the defaults', async () => {
    const store = await stores.open();
    const service = await startTestService(store, {
      env: {
        AIRTIME_MIN_AMOUNT: '50',
        AIRTIME_MAX_AMOUNT: '500',
        FLOAT_MIN_AMOUNT: '1000',
        FLOAT_MAX_AMOUNT: '2000',
      },
    });
    try {
      const { token } = await service.createCaller();
      const codeOf = async (name: string, json: Record<string, string>) => {
        const envelope = await envelopeOf(await service.call(name, { token, json }));
        return envelope.status.code === '3000' ? envelope.data.errors : envelope.status.code;
      };
      const float = (amount: string) => codeOf('send_agent_float', { ...floatRequest, amount });
      const airtime = (amount: string) =>
        codeOf('buy_airtime', {
          mobile: '254733000123',
          amount,
          payment_network: 'MoneyNetB',
          payment_mobile: '254722000456',
        });
      const invalid = ["'amount is invalid'"];
      // The caller has no float: a float amount within bounds gets as far as the balance check (7000).
      expect([await float('999'), await float('1000'), await float('2000'), await float('2001')]).toEqual([
        invalid,
        '7000',
        '7000',
        invalid,
      ]);
      expect([await airtime('49'), await airtime('50'), await airtime('500'), await airtime('501')]).toEqual([
        invalid,
        '0000',
        '0000',
        invalid,
      ]);
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('answers a provider silent past PROVIDER_TIMEOUT_MS with 9000, voids the reservation and replays it to a keyed retry', async () => {
    const store = await stores.open();
    const submitted: string[] = [];
    const silent: Provider = {
      name: 'silent',
      idempotentSubmissions: true,
      submit: (transaction) => {
        submitted.push(transaction.reference);
        return new Promise(() => undefined);
      },
      readyResults: () => Promise.resolve([]),
      acknowledge: () => Promise.resolve(),
      query: () => Promise.resolve({ kind: 'pending' }),
    };
    const service = await startTestService(store, {
      provider: () => silent,
      env: { PROVIDER_TIMEOUT_MS: '300' },
    });
    try {
      const { token, account } = await service.createCaller({ float: 100_000n });
      const started = Date.now();
      const headers = { 'Idempotency-Key': 'k-silent' };
      const response = await service.call('send_agent_float', { token, json: floatRequest, headers });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(response.status).toBe(502);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '9000', message: 'Gateway Error' });
      expect(envelope.data.errors).toEqual(['the provider did not answer in time']);
      expect(submitted).toHaveLength(1);
      const transaction = await service.ledger.getTransaction(account.id, submitted[0] ?? '');
      expect(transaction?.state).toBe('cancelled');
      const balance = await service.ledger.balance(account.id, 'float');
      expect(balance).toMatchObject({ availableMinor: 100_000n, pendingMinor: 0n });
      // The silent provider may have taken it: a retry under the key replays the answer, never submits again.
      const retry = await service.call('send_agent_float', { token, json: floatRequest, headers });
      expect(retry.headers.get('idempotency-replayed')).toBe('true');
      expect((await envelopeOf(retry)).data.errors).toEqual(['the provider did not answer in time']);
      expect(submitted).toHaveLength(1);
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it('answers 9000 with HTTP 503 and Retry-After while the rate-limit store (Redis) is unreachable', async () => {
    const store = await stores.open();
    const closedPort = await freePort();
    const service = await startTestService(store, { env: { REDIS_URL: `redis://127.0.0.1:${closedPort}` } });
    try {
      const { token } = await service.createCaller();
      for (const request of [{ token }, { token: 'tk_test_unknownunknownunknownunknown1' }]) {
        const started = Date.now();
        const response = await service.call('get_balance', request);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        const envelope = await envelopeOf(response);
        expect(envelope.status).toEqual({ type: 'FAIL', code: '9000', message: 'Gateway Error' });
        expect(envelope.data.errors).toEqual(['the rate-limit store is unavailable; try again shortly']);
      }
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not ready',
        checks: { store: 'ok', redis: 'unavailable' },
      });
    } finally {
      await service.stop();
      await stores.close(store);
    }
  });

  it.skipIf(process.env.REDIS_URL_FOR_TESTS === undefined)(
    'reports a reachable rate-limit store (Redis) as ready',
    async () => {
      const store = await stores.open();
      const service = await startTestService(store, {
        env: { REDIS_URL: process.env.REDIS_URL_FOR_TESTS ?? '' },
      });
      try {
        const ready = await fetch(`${service.url}/readyz`);
        expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
        expect(ready.status).toBe(200);
      } finally {
        await service.stop();
        await stores.close(store);
      }
    },
  );

  it('answers a provider that throws with 9000 and never a stack trace', async () => {
    const store = await stores.open();
    const failing: Provider = {
      name: 'failing',
      idempotentSubmissions: true,
      submit: () => Promise.reject(new Error('socket hang up')),
      readyResults: () => Promise.resolve([]),
      acknowledge: () => Promise.resolve(),
      query: () => Promise.resolve({ kind: 'pending' }),
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
