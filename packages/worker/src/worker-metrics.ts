// Prometheus metrics of one worker, in its own registry (several workers in one process, as in tests, do
// not collide): callback deliveries by outcome, attempt latency, provider results and timeouts applied, and
// the outbox's depth and oldest pending age, measured by a query whenever the registry is scraped. That
// query must never fail the scrape (a database outage is exactly when the other metrics matter): it is
// given up after a second, the two gauges then keep their last values, and `topup_worker_queue_stats_up`
// says whether they are current.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { answerWithin, late } from './answer-within.js';

/** The outbox as the database sees it at scrape time. */
export interface DeliveryQueueStats {
  readonly pending: number;
  readonly oldestPendingAgeSeconds: number;
}

export interface WorkerMetrics {
  readonly registry: Registry;
  readonly callbackDeliveries: Counter<'outcome'>;
  readonly callbackAttemptDuration: Histogram<'result'>;
  readonly providerResults: Counter<'outcome' | 'applied'>;
  readonly transactionsTimedOut: Counter;
  readonly submissionsResumed: Counter<'result'>;
  /** Legs put in review, by why: `unsettled`, `contradiction`, `mismatch`, `refused`. */
  readonly reviews: Counter<'reason'>;
}

/** How long a scrape waits for the outbox query before reporting the gauges as stale. */
const defaultQueueStatsTimeoutMs = 1_000;

/**
 * Reads a gauge's value from the database for a scrape: one query shared by the gauges that ask during it,
 * and while one is still running (a silent database) no other is started. Undefined when it failed or did
 * not answer within `timeoutMs`.
 */
function scrapeSampler<T>(read: () => Promise<T>, timeoutMs: number): () => Promise<T | undefined> {
  let running: Promise<T | undefined> | undefined;
  return async () => {
    running ??= read()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
    const answer = await answerWithin(running, timeoutMs);
    return answer === late ? undefined : answer;
  };
}

export interface WorkerMetricsOptions {
  /** How long a scrape waits for the outbox query (default 1000 ms). */
  readonly queueStatsTimeoutMs?: number;
  /** How many legs wait for an operator, asked at each scrape like the outbox's stats. */
  readonly reviewItems?: () => Promise<number>;
}

/** Creates the worker's registry; `queueStats` is asked at each scrape. */
export function createWorkerMetrics(
  queueStats: () => Promise<DeliveryQueueStats>,
  options: WorkerMetricsOptions = {},
): WorkerMetrics {
  const registry = new Registry();
  const timeoutMs = options.queueStatsTimeoutMs ?? defaultQueueStatsTimeoutMs;
  const sample = scrapeSampler(queueStats, timeoutMs);
  const { reviewItems } = options;
  if (reviewItems !== undefined) {
    const sampleReviews = scrapeSampler(reviewItems, timeoutMs);
    new Gauge({
      name: 'topup_review_items',
      help: 'Legs waiting for an operator (topup legs unresolved): unsettled, contradicted, mismatched or refused',
      registers: [registry],
      async collect() {
        const waiting = await sampleReviews();
        if (waiting !== undefined) this.set(waiting);
      },
    });
  }
  new Gauge({
    name: 'topup_callback_queue_depth',
    help: 'Callback deliveries waiting to be delivered (pending)',
    registers: [registry],
    async collect() {
      const stats = await sample();
      if (stats !== undefined) this.set(stats.pending);
    },
  });
  new Gauge({
    name: 'topup_callback_oldest_pending_age_seconds',
    help: 'Age of the oldest pending callback delivery',
    registers: [registry],
    async collect() {
      const stats = await sample();
      if (stats !== undefined) this.set(stats.oldestPendingAgeSeconds);
    },
  });
  new Gauge({
    name: 'topup_worker_queue_stats_up',
    help: 'Whether this scrape read the callback queue gauges from the database (1) or kept their last values (0)',
    registers: [registry],
    async collect() {
      this.set((await sample()) === undefined ? 0 : 1);
    },
  });
  return {
    registry,
    callbackDeliveries: new Counter({
      name: 'topup_callback_deliveries_total',
      help: 'Callback delivery attempts by outcome: delivered, retry, failed, endpoint_gone',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    callbackAttemptDuration: new Histogram({
      name: 'topup_callback_attempt_duration_seconds',
      help: 'Callback attempt latency by result class (2xx, 3xx, 4xx, 5xx, timeout, error)',
      labelNames: ['result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers: [registry],
    }),
    providerResults: new Counter({
      name: 'topup_provider_results_total',
      help: 'Provider results by outcome, and whether they were applied or found the transaction resolved',
      labelNames: ['outcome', 'applied'],
      registers: [registry],
    }),
    transactionsTimedOut: new Counter({
      name: 'topup_transactions_timed_out_total',
      help: 'Transactions cancelled because the provider gave no result within the timeout',
      registers: [registry],
    }),
    submissionsResumed: new Counter({
      name: 'topup_submissions_resumed_total',
      help: 'Interrupted submissions sent to the provider again, by its answer',
      labelNames: ['result'],
      registers: [registry],
    }),
    reviews: new Counter({
      name: 'topup_reviews_opened_total',
      help: 'Legs put in review by this worker, by why: unsettled, contradiction, mismatch, refused',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}
