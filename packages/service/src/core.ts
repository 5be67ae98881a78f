// The core both processes run on, built from a Config: the store (PostgreSQL when DATABASE_URL is set,
// embedded PGlite otherwise), the ledger, the provider and the metrics, closed in the right order.

import { createLedger, openStore } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { createSandboxSimulator, routeEveryNetworkTo, routeNetworks } from '@topup/providers';
import type { Provider, ProviderRoutes } from '@topup/providers';
import type { Logger } from 'pino';
import { serviceStoreOptionsOf, storeOptionsOf } from './config.js';
import type { Config } from './config.js';
import { liveProviders } from './live-providers.js';
import type { LiveProviderFactory } from './live-providers.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import type { Metrics } from './metrics.js';
import { migrateService } from './service-schema.js';

export interface Core {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly store: Store;
  readonly ledger: Ledger;
  /** Which provider carries each network: the simulator for all in sandbox mode, PROVIDERS' in live mode. */
  readonly providers: ProviderRoutes;
  /** The providers' submissions wait on this store (the sandbox simulator's do), not on a network. */
  readonly providerInStore: boolean;
  close(): Promise<void>;
}

/** Opens the store and builds the core over it. */
export async function openCore(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<Core> {
  return assembleCore(config, await openServiceStore(config), { logger });
}

/**
 * PostgreSQL is migrated through a store with the long limits first (a migration may wait for another
 * process's), then served through one with the service's short limits.
 */
async function openServiceStore(config: Config): Promise<Store> {
  const migrating = await openStore({ ...storeOptionsOf(config), migrate: false });
  await migrateService(migrating);
  if (config.databaseUrl === undefined) return migrating;
  await migrating.close();
  return openStore({ ...serviceStoreOptionsOf(config), migrate: false });
}

export interface CoreParts {
  readonly logger: Logger;
  /** Replaces the sandbox simulator (tests use providers that fail or hang). */
  readonly provider?: (store: Store) => Provider;
  /** The live providers PROVIDERS may name; this build's own by default (tests add their own). */
  readonly liveProviders?: ReadonlyMap<string, LiveProviderFactory>;
}

/**
 * The ledger, metrics and provider over an open store, configured from `config`: what `openCore` runs,
 * and what the tests run over a store of their own. `close` closes the ledger, then the store.
 */
export function assembleCore(config: Config, store: Store, parts: CoreParts): Core {
  const metrics = createMetrics();
  const ledger = createLedger(store, {
    timeZone: config.timeZone,
    authCacheMs: config.authCacheMs,
    chainedPurchases: config.mode === 'live',
    onBatch: (size) => {
      metrics.batchSize.observe(size);
    },
  });
  const providers =
    config.mode === 'live'
      ? liveRoutes(config, store, parts, metrics)
      : routeEveryNetworkTo(
          parts.provider?.(store) ?? createSandboxSimulator(store, { delayMs: config.simulatorDelayMs }),
        );
  return {
    config,
    logger: parts.logger,
    metrics,
    store,
    ledger,
    providers,
    providerInStore: config.mode === 'sandbox' && parts.provider === undefined,
    async close() {
      await ledger.close();
      await store.close();
    },
  };
}

/** Each provider PROVIDERS names, made once, and the networks it carries. */
function liveRoutes(config: Config, store: Store, parts: CoreParts, metrics: Metrics): ProviderRoutes {
  const factories = parts.liveProviders ?? liveProviders;
  const made = new Map<string, Provider>();
  const routes = new Map<string, Provider>();
  for (const [network, id] of config.providers) {
    let provider = made.get(id);
    if (provider === undefined) {
      const factory = factories.get(id);
      if (factory === undefined) throw new Error(`Expected a live provider named '${id}', found none.`);
      provider = factory({ config, store, logger: parts.logger, metrics });
      made.set(id, provider);
    }
    routes.set(network, provider);
  }
  return routeNetworks(routes);
}
