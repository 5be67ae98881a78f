// `pnpm start:worker`: the worker alone against PostgreSQL (DATABASE_URL): provider results, timeouts and
// callback delivery, shared with any number of other worker processes.

import { startWorker } from '@topup/worker';
import { loadConfig } from './config.js';
import { exitOnConfigError } from './exit-on-config-error.js';
import { onShutdownSignal, openCore } from './runtime.js';
import { workerSettingsOf } from './worker-settings.js';

const config = exitOnConfigError(loadConfig);
if (config.databaseUrl === undefined) {
  process.stderr.write(
    'start:worker runs against PostgreSQL: set DATABASE_URL (the embedded store runs the worker inside `pnpm start`).\n',
  );
  process.exit(78);
}
const core = await openCore(config);
const worker = startWorker({ ...core, settings: workerSettingsOf(config) });
core.logger.info('Topup worker started');

onShutdownSignal(core.logger, async () => {
  await worker.stop();
  await core.close();
});
