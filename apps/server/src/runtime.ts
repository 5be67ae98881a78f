// Builds a running service from a Config: the store, the ledger, the provider, the HTTP server with its
// timeouts, and a graceful shutdown that stops accepting, finishes in-flight requests and closes the store.

import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createLedger, openStore } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { createSandboxSimulator } from '@topup/worker';
import type { Provider } from '@topup/worker';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createApp } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { serviceStoreOptionsOf, storeOptionsOf } from './config.js';
import type { Config } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import type { Metrics } from './metrics.js';
import { createMemoryAuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import type { AuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import { createMemoryRateLimiter } from './rate-limit/memory-rate-limiter.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import { createRedisAuthenticationFailureLimiter } from './rate-limit/redis-authentication-failure-limiter.js';
import { createRedisRateLimiter } from './rate-limit/redis-rate-limiter.js';
import { withSubmissionsInStore } from './store-deadline.js';

export interface Core {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly store: Store;
  readonly ledger: Ledger;
  readonly provider: Provider;
  close(): Promise<void>;
}

/** Opens the store (PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise) and the ledger. */
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
  if (config.databaseUrl === undefined) return openStore(storeOptionsOf(config));
  await (await openStore(storeOptionsOf(config))).close();
  return openStore({ ...serviceStoreOptionsOf(config), migrate: false });
}

export interface CoreParts {
  readonly logger: Logger;
  /** Replaces the sandbox simulator (tests use providers that fail or hang). */
  readonly provider?: (store: Store) => Provider;
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
    onBatch: (size) => {
      metrics.batchSize.observe(size);
    },
  });
  const provider =
    parts.provider?.(store) ??
    withSubmissionsInStore(createSandboxSimulator(store, { delayMs: config.simulatorDelayMs }));
  return {
    config,
    logger: parts.logger,
    metrics,
    store,
    ledger,
    provider,
    async close() {
      await ledger.close();
      await store.close();
    },
  };
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting connections and waits for in-flight requests. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  /** What /metrics shows, when more than the server's own registry (the worker's too, in one process). */
  readonly metricsRegistry?: Registry;
  /** The per-token rate limiter, when not the configured one (tests use one on a clock of their own). */
  readonly rateLimiter?: RateLimiter;
}

export async function startHttpServer(core: Core, options: HttpServerOptions = {}): Promise<RunningServer> {
  const rateLimiter: RateLimiter =
    options.rateLimiter ??
    (core.config.redisUrl === undefined
      ? createMemoryRateLimiter(core.config.rateLimit)
      : createRedisRateLimiter(core.config.redisUrl, core.config.rateLimit));
  const authenticationFailures: AuthenticationFailureLimiter =
    core.config.redisUrl === undefined
      ? createMemoryAuthenticationFailureLimiter(core.config.authFailureLimit)
      : createRedisAuthenticationFailureLimiter(core.config.redisUrl, core.config.authFailureLimit);
  const app = createApp({ ...core, ...options, rateLimiter, authenticationFailures });
  const handle = app.callback();
  const { headersMs, requestMs } = core.config.httpTimeouts;
  const responses = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      // Node checks both timeouts on this interval (30 s by default), so a slow client is cut off on time.
      connectionsCheckingInterval: Math.min(1_000, headersMs),
    },
    (request, response) => {
      responses.set(request.socket, response);
      void handle(request, response);
    },
  );
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server, responses, core.logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(core.config.port, core.config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      server.closeIdleConnections();
      await closed;
      await rateLimiter.close();
      await authenticationFailures.close();
    },
  };
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits. */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight work');
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handle);
  process.once('SIGINT', handle);
}
