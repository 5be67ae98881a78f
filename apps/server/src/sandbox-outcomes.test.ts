// The sandbox outcomes that cancel a transaction, driven through the API with the worker running, as a
// caller meets them: the synchronous answer, the transaction's state, the balance, and the FAIL/8000
// cancellation callback with the reason and the full transaction data (docs/architecture.md, Codes and HTTP statuses; Providers).

import { decodeJsonEnvelope } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { verifyCallback } from '@topup/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from './testing/callback-sink.js';
import type { ArrivedCallback } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

interface Case {
  readonly name: string;
  readonly operation: 'send_agent_float' | 'buy_airtime';
  readonly request: Readonly<Record<string, string>>;
  readonly httpStatus: number;
  readonly code: string;
  readonly message: string;
  readonly reason: string;
}

const float = (mobile: string) => ({ mobile, amount: '250', agent_number: '300300', store_number: '400400' });
const airtime = (payer: string, recipient = '254733000123') => ({
  mobile: recipient,
  amount: '50',
  payment_network: 'MoneyNetB',
  payment_mobile: payer,
});

const cancelledAtOnce: readonly Case[] = [
  {
    name: 'a float refused at once (0003)',
    operation: 'send_agent_float',
    request: float('254712340003'),
    httpStatus: 409,
    code: '8000',
    message: 'Agent Float Cancelled',
    reason: 'refused by the provider',
  },
  {
    name: 'a purchase whose payer is refused at once (0003)',
    operation: 'buy_airtime',
    request: airtime('254722000003'),
    httpStatus: 409,
    code: '8000',
    message: 'Purchase Cancelled',
    reason: 'refused by the provider',
  },
  {
    name: 'a float whose provider is unavailable (0004)',
    operation: 'send_agent_float',
    request: float('254712340004'),
    httpStatus: 502,
    code: '9000',
    message: 'Gateway Error',
    reason: 'provider unavailable',
  },
  {
    name: 'a purchase whose recipient’s carrier is unavailable (0004)',
    operation: 'buy_airtime',
    request: airtime('254722000123', '254733000004'),
    httpStatus: 502,
    code: '9000',
    message: 'Gateway Error',
    reason: 'provider unavailable',
  },
];

describe.each(openTestStores())('sandbox cancellations through the API on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    // A transaction the provider never answers is cancelled after two seconds instead of ten minutes.
    service = await startTestService(store, {
      worker: true,
      env: { TRANSACTION_TIMEOUT: '2', PROVIDER_TIMEOUT_MS: '200', STORE_DEADLINE_MS: '800' },
    });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  /** A funded caller whose only endpoint is a fresh sink, so every callback there is theirs. */
  async function callerWithSink() {
    const caller = await service.createCaller({ float: 1_000_000n, airtime: 1_000_000n });
    const sink = await startCallbackSink();
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', { token: caller.token, json: { url: sink.url } }),
    );
    const { secret } = added.data.endpoint as { secret: string };
    return { ...caller, sink, secret };
  }

  async function cancellationCallback(sink: { arrived: readonly ArrivedCallback[] }, secret: string) {
    const callback = await eventually('the cancellation callback', () => sink.arrived[0], 15_000);
    const headers = Object.fromEntries(
      Object.entries(callback.headers).map(([name, value]) => [name, String(value)]),
    );
    expect(verifyCallback({ secrets: [secret], headers, body: callback.body }).ok).toBe(true);
    return decodeJsonEnvelope(callback.body);
  }

  it.each(cancelledAtOnce)(
    'cancels $name: answered $code, nothing charged, announced with FAIL/8000',
    async ({ operation, request, httpStatus, code, message, reason }) => {
      const caller = await callerWithSink();
      try {
        const channel = operation === 'send_agent_float' ? 'float' : 'airtime';
        const before = await service.ledger.balance(caller.account.id, channel);
        const response = await service.call(operation, { token: caller.token, json: request });
        expect(response.status).toBe(httpStatus);
        expect((await envelopeOf(response)).status).toEqual({ type: 'FAIL', code, message });

        const callback = await cancellationCallback(caller.sink, caller.secret);
        expect(callback.status).toEqual({
          type: 'FAIL',
          code: '8000',
          message: operation === 'send_agent_float' ? 'Agent Float Cancelled' : 'Purchase Cancelled',
        });
        expect(callback.data.errors).toEqual([reason]);
        const transaction = (callback.data as { transaction?: Record<string, string> }).transaction ?? {};
        expect(transaction).toMatchObject({
          status: 'Cancelled',
          state: 'cancelled',
          amount: request.amount,
        });
        expect((callback.data as { recipient?: { mobile?: string } }).recipient?.mobile).toBe(request.mobile);

        const found = await envelopeOf(
          await service.call('get_transaction', {
            token: caller.token,
            json: { reference: transaction.reference },
          }),
        );
        expect(found.data.transaction).toMatchObject({
          reference: transaction.reference,
          state: 'cancelled',
        });
        expect(await service.ledger.balance(caller.account.id, channel)).toEqual(before);
        expect(caller.sink.arrived).toHaveLength(1);
      } finally {
        await caller.sink.close();
      }
    },
    30_000,
  );

  it('cancels a purchase whose payer never answers (0002) once the timeout passes, with FAIL/8000', async () => {
    const caller = await callerWithSink();
    try {
      const before = await service.ledger.balance(caller.account.id, 'airtime');
      const response = await service.call('buy_airtime', {
        token: caller.token,
        json: airtime('254722000002'),
      });
      expect(response.status).toBe(200);
      const accepted = await envelopeOf(response);
      expect(accepted.status.code).toBe('0000');
      const { reference } = accepted.data.transaction as { reference: string };

      const callback = await cancellationCallback(caller.sink, caller.secret);
      expect(callback.status).toEqual({ type: 'FAIL', code: '8000', message: 'Purchase Cancelled' });
      expect(callback.data.errors).toEqual(['no result from the provider within the timeout']);
      expect((callback.data as { transaction?: Record<string, string> }).transaction).toMatchObject({
        reference,
        state: 'cancelled',
      });
      const found = await envelopeOf(
        await service.call('get_transaction', { token: caller.token, json: { reference } }),
      );
      expect(found.data.transaction).toMatchObject({ reference, state: 'cancelled', status: 'Cancelled' });
      expect(await service.ledger.balance(caller.account.id, 'airtime')).toEqual(before);
    } finally {
      await caller.sink.close();
    }
  }, 30_000);
});
