// `pnpm start`: the whole service in one process (server and worker), on the embedded store unless
// DATABASE_URL is set. A brand-new embedded sandbox store gets a funded demo account.

import { DataDirLockedError, DataDirOwnerError } from '@topup/ledger';
import { startWorker } from '@topup/worker';
import {
  loadConfig,
  logServedNetworks,
  exitOnConfigError,
  withWorkerMetrics,
  onShutdownSignal,
  openCore,
  workerSettingsOf,
} from '@topup/service';
import { createDemoAccountIfEmpty, demoInstructions } from './demo-account.js';
import { startHttpServer } from './runtime.js';
import { commandFor } from './cli/commands.js';
import { commandContext } from './cli/command-context.js';
import { controlSocketPath, serveControlSocket } from './cli/control-socket.js';

// Whatever the process creates (the embedded store's files, the CLI's socket) is its user's alone.
process.umask(0o077);
const config = exitOnConfigError(loadConfig);
const core = await openCore(config).catch((error: unknown) => {
  // Nothing to start on: a data folder of another user's, or one another process has open.
  if (!(error instanceof DataDirOwnerError || error instanceof DataDirLockedError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(error instanceof DataDirOwnerError ? 78 : 75);
});
// Only a brand-new embedded store gets one: a PostgreSQL database is shared and set up by its operator.
const demo =
  config.mode === 'sandbox' && core.store.kind === 'pglite'
    ? await createDemoAccountIfEmpty(core.ledger)
    : undefined;
const worker = startWorker({ ...core, settings: workerSettingsOf(config, { apiInProcess: true }) });
// One process, one scrape: /metrics shows the server's metrics and the worker's.
const http = await startHttpServer(core, {
  metricsRegistry: withWorkerMetrics(core.metrics, worker.metrics),
});
// The embedded store is locked to this process, so the operator's CLI sends its commands here instead.
const control =
  core.store.kind === 'pglite' && !config.dataDir.includes('://')
    ? await serveControlSocket(controlSocketPath(config.dataDir), async (request) => {
        const command = commandFor(request.command, request.options);
        core.logger.info({ command: command.name }, 'CLI command');
        return command.run(commandContext(config, core.ledger, core.store), request.options);
      })
    : undefined;
// Before saying it listens: a SIGTERM sent on reading that line must find the handler installed.
onShutdownSignal(core.logger, async () => {
  await http.close();
  await control?.close();
  await worker.stop();
  await core.close();
});
if (demo !== undefined) process.stdout.write(demoInstructions(http.url, demo));
logServedNetworks(core);
core.logger.info(
  { url: http.url, store: core.store.kind, mode: config.mode },
  `Topup is listening on ${http.url} (${core.store.kind === 'pglite' ? `embedded store in ${config.dataDir}` : 'PostgreSQL'})`,
);
