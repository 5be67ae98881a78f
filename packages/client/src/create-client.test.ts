import { failure, success, successMessages } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from './api-errors.js';
import { createClient } from './create-client.js';
import type { ClientOptions, TopupClient } from './index.js';
import {
  agentFloatData,
  airtimeData,
  balanceData,
  sendAirtimeData,
  statementData,
  transactionsData,
} from './testing/sample-data.js';
import { rejectionOf } from './testing/rejection.js';
import { envelopeReply, startScriptedServer } from './testing/scripted-server.js';
import type { ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serverAnswering(data: object, message = 'ok'): Promise<ScriptedServer> {
  server = await startScriptedServer(() => envelopeReply(success(message, data)));
  return server;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createClient', () => {
  it('posts JSON to /api/<function> with the bearer token, Content-Type and Accept', async () => {
    const service = await serverAnswering(balanceData(), successMessages.balanceFound);
    await createClient({ baseUrl: service.url, token }).getBalance();
    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/get_balance');
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
    expect(request?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.body).toBe('{}');
  });

  it('writes the input fields in order, numbers as numbers, and leaves out undefined ones', async () => {
    const service = await serverAnswering(airtimeData());
    await createClient({ baseUrl: service.url, token }).buyAirtime({
      mobile: 254733123456,
      amount: '50',
      email: undefined,
      payment_network: 'MoneyNetA',
      payment_mobile: '254711222333',
    });
    expect(service.requests[0]?.body).toBe(
      '{"mobile":254733123456,"amount":"50","payment_network":"MoneyNetA","payment_mobile":"254711222333"}',
    );
  });

  it('keeps a path in the base URL and ignores a trailing slash', async () => {
    const service = await serverAnswering(balanceData());
    await createClient({ baseUrl: `${service.url}/topup/`, token }).getBalance();
    expect(service.requests[0]?.path).toBe('/topup/api/get_balance');
  });

  it('resolves with the data beside the message, request id and replay flag, without errors', async () => {
    const service = await serverAnswering(airtimeData('TXREF00001'), successMessages.airtimeRequested);
    const result = await createClient({ baseUrl: service.url, token }).buyAirtime(
      { mobile: '254733123456', amount: 50, payment_network: 'MoneyNetA', payment_mobile: '254711222333' },
      { idempotencyKey: 'order-1' },
    );
    expect(result).toStrictEqual({
      ...airtimeData('TXREF00001'),
      message: 'Airtime purchase requested',
      requestId: 'req_scripted',
      replayed: false,
      idempotencyKey: 'order-1',
    });
    expect(result.channel.balance).toBe('1500.00');
  });

  type MethodCase = [keyof TopupClient, string, (client: TopupClient) => Promise<unknown>];
  const methods: MethodCase[] = [
    [
      'sendAgentFloat',
      'send_agent_float',
      (client) => client.sendAgentFloat({ mobile: '254712345678', amount: 1500, network: 'MoneyNetA' }),
    ],
    [
      'buyAirtime',
      'buy_airtime',
      (client) =>
        client.buyAirtime({
          mobile: '254733123456',
          amount: 50,
          payment_network: 'MoneyNetA',
          payment_mobile: '254711222333',
        }),
    ],
    [
      'sendAirtime',
      'send_airtime',
      (client) => client.sendAirtime({ recipients: [{ mobile: '254733123456', amount: 50 }] }),
    ],
    ['getBalance', 'get_balance', (client) => client.getBalance()],
    ['getTransaction', 'get_transaction', (client) => client.getTransaction({ reference: 'TXA3P8L1ZD' })],
    [
      'addCallbackEndpoint',
      'add_callback_endpoint',
      (client) => client.addCallbackEndpoint({ url: 'https://example.com/hook', format: 'xml' }),
    ],
    ['listCallbackEndpoints', 'list_callback_endpoints', (client) => client.listCallbackEndpoints()],
    [
      'removeCallbackEndpoint',
      'remove_callback_endpoint',
      (client) => client.removeCallbackEndpoint({ endpoint_id: 'ep_1' }),
    ],
    [
      'rotateCallbackSecret',
      'rotate_callback_secret',
      (client) => client.rotateCallbackSecret({ endpoint_id: 'ep_1' }),
    ],
    ['resendCallback', 'resend_callback', (client) => client.resendCallback({ reference: 'TXA3P8L1ZD' })],
    [
      'listCallbackDeliveries',
      'list_callback_deliveries',
      (client) => client.listCallbackDeliveries({ status: 'failed' }),
    ],
    [
      'resendFailedCallbacks',
      'resend_failed_callbacks',
      (client) => client.resendFailedCallbacks({ since: '2025-11-21' }),
    ],
    ['sendTestCallback', 'send_test_callback', (client) => client.sendTestCallback({ endpoint_id: 'ep_1' })],
    ['listTransactions', 'list_transactions', (client) => client.listTransactions()],
    ['listStatement', 'list_statement', (client) => client.listStatement({ channel: 'Airtime' })],
  ];

  const operations = new Set<keyof TopupClient>(['sendAgentFloat', 'buyAirtime', 'sendAirtime']);

  it.each(methods)('calls %s as the function %s', async (_method, wireName, call) => {
    const service = await serverAnswering({ endpoints: [] });
    await call(createClient({ baseUrl: service.url, token }));
    expect(service.requests.map((request) => request.path)).toStrictEqual([`/api/${wireName}`]);
  });

  it.each(methods)(
    'sends an Idempotency-Key with %s only when it is an operation',
    async (method, _wireName, call) => {
      const service = await serverAnswering({ endpoints: [] });
      await call(createClient({ baseUrl: service.url, token }));
      const key = service.requests[0]?.headers['idempotency-key'];
      if (operations.has(method)) expect(key).toMatch(uuid);
      else expect(key).toBeUndefined();
    },
  );

  it('sends listTransactions’ filters and resolves with the page and its next cursor', async () => {
    const service = await serverAnswering(transactionsData(), successMessages.transactionsFound);
    const result = await createClient({ baseUrl: service.url, token }).listTransactions({
      type: 'Airtime',
      state: 'completed',
      from: '2025-11-01',
      limit: 2,
      cursor: undefined,
    });
    expect(service.requests[0]?.body).toBe(
      '{"type":"Airtime","state":"completed","from":"2025-11-01","limit":2}',
    );
    expect(result.transactions).toStrictEqual(transactionsData().transactions);
    expect(result.next_cursor).toBe(transactionsData().next_cursor);
    expect(result.message).toBe('Transactions found');
  });

  it('sends listCallbackDeliveries’ filters and resolves with the page and its next cursor', async () => {
    const page = { deliveries: [], next_cursor: 'WyJkIiwiMTc2MzcyMzEwOTEyMDAwMCIsImNiXzEiXQ' };
    const service = await serverAnswering(page, successMessages.callbackDeliveriesFound);
    const result = await createClient({ baseUrl: service.url, token }).listCallbackDeliveries({
      endpoint_id: 'ep_1',
      from: '2025-11-21T00:00:00Z',
      limit: 100,
      cursor: undefined,
    });
    expect(service.requests[0]?.body).toBe(
      '{"endpoint_id":"ep_1","from":"2025-11-21T00:00:00Z","limit":100}',
    );
    expect(result).toMatchObject({ ...page, message: 'Callback deliveries found' });
  });

  it('resolves resendFailedCallbacks with what was queued again', async () => {
    const resend = {
      resend: { since: '2025-11-20T21:00:00.000Z', endpoint_id: '', queued: '3', more: 'false' },
    };
    const service = await serverAnswering(resend, successMessages.failedCallbacksResent);
    const result = await createClient({ baseUrl: service.url, token }).resendFailedCallbacks({
      since: '2025-11-21',
    });
    expect(service.requests[0]?.body).toBe('{"since":"2025-11-21"}');
    expect(result).toMatchObject({ ...resend, message: 'Failed callbacks resent' });
  });

  it('resolves sendTestCallback with what the endpoint answered', async () => {
    const test = {
      test: {
        endpoint_id: 'ep_1',
        http_status: '200',
        duration_ms: '12',
        outcome: 'delivered',
        response_excerpt: 'ok',
        error: '',
      },
    };
    const service = await serverAnswering(test, successMessages.testCallbackSent);
    const result = await createClient({ baseUrl: service.url, token }).sendTestCallback({
      endpoint_id: 'ep_1',
    });
    expect(result).toMatchObject({ ...test, message: 'Test callback sent' });
  });

  it('never sends a test callback again once the request may have arrived: it changes something', async () => {
    server = await startScriptedServer(() => envelopeReply(failure('9000'), { status: 502 }));
    const error = await rejectionOf(
      createClient({ baseUrl: server.url, token, retries: 3 }).sendTestCallback({ endpoint_id: 'ep_1' }),
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect(server.requests).toHaveLength(1);
  });

  it('walks listStatement’s pages by passing each next cursor back', async () => {
    const pages = [
      { ...statementData(), next_cursor: 'WyJzIiwiNDA5NiJd' },
      { ...statementData(), postings: [] },
    ];
    server = await startScriptedServer((_request, index) =>
      envelopeReply(success(successMessages.statementFound, pages[index] ?? statementData())),
    );
    const client = createClient({ baseUrl: server.url, token });
    let page = await client.listStatement({ channel: 'Agent Float', limit: 2 });
    const seen = [...page.postings];
    while (page.next_cursor !== '') {
      page = await client.listStatement({ channel: 'Agent Float', limit: 2, cursor: page.next_cursor });
      seen.push(...page.postings);
    }
    expect(server.requests.map((request) => request.body)).toStrictEqual([
      '{"channel":"Agent Float","limit":2}',
      '{"channel":"Agent Float","limit":2,"cursor":"WyJzIiwiNDA5NiJd"}',
    ]);
    expect(seen).toStrictEqual(statementData().postings);
    expect(page.channel.balance).toBe('98500.00');
  });

  it('sends sendAirtime’s recipients as a list in order and resolves with one transaction each', async () => {
    const service = await serverAnswering(sendAirtimeData(), successMessages.airtimeSendRequested);
    const result = await createClient({ baseUrl: service.url, token }).sendAirtime(
      {
        recipients: [
          { mobile: '254733123456', amount: 50, name: 'Shiro', email: undefined },
          { mobile: 254712340003, amount: '20', network: 'CarrierA' },
        ],
        note: 'staff airtime',
      },
      { idempotencyKey: 'payroll-2025-03' },
    );
    const [request] = service.requests;
    expect(request?.body).toBe(
      '{"recipients":[{"mobile":"254733123456","amount":50,"name":"Shiro"},' +
        '{"mobile":254712340003,"amount":"20","network":"CarrierA"}],"note":"staff airtime"}',
    );
    expect(request?.headers['idempotency-key']).toBe('payroll-2025-03');
    expect(result).toStrictEqual({
      ...sendAirtimeData(),
      message: 'Airtime send requested',
      requestId: 'req_scripted',
      replayed: false,
      idempotencyKey: 'payroll-2025-03',
    });
    expect(result.transactions.map((entry) => entry.status)).toStrictEqual(['Requested', 'Cancelled']);
  });

  it('makes a new Idempotency-Key for each operation call and returns it', async () => {
    const service = await serverAnswering(agentFloatData());
    const client = createClient({ baseUrl: service.url, token });
    const input = { mobile: '254712345678', amount: 1500 };
    const first = await client.sendAgentFloat(input);
    const second = await client.sendAgentFloat(input);
    const sent = service.requests.map((request) => request.headers['idempotency-key']);
    expect(sent).toStrictEqual([first.idempotencyKey, second.idempotencyKey]);
    expect(first.idempotencyKey).not.toBe(second.idempotencyKey);
  });

  it('sends the caller’s own Idempotency-Key', async () => {
    const service = await serverAnswering(agentFloatData());
    await createClient({ baseUrl: service.url, token }).sendAgentFloat(
      { mobile: '254712345678', amount: 1500 },
      { idempotencyKey: 'invoice-2025-0042' },
    );
    expect(service.requests[0]?.headers['idempotency-key']).toBe('invoice-2025-0042');
  });

  it('refuses an Idempotency-Key the service would refuse, before sending anything', async () => {
    const service = await serverAnswering(agentFloatData());
    const client = createClient({ baseUrl: service.url, token });
    await expect(
      client.sendAgentFloat({ mobile: '254712345678', amount: 1500 }, { idempotencyKey: 'has space' }),
    ).rejects.toThrow(
      'Expected idempotencyKey to be 1 to 255 visible ASCII characters, received "has space".',
    );
    expect(service.requests).toHaveLength(0);
  });

  it.each<[string, Partial<ClientOptions>, string]>([
    ['a relative base URL', { baseUrl: '/api' }, 'Expected baseUrl to be an absolute URL, received "/api".'],
    [
      'an ftp base URL',
      { baseUrl: 'ftp://example.com' },
      'Expected baseUrl to use https or http, received ftp.',
    ],
    [
      'a base URL with a query',
      { baseUrl: 'https://example.com/?a=1' },
      'Expected baseUrl without a query or fragment, received "https://example.com/?a=1".',
    ],
    [
      'an empty token',
      { token: '' },
      'Expected token to be an API token of visible ASCII characters, received an empty string.',
    ],
    [
      'an unknown format',
      { format: 'yaml' as 'json' },
      'Expected format to be "json" or "xml", received "yaml".',
    ],
    ['a zero timeout', { timeoutMs: 0 }, 'Expected timeoutMs to be a number of milliseconds above 0'],
    [
      'negative retries',
      { retries: -1 },
      'Expected retries to be a whole number of at least 0, received -1.',
    ],
    [
      'zero attempts',
      { retries: { attempts: 0 } },
      'Expected retries.attempts to be a whole number of at least 1, received 0.',
    ],
    [
      'a longest wait below the first',
      { retries: { baseDelayMs: 500, maxDelayMs: 100 } },
      'Expected retries.maxDelayMs to be at least retries.baseDelayMs (500), received 100.',
    ],
  ])('refuses %s at once', (_case, options, message) => {
    expect(() => createClient({ baseUrl: 'https://example.com', token, ...options })).toThrow(message);
  });

  it('does not echo a malformed token in its error', () => {
    const secretLooking = 'tk_test_secret value';
    expect(() => createClient({ baseUrl: 'https://example.com', token: secretLooking })).toThrow(
      /received a 20-character string with a character that is not visible ASCII\.$/,
    );
    expect(() => createClient({ baseUrl: 'https://example.com', token: secretLooking })).not.toThrow(
      /secret value/,
    );
  });
});
