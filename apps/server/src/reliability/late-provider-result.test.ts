// Fault 4, the clock: a transaction the provider never answers is cancelled by the worker's timeout; a
// provider result that arrives after that contradicts the cancellation: it is recorded (acknowledged,
// logged at error, its leg in review with the result as evidence) and never applied. Through the HTTP API, with the worker in the same process, on each store.

import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { captureLogs } from '../testing/log-capture.js';
import type { LogCapture } from '../testing/log-capture.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

describe.each(openTestStores())('a provider result after the timeout, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let sink: CallbackSink;
  let logs: LogCapture;

  beforeAll(async () => {
    store = await stores.open();
    sink = await startCallbackSink();
    logs = captureLogs('info');
    service = await startTestService(store, {
      worker: true,
      logger: logs.logger,
      // The shortest timeout the configuration takes: twice a request's longest life.
      env: { TRANSACTION_TIMEOUT: '2', PROVIDER_TIMEOUT_MS: '200', STORE_DEADLINE_MS: '800' },
    });
  });

  afterAll(async () => {
    await service.stop();
    await sink.close();
    await stores.close(store);
  });

  it('resolves the transaction once, by the timeout, and records the late result without applying it', async () => {
    const { account, token } = await service.createCaller({ float: 1_000_000n });
    await service.ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json', description: '' });
    const before = await service.ledger.balance(account.id, 'float');
    // The sandbox never answers for a number ending in 0002.
    const answer = await envelopeOf(
      await service.call('send_agent_float', {
        token,
        json: { mobile: '254712340002', amount: '500', agent_number: '300300', store_number: '400400' },
      }),
    );
    expect(answer.status.code).toBe('0000');
    const reference = (answer.data.transaction as { reference: string }).reference;
    const cancelled = await eventually(
      'the timeout to cancel the transaction',
      async () => {
        const transaction = await service.ledger.findTransaction(reference);
        return transaction?.state === 'cancelled' ? transaction : undefined;
      },
      15_000,
    );

    await store.query(
      `INSERT INTO provider_simulator_jobs (reference, outcome, provider_code, due_at)
       VALUES ($1, 'completes', 'LATE-RESULT-1', now())`,
      [reference],
    );
    await eventually('the late result to be taken', async () => {
      const { rows } = await store.query(
        'SELECT reference FROM provider_simulator_jobs WHERE reference = $1',
        [reference],
      );
      return rows.length === 0 ? true : undefined;
    });

    expect(await service.ledger.findTransaction(reference)).toEqual(cancelled);
    expect(await service.ledger.listUnappliedResolutions({ reference })).toEqual([
      expect.objectContaining({ asked: 'completed', state: 'cancelled', providerCode: 'LATE-RESULT-1' }),
    ]);
    expect(await service.ledger.balance(account.id, 'float')).toEqual(before);
    const { rows: transfers } = await store.query<{ kind: string }>(
      'SELECT kind FROM transfers WHERE reference = $1 ORDER BY id',
      [reference],
    );
    expect(transfers.map((transfer) => transfer.kind)).toEqual(['pending', 'void']);
    const recorded = logs
      .records()
      .filter((line) => line.reference === reference && line.providerCode === 'LATE-RESULT-1');
    expect(recorded).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'provider result contradicts what is recorded: nothing moved; it waits for an operator (topup legs unresolved)',
      }),
    ]);
    const [waiting] = (await service.ledger.legsForReview()).filter((leg) => leg.reference === reference);
    expect(waiting).toMatchObject({ kind: 'disbursement', state: 'failed', reviewReason: 'contradiction' });
    expect(waiting?.reviewEvidence).toEqual([
      expect.objectContaining({ outcome: 'succeeded', recorded: 'cancelled', providerCode: 'LATE-RESULT-1' }),
    ]);
    const callbacks = await eventually('the cancellation callback', () =>
      sink.arrived.length > 0 ? sink.arrived : undefined,
    );
    expect(callbacks.map((callback) => JSON.parse(callback.body) as { status: { code: string } })).toEqual([
      expect.objectContaining({ status: expect.objectContaining({ code: '8000' }) as unknown }),
    ]);
    const viewed = await envelopeOf(await service.call('get_transaction', { token, json: { reference } }));
    expect(viewed.data.transaction).toMatchObject({ status: 'Cancelled', state: 'cancelled' });
  }, 60_000);

  it('records the payment and its refund when a failure after payment comes for a purchase the timeout cancelled', async () => {
    const { account, token } = await service.createCaller();
    // The payer of a number ending in 0002 never answers, so the timeout cancels with nothing collected.
    const answer = await envelopeOf(
      await service.call('buy_airtime', {
        token,
        json: {
          mobile: '254733000123',
          amount: '80',
          payment_network: 'MoneyNetA',
          payment_mobile: '254722000002',
        },
      }),
    );
    expect(answer.status.code).toBe('0000');
    const reference = (answer.data.transaction as { reference: string }).reference;
    await eventually(
      'the timeout to cancel the purchase',
      async () =>
        (await service.ledger.findTransaction(reference))?.state === 'cancelled' ? true : undefined,
      15_000,
    );

    await store.query(
      `INSERT INTO provider_simulator_jobs (reference, outcome, provider_code, due_at)
       VALUES ($1, 'fails_after_payment', 'LATE-PAID-1', now())`,
      [reference],
    );
    const transfers = await eventually('the payment and its refund to be posted', async () => {
      const { rows } = await store.query<{ purpose: string; amount: string }>(
        'SELECT purpose, amount::text AS amount FROM transfers WHERE reference = $1 ORDER BY id',
        [reference],
      );
      return rows.length > 0 ? rows : undefined;
    });
    expect(transfers).toEqual([
      { purpose: 'airtime_collection', amount: '8000' },
      { purpose: 'airtime_refund', amount: '8000' },
    ]);
    expect(await service.ledger.balance(account.id, 'airtime')).toMatchObject({ postedMinor: 0n });
    expect(await service.ledger.listUnappliedResolutions({ reference })).toEqual([]);
    expect((await service.ledger.verify()).ok).toBe(true);
  }, 60_000);
});
