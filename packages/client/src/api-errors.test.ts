import { failure, statusCodes } from '@topup/envelope';
import type { FailureCode } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GatewayError,
  InsufficientBalanceError,
  InvalidAccountError,
  InvalidApiRequestError,
  InvalidParametersError,
  InvalidRequestMethodError,
  InvalidTokenError,
  RequestNotAllowedError,
  TopupApiError,
  TransactionCancelledError,
} from './api-errors.js';
import { createClient } from './create-client.js';
import { rejectionOf } from './testing/rejection.js';
import { envelopeReply, startScriptedServer } from './testing/scripted-server.js';
import type { ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cases: [FailureCode, new (...args: never[]) => TopupApiError][] = [
  ['1000', InvalidApiRequestError],
  ['2000', InvalidRequestMethodError],
  ['3000', InvalidParametersError],
  ['4000', InvalidTokenError],
  ['5000', RequestNotAllowedError],
  ['6000', InvalidAccountError],
  ['7000', InsufficientBalanceError],
  ['8000', TransactionCancelledError],
  ['9000', GatewayError],
];

describe('typed API errors', () => {
  it.each(cases)('turns a %s envelope into %o with its fields', async (code, errorClass) => {
    const { httpStatus } = statusCodes[code];
    const errors = [`problem of ${code}`, 'second problem'];
    server = await startScriptedServer(() =>
      envelopeReply(failure(code, errors, { operation: 'buy_airtime' }), {
        status: httpStatus,
        headers: { 'X-Request-Id': `req_${code}` },
      }),
    );
    const client = createClient({ baseUrl: server.url, token, retries: 0 });
    const error = await rejectionOf(
      client.buyAirtime(
        { mobile: '254733123456', amount: 50, payment_network: 'MoneyNetA', payment_mobile: '254711222333' },
        { idempotencyKey: 'key-1' },
      ),
    );
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(TopupApiError);
    expect(error).toMatchObject({
      name: errorClass.name,
      code,
      httpStatus,
      message: code === '8000' ? 'Purchase Cancelled' : statusCodes[code].message,
      errors,
      requestId: `req_${code}`,
      retryAfterSeconds: undefined,
      replayed: false,
      idempotencyKey: 'key-1',
    });
  });

  it('carries Retry-After of a rate-limited 5000 as retryAfterSeconds', async () => {
    server = await startScriptedServer(() =>
      envelopeReply(failure('5000', ['rate limit exceeded']), {
        status: 429,
        headers: { 'Retry-After': '7' },
      }),
    );
    const client = createClient({ baseUrl: server.url, token, retries: 0 });
    const error = await rejectionOf(client.getBalance());
    expect(error).toBeInstanceOf(RequestNotAllowedError);
    expect(error).toMatchObject({ httpStatus: 429, retryAfterSeconds: 7 });
  });

  it('marks a failure the service replayed for the same key', async () => {
    server = await startScriptedServer(() =>
      envelopeReply(failure('8000', ['refused'], { operation: 'send_agent_float' }), {
        status: 409,
        headers: { 'Idempotency-Replayed': 'true' },
      }),
    );
    const client = createClient({ baseUrl: server.url, token });
    const error = await rejectionOf(client.sendAgentFloat({ mobile: '254712345678', amount: 1500 }));
    expect(error).toBeInstanceOf(TransactionCancelledError);
    expect(error).toMatchObject({ replayed: true, message: 'Agent Float Cancelled' });
  });

  it('narrows on the literal code', async () => {
    server = await startScriptedServer(() => envelopeReply(failure('3000', ["'mobile is required.'"])));
    const error = await rejectionOf(createClient({ baseUrl: server.url, token }).getBalance());
    if (!(error instanceof TopupApiError)) throw new Error('Expected a TopupApiError.');
    const narrowed: '3000' | undefined = error instanceof InvalidParametersError ? error.code : undefined;
    expect(narrowed).toBe('3000');
    expect(Object.isFrozen(error.errors)).toBe(true);
  });
});
