// Starts a worker: the provider-results, timeout, interrupted-submission, purchase-chain, callback-delivery
// and idempotency-purge loops over one store, woken by the outbox notification (LISTEN/NOTIFY on PostgreSQL, an in-process signal on the
// embedded store) and polling as the fallback. Any number of workers may share one PostgreSQL database.

import { outboxChannel } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { HostResolver } from './callback-url-policy.js';
import { CallbackDispatcher } from './delivery/callback-dispatcher.js';
import { deliveryQueueStats } from './delivery/delivery-queue-stats.js';
import { purgeExpiredIdempotencyKeys } from './loops/idempotency-purge.js';
import { resumeInterruptedSubmissions } from './loops/interrupted-submissions.js';
import { startPollLoop } from './loops/poll-loop.js';
import type { PollLoop } from './loops/poll-loop.js';
import { applyProviderResults } from './loops/provider-results.js';
import { advancePurchaseChains } from './loops/purchase-chains.js';
import { applyPushedResults } from './loops/pushed-results.js';
import { cancelTimedOutTransactions } from './loops/transaction-timeouts.js';
import { providerTablesReady } from '@topup/providers';
import type { ProviderRoutes } from '@topup/providers';
import { createWorkerMetrics } from './worker-metrics.js';
import { resolveWorkerSettings } from './worker-settings.js';
import type { WorkerSettings } from './worker-settings.js';

export interface StartWorkerOptions {
  readonly store: Store;
  readonly ledger: Ledger;
  /** Which provider carries each network; results are read from every one of them. */
  readonly providers: ProviderRoutes;
  readonly logger: Logger;
  readonly settings: WorkerSettings;
  /** DNS for callback hosts; the system resolver by default. */
  readonly resolve?: HostResolver;
  /** The clock for timeouts; `new Date()` by default. */
  readonly now?: () => Date;
}

export interface RunningWorker {
  /** Stops claiming work, finishes callbacks in flight (others' leases lapse), and stops listening. */
  stop(): Promise<void>;
  /** The worker's Prometheus registry. */
  readonly metrics: Registry;
}

/** Starts the worker's loops; they run until `stop()`. */
export function startWorker(options: StartWorkerOptions): RunningWorker {
  const settings = resolveWorkerSettings(options.settings);
  const { store, ledger, providers } = options;
  const logger = options.logger.child({ component: 'worker', workerId: settings.workerId });
  const now = options.now ?? (() => new Date());
  const metrics = createWorkerMetrics(() => deliveryQueueStats(store), {
    reviewItems: () => ledger.countLegsForReview(),
  });

  const dispatcher = new CallbackDispatcher({
    ledger,
    logger,
    settings,
    metrics,
    // Only called after a claim has completed, by which time the loop below exists.
    wake: () => {
      deliveries.wake();
    },
    ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
  });
  const deliveries = startPollLoop({
    name: 'callback deliveries',
    intervalMs: settings.pollIntervalMs,
    logger,
    round: () => dispatcher.round(),
  });
  // Only live providers carry a purchase's legs apart; the simulator plays payer and carrier at once.
  const chains = providers.providers.some((provider) => provider.laterLegs !== undefined)
    ? startPollLoop({
        name: 'purchase chains',
        intervalMs: settings.resultPollIntervalMs,
        logger,
        round: () =>
          advancePurchaseChains({
            ledger,
            providers,
            logger,
            metrics,
            batchSize: settings.batchSize,
            providerTimeoutMs: settings.providerTimeoutMs,
            queryAfterMs: settings.providerQueryAfterMs,
            timeoutMs: settings.transactionTimeoutMs,
            reconciliationWindowMs: settings.reconciliationWindowMs,
            now,
          }),
      })
    : undefined;
  const loops: PollLoop[] = [
    deliveries,
    ...providers.providers.map((provider) =>
      startPollLoop({
        name: `provider results (${provider.name})`,
        intervalMs: settings.resultPollIntervalMs,
        logger,
        round: () =>
          applyProviderResults({ ledger, provider, logger, metrics, batchSize: settings.batchSize }),
      }),
    ),
    startPollLoop({
      name: 'pushed results',
      intervalMs: settings.resultPollIntervalMs,
      logger,
      round: async () => {
        // The inbox is the providers' table, which a store opened by the ledger alone lacks.
        await providerTablesReady(store);
        const round = await applyPushedResults({
          store,
          ledger,
          providers,
          logger,
          metrics,
          batchSize: settings.batchSize,
          uncorrelatedAfterMs: settings.transactionTimeoutMs,
          now,
        });
        // A paid prompt's result makes its purchase's delivery due: the chains need not wait for their poll.
        if (round.applied > 0) chains?.wake();
        return round;
      },
    }),
    startPollLoop({
      name: 'transaction timeouts',
      intervalMs: settings.pollIntervalMs,
      logger,
      round: () =>
        cancelTimedOutTransactions({
          ledger,
          providers,
          logger,
          metrics,
          timeoutMs: settings.transactionTimeoutMs,
          queryAfterMs: settings.providerQueryAfterMs,
          reconciliationWindowMs: settings.reconciliationWindowMs,
          providerTimeoutMs: settings.providerTimeoutMs,
          batchSize: settings.batchSize,
          now,
        }),
    }),
    startPollLoop({
      name: 'interrupted submissions',
      intervalMs: settings.pollIntervalMs,
      logger,
      round: () =>
        resumeInterruptedSubmissions({
          ledger,
          providers,
          logger,
          metrics,
          interruptedAfterMs: settings.interruptedAfterMs,
          timeoutMs: settings.transactionTimeoutMs,
          queryAfterMs: settings.providerQueryAfterMs,
          reconciliationWindowMs: settings.reconciliationWindowMs,
          providerTimeoutMs: settings.providerTimeoutMs,
          batchSize: settings.batchSize,
          now,
        }),
    }),
    ...(chains === undefined ? [] : [chains]),
    startPollLoop({
      name: 'idempotency purge',
      intervalMs: settings.idempotencyPurgeIntervalMs,
      logger,
      round: () => purgeExpiredIdempotencyKeys({ ledger, logger, limit: settings.idempotencyPurgeLimit }),
    }),
  ];

  const unlisten = store
    .listen(outboxChannel, () => {
      deliveries.wake();
    })
    .catch((error: unknown) => {
      logger.error({ err: error }, 'listening for new callbacks failed; polling only');
      return undefined;
    });

  let stopped: Promise<void> | undefined;
  return {
    metrics: metrics.registry,
    stop() {
      stopped ??= (async () => {
        await Promise.all(loops.map((loop) => loop.stop()));
        await dispatcher.stop();
        await (
          await unlisten
        )?.();
        logger.info('worker stopped');
      })();
      return stopped;
    },
  };
}
