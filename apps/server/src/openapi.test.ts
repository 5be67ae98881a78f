import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { apiFunctions } from '@topup/validation';
import { z } from 'zod';
import { startCallbackSink } from './testing/callback-sink.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { resolved } from './testing/openapi-refs.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

interface Response_ {
  description: string;
  headers: Record<string, { $ref: string }>;
  content: Record<string, { schema: Record<string, unknown> }>;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: ({ name: string } | { $ref: string })[];
  requestBody: { content: Record<string, unknown> };
  responses: Record<string, Response_>;
}
interface Document {
  openapi: string;
  info: { description: string };
  tags?: { name: string }[];
  paths: Record<string, { post: Operation }>;
  components: Record<string, Record<string, unknown>>;
}

const everyFunction = ['400', '401', '403', '405', '429', '502', '503'];
const expectedStatuses: Record<string, string[]> = {
  send_agent_float: ['200', ...everyFunction, '402', '409', '422'],
  buy_airtime: ['200', ...everyFunction, '409', '422'],
  send_airtime: ['200', ...everyFunction, '402', '409', '422'],
  get_balance: ['200', ...everyFunction],
  get_transaction: ['200', ...everyFunction, '422'],
  add_callback_endpoint: ['200', ...everyFunction, '422'],
  list_callback_endpoints: ['200', ...everyFunction],
  remove_callback_endpoint: ['200', ...everyFunction, '422'],
  rotate_callback_secret: ['200', ...everyFunction, '422'],
  resend_callback: ['200', ...everyFunction, '422'],
  list_callback_deliveries: ['200', ...everyFunction, '422'],
  resend_failed_callbacks: ['200', ...everyFunction, '422'],
  send_test_callback: ['200', ...everyFunction, '422'],
  list_transactions: ['200', ...everyFunction, '422'],
  list_statement: ['200', ...everyFunction, '422'],
};

