// The worker's settings: those the service configuration provides, and tuning knobs with defaults.
// Resolving them once gives every loop plain numbers and one place that says what the defaults are.

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  SLOW_DOWN_FLOOR_SECONDS,
  STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS,
} from './delivery/retry-schedule.js';

export interface WorkerSettings {
  readonly mode: 'sandbox' | 'live';
  /**
   * A transaction still requested this long after it was made is cancelled, once its provider says it
   * never took it.
   */
  readonly transactionTimeoutSeconds: number;
  /**
   * A transaction with no result this long after it was made is asked about (default 60, or the
   * transaction timeout when shorter); while unsettled, again after half its age, at most 15 minutes apart.
   */
  readonly providerQueryAfterSeconds?: number;
  /**
   * A leg still unsettled this long after the transaction timeout is marked for an operator's review and
   * no longer asked about (default 86400, a day); nothing is refunded automatically.
   */
  readonly reconciliationWindowSeconds?: number;
  /**
   * The callback schedule in seconds, one entry per attempt: the first is 0, since the first attempt is
   * made as soon as the callback is written; each later entry is the delay after a failed attempt before
   * the next. The Standard Webhooks schedule is `0, 5, 300, …`.
   */
  readonly retryScheduleSeconds: readonly number[];
  /**
   * The least wait before retrying after a 429 or a timeout, in seconds (default 60, whatever the schedule;
   * tests with a short schedule lower it explicitly).
   */
  readonly slowDownFloorSeconds?: number;
  /** How long the server waits for a provider to take a submission. */
  readonly providerTimeoutMs: number;
  /** Names this worker in leases and attempt records; defaults to host, process id and a random suffix. */
  readonly workerId?: string;
  /** Fallback polling when no wake-up arrives (default 1000). */
  readonly pollIntervalMs?: number;
  /** How often provider results are asked for (default 100, so results are applied within 100 ms). */
  readonly resultPollIntervalMs?: number;
  /** How often idempotency keys past their 24-hour window are deleted (default 300000, 5 minutes). */
  readonly idempotencyPurgeIntervalMs?: number;
  /** Expired idempotency keys deleted per purge round (default 10000); a full round goes again at once. */
  readonly idempotencyPurgeLimit?: number;
  /** Callback attempts in flight per worker (default 128). */
  readonly deliveryConcurrency?: number;
  /** Callback attempts in flight per endpoint and worker (default 16). */
  readonly perEndpointConcurrency?: number;
  /** Deadline of one callback attempt (default 15000). */
  readonly deliveryTimeoutMs?: number;
  /** Lets callbacks reach private networks and loopback (CALLBACK_ALLOW_PRIVATE_NETWORKS; default false). */
  readonly allowPrivateCallbackNetworks?: boolean;
  /**
   * Lets callbacks reach loopback (default false): for a worker whose API only this machine can reach, as
   * when the server in the same process listens on loopback alone.
   */
  readonly allowLoopbackCallbacks?: boolean;
  /**
   * PEM certificates trusted for https callbacks besides Node's own list (CALLBACK_CA_FILE): for receivers
   * whose certificates a private CA issued.
   */
  readonly callbackTrustedCertificates?: readonly string[];
}

export interface ResolvedWorkerSettings {
  readonly mode: 'sandbox' | 'live';
  readonly transactionTimeoutMs: number;
  readonly providerQueryAfterMs: number;
  readonly reconciliationWindowMs: number;
  readonly retryScheduleSeconds: readonly number[];
  readonly slowDownFloorSeconds: number;
  readonly providerTimeoutMs: number;
  readonly workerId: string;
  readonly pollIntervalMs: number;
  readonly resultPollIntervalMs: number;
  readonly idempotencyPurgeIntervalMs: number;
  readonly idempotencyPurgeLimit: number;
  readonly deliveryConcurrency: number;
  readonly perEndpointConcurrency: number;
  readonly deliveryTimeoutMs: number;
  readonly allowPrivateCallbackNetworks: boolean;
  readonly allowLoopbackCallbacks: boolean;
  readonly callbackTrustedCertificates: readonly string[];
  /** How long a claimed callback is ours: longer than an attempt, so no other worker sends it meanwhile. */
  readonly deliveryLeaseMs: number;
  /**
   * How long after its claim a callback may still be sent: late enough starts would outlive the lease, so
   * a callback that waited longer for its endpoint is left for its lease to lapse instead.
   */
  readonly deliveryStartWindowMs: number;
  /** How long after its request an unsubmitted transaction counts as interrupted. */
  readonly interruptedAfterMs: number;
  /** Rows each loop takes per round. */
  readonly batchSize: number;
}

