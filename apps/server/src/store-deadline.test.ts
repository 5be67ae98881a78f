import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger, Queryable, Store } from '@topup/ledger';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreBudget, StoreDeadlineExceeded, ledgerWithinBudget } from './store-deadline.js';
import { isStoreUnavailable } from './store-errors.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

/** A ledger whose `balance` takes `ms` to answer, counting the calls that reached it. */
function slowLedger(ms: number) {
  const reached = { calls: 0 };
  const ledger = {
    async balance() {
      reached.calls += 1;
      await sleep(ms);
      return 'balance';
    },
  } as unknown as Ledger;
  return { ledger, reached };
}

/** The slow ledger as one request with `deadlineMs` of store time sees it. */
function withinDeadline(deadlineMs: number, ledger: Ledger) {
  const budget = new StoreBudget(deadlineMs);
  return { budget, ledger: ledgerWithinBudget(ledger, budget) };
}

describe('the store deadline of a request', () => {
  it('fails a store call still unanswered when the request’s store time runs out', async () => {
    const { ledger } = withinDeadline(100, slowLedger(1_000).ledger);
    const started = Date.now();
    const failed = ledger.balance('a', 'float');
    await expect(failed).rejects.toBeInstanceOf(StoreDeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(500);
    await expect(failed).rejects.toSatisfy(isStoreUnavailable);
  });

  it('charges only the time spent waiting on the store, not the time between calls', async () => {
    const { ledger } = withinDeadline(200, slowLedger(40).ledger);
    const first = await ledger.balance('a', 'float');
    // A slow provider in between: bounded by its own timeout, not by the store deadline.
    await sleep(300);
    const second = await ledger.balance('a', 'float');
    expect([first, second]).toEqual(['balance', 'balance']);
  });

  it('keeps counting a store call its caller stopped waiting for, until it ends', async () => {
    const { ledger } = withinDeadline(300, slowLedger(1_000).ledger);
    const started = Date.now();
    // As a submission given up at the provider timeout: the caller moves on, the call holds the store.
    const given = await Promise.race([ledger.balance('a', 'float'), sleep(100, 'given up')]);
    expect(given).toBe('given up');
    await expect(ledger.balance('a', 'float')).rejects.toBeInstanceOf(StoreDeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('counts store calls that overlap once', async () => {
    const { ledger } = withinDeadline(250, slowLedger(150).ledger);
    const answers = await Promise.all([ledger.balance('a', 'float'), ledger.balance('a', 'airtime')]);
    expect(answers).toEqual(['balance', 'balance']);
  });

  it('refuses to start a store call once the request’s store time is spent', async () => {
    const slow = slowLedger(150);
    const { ledger, budget } = withinDeadline(100, slow.ledger);
    await expect(ledger.balance('a', 'float')).rejects.toBeInstanceOf(StoreDeadlineExceeded);
    await expect(ledger.balance('a', 'float')).rejects.toBeInstanceOf(StoreDeadlineExceeded);
    expect(slow.reached.calls).toBe(1);
    expect(budget.signal.aborted).toBe(true);
  });

  it('charges each request to its own budget, and a renewed budget starts untouched', async () => {
    const slow = slowLedger(80);
    const spent = withinDeadline(100, slow.ledger);
    await spent.ledger.balance('a', 'float');
    await expect(spent.ledger.balance('a', 'float')).rejects.toBeInstanceOf(StoreDeadlineExceeded);
    const other = withinDeadline(100, slow.ledger);
    await expect(other.ledger.balance('a', 'float')).resolves.toBe('balance');
    const renewed = ledgerWithinBudget(slow.ledger, spent.budget.renewed());
    await expect(renewed.balance('a', 'float')).resolves.toBe('balance');
  });
});

/**
 * Makes `store` stop answering, as a database behind a black hole does: every query and transaction
 * waits until `restore`, then runs.
 */
function silence(store: Store): { restore(): void } {
  const answering = { query: store.query.bind(store), transaction: store.transaction.bind(store) };
  let restore: () => void = () => undefined;
  const restored = new Promise<void>((resolve) => (restore = resolve));
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- see Queryable
  store.query = async <R>(sql: string, params?: readonly unknown[]) => {
    await restored;
    return answering.query<R>(sql, params);
  };
  store.transaction = async <T>(fn: (tx: Queryable) => Promise<T>) => {
    await restored;
    return answering.transaction(fn);
  };
  return {
    restore() {
      store.query = answering.query;
      store.transaction = answering.transaction;
      restore();
    },
  };
}

const floatRequest = { mobile: '254712000009', amount: '100', agent_number: '1', store_number: '2' };

describe.each(openTestStores())('a store that stops answering, on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeEach(async () => {
    store = await stores.open();
    service = await startTestService(store, { env: { STORE_DEADLINE_MS: '300', AUTH_CACHE_MS: '60000' } });
  });

  afterEach(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('answers 9000/503 with Retry-After at the request’s store deadline, and fails /readyz within 2 s', async () => {
    const { token } = await service.createCaller({ float: 1_000_000n });
    expect((await service.call('get_balance', { token })).status).toBe(200);
    const silent = silence(store);
    try {
      for (const name of ['get_balance', 'send_agent_float']) {
        const started = Date.now();
        const response = await service.call(name, { token, json: floatRequest });
        expect(Date.now() - started).toBeLessThan(1_000);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        const envelope = await envelopeOf(response);
        expect(envelope.status.code).toBe('9000');
        expect(envelope.data.errors).toEqual(['the store is unavailable; try again shortly']);
      }
      const started = Date.now();
      const ready = await fetch(`${service.url}/readyz`);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { store: 'unavailable' } });
    } finally {
      silent.restore();
    }
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
  });

  it('withdraws a money request still queued at its deadline; one already sent may still commit', async () => {
    const { account, token } = await service.createCaller({ float: 1_000_000n });
    expect((await service.call('get_balance', { token })).status).toBe(200);
    const silent = silence(store);
    const send = (key: string) =>
      service.call('send_agent_float', { token, json: floatRequest, headers: { 'Idempotency-Key': key } });
    // The first request's batch is sent and waits on the store; the second queues behind it.
    const sent = send('in-doubt');
    await sleep(100);
    const queued = send('withdrawn');
    expect([(await sent).status, (await queued).status]).toEqual([503, 503]);
    silent.restore();

    // The batch that was sent commits once the store answers again; the queued request was never applied.
    const keys = async () =>
      (
        await store.query<{ key: string }>(
          'SELECT key FROM idempotency_keys WHERE account_id = $1 ORDER BY key',
          [account.id],
        )
      ).rows.map((row) => row.key);
    await eventually('the batch sent before the silence to commit', async () =>
      (await keys()).length > 0 ? true : undefined,
    );
    await sleep(100);
    expect(await keys()).toEqual(['in-doubt']);
    // A retry with the same key tells what happened: each key ends with one transaction, answered 0000.
    const retries = await Promise.all([send('in-doubt'), send('withdrawn')]);
    expect(
      await Promise.all(retries.map(async (response) => (await envelopeOf(response)).status.code)),
    ).toEqual(['0000', '0000']);
    const { rows } = await store.query<{ transactions: number }>(
      'SELECT count(*)::int AS transactions FROM transactions WHERE account_id = $1',
      [account.id],
    );
    expect(rows).toEqual([{ transactions: 2 }]);
  });
});
