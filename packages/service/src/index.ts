// What the server and worker processes share: the configuration read from the environment, the logger and
// metrics, the core (store, ledger, providers) they open, the worker's settings, where callbacks may go,
// and the graceful stop.

export { ConfigError, loadConfig, serviceStoreOptionsOf, storeOptionsOf } from './config.js';
export { sourceRange } from './source-ranges.js';
export type { Config, LoadConfigOptions } from './config.js';
export { liveProviders } from './live-providers.js';
export type { LiveProviderContext, LiveProviderFactory } from './live-providers.js';
export { exitOnConfigError } from './exit-on-config-error.js';
export { createLogger } from './logger.js';
export { createMetrics, withWorkerMetrics } from './metrics.js';
export type { Metrics } from './metrics.js';
export { assembleCore, openCore } from './core.js';
export { migrateService } from './service-schema.js';
export type { Core, CoreParts } from './core.js';
export { callbackUrlPolicyOf, listensOnLoopbackAlone } from './callback-targets.js';
export { workerSettingsOf } from './worker-settings.js';
export { onShutdownSignal } from './shutdown-signal.js';
export { logServedNetworks, servedNetworksLine } from './served-networks.js';
