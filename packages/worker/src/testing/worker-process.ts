// Test helper run as a child process (`node --import tsx`): one worker against PostgreSQL, configured by
// environment variables, so a test can SIGKILL it mid-delivery and start another. Prints `ready` once
// running; on SIGTERM it stops gracefully and exits 0.

import { createLedger, openStore } from '@topup/ledger';
import { pino } from 'pino';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { startWorker } from '../start-worker.js';
import type { WorkerSettings } from '../worker-settings.js';

const databaseUrl = process.env.TOPUP_TEST_DATABASE_URL;
const schema = process.env.TOPUP_TEST_SCHEMA;
const settingsJson = process.env.TOPUP_TEST_WORKER_SETTINGS;
if (databaseUrl === undefined || schema === undefined || settingsJson === undefined) {
  throw new Error(
    'Expected TOPUP_TEST_DATABASE_URL, TOPUP_TEST_SCHEMA and TOPUP_TEST_WORKER_SETTINGS, received ' +
      `${[databaseUrl, schema, settingsJson].filter((value) => value === undefined).length} of them unset.`,
  );
}

const store = await openStore({ databaseUrl, schema, poolSize: 4 });
const ledger = createLedger(store);
const provider = createSandboxSimulator(store, { delayMs: 0 });
const logger = pino({ level: process.env.TOPUP_TEST_LOG_LEVEL ?? 'silent' });
const worker = startWorker({
  store,
  ledger,
  providers: routeEveryNetworkTo(provider),
  logger,
  settings: JSON.parse(settingsJson) as WorkerSettings,
});
process.stdout.write('ready\n');

process.once('SIGTERM', () => {
  void (async () => {
    await worker.stop();
    await ledger.close();
    await store.close();
    process.exit(0);
  })();
});
