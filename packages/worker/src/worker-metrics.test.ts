import { describe, expect, it } from 'vitest';
import { createWorkerMetrics } from './worker-metrics.js';
import type { DeliveryQueueStats } from './worker-metrics.js';

/** The value of one sample in a Prometheus text exposition, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A store whose outbox query answers, fails or hangs as the test says, counting the queries asked. */
function outbox() {
  let answer: () => Promise<DeliveryQueueStats> = () =>
    Promise.resolve({ pending: 3, oldestPendingAgeSeconds: 42 });
  const asked = { queries: 0 };
  return {
    asked,
    answerWith(next: () => Promise<DeliveryQueueStats>) {
      answer = next;
    },
    queueStats: () => {
      asked.queries += 1;
      return answer();
    },
  };
}

const gauges = (text: string) => ({
  depth: sample(text, 'topup_callback_queue_depth'),
  age: sample(text, 'topup_callback_oldest_pending_age_seconds'),
  up: sample(text, 'topup_worker_queue_stats_up'),
});

describe('the worker’s queue gauges', () => {
  it('read the outbox once per scrape and report it current', async () => {
    const store = outbox();
    const { registry } = createWorkerMetrics(store.queueStats);
    expect(gauges(await registry.metrics())).toEqual({ depth: 3, age: 42, up: 1 });
    expect(store.asked.queries).toBe(1);
  });

  it('keep their last values and report queue_stats_up 0 when the store fails, without failing the scrape', async () => {
    const store = outbox();
    const { registry } = createWorkerMetrics(store.queueStats);
    await registry.metrics();
    store.answerWith(() => Promise.reject(new Error('Connection terminated unexpectedly')));
    const text = await registry.metrics();
    expect(gauges(text)).toEqual({ depth: 3, age: 42, up: 0 });
    expect(text).toContain('topup_callback_deliveries_total');
    store.answerWith(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 }));
    expect(gauges(await registry.metrics())).toEqual({ depth: 0, age: 0, up: 1 });
  });

  it('give up a store that does not answer within the bound, and ask it nothing more meanwhile', async () => {
    const store = outbox();
    const { registry } = createWorkerMetrics(store.queueStats, { queueStatsTimeoutMs: 200 });
    await registry.metrics();
    let answer: (stats: DeliveryQueueStats) => void = () => undefined;
    store.answerWith(() => new Promise((resolve) => (answer = resolve)));
    for (let scrape = 0; scrape < 2; scrape += 1) {
      const started = Date.now();
      expect(gauges(await registry.metrics())).toEqual({ depth: 3, age: 42, up: 0 });
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    expect(store.asked.queries).toBe(2);
    answer({ pending: 7, oldestPendingAgeSeconds: 9 });
    await new Promise((resolve) => setImmediate(resolve));
    store.answerWith(() => Promise.resolve({ pending: 8, oldestPendingAgeSeconds: 10 }));
    expect(gauges(await registry.metrics())).toEqual({ depth: 8, age: 10, up: 1 });
  });
});
