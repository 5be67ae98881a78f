import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { CallbackDeliveryView } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { verifyCallback } from '@topup/signing';
import { encodeTransactionCursor } from '@topup/validation';
import { startCallbackSink } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { deliveriesData, endpointsData, resentFailedData, testCallbackSentData } from './response-schemas.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

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

const formats = [
  {
    name: 'JSON',
    contentType: 'application/json',
    encode: (fields: Record<string, string>) => JSON.stringify(fields),
  },
  { name: 'XML', contentType: 'text/xml', encode: xmlBody },
] as const;

describe.each(openTestStores())('list_callback_deliveries a page at a time on $name', (stores) => {
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

  /** A caller with two endpoints and `count` completed floats: two deliveries each, none sent. */
  async function callerWithDeliveries(count: number) {
    const caller = await service.createCaller({ float: 10_000_000n });
    const endpoints: string[] = [];
    for (const url of ['http://127.0.0.1:9/one', 'http://127.0.0.1:9/two']) {
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', { token: caller.token, json: { url } }),
      );
      endpoints.push((added.data.endpoint as { id: string }).id);
    }
    const references: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const sent = await envelopeOf(
        await service.call('send_agent_float', {
          token: caller.token,
          json: { mobile: '254733000123', amount: '100' },
        }),
      );
      const { reference } = sent.data.transaction as { reference: string };
      await service.ledger.complete(reference, { providerCode: `PAGE-${String(index)}` });
      references.push(reference);
    }
    return { ...caller, endpoints, references };
  }

  describe.each(formats)('asked and answered in $name', (format) => {
    const list = (token: string, fields: Record<string, string>) =>
      service.call('list_callback_deliveries', {
        token,
        body: format.encode(fields),
        headers: { 'Content-Type': format.contentType, Accept: format.contentType },
      });

    it('pages through every delivery once, newest first, with next_cursor empty on the last page', async () => {
      const { token, account } = await callerWithDeliveries(3);
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const response = await list(token, { limit: '4', ...(cursor === '' ? {} : { cursor }) });
        expect(response.status).toBe(200);
        const { status, data } = await envelopeOf(response);
        expect(status.message).toBe('Callback deliveries found');
        expect(deliveriesData.safeParse(data).error).toBeUndefined();
        seen.push(...(data.deliveries as CallbackDeliveryView[]).map((delivery) => delivery.id));
        cursor = data.next_cursor as string;
        pages += 1;
      } while (cursor !== '');
      expect(pages).toBe(2);
      const all = await service.ledger.listDeliveries(account.id, {});
      expect(seen).toEqual(all.map((delivery) => delivery.id));
      expect(seen).toHaveLength(6);
    });

    it('narrows by endpoint, status and creation time, and still answers a request of before', async () => {
      const { token, endpoints, references } = await callerWithDeliveries(2);
      const [one = ''] = endpoints;
      const byEndpoint = await envelopeOf(await list(token, { endpoint_id: one }));
      expect(
        (byEndpoint.data.deliveries as CallbackDeliveryView[]).map((delivery) => delivery.endpoint_id),
      ).toEqual([one, one]);
      const reference = references[0] ?? '';
      const old = await envelopeOf(await list(token, { reference, status: 'pending' }));
      expect(old.data.deliveries as CallbackDeliveryView[]).toHaveLength(2);
      expect(old.data.next_cursor).toBe('');
      const future = await envelopeOf(await list(token, { from: '2999-01-01' }));
      expect(future.data).toMatchObject({ deliveries: [], next_cursor: '' });
      const past = await envelopeOf(await list(token, { to: '2000-01-01T00:00:00Z' }));
      expect(past.data.deliveries).toEqual([]);
    });

    it('answers 3000 naming a limit, bound or cursor it cannot read, and another listing’s cursor', async () => {
      const { token } = await service.createCaller();
      const transactionCursor = encodeTransactionCursor({
        createdMicros: '1763723109120453',
        reference: 'TX1',
      });
      const response = await list(token, { from: 'last week', limit: '101', cursor: transactionCursor });
      expect(response.status).toBe(422);
      expect((await envelopeOf(response)).data.errors).toEqual([
        "'from is invalid'",
        "'limit is invalid'",
        "'cursor is invalid'",
      ]);
    });
  });

  it('never pages into another caller’s deliveries with a cursor naming one of them', async () => {
    const owner = await callerWithDeliveries(2);
    const stranger = await service.createCaller();
    const first = await envelopeOf(
      await service.call('list_callback_deliveries', { token: owner.token, json: { limit: 1 } }),
    );
    const cursor = first.data.next_cursor as string;
    expect(cursor).not.toBe('');
    const theirs = await envelopeOf(
      await service.call('list_callback_deliveries', { token: stranger.token, json: { cursor } }),
    );
    expect(theirs.data).toMatchObject({ deliveries: [], next_cursor: '' });
  });
});

