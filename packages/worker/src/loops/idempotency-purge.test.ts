import { createLedger } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { startWorker } from '../start-worker.js';
import { eventually } from '../testing/scenario.js';
import { openTestStore, testStoreKinds } from '../testing/test-stores.js';
import type { TestStore } from '../testing/test-stores.js';
import { purgeExpiredIdempotencyKeys } from './idempotency-purge.js';

const silent = pino({ level: 'silent' });
const dayAndAMinuteMs = (24 * 60 + 1) * 60_000;

describe.each(testStoreKinds())('the idempotency purge of a running worker on %s', (kind) => {
  let testStore: TestStore;
  let store: Store;
  let ledger: Ledger;

  beforeAll(async () => {
    testStore = await openTestStore(kind);
    store = testStore.store;
    ledger = createLedger(store);
  });

  afterAll(async () => {
    await ledger.close();
    await testStore.dispose();
  });

  function start(settings: { idempotencyPurgeIntervalMs: number; idempotencyPurgeLimit?: number }) {
    const worker = startWorker({
      store,
      ledger,
      providers: routeEveryNetworkTo(createSandboxSimulator(store, { delayMs: 0 })),
      logger: silent,
      settings: {
        mode: 'sandbox',
        transactionTimeoutSeconds: 600,
        retryScheduleSeconds: [0],
        providerTimeoutMs: 10_000,
        ...settings,
      },
    });
    onTestFinished(() => worker.stop());
    return worker;
  }

  async function insertKey(accountId: string, key: string, createdAt: Date): Promise<void> {
    await store.query(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, reference, created_at)
       VALUES ($1, $2, 'hash', 'TX-none', $3::timestamptz)`,
      [accountId, key, createdAt.toISOString()],
    );
  }

  async function keysOf(accountId: string): Promise<string[]> {
    const { rows } = await store.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE account_id = $1 ORDER BY key',
      [accountId],
    );
    return rows.map((row) => row.key);
  }

  it('deletes a key expired after the worker started, within a round, and keeps a young one', async () => {
    const account = await ledger.createAccount({ name: 'Purged Ltd' });
    start({ idempotencyPurgeIntervalMs: 50 });
    await insertKey(account.id, 'expired', new Date(Date.now() - dayAndAMinuteMs));
    await insertKey(account.id, 'young', new Date());
    await eventually('the expired key to be purged', async () => {
      const keys = await keysOf(account.id);
      return keys.includes('expired') ? undefined : keys;
    });
    expect(await keysOf(account.id)).toEqual(['young']);
  });

  it('purges again at once while a round fills its limit, without waiting for the interval', async () => {
    const account = await ledger.createAccount({ name: 'Batched Purge Ltd' });
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      await insertKey(account.id, key, new Date(Date.now() - dayAndAMinuteMs));
    }
    // The first round runs at start; only going again at once empties five keys two at a time within an hour.
    start({ idempotencyPurgeIntervalMs: 3_600_000, idempotencyPurgeLimit: 2 });
    await eventually('all five expired keys to be purged', async () =>
      (await keysOf(account.id)).length === 0 ? true : undefined,
    );
  });
});

describe('purgeExpiredIdempotencyKeys', () => {
  function capturingLogger() {
    const lines: { level: number; msg: string; purged?: number }[] = [];
    const logger = pino(
      { level: 'info' },
      {
        write(line: string) {
          lines.push(JSON.parse(line) as { level: number; msg: string; purged?: number });
        },
      },
    );
    return { logger, lines };
  }

  it('logs how many keys it purged at info and asks for more only after a full batch', async () => {
    const { logger, lines } = capturingLogger();
    const purging = (purged: number) => ({ purgeExpiredIdempotencyKeys: () => Promise.resolve(purged) });
    await expect(purgeExpiredIdempotencyKeys({ ledger: purging(3), logger, limit: 3 })).resolves.toEqual({
      more: true,
    });
    await expect(purgeExpiredIdempotencyKeys({ ledger: purging(2), logger, limit: 3 })).resolves.toEqual({
      more: false,
    });
    await expect(purgeExpiredIdempotencyKeys({ ledger: purging(0), logger, limit: 3 })).resolves.toEqual({
      more: false,
    });
    expect(lines.map((line) => [line.level, line.purged])).toEqual([
      [30, 3],
      [30, 2],
    ]);
  });

  it('logs a failed purge at warn instead of failing the round', async () => {
    const { logger, lines } = capturingLogger();
    const failing = {
      purgeExpiredIdempotencyKeys: () => Promise.reject(new Error('connection terminated')),
    };
    await expect(purgeExpiredIdempotencyKeys({ ledger: failing, logger, limit: 3 })).resolves.toEqual({
      more: false,
    });
    expect(lines).toMatchObject([{ level: 40, err: { message: 'connection terminated' } }]);
  });
});
