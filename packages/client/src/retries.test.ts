import { failure, success } from '@topup/envelope';
import type { FailureCode } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, RequestNotAllowedError, TopupApiError } from './api-errors.js';
import { createClient } from './create-client.js';
import { TopupTransportError } from './transport-error.js';
import { rejectionOf } from './testing/rejection.js';
import { airtimeData, balanceData } from './testing/sample-data.js';
import {
  envelopeReply,
  inTurn,
  refusingUrl,
  routingFetch,
  startScriptedServer,
} from './testing/scripted-server.js';
import type { ScriptedReply, ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
const quickRetries = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };
const purchase = {
  mobile: '254733123456',
  amount: 50,
  payment_network: 'MoneyNetA',
  payment_mobile: '254711222333',
} as const;

let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(...replies: ScriptedReply[]): Promise<ScriptedServer> {
  server = await startScriptedServer(inTurn(...replies));
  return server;
}

const gatewayError = envelopeReply(failure('9000', ['provider unavailable']), { status: 502 });
const airtimeSuccess = envelopeReply(success('Airtime purchase requested', airtimeData()));

describe('retries', () => {
  it('retries a 9000 with the same Idempotency-Key and the same body until it succeeds', async () => {
    const service = await serve(gatewayError, gatewayError, airtimeSuccess);
    const result = await createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(
      purchase,
    );
    expect(result.transaction.reference).toBe('TXA3P8L1ZD');
    expect(service.requests).toHaveLength(3);
    const keys = new Set(service.requests.map((request) => request.headers['idempotency-key']));
    expect([...keys]).toStrictEqual([result.idempotencyKey]);
    expect(new Set(service.requests.map((request) => request.body)).size).toBe(1);
  });

  it('retries a dropped connection of an operation with the same Idempotency-Key', async () => {
    const service = await serve({ kind: 'drop' }, airtimeSuccess);
    const result = await createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(
      purchase,
      {
        idempotencyKey: 'order-77',
      },
    );
    expect(result.idempotencyKey).toBe('order-77');
    expect(service.requests.map((request) => request.headers['idempotency-key'])).toStrictEqual([
      'order-77',
      'order-77',
    ]);
  });

  it.each<[FailureCode, number]>([
    ['1000', 400],
    ['2000', 405],
    ['3000', 422],
    ['4000', 401],
    ['5000', 403],
    ['6000', 403],
    ['7000', 402],
    ['8000', 409],
  ])('never retries a %s (HTTP %d)', async (code, status) => {
    const service = await serve(
      envelopeReply(failure(code, ['no'], { operation: 'send_agent_float' }), { status }),
      airtimeSuccess,
    );
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).sendAgentFloat({
        mobile: '254712345678',
        amount: 1500,
      }),
    );
    expect(error).toBeInstanceOf(TopupApiError);
    expect((error as TopupApiError).code).toBe(code);
    expect(service.requests).toHaveLength(1);
  });

  it('never retries an idempotency conflict (5000, HTTP 409 without Retry-After)', async () => {
    const conflict = envelopeReply(failure('5000', ['key used with a different request']), { status: 409 });
    const service = await serve(conflict, airtimeSuccess);
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(purchase),
    );
    expect(error).toBeInstanceOf(RequestNotAllowedError);
    expect(service.requests).toHaveLength(1);
  });

  it('retries a request still in progress (5000, HTTP 409 with Retry-After) and returns the replay', async () => {
    const inProgress = envelopeReply(failure('5000', ['still being processed']), {
      status: 409,
      headers: { 'Retry-After': '0' },
    });
    const replay = envelopeReply(success('Airtime purchase requested', airtimeData()), {
      headers: { 'Idempotency-Replayed': 'true' },
    });
    const service = await serve(inProgress, replay);
    const result = await createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(
      purchase,
    );
    expect(result.replayed).toBe(true);
    expect(service.requests).toHaveLength(2);
  });

  it('does not retry a replayed 9000: the same key gets the same answer', async () => {
    const replayedGatewayError = envelopeReply(failure('9000', ['provider unavailable']), {
      status: 502,
      headers: { 'Idempotency-Replayed': 'true' },
    });
    const service = await serve(replayedGatewayError, airtimeSuccess);
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(purchase),
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ replayed: true });
    expect(service.requests).toHaveLength(1);
  });

  it('honours Retry-After on HTTP 429 before the next attempt', async () => {
    const rateLimited = envelopeReply(failure('5000', ['rate limit exceeded']), {
      status: 429,
      headers: { 'Retry-After': '1' },
    });
    const service = await serve(rateLimited, envelopeReply(success('Balance found', balanceData())));
    const client = createClient({
      baseUrl: service.url,
      token,
      retries: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5000 },
    });
    await client.getBalance();
    const [first, second] = service.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('retries HTTP 429 even for a function that is never repeated once it may have arrived', async () => {
    const rateLimited = envelopeReply(failure('5000', ['rate limit exceeded']), {
      status: 429,
      headers: { 'Retry-After': '0' },
    });
    const rotated = envelopeReply(
      success('ok', { endpoint: { id: 'ep_1', secret: 'whsec_x', previous_secret_valid_for: '86400' } }),
    );
    const service = await serve(rateLimited, rotated);
    const result = await createClient({
      baseUrl: service.url,
      token,
      retries: quickRetries,
    }).rotateCallbackSecret({
      endpoint_id: 'ep_1',
    });
    expect(result.endpoint.id).toBe('ep_1');
    expect(service.requests).toHaveLength(2);
  });

  it('gives up at once when Retry-After asks for longer than the longest wait', async () => {
    const rateLimited = envelopeReply(failure('5000', ['rate limit exceeded']), {
      status: 429,
      headers: { 'Retry-After': '30' },
    });
    const service = await serve(rateLimited, envelopeReply(success('Balance found', balanceData())));
    const started = Date.now();
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).getBalance(),
    );
    expect(error).toBeInstanceOf(RequestNotAllowedError);
    expect(error).toMatchObject({ retryAfterSeconds: 30 });
    expect(service.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries a 9000 answered with HTTP 503 while the store is unreachable', async () => {
    const unavailable = envelopeReply(failure('9000', ['the store is unavailable']), {
      status: 503,
      headers: { 'Retry-After': '0' },
    });
    const service = await serve(unavailable, envelopeReply(success('Balance found', balanceData())));
    const result = await createClient({ baseUrl: service.url, token, retries: quickRetries }).getBalance();
    expect(result.channels).toHaveLength(2);
    expect(service.requests).toHaveLength(2);
  });

  it('stops after the configured number of attempts and throws the last answer', async () => {
    const service = await serve(gatewayError);
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).buyAirtime(purchase),
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect(service.requests).toHaveLength(4);
  });

  it('makes exactly one attempt with retries: 0', async () => {
    const service = await serve(gatewayError, airtimeSuccess);
    await expect(
      createClient({ baseUrl: service.url, token, retries: 0 }).buyAirtime(purchase),
    ).rejects.toThrow(GatewayError);
    expect(service.requests).toHaveLength(1);
  });

  it('counts retries: n as n retries after the first attempt', async () => {
    const service = await serve(gatewayError);
    await expect(createClient({ baseUrl: service.url, token, retries: 2 }).getBalance()).rejects.toThrow(
      GatewayError,
    );
    expect(service.requests).toHaveLength(3);
  }, 15_000);

  it('waits no longer than the longest wait between attempts', async () => {
    const service = await serve(gatewayError);
    const retries = { attempts: 5, baseDelayMs: 200, maxDelayMs: 200 };
    await expect(createClient({ baseUrl: service.url, token, retries }).getBalance()).rejects.toThrow(
      GatewayError,
    );
    const times = service.requests.map((request) => request.receivedAt);
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
    expect(gaps).toHaveLength(4);
    // Scheduling adds a little. Unbounded, the jittered waits would range up to 200, 400, 800 and 1600 ms.
    for (const gap of gaps) expect(gap).toBeLessThan(200 + 150);
  });

  it('does not repeat a change that may have arrived (dropped connection)', async () => {
    const service = await serve({ kind: 'drop' }, envelopeReply(success('ok', { endpoint: { id: 'ep_1' } })));
    const error = await rejectionOf(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).removeCallbackEndpoint({
        endpoint_id: 'ep_1',
      }),
    );
    expect(error).toBeInstanceOf(TopupTransportError);
    expect(error).toMatchObject({ mayHaveReachedServer: true });
    expect(service.requests).toHaveLength(1);
  });

  it('does not repeat a change answered 9000', async () => {
    const service = await serve(gatewayError, envelopeReply(success('ok', { endpoint: { id: 'ep_1' } })));
    await expect(
      createClient({ baseUrl: service.url, token, retries: quickRetries }).addCallbackEndpoint({
        url: 'https://example.com/hook',
      }),
    ).rejects.toThrow(GatewayError);
    expect(service.requests).toHaveLength(1);
  });

  it('repeats a change whose connection was never made', async () => {
    const service = await serve(envelopeReply(success('ok', { endpoint: { id: 'ep_1' } })));
    const refusing = await refusingUrl();
    let calls = 0;
    // The first attempt goes to a closed port, the next to the service.
    const fetchViaClosedPortFirst = routingFetch((url, call) => {
      calls = call;
      return call === 1 ? url.replace(service.url, refusing) : url;
    });
    const client = createClient({
      baseUrl: service.url,
      token,
      retries: quickRetries,
      fetch: fetchViaClosedPortFirst,
    });
    const result = await client.removeCallbackEndpoint({ endpoint_id: 'ep_1' });
    expect(result.endpoint.id).toBe('ep_1');
    expect(calls).toBe(2);
    expect(service.requests).toHaveLength(1);
  });

  it('repeats a read after a dropped connection', async () => {
    const service = await serve({ kind: 'drop' }, envelopeReply(success('Balance found', balanceData())));
    const result = await createClient({ baseUrl: service.url, token, retries: quickRetries }).getBalance();
    expect(result.channels[1]?.balance).toBe('1500.05');
    expect(service.requests).toHaveLength(2);
  });

  it('stops waiting and rejects with the caller’s reason when the signal aborts between attempts', async () => {
    const service = await serve(gatewayError);
    const controller = new AbortController();
    const retries = { attempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 };
    const call = createClient({ baseUrl: service.url, token, retries }).sendAgentFloat(
      { mobile: '254712345678', amount: 1500 },
      { signal: controller.signal },
    );
    const reason = new Error('caller gave up');
    setTimeout(() => {
      controller.abort(reason);
    }, 100);
    const started = Date.now();
    await expect(call).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(service.requests.length).toBeLessThanOrEqual(2);
  });
});
