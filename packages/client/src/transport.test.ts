import { success } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './create-client.js';
import { TopupTransportError } from './transport-error.js';
import { rejectionOf } from './testing/rejection.js';
import { balanceData } from './testing/sample-data.js';
import {
  envelopeReply,
  inTurn,
  refusingUrl,
  routingFetch,
  startScriptedServer,
} from './testing/scripted-server.js';
import type { ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
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

async function transportErrorOf(promise: Promise<unknown>): Promise<TopupTransportError> {
  const error = await rejectionOf(promise);
  if (error instanceof TopupTransportError) return error;
  throw new Error(`Expected a TopupTransportError, received ${String(error)}.`);
}

describe('transport failures', () => {
  it('says the request never reached the service when the connection is refused', async () => {
    const baseUrl = await refusingUrl();
    const error = await transportErrorOf(createClient({ baseUrl, token, retries: 0 }).buyAirtime(purchase));
    expect(error.mayHaveReachedServer).toBe(false);
    expect(error.message).toBe(
      `Expected an answer from ${baseUrl}/api/buy_airtime, received a network failure (ECONNREFUSED: connect ECONNREFUSED ${baseUrl.slice(7)}).`,
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a refused connection and still says it never reached the service', async () => {
    const baseUrl = await refusingUrl();
    let attempts = 0;
    const countingFetch: typeof fetch = (input, init) => {
      attempts += 1;
      return fetch(input, init);
    };
    const client = createClient({
      baseUrl,
      token,
      retries: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      fetch: countingFetch,
    });
    const error = await transportErrorOf(client.addCallbackEndpoint({ url: 'https://example.com/hook' }));
    expect(error.mayHaveReachedServer).toBe(false);
    expect(attempts).toBe(3);
  });

  it('says the request may have reached the service when the connection drops after sending it', async () => {
    server = await startScriptedServer(() => ({ kind: 'drop' }));
    const error = await transportErrorOf(
      createClient({ baseUrl: server.url, token, retries: 0 }).buyAirtime(purchase, {
        idempotencyKey: 'order-9',
      }),
    );
    expect(error.mayHaveReachedServer).toBe(true);
    expect(error.idempotencyKey).toBe('order-9');
    expect(error.message).toMatch(/received a network failure \(UND_ERR_SOCKET: other side closed\)\.$/);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps saying it may have reached the service when a later attempt is refused', async () => {
    server = await startScriptedServer(() => ({ kind: 'drop' }));
    const service = server;
    const refusing = await refusingUrl();
    let calls = 0;
    const fetchDroppedThenRefused = routingFetch((url, call) => {
      calls = call;
      return call === 1 ? url : url.replace(service.url, refusing);
    });
    const client = createClient({
      baseUrl: service.url,
      token,
      retries: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
      fetch: fetchDroppedThenRefused,
    });
    const error = await transportErrorOf(client.buyAirtime(purchase));
    expect(calls).toBe(2);
    expect(error.mayHaveReachedServer).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED.*An earlier attempt may have reached the service\.$/);
  });

  it('times out an attempt that gets no answer', async () => {
    server = await startScriptedServer(() => ({ kind: 'hang' }));
    const started = Date.now();
    const error = await transportErrorOf(
      createClient({ baseUrl: server.url, token, timeoutMs: 150, retries: 0 }).getBalance(),
    );
    const elapsed = Date.now() - started;
    expect(error.mayHaveReachedServer).toBe(true);
    expect(error.message).toBe(
      `Expected an answer from ${server.url}/api/get_balance within 150 ms, received none in time.`,
    );
    expect((error.cause as Error).name).toBe('TimeoutError');
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2000);
  });

  it('times out a slow answer and retries a read within its own time limit', async () => {
    server = await startScriptedServer(
      inTurn(
        { ...envelopeReply(success('Balance found', balanceData())), delayMs: 1000 },
        envelopeReply(success('Balance found', balanceData())),
      ),
    );
    const client = createClient({
      baseUrl: server.url,
      token,
      timeoutMs: 10_000,
      retries: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const result = await client.getBalance({}, { timeoutMs: 100 });
    expect(result.channels).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('reports an answer that is not an envelope with its HTTP status', async () => {
    server = await startScriptedServer(() => ({
      kind: 'answer',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: '<html><body>Bad gateway</body></html>',
    }));
    const error = await transportErrorOf(
      createClient({ baseUrl: server.url, token, retries: 0 }).getBalance(),
    );
    expect(error.mayHaveReachedServer).toBe(true);
    expect(error.httpStatus).toBe(502);
    expect(error.message).toMatch(
      new RegExp(
        `^Expected a Topup envelope from ${server.url}/api/get_balance, received HTTP 502 with a body that is not one\\. Expected the root element <xml>, received <html>\\.$`,
      ),
    );
  });

  it('does not follow a redirect', async () => {
    server = await startScriptedServer(() => ({
      kind: 'answer',
      status: 307,
      headers: { Location: 'https://elsewhere.example/api/buy_airtime' },
      body: '',
    }));
    const error = await transportErrorOf(
      createClient({ baseUrl: server.url, token, retries: 0 }).buyAirtime(purchase),
    );
    expect(error.httpStatus).toBe(307);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with the caller’s reason when the signal aborts during an attempt', async () => {
    server = await startScriptedServer(() => ({ kind: 'hang' }));
    const controller = new AbortController();
    const call = createClient({ baseUrl: server.url, token }).getBalance({}, { signal: controller.signal });
    const reason = new Error('shutting down');
    setTimeout(() => {
      controller.abort(reason);
    }, 50);
    await expect(call).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });
});
