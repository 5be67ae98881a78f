import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackDeliveryView } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { startCallbackSink } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { deliveriesData, endpointsData } from './response-schemas.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

describe.each(openTestStores())('callback endpoint functions on $name', (stores) => {
  let store: Store;
  let service: TestService;
  /** A loopback receiver's address: the API listens on loopback alone, so it may be registered. */
  const sinkUrl = 'http://127.0.0.1:9/hooks';

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('adds an endpoint showing its secret once, and lists it without the secret', async () => {
    const { token } = await service.createCaller();
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', {
        token,
        json: { url: 'http://127.0.0.1:9/hooks', format: 'xml', description: 'ops' },
      }),
    );
    expect(added.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Callback endpoint added' });
    const endpoint = added.data.endpoint as { id: string; secret: string; format: string };
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.format).toBe('xml');
    const listed = await service.call('list_callback_endpoints', { token });
    const text = await listed.text();
    expect(text).toContain(endpoint.id);
    expect(text).not.toContain(endpoint.secret);
  });

  it('rotates a secret and removes an endpoint; another caller’s endpoint is invalid', async () => {
    const owner = await service.createCaller();
    const other = await service.createCaller();
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', {
        token: owner.token,
        json: { url: 'http://127.0.0.1:9/a' },
      }),
    );
    const { id, secret } = added.data.endpoint as { id: string; secret: string };
    const rotated = await envelopeOf(
      await service.call('rotate_callback_secret', { token: owner.token, json: { endpoint_id: id } }),
    );
    expect((rotated.data.endpoint as { secret: string }).secret).not.toBe(secret);
    const stranger = await service.call('remove_callback_endpoint', {
      token: other.token,
      json: { endpoint_id: id },
    });
    expect(stranger.status).toBe(422);
    expect((await envelopeOf(stranger)).data.errors).toEqual(["'endpoint_id is invalid'"]);
    const removed = await service.call('remove_callback_endpoint', {
      token: owner.token,
      json: { endpoint_id: id },
    });
    expect((await envelopeOf(removed)).status.code).toBe('0000');
  });

  it('shows a public receiver’s answer, with characters XML cannot carry replaced, in JSON and XML', async () => {
    const { token, account } = await service.createCaller({ float: 10_000_000n });
    // Registered past the policy: the test cannot resolve or reach a public host, and needs none.
    await service.ledger.addCallbackEndpoint(account.id, {
      url: 'https://hooks.example.com/',
      format: 'json',
    });
    const sent = await envelopeOf(
      await service.call('send_agent_float', { token, json: { mobile: '254733000123', amount: '100' } }),
    );
    const { reference } = sent.data.transaction as { reference: string };
    await service.ledger.complete(reference, { providerCode: 'PUBLIC-1' });
    const [claimed] = await service.ledger.claimDeliveries({
      workerId: 'w-test',
      limit: 10,
      leaseMs: 60_000,
    });
    await service.ledger.recordDeliveryAttempt(claimed?.id ?? '', {
      workerId: 'w-test',
      httpStatus: 503,
      durationMs: 12,
      responseExcerpt: 'busy\u0001 try later',
      outcome: 'retry',
    });
    const list = (accept: string) =>
      service.call('list_callback_deliveries', { token, json: { reference }, headers: { Accept: accept } });
    const { data } = await envelopeOf(await list('application/json'));
    expect((data.deliveries as CallbackDeliveryView[])[0]?.attempts).toMatchObject([
      { http_status: '503', outcome: 'retry', response_excerpt: 'busy\uFFFD try later', error: '' },
    ]);
    expect(await (await list('text/xml')).text()).toContain(
      '<response_excerpt>busy\uFFFD try later</response_excerpt>',
    );
  });

  it('refuses an eleventh endpoint with 5000 and a reason, in JSON and XML', async () => {
    const { token } = await service.createCaller();
    for (let index = 0; index < 10; index += 1) {
      const added = await service.call('add_callback_endpoint', {
        token,
        json: { url: `${sinkUrl}/${String(index)}` },
      });
      expect((await envelopeOf(added)).status.code).toBe('0000');
    }
    const reason = 'an account may have at most 10 callback endpoints; remove one to add another';
    const json = await service.call('add_callback_endpoint', { token, json: { url: `${sinkUrl}/11` } });
    expect(json.status).toBe(403);
    expect(await envelopeOf(json)).toMatchObject({ status: { code: '5000' }, data: { errors: [reason] } });
    const xml = await service.call('add_callback_endpoint', {
      token,
      body: `<?xml version="1.0" encoding="utf-8"?><xml><url>${sinkUrl}/11</url></xml>`,
      headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
    });
    expect(xml.status).toBe(403);
    expect(await xml.text()).toContain(`<errors><error>${reason}</error></errors>`);
  });

  it('refuses a URL with credentials, checked by the callback URL policy', async () => {
    const { token } = await service.createCaller();
    const response = await service.call('add_callback_endpoint', {
      token,
      json: { url: 'https://user:pass@127.0.0.1/hooks' },
    });
    expect(response.status).toBe(422);
    expect((await envelopeOf(response)).data.errors).toEqual(["'url is invalid'"]);
  });

  it('refuses a URL that is not http(s) with the contract’s string', async () => {
    const { token } = await service.createCaller();
    const response = await service.call('add_callback_endpoint', {
      token,
      json: { url: 'ftp://example.com/x' },
    });
    expect(response.status).toBe(422);
    expect((await envelopeOf(response)).data.errors).toEqual(["'url is invalid'"]);
  });
});

