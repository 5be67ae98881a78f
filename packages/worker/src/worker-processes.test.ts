// Worker processes sharing one PostgreSQL database (PGlite is a single in-process instance, so these run on
// PostgreSQL only): a worker killed with SIGKILL in the middle of deliveries and restarted still gets every
// callback delivered at least once and every transaction resolved exactly once; two workers share 1,000
// transactions without sending any callback twice.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { decodeJsonEnvelope } from '@topup/envelope';
import { createLedger } from '@topup/ledger';
import { describe, expect, it } from 'vitest';
import { createSandboxSimulator } from '@topup/providers';
import { startCallbackReceiver } from './testing/callback-receiver.js';
import type { ReceivedCallback } from './testing/callback-receiver.js';
import { callerWithEndpoint, eventually, requestFloat, submitLikeTheServer } from './testing/scenario.js';
import { openTestStore, testStoreKinds } from './testing/test-stores.js';
import type { TestStore } from './testing/test-stores.js';
import type { WorkerSettings } from './worker-settings.js';

const workerScript = fileURLToPath(new URL('./testing/worker-process.ts', import.meta.url));
const appDirectory = fileURLToPath(new URL('..', import.meta.url));
const TRANSACTIONS = 150;

const settings: WorkerSettings = {
  mode: 'sandbox',
  // The test's receivers listen on loopback, as a developer's do on their own machine.
  allowLoopbackCallbacks: true,
  transactionTimeoutSeconds: 600,
  retryScheduleSeconds: [0, 0.2, 0.5, 1, 1, 1, 1, 1],
  // A receiver that times out under load is retried in a second, not after the 60 s default.
  slowDownFloorSeconds: 1,
  providerTimeoutMs: 10_000,
  pollIntervalMs: 200,
  // A short attempt deadline keeps the killed worker's leases (2 × 1 s + 5 s) short.
  deliveryTimeoutMs: 1_000,
};

