// `pnpm start:server`: the HTTP server alone against PostgreSQL (DATABASE_URL), the production shape in
// which any number of server and worker processes share one database.

import { loadConfig, logServedNetworks, exitOnConfigError, onShutdownSignal, openCore } from '@topup/service';
import { startHttpServer } from './runtime.js';

const config = exitOnConfigError(loadConfig);
if (config.databaseUrl === undefined) {
  process.stderr.write(
    'start:server runs against PostgreSQL: set DATABASE_URL (for the embedded store, use `pnpm start`).\n',
  );
  process.exit(78);
}
const core = await openCore(config);
const http = await startHttpServer(core);
// Before saying it listens: a SIGTERM sent on reading that line must find the handler installed.
onShutdownSignal(core.logger, async () => {
  await http.close();
  await core.close();
});
core.logger.info({ url: http.url, store: core.store.kind }, `Topup server is listening on ${http.url}`);
logServedNetworks(core);
