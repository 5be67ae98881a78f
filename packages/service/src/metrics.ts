// Prometheus metrics of one process's core, in its own registry (so several instances in one process, as
// in tests, do not collide): requests by function and code, latency, ledger batch sizes, and the sends a
// provider refused because its wallet cannot pay (the server and the worker both send); and the one
// registry /metrics shows when the worker runs in the same process.

import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly requests: Counter<'function' | 'code'>;
  readonly latency: Histogram<'function'>;
  readonly batchSize: Histogram;
  /** Sends a provider refused because the wallet that pays for them is short: fund it. */
  readonly providerWalletLow: Counter<'provider'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'topup_requests_total',
      help: 'API requests by function and status code',
      labelNames: ['function', 'code'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'topup_request_duration_seconds',
      help: 'API request latency',
      labelNames: ['function'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    batchSize: new Histogram({
      name: 'topup_ledger_batch_size',
      help: 'Requests applied per group-committed ledger batch',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [registry],
    }),
    providerWalletLow: new Counter({
      name: 'topup_provider_wallet_low_total',
      help: 'Sends a provider refused because the wallet paying for them is short, by provider',
      labelNames: ['provider'],
      registers: [registry],
    }),
  };
}

/**
 * The process's registry and the worker's as one, for a process that runs the worker (`pnpm start`,
 * `pnpm start:worker`): one scrape shows both. Metrics registered later in either are not included.
 */
export function withWorkerMetrics(metrics: Metrics, worker: Registry): Registry {
  return Registry.merge([metrics.registry, worker]);
}