describe.each(openTestStores())('resend_failed_callbacks and send_test_callback on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    // Two attempts, then a delivery has failed; the worker retries within a second.
    service = await startTestService(store, { worker: true, env: { CALLBACK_RETRY_SCHEDULE: '0,0.2' } });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  const call = (
    format: (typeof formats)[number],
    name: string,
    token: string,
    fields: Record<string, string>,
  ) =>
    service.call(name, {
      token,
      body: format.encode(fields),
      headers: { 'Content-Type': format.contentType, Accept: format.contentType },
    });

  it.each(formats)(
    'queues failed deliveries again in $name, which the worker then delivers with a fresh schedule',
    async (format) => {
      // Down for the first two attempts (the whole schedule), up after.
      const sink = await startCallbackSink((index) =>
        index < 2 ? { status: 503, body: 'down' } : { status: 200, body: 'ok' },
      );
      try {
        const { token, account } = await service.createCaller({ float: 10_000_000n });
        const added = await envelopeOf(
          await service.call('add_callback_endpoint', { token, json: { url: sink.url } }),
        );
        const endpointId = (added.data.endpoint as { id: string }).id;
        await service.call('send_agent_float', { token, json: { mobile: '254733000123', amount: '100' } });
        await eventually('the delivery failed after its schedule', async () => {
          const [delivery] = await service.ledger.listDeliveries(account.id, {});
          return delivery?.status === 'failed' ? delivery : undefined;
        });

        const response = await call(format, 'resend_failed_callbacks', token, {
          since: '2000-01-01',
          endpoint_id: endpointId,
        });
        expect(response.status).toBe(200);
        const { status, data } = await envelopeOf(response);
        expect(status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Failed callbacks resent' });
        expect(data).toEqual({
          errors: [],
          // 2000-01-01 in Nairobi (UTC+3).
          resend: { since: '1999-12-31T21:00:00.000Z', endpoint_id: endpointId, queued: '1', more: 'false' },
        });
        expect(resentFailedData.safeParse(data).error).toBeUndefined();
        const delivered = await eventually('the resent delivery delivered', async () => {
          const [delivery] = await service.ledger.listDeliveries(account.id, {});
          return delivery?.status === 'delivered' ? delivery : undefined;
        });
        expect(delivered.attempts.map((attempt) => attempt.httpStatus)).toEqual([503, 503, 200]);

        // Nothing failed any more: an answer, not a refusal.
        const again = await envelopeOf(
          await call(format, 'resend_failed_callbacks', token, { since: '2000-01-01' }),
        );
        expect(again.data.resend).toEqual({
          since: '1999-12-31T21:00:00.000Z',
          endpoint_id: '',
          queued: '0',
          more: 'false',
        });
      } finally {
        await sink.close();
      }
    },
    30_000,
  );

  it.each(formats)(
    'answers 3000 in $name for an endpoint that is not the caller’s, or no since',
    async (format) => {
      const owner = await service.createCaller();
      const stranger = await service.createCaller();
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', {
          token: owner.token,
          json: { url: 'http://127.0.0.1:9/a' },
        }),
      );
      const endpointId = (added.data.endpoint as { id: string }).id;
      for (const fields of [{ since: '2025-11-21', endpoint_id: endpointId }, { endpoint_id: 'ep_nobody' }]) {
        const response = await call(format, 'resend_failed_callbacks', stranger.token, fields);
        expect(response.status).toBe(422);
        expect((await envelopeOf(response)).data.errors).toEqual(
          'since' in fields ? ["'endpoint_id is invalid'"] : ["'since is required.'"],
        );
      }
      const test = await call(format, 'send_test_callback', stranger.token, { endpoint_id: endpointId });
      expect(test.status).toBe(422);
      expect((await envelopeOf(test)).data.errors).toEqual(["'endpoint_id is invalid'"]);
    },
  );

  it.each([
    { format: formats[0], endpointFormat: 'json' },
    { format: formats[1], endpointFormat: 'xml' },
  ] as const)(
    'sends a signed test callback in the endpoint’s $endpointFormat, answering in $format.name, and writes nothing',
    async ({ format, endpointFormat }) => {
      const sink = await startCallbackSink(() => ({ status: 200, body: 'thanks' }));
      try {
        const { token, account } = await service.createCaller();
        const added = await envelopeOf(
          await service.call('add_callback_endpoint', {
            token,
            json: { url: sink.url, format: endpointFormat },
          }),
        );
        const { id: endpointId, secret } = added.data.endpoint as { id: string; secret: string };
        const response = await call(format, 'send_test_callback', token, { endpoint_id: endpointId });
        expect(response.status).toBe(200);
        const { status, data } = await envelopeOf(response);
        expect(status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Test callback sent' });
        expect(testCallbackSentData.safeParse(data).error).toBeUndefined();
        // A loopback receiver is not public: its status shows, never what it answered.
        expect(data.test).toMatchObject({
          endpoint_id: endpointId,
          http_status: '200',
          outcome: 'delivered',
          response_excerpt: '',
          error: '',
        });

        const [arrived] = sink.arrived;
        expect(sink.arrived).toHaveLength(1);
        expect(arrived?.headers['webhook-id']).toMatch(/^test_/);
        expect(
          verifyCallback({ secrets: [secret], headers: arrived?.headers ?? {}, body: arrived?.body ?? '' })
            .ok,
        ).toBe(true);
        const envelope = (endpointFormat === 'json' ? decodeJsonEnvelope : decodeXmlEnvelope)(
          arrived?.body ?? '',
        );
        expect(envelope.status.message).toBe('Test callback');
        expect(envelope.data).toMatchObject({ test: { endpoint_id: endpointId } });
        await expect(service.ledger.listDeliveries(account.id, {})).resolves.toEqual([]);
      } finally {
        await sink.close();
      }
    },
  );

  it('reports a receiver that refuses the test as failed, and a URL the policy refuses without sending', async () => {
    const sink = await startCallbackSink(() => ({ status: 500, body: 'boom' }));
    try {
      const { token, account } = await service.createCaller();
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', { token, json: { url: sink.url } }),
      );
      const refusing = (added.data.endpoint as { id: string }).id;
      const refused = await envelopeOf(
        await service.call('send_test_callback', { token, json: { endpoint_id: refusing } }),
      );
      expect(refused.data.test).toMatchObject({ http_status: '500', outcome: 'failed', error: '' });

      // Registered past the policy: a cloud-metadata address, which no callback may ever reach.
      const { endpoint } = await service.ledger.addCallbackEndpoint(account.id, {
        url: 'http://169.254.169.254/latest',
        format: 'json',
      });
      const metadata = await envelopeOf(
        await service.call('send_test_callback', { token, json: { endpoint_id: endpoint.id } }),
      );
      expect(metadata.data.test).toMatchObject({
        http_status: '',
        outcome: 'failed',
        response_excerpt: '',
        error: 'callback URL refused by the callback URL policy',
      });
      expect(sink.arrived).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });
});
