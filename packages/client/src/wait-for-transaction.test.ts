import { failure, success, successMessages } from '@topup/envelope';
import type { TransactionState } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParametersError } from './api-errors.js';
import { createClient } from './create-client.js';
import { rejectionOf } from './testing/rejection.js';
import { agentFloatData } from './testing/sample-data.js';
import { envelopeReply, inTurn, startScriptedServer } from './testing/scripted-server.js';
import type { ScriptedReply, ScriptedServer } from './testing/scripted-server.js';
import { TransactionWaitError } from './transaction-wait-error.js';
import { lookDelayMs } from './wait-for-transaction.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
const reference = 'TXF7K2M9QA';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `get_transaction`'s answer for the transaction in `state`. */
function found(state: TransactionState): ScriptedReply {
  const data = agentFloatData(reference);
  const status = state === 'cancelled' ? 'Cancelled' : 'Requested';
  return envelopeReply(
    success(successMessages.transactionFound, {
      ...data,
      transaction: { ...data.transaction, state, status },
      legs: [],
    }),
  );
}

describe('waitForTransaction', () => {
  it('asks get_transaction until the transaction ends, and resolves with that answer', async () => {
    server = await startScriptedServer(inTurn(found('requested'), found('requested'), found('completed')));
    const topup = createClient({ baseUrl: server.url, token });
    const ended = await topup.waitForTransaction(reference, { intervalMs: 10 });
    expect(ended.transaction).toMatchObject({ reference, state: 'completed' });
    expect(ended.message).toBe('Transaction found');
    expect(server.requests.map((request) => [request.path, request.body])).toStrictEqual(
      Array(3).fill(['/api/get_transaction', `{"reference":"${reference}"}`]),
    );
  });

  it('resolves at once with a transaction already cancelled', async () => {
    server = await startScriptedServer(inTurn(found('cancelled')));
    const topup = createClient({ baseUrl: server.url, token });
    expect((await topup.waitForTransaction(reference)).transaction.state).toBe('cancelled');
    expect(server.requests).toHaveLength(1);
  });

  it('waits longer between each look, up to the longest interval', async () => {
    server = await startScriptedServer(
      inTurn(...Array<ScriptedReply>(5).fill(found('requested')), found('completed')),
    );
    const topup = createClient({ baseUrl: server.url, token });
    await topup.waitForTransaction(reference, { intervalMs: 40, maxIntervalMs: 160 });
    const gaps = server.requests
      .slice(1)
      .map((request, index) => request.receivedAt - (server?.requests[index]?.receivedAt ?? 0));
    // Each wait is at least half its bound: 40, 80, 160, then 160 again.
    expect(gaps.map((gap, look) => gap >= Math.min(160, 40 * 2 ** look) / 2)).toStrictEqual(
      Array(5).fill(true),
    );
  });

  it('rejects with a TransactionWaitError naming the transaction and its last state when the time runs out', async () => {
    server = await startScriptedServer(() => found('requested'));
    const topup = createClient({ baseUrl: server.url, token });
    const started = Date.now();
    const error = await rejectionOf(topup.waitForTransaction(reference, { timeoutMs: 300, intervalMs: 20 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(TransactionWaitError);
    expect(error).toMatchObject({
      reason: 'timeout',
      reference,
      transaction: { transaction: { state: 'requested' } },
    });
    expect(String(error)).toContain(
      `Expected transaction ${reference} to end within 300 ms; it was still requested.`,
    );
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it('gives up a look still unanswered at the deadline as a timeout, not a transport failure', async () => {
    server = await startScriptedServer(() => ({ kind: 'hang' }));
    const topup = createClient({ baseUrl: server.url, token });
    const error = await rejectionOf(topup.waitForTransaction(reference, { timeoutMs: 200 }));
    expect(error).toMatchObject({ name: 'TransactionWaitError', reason: 'timeout', transaction: undefined });
  });

  it('rejects with a TransactionWaitError carrying the reason when the signal aborts', async () => {
    server = await startScriptedServer(() => found('requested'));
    const topup = createClient({ baseUrl: server.url, token });
    const controller = new AbortController();
    const waiting = topup.waitForTransaction(reference, { signal: controller.signal, intervalMs: 10_000 });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('shutting down'));
    const error = await rejectionOf(waiting);
    expect(error).toMatchObject({ reason: 'aborted', reference, cause: new Error('shutting down') });
    expect(String(error)).toContain(`Stopped waiting for transaction ${reference}: the signal aborted.`);

    const before = server.requests.length;
    const early = await rejectionOf(topup.waitForTransaction(reference, { signal: AbortSignal.abort() }));
    expect(early).toMatchObject({ reason: 'aborted', transaction: undefined });
    expect(server.requests).toHaveLength(before);
  });

  it("rejects with the service's error for a reference that is not the caller's", async () => {
    server = await startScriptedServer(() =>
      envelopeReply(failure('3000', ["'reference is invalid'"]), { status: 422 }),
    );
    const topup = createClient({ baseUrl: server.url, token });
    const error = await rejectionOf(topup.waitForTransaction('TXNOTMINE'));
    expect(error).toBeInstanceOf(InvalidParametersError);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a wait that is not a positive number of milliseconds', async () => {
    const topup = createClient({ baseUrl: 'http://127.0.0.1:9', token });
    await expect(topup.waitForTransaction(reference, { timeoutMs: 0 })).rejects.toThrow(TypeError);
    await expect(topup.waitForTransaction(reference, { intervalMs: Number.NaN })).rejects.toThrow(
      /intervalMs/,
    );
  });
});

describe('lookDelayMs', () => {
  it('doubles its bound after each look up to the longest, drawing between half the bound and the bound', () => {
    expect([0, 1, 2, 3, 6].map((look) => lookDelayMs(look, 500, 10_000, () => 0))).toStrictEqual([
      250, 500, 1_000, 2_000, 5_000,
    ]);
    expect(lookDelayMs(0, 500, 10_000, () => 0.999)).toBe(499);
    expect(lookDelayMs(20, 500, 10_000, () => 0.999)).toBe(9_995);
  });
});