describe.each(openTestStores())('list_callback_deliveries with the worker on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    // A long third delay keeps a failing delivery pending, with its next attempt in the future.
    service = await startTestService(store, { worker: true, env: { CALLBACK_RETRY_SCHEDULE: '0,0.2,120' } });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('shows each attempt’s status, a loopback receiver’s failures as connection failed, and when a pending delivery is next tried', async () => {
    // The first answer holds a control character, which XML cannot carry.
    const sink = await startCallbackSink((index) =>
      index === 0 ? { status: 503, body: 'busy\u0001 try later' } : { status: 200, body: 'thanks' },
    );
    try {
      const { token } = await service.createCaller({ float: 10_000_000n });
      for (const url of [sink.url, 'http://127.0.0.1:9/callbacks']) {
        const added = await service.call('add_callback_endpoint', { token, json: { url } });
        expect((await envelopeOf(added)).status.code).toBe('0000');
      }
      const sent = await envelopeOf(
        await service.call('send_agent_float', { token, json: { mobile: '254733000123', amount: '100' } }),
      );
      const { reference } = sent.data.transaction as { reference: string };
      const list = async (accept: string) =>
        service.call('list_callback_deliveries', { token, json: { reference }, headers: { Accept: accept } });

      const deliveries = await eventually(
        'one delivery delivered on its second attempt, the other refused twice',
        async () => {
          const { data } = await envelopeOf(await list('application/json'));
          const found = data.deliveries as CallbackDeliveryView[];
          const delivered = found.find((delivery) => delivery.status === 'delivered');
          const pending = found.find((delivery) => delivery.status === 'pending');
          return delivered?.attempts.length === 2 && pending?.attempts.length === 2
            ? { delivered, pending }
            : undefined;
        },
        15_000,
      );
      // Both receivers are on loopback, not public: their statuses show, never what they answered.
      expect(deliveries.delivered).toMatchObject({
        next_attempt: '',
        last_error: '',
        attempts: [
          { http_status: '503', outcome: 'retry', response_excerpt: '', error: '' },
          { http_status: '200', outcome: 'delivered', response_excerpt: '', error: '' },
        ],
      });
      expect(Date.parse(deliveries.delivered.delivered)).toBeGreaterThanOrEqual(
        Date.parse(deliveries.delivered.created),
      );
      const { pending } = deliveries;
      expect(pending.delivered).toBe('');
      expect(pending.last_error).toBe('connection failed');
      expect(pending.attempts[1]).toMatchObject({
        http_status: '',
        outcome: 'retry',
        response_excerpt: '',
        error: 'connection failed',
      });
      // Third delay 120 s ± 20 %.
      expect(Date.parse(pending.next_attempt) - Date.now()).toBeGreaterThan(60_000);

      expect(deliveriesData.safeParse((await envelopeOf(await list('application/json'))).data).error).toBe(
        undefined,
      );

      const xml = await list('text/xml');
      expect(xml.status).toBe(200);
      const text = await xml.text();
      expect(text).toContain('<response_excerpt></response_excerpt>');
      expect(text).toContain(`<next_attempt>${pending.next_attempt}</next_attempt>`);
    } finally {
      await sink.close();
    }
  }, 30_000);

  it('shows why an endpoint was disabled, in JSON and XML, and an empty reason while enabled', async () => {
    const gone = await startCallbackSink(() => ({ status: 410, body: 'gone' }));
    try {
      const { token } = await service.createCaller({ float: 10_000_000n });
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', { token, json: { url: gone.url } }),
      );
      expect(added.data.endpoint).toMatchObject({ enabled: 'true', disabled_reason: '' });
      await service.call('send_agent_float', { token, json: { mobile: '254733000123', amount: '100' } });
      const listed = await eventually('the endpoint disabled by its 410', async () => {
        const { data } = await envelopeOf(await service.call('list_callback_endpoints', { token }));
        return (data.endpoints as { enabled: string }[])[0]?.enabled === 'false' ? data : undefined;
      });
      expect(endpointsData.safeParse(listed).error).toBeUndefined();
      expect(listed.endpoints).toMatchObject([
        { enabled: 'false', disabled_reason: 'the receiver answered HTTP 410' },
      ]);
      const xml = await service.call('list_callback_endpoints', { token, headers: { Accept: 'text/xml' } });
      expect(await xml.text()).toContain(
        '<enabled>false</enabled><disabled_reason>the receiver answered HTTP 410</disabled_reason>',
      );
    } finally {
      await gone.close();
    }
  }, 30_000);
});