/**
 * Time the server may still need after the provider timeout before it records a submission: the worker
 * submits again only what is older than the provider timeout plus this margin and still unmarked.
 *
 * @example
 * ```ts
 * import { SUBMISSION_MARGIN_MS } from '@topup/worker';
 *
 * // A request may start a submission this long after creating its transaction, and still end before
 * // the worker takes the transaction for an interrupted one.
 * const startWindowMs = SUBMISSION_MARGIN_MS / 2;
 * ```
 */
export const SUBMISSION_MARGIN_MS = 5_000;
/**
 * Deadline of one callback attempt unless the settings give another: what a receiver has to answer in,
 * for real callbacks and for the server's test callback alike.
 */
export const CALLBACK_TIMEOUT_MS = 15_000;
/** Room in a lease for recording the attempt after its deadline. */
const LEASE_MARGIN_MS = 5_000;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`Expected worker setting ${name} to be a positive integer, received ${value}.`);
  }
  return value;
}

function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Fills in the defaults and derived values.
 * @throws RangeError when a number is not positive, or the retry schedule is empty, negative, or does
 * not start with 0.
 */
export function resolveWorkerSettings(settings: WorkerSettings): ResolvedWorkerSettings {
  const schedule = settings.retryScheduleSeconds;
  if (schedule.length === 0 || schedule.some((delay) => !Number.isFinite(delay) || delay < 0)) {
    throw new RangeError(
      `Expected a retry schedule of one or more non-negative seconds (e.g. ${STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS.join(',')}), received ${JSON.stringify(schedule)}.`,
    );
  }
  // A first entry other than 0 would promise a delay the worker never makes.
  if (schedule[0] !== 0) {
    throw new RangeError(
      `Expected a retry schedule starting with 0, the immediate first attempt (e.g. ${STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS.join(',')}), received ${JSON.stringify(schedule)}.`,
    );
  }
  const slowDownFloorSeconds = settings.slowDownFloorSeconds ?? SLOW_DOWN_FLOOR_SECONDS;
  if (!Number.isFinite(slowDownFloorSeconds) || slowDownFloorSeconds < 0) {
    throw new RangeError(
      `Expected worker setting slowDownFloorSeconds to be 0 or more seconds, received ${slowDownFloorSeconds}.`,
    );
  }
  const deliveryTimeoutMs = positiveInteger(
    'deliveryTimeoutMs',
    settings.deliveryTimeoutMs ?? CALLBACK_TIMEOUT_MS,
  );
  return {
    mode: settings.mode,
    transactionTimeoutMs:
      positiveInteger('transactionTimeoutSeconds', settings.transactionTimeoutSeconds) * 1000,
    providerQueryAfterMs:
      positiveInteger('providerQueryAfterSeconds', settings.providerQueryAfterSeconds ?? 60) * 1000,
    reconciliationWindowMs:
      positiveInteger('reconciliationWindowSeconds', settings.reconciliationWindowSeconds ?? 86_400) * 1000,
    retryScheduleSeconds: schedule,
    slowDownFloorSeconds,
    providerTimeoutMs: positiveInteger('providerTimeoutMs', settings.providerTimeoutMs),
    workerId: settings.workerId ?? defaultWorkerId(),
    pollIntervalMs: positiveInteger('pollIntervalMs', settings.pollIntervalMs ?? 1_000),
    resultPollIntervalMs: positiveInteger('resultPollIntervalMs', settings.resultPollIntervalMs ?? 100),
    idempotencyPurgeIntervalMs: positiveInteger(
      'idempotencyPurgeIntervalMs',
      settings.idempotencyPurgeIntervalMs ?? 300_000,
    ),
    idempotencyPurgeLimit: positiveInteger('idempotencyPurgeLimit', settings.idempotencyPurgeLimit ?? 10_000),
    deliveryConcurrency: positiveInteger('deliveryConcurrency', settings.deliveryConcurrency ?? 128),
    perEndpointConcurrency: positiveInteger('perEndpointConcurrency', settings.perEndpointConcurrency ?? 16),
    deliveryTimeoutMs,
    allowPrivateCallbackNetworks: settings.allowPrivateCallbackNetworks ?? false,
    allowLoopbackCallbacks: settings.allowLoopbackCallbacks ?? false,
    callbackTrustedCertificates: settings.callbackTrustedCertificates ?? [],
    deliveryLeaseMs: 2 * deliveryTimeoutMs + LEASE_MARGIN_MS,
    deliveryStartWindowMs: deliveryTimeoutMs,
    interruptedAfterMs: settings.providerTimeoutMs + SUBMISSION_MARGIN_MS,
    batchSize: 100,
  };
}
