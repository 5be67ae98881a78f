// The worker's settings, taken from the one service configuration.

import type { WorkerSettings } from '@topup/worker';
import type { Config } from './config.js';

export function workerSettingsOf(config: Config): WorkerSettings {
  return {
    mode: config.mode,
    transactionTimeoutSeconds: config.transactionTimeoutSeconds,
    retryScheduleSeconds: config.callbackRetryScheduleSeconds,
    slowDownFloorSeconds: config.callbackSlowDownFloorSeconds,
    providerTimeoutMs: config.providerTimeoutMs,
    idempotencyPurgeIntervalMs: config.idempotencyPurgeIntervalSeconds * 1000,
  };
}
