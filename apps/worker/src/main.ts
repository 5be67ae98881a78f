// `pnpm start:worker`: the worker alone against PostgreSQL (DATABASE_URL): provider results, timeouts and
// callback delivery, shared with any number of other worker processes. It serves /healthz and /metrics on
// HOST and WORKER_PORT.

import { startWorker } from '@topup/worker';
import {
  exitOnConfigError,
  loadConfig,
  logServedNetworks,
  onShutdownSignal,
  openCore,
  withWorkerMetrics,
  workerSettingsOf,
} from '@topup/service';
import { startWorkerHttp } from './worker-http.js';

const config = exitOnConfigError(loadConfig);
if (config.databaseUrl === undefined) {
  process.stderr.write(
    'start:worker runs against PostgreSQL: set DATABASE_URL (the embedded store runs the worker inside `pnpm start`).\n',
  );
  process.exit(78);
}
const core = await openCore(config);
const worker = startWorker({ ...core, settings: workerSettingsOf(config, { apiInProcess: false }) });
const http = await startWorkerHttp({
  host: config.host,
  port: config.workerPort,
  registry: withWorkerMetrics(core.metrics, worker.metrics),
  logger: core.logger,
}).catch(async (error: unknown) => {
  process.stderr.write(
    `start:worker could not listen on ${config.host}:${config.workerPort} for /healthz and /metrics ` +
      `(set WORKER_PORT to a free port, or 0 for any): ${error instanceof Error ? error.message : String(error)}\n`,
  );
  await worker.stop();
  await core.close();
  process.exit(78);
});
// Before saying it started: a SIGTERM sent on reading that line must find the handler installed.
onShutdownSignal(core.logger, async () => {
  await worker.stop();
  await http.close();
  await core.close();
});
core.logger.info({ url: http.url }, `Topup worker started; /healthz and /metrics on ${http.url}`);
logServedNetworks(core);