describe.each(openTestStores())('the OpenAPI document on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let document: Document;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
    document = (await (await fetch(`${service.url}/openapi.json`)).json()) as Document;
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  /** The documented JSON schema of a function's answer with that HTTP status, as a zod schema. */
  function documented(name: string, status: string): z.ZodType {
    const schema =
      document.paths[`/api/${name}`]?.post.responses[status]?.content['application/json']?.schema;
    if (schema === undefined) throw new Error(`Expected ${name} to document HTTP ${status}; it does not.`);
    return z.fromJSONSchema(resolved(document, schema) as Parameters<typeof z.fromJSONSchema>[0]);
  }

  it('documents every function with each HTTP status it can answer, in JSON and both XML types', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      Object.keys(apiFunctions)
        .map((name) => `/api/${name}`)
        .sort(),
    );
    for (const [name, statuses] of Object.entries(expectedStatuses)) {
      const operation = document.paths[`/api/${name}`]?.post;
      expect(Object.keys(operation?.responses ?? {}).sort(), name).toEqual([...statuses].sort());
      expect(Object.keys(operation?.requestBody.content ?? {}), name).toEqual([
        'application/json',
        'text/xml',
        'application/xml',
      ]);
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        expect(Object.keys(response.content), `${name} ${status}`).toEqual([
          'application/json',
          'text/xml',
          'application/xml',
        ]);
        expect(Object.keys(response.headers), `${name} ${status}`).toContain('X-Request-Id');
      }
    }
    // An unknown function is answered before authentication, so it is said once, not made an operation.
    expect(document.info.description).toContain('answers `1000` with HTTP 404');
  });

  it('names each schema once and refers to it from JSON and both XML types', () => {
    const schemas = document.components.schemas ?? {};
    for (const name of ['Transaction', 'Channel', 'Party', 'AgentParty', 'Payment', 'Error', 'FailureData']) {
      expect(schemas, name).toHaveProperty(name);
    }
    for (const name of Object.keys(apiFunctions)) {
      const pascal = name.replace(/(?:^|_)([a-z])/g, (_match, letter: string) => letter.toUpperCase());
      const operation = document.paths[`/api/${name}`]?.post;
      for (const media of Object.values(operation?.requestBody.content ?? {})) {
        expect(media, name).toStrictEqual({ schema: { $ref: `#/components/schemas/${pascal}Request` } });
      }
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const named = status === '200' ? `${pascal}Envelope` : 'Error';
        for (const media of Object.values(response.content)) {
          expect(media, `${name} ${status}`).toStrictEqual({
            schema: { $ref: `#/components/schemas/${named}` },
          });
        }
      }
    }
    // The float answer's data refers to the named parts rather than repeating them.
    expect(schemas.AgentFloatData).toMatchObject({
      properties: {
        sender: { $ref: '#/components/schemas/AgentParty' },
        transaction: { $ref: '#/components/schemas/Transaction' },
        channel: { $ref: '#/components/schemas/Channel' },
      },
    });
  });

  it('gives every operation a summary, a description and one tag by resource', () => {
    const tags = (document.tags ?? []).map((tag) => tag.name);
    expect(tags).toEqual([
      'Transactions',
      'Channels',
      'Callback endpoints',
      'Callback deliveries',
      'Callbacks',
    ]);
    const byTag = new Map<string, string[]>();
    for (const [path, { post }] of Object.entries(document.paths)) {
      expect(post.summary, path).toMatch(/^[A-Z]/);
      expect(post.description, path).not.toBe('');
      expect(post.tags, path).toHaveLength(1);
      const [tag = ''] = post.tags;
      byTag.set(tag, [...(byTag.get(tag) ?? []), post.operationId]);
    }
    expect(byTag.get('Channels')).toEqual(['get_balance', 'list_statement']);
    expect(byTag.get('Callback deliveries')).toEqual([
      'resend_callback',
      'list_callback_deliveries',
      'resend_failed_callbacks',
    ]);
  });

  it('documents the headers each answer carries, and Idempotency-Key on the money operations', () => {
    const float = document.paths['/api/send_agent_float']?.post;
    const balance = document.paths['/api/get_balance']?.post;
    expect(Object.keys(float?.responses['401']?.headers ?? {})).toContain('WWW-Authenticate');
    expect(Object.keys(float?.responses['405']?.headers ?? {})).toContain('Allow');
    expect(Object.keys(float?.responses['429']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(float?.responses['503']?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(float?.responses['200']?.headers ?? {})).toContain('Idempotency-Replayed');
    expect(Object.keys(balance?.responses['200']?.headers ?? {})).not.toContain('Idempotency-Replayed');
    expect(float?.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
    expect(balance?.parameters).not.toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
    expect(Object.keys(document.components.headers ?? {}).sort()).toEqual([
      'Allow',
      'Idempotency-Replayed',
      'Retry-After',
      'WWW-Authenticate',
      'X-Request-Id',
    ]);
    expect(float?.responses['409']?.description).toMatch(
      /^5000 \(Request Not Allowed\): .*8000 \(Agent Float Cancelled\): /,
    );
    expect(float?.responses['403']?.description).toMatch(/^6000 \(Invalid Account\): .*5000 /);
    expect(document.paths['/api/buy_airtime']?.post.responses['409']?.description).toContain(
      '8000 (Purchase Cancelled)',
    );
  });

  it('describes the real answers of each operation exactly', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const answer = async (name: string, json: unknown) =>
      (await service.call(name, { token, json, headers: { Accept: 'application/json' } })).json();

    const floatRequest = {
      mobile: '254722000123',
      amount: '500',
      agent_number: '123456',
      store_number: '654321',
    };
    const float = await answer('send_agent_float', floatRequest);
    expect(documented('send_agent_float', '200').safeParse(float).error).toBeUndefined();
    const airtime = await answer('buy_airtime', {
      mobile: '254733000123',
      amount: '50',
      payment_network: 'MoneyNetB',
      payment_mobile: '254722000456',
    });
    expect(documented('buy_airtime', '200').safeParse(airtime).error).toBeUndefined();
    expect(documented('get_balance', '200').safeParse(await answer('get_balance', {})).error).toBeUndefined();
    const reference = (airtime as { data: { transaction: { reference: string } } }).data.transaction
      .reference;
    const found = await answer('get_transaction', { reference });
    expect(documented('get_transaction', '200').safeParse(found).error).toBeUndefined();

    // A float answer is not an airtime answer: the schemas tell them apart.
    expect(documented('buy_airtime', '200').safeParse(float).success).toBe(false);
    const poor = await service.createCaller();
    const refused = await (
      await service.call('send_agent_float', {
        token: poor.token,
        json: floatRequest,
      })
    ).json();
    expect(documented('send_agent_float', '402').safeParse(refused).error).toBeUndefined();
    const invalid = await answer('get_transaction', { reference: 'NOPE' });
    expect(documented('get_transaction', '422').safeParse(invalid).error).toBeUndefined();
    // Every failure is the one Error envelope; what each HTTP status stands for is in its description.
    expect(documented('get_transaction', '422').safeParse(float).success).toBe(false);
    const statuses = document.paths['/api/get_transaction']?.post.responses ?? {};
    expect(statuses['422']?.description).toMatch(/^3000 \(Missing or Invalid Parameters\): /);
    expect(statuses['403']?.description).not.toContain('3000');
  });

  it('documents send_airtime as 1 to 1000 recipients answered by one transaction each, never 8000', () => {
    const operation = document.paths['/api/send_airtime']?.post;
    const { schema: named } = operation?.requestBody.content['application/json'] as { schema: unknown };
    const schema = resolved(document, named);
    expect(schema).toMatchObject({
      required: ['recipients'],
      properties: {
        recipients: { type: 'array', minItems: 1, maxItems: 1000, items: { required: ['mobile', 'amount'] } },
        note: { type: 'string' },
      },
    });
    const request = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    const recipient = { mobile: '254733000123', amount: 50 };
    expect(request.safeParse({ recipients: [recipient] }).success).toBe(true);
    expect(request.safeParse({ recipients: [] }).success).toBe(false);
    expect(request.safeParse({ recipients: Array<unknown>(1001).fill(recipient) }).success).toBe(false);

    const responses = operation?.responses ?? {};
    expect(responses['402']?.description).toBe(
      '7000 (Insufficient Balance): the Airtime channel cannot cover the total of the recipients.',
    );
    // A recipient refused at once is a Cancelled entry of the success, so 409 is only a key conflict.
    expect(responses['409']?.description).not.toContain('8000');
    expect(Object.keys(responses['409']?.headers ?? {})).not.toContain('Idempotency-Replayed');
    expect(Object.keys(responses['502']?.headers ?? {})).toContain('Idempotency-Replayed');
    expect(responses['422']?.description).toContain("'recipients[3].mobile is invalid'");
  });

  it('describes the real answers of send_airtime, and get_transaction of what it made, exactly', async () => {
    // 1,000.00 KES of airtime, in cents.
    const { token } = await service.createCaller({ airtime: 100_000n });
    const answer = async (name: string, json: unknown) =>
      (await service.call(name, { token, json, headers: { Accept: 'application/json' } })).json();
    const sendRequest = {
      recipients: [
        { mobile: '254733000123', amount: '50' },
        // The sandbox refuses numbers ending in 0003 at once: a Cancelled entry with its reason.
        { mobile: '254712340003', amount: 20, name: 'Achieng' },
      ],
      note: 'staff airtime',
    };
    const sent = (await answer('send_airtime', sendRequest)) as {
      data: { transactions: { reference: string; status: string }[] };
    };
    expect(documented('send_airtime', '200').safeParse(sent).error).toBeUndefined();
    expect(sent.data.transactions.map((entry) => entry.status)).toEqual(['Requested', 'Cancelled']);
    // Neither the one-recipient answer nor the many-recipient answer fits the other's schema.
    expect(documented('buy_airtime', '200').safeParse(sent).success).toBe(false);

    for (const { reference } of sent.data.transactions) {
      const found = (await answer('get_transaction', { reference })) as { data: object };
      expect(found.data).not.toHaveProperty('payment');
      expect(documented('get_transaction', '200').safeParse(found).error).toBeUndefined();
    }

    const poor = await service.createCaller();
    const refused = await (
      await service.call('send_airtime', { token: poor.token, json: sendRequest })
    ).json();
    expect(documented('send_airtime', '402').safeParse(refused).error).toBeUndefined();
    const invalid = await answer('send_airtime', { recipients: [{ mobile: 'x', amount: 50 }] });
    expect(documented('send_airtime', '422').safeParse(invalid).error).toBeUndefined();
  });

  it('describes the real answers of the callback endpoint functions exactly', async () => {
    const { token } = await service.createCaller();
    const answer = async (name: string, json: unknown) =>
      (await service.call(name, { token, json, headers: { Accept: 'application/json' } })).json();

    const added = (await answer('add_callback_endpoint', {
      url: 'http://127.0.0.1:9/hooks',
      description: 'ops',
    })) as { data: { endpoint: { id: string } } };
    expect(documented('add_callback_endpoint', '200').safeParse(added).error).toBeUndefined();
    const endpointId = added.data.endpoint.id;
    const listed = await answer('list_callback_endpoints', {});
    expect(documented('list_callback_endpoints', '200').safeParse(listed).error).toBeUndefined();
    // A listed endpoint has no secret: the add answer's schema does not fit it.
    expect(documented('add_callback_endpoint', '200').safeParse(listed).success).toBe(false);
    const rotated = await answer('rotate_callback_secret', { endpoint_id: endpointId });
    expect(documented('rotate_callback_secret', '200').safeParse(rotated).error).toBeUndefined();
    const deliveries = await answer('list_callback_deliveries', {});
    expect(documented('list_callback_deliveries', '200').safeParse(deliveries).error).toBeUndefined();
    const removed = await answer('remove_callback_endpoint', { endpoint_id: endpointId });
    expect(documented('remove_callback_endpoint', '200').safeParse(removed).error).toBeUndefined();
  });

  it('describes the real answers of resending failed callbacks and of a test callback exactly', async () => {
    const sink = await startCallbackSink();
    try {
      const { token } = await service.createCaller();
      const answer = async (name: string, json: unknown) =>
        (await service.call(name, { token, json, headers: { Accept: 'application/json' } })).json();
      const added = (await answer('add_callback_endpoint', { url: sink.url })) as {
        data: { endpoint: { id: string } };
      };
      const endpointId = added.data.endpoint.id;
      const resent = await answer('resend_failed_callbacks', {
        since: '2025-11-21',
        endpoint_id: endpointId,
      });
      expect(documented('resend_failed_callbacks', '200').safeParse(resent).error).toBeUndefined();
      const tested = await answer('send_test_callback', { endpoint_id: endpointId });
      expect(tested).toMatchObject({ data: { test: { outcome: 'delivered', http_status: '200' } } });
      expect(documented('send_test_callback', '200').safeParse(tested).error).toBeUndefined();
      // A test answer is not a delivery listing, nor the reverse.
      expect(documented('list_callback_deliveries', '200').safeParse(tested).success).toBe(false);
      const unknown = await answer('send_test_callback', { endpoint_id: 'ep_unknown' });
      expect(documented('send_test_callback', '422').safeParse(unknown).error).toBeUndefined();
    } finally {
      await sink.close();
    }
  });

  it('describes the real answers of the listing functions exactly, in JSON and in XML', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n, airtime: 100_000n });
    const answer = async (name: string, json: unknown, accept = 'application/json') =>
      envelopeOf(await service.call(name, { token, json, headers: { Accept: accept } }));
    await answer('send_agent_float', {
      mobile: '254722000123',
      amount: '500',
      agent_number: '123456',
      store_number: '654321',
    });
    await answer('buy_airtime', {
      mobile: '254733000123',
      amount: '50',
      payment_network: 'MoneyNetB',
      payment_mobile: '254722000456',
    });
    await answer('send_airtime', { recipients: [{ mobile: '254733000124', amount: '40' }] });
    for (const accept of ['application/json', 'text/xml']) {
      const transactions = await answer('list_transactions', { limit: 2 }, accept);
      expect(transactions.data.transactions).toHaveLength(2);
      expect(documented('list_transactions', '200').safeParse(transactions).error).toBeUndefined();
      const rest = await answer(
        'list_transactions',
        { cursor: transactions.data.next_cursor as string },
        accept,
      );
      expect(rest.data).toMatchObject({ next_cursor: '' });
      expect(documented('list_transactions', '200').safeParse(rest).error).toBeUndefined();
      for (const channel of ['Agent Float', 'Airtime']) {
        const statement = await answer('list_statement', { channel }, accept);
        expect(documented('list_statement', '200').safeParse(statement).error).toBeUndefined();
      }
    }
    const invalid = await answer('list_statement', { channel: 'float' });
    expect(documented('list_statement', '422').safeParse(invalid).error).toBeUndefined();
  });

  it('documents why a callback endpoint is disabled', () => {
    const schema = resolved(
      document,
      document.paths['/api/list_callback_endpoints']?.post.responses['200']?.content['application/json']
        ?.schema,
    );
    expect(JSON.stringify(schema)).toContain(
      '"disabled_reason":{"type":"string","description":"Why the endpoint was disabled',
    );
  });
});
