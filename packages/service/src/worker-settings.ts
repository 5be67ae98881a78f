// The worker's settings, taken from the one service configuration.

import type { WorkerSettings } from '@topup/worker';
import { listensOnLoopbackAlone } from './callback-targets.js';
import type { Config } from './config.js';

/**
 * `apiInProcess`: the worker runs beside the API in one process (`pnpm start`), so it may reach loopback
 * exactly when the API may register it. A worker process of its own (`pnpm start:worker`) cannot know where
 * the API listens (HOST only places its own /metrics), so it reaches loopback only with the opt-in: a name
 * registered as public cannot be rebound to the worker's own machine.
 */
export function workerSettingsOf(config: Config, placement: { apiInProcess: boolean }): WorkerSettings {
  return {
    mode: config.mode,
    transactionTimeoutSeconds: config.transactionTimeoutSeconds,
    providerQueryAfterSeconds: config.providerQueryAfterSeconds,
    reconciliationWindowSeconds: config.reconciliationWindowSeconds,
    retryScheduleSeconds: config.callbackRetryScheduleSeconds,
    slowDownFloorSeconds: config.callbackSlowDownFloorSeconds,
    providerTimeoutMs: config.providerTimeoutMs,
    idempotencyPurgeIntervalMs: config.idempotencyPurgeIntervalSeconds * 1000,
    allowPrivateCallbackNetworks: config.callbackAllowPrivateNetworks,
    callbackTrustedCertificates: config.callbackTrustedCertificates,
    allowLoopbackCallbacks: placement.apiInProcess && listensOnLoopbackAlone(config.host),
  };
}