async function startWorkerProcess(testStore: TestStore, workerId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript], {
    cwd: appDirectory,
    env: {
      ...process.env,
      TOPUP_TEST_DATABASE_URL: testStore.databaseUrl,
      TOPUP_TEST_SCHEMA: testStore.schema,
      TOPUP_TEST_WORKER_SETTINGS: JSON.stringify({ ...settings, workerId }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  if (chunk.toString('utf8').trim() !== 'ready') {
    throw new Error(
      `Expected the worker process to print "ready", received ${JSON.stringify(chunk.toString('utf8'))}.`,
    );
  }
  return child;
}

function referenceOf(callback: ReceivedCallback): string | undefined {
  const data = decodeJsonEnvelope(callback.body.toString('utf8')).data as {
    transaction?: { reference?: string };
  };
  return data.transaction?.reference;
}

describe.skipIf(!testStoreKinds().includes('postgres'))('worker processes on postgres', () => {
  it('delivers every callback at least once and resolves every transaction exactly once after a restart', async () => {
    const testStore = await openTestStore('postgres');
    const { store } = testStore;
    const ledger = createLedger(store);
    const receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 20 }));
    const children: ChildProcess[] = [];
    try {
      const caller = await callerWithEndpoint(ledger, receiver.url);
      const provider = createSandboxSimulator(store, { delayMs: 0 });
      const transactions = await Promise.all(
        Array.from({ length: TRANSACTIONS }, (_, index) =>
          // Ends in 9, never in a sandbox outcome's 0001 to 0005: every transaction completes.
          requestFloat(ledger, caller.account.id, `25471${String(index).padStart(6, '0')}9`, 20),
        ),
      );
      for (const transaction of transactions) await submitLikeTheServer(ledger, provider, transaction);

      const first = await startWorkerProcess(testStore, 'worker-killed');
      children.push(first);
      await receiver.waitFor(30, 30_000);
      first.kill('SIGKILL');
      await once(first, 'exit');
      const receivedAtKill = receiver.received.length;
      expect(receivedAtKill).toBeLessThan(TRANSACTIONS);

      const second = await startWorkerProcess(testStore, 'worker-restarted');
      children.push(second);
      const references = new Set(transactions.map((transaction) => transaction.reference));
      await eventually(
        `a callback for each of the ${TRANSACTIONS} transactions`,
        () => {
          const seen = new Set(receiver.received.map(referenceOf));
          return Promise.resolve(
            [...references].every((reference) => seen.has(reference)) ? seen : undefined,
          );
        },
        45_000,
      );
      const delivered = await eventually('every delivery to be recorded as delivered', async () => {
        const deliveries = await ledger.listDeliveries(caller.account.id, { status: 'delivered' });
        return deliveries.length === TRANSACTIONS ? deliveries : undefined;
      });
      expect(
        delivered.some((delivery) =>
          delivery.attempts.some((attempt) => attempt.workerId === 'worker-restarted'),
        ),
      ).toBe(true);
      expect(receiver.peakOpenPerCallback).toBe(1);

      const { rows } = await store.query<{ state: string; count: string }>(
        `SELECT state, count(*) AS count FROM transactions WHERE account_id = $1 GROUP BY state`,
        [caller.account.id],
      );
      expect(rows.map((row) => [row.state, Number(row.count)])).toEqual([['completed', TRANSACTIONS]]);
      const report = await ledger.verify();
      expect(report.breaches).toEqual([]);
      expect(report.ok).toBe(true);

      second.kill('SIGTERM');
      const [exitCode] = (await once(second, 'exit')) as [number | null];
      expect(exitCode).toBe(0);
    } finally {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await receiver.close();
      await ledger.close();
      await testStore.dispose();
    }
  }, 90_000);

  it('shares 1,000 transactions between two worker processes, sending each callback exactly once', async () => {
    const testStore = await openTestStore('postgres');
    const { store } = testStore;
    const ledger = createLedger(store);
    const receiver = await startCallbackReceiver();
    receiver.answerWith(() => ({ status: 200, delayMs: 2 }));
    const children: ChildProcess[] = [];
    try {
      const caller = await callerWithEndpoint(ledger, receiver.url);
      const provider = createSandboxSimulator(store, { delayMs: 0 });
      const transactions = await Promise.all(
        Array.from({ length: 1_000 }, (_, index) =>
          requestFloat(ledger, caller.account.id, `25472${String(index).padStart(6, '0')}9`, 5),
        ),
      );
      children.push(
        await startWorkerProcess(testStore, 'worker-a'),
        await startWorkerProcess(testStore, 'worker-b'),
      );
      for (const transaction of transactions) await submitLikeTheServer(ledger, provider, transaction);

      // listDeliveries shows the newest 500, so the outbox is counted directly.
      await eventually(
        'all 1,000 deliveries to be delivered',
        async () => {
          const { rows } = await store.query<{ delivered: string }>(
            `SELECT count(*) AS delivered FROM callback_deliveries WHERE account_id = $1 AND status = 'delivered'`,
            [caller.account.id],
          );
          return Number(rows[0]?.delivered) === 1_000 ? true : undefined;
        },
        60_000,
      );
      expect(new Set(receiver.received.map(referenceOf))).toEqual(
        new Set(transactions.map((each) => each.reference)),
      );
      expect(receiver.received).toHaveLength(1_000);
      expect(receiver.peakOpenPerCallback).toBe(1);
      const { rows: attempts } = await store.query<{
        worker_id: string;
        attempts: string;
        deliveries: string;
      }>(
        `SELECT worker_id, count(*) AS attempts, count(DISTINCT delivery_id) AS deliveries FROM callback_attempts GROUP BY worker_id`,
      );
      expect(attempts.map((row) => row.worker_id).sort()).toEqual(['worker-a', 'worker-b']);
      expect(attempts.reduce((sum, row) => sum + Number(row.attempts), 0)).toBe(1_000);
      expect((await ledger.verify()).ok).toBe(true);
    } finally {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await receiver.close();
      await ledger.close();
      await testStore.dispose();
    }
  }, 120_000);
});
