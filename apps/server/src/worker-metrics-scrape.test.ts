// The worker's metrics can be scraped in both shapes of the service: `pnpm start` (server and worker in one
// process, one /metrics) and `pnpm start:worker` (the worker alone, with its own /healthz and /metrics).
// Both run as real processes. Each transaction has two endpoints: one answers, so a delivery is counted;
// nothing listens at the other, so its delivery waits for a retry and the queue is one deep. A scrape
// while the store fails still succeeds, in process (the PostgreSQL outage test scrapes `start:worker`).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, openStore } from '@topup/ledger';
import { parseSendAgentFloat } from '@topup/validation';
import { createSandboxSimulator } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from './testing/callback-sink.js';
import type { CallbackSink } from './testing/callback-sink.js';
import { startService, startWorkerProcess } from './testing/child-process.js';
import { eventually } from './testing/eventually.js';
import { openPostgresSchema, postgresTestUrl } from './testing/postgres-schema.js';
import { startTestService } from './testing/test-service.js';

const databaseUrl = postgresTestUrl();
/** Port 9 (discard) on loopback: nothing listens there, so every attempt is refused. */
const deadEndpoint = 'http://127.0.0.1:9/callbacks';

/** The value of one sample in a Prometheus text exposition, or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('worker metrics', () => {
  let sink: CallbackSink;

  beforeAll(async () => {
    sink = await startCallbackSink();
  });

  afterAll(async () => {
    await sink.close();
  });

  it('shows the worker’s deliveries and queue depth beside the server’s metrics on `pnpm start`', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'topup-metrics-'));
    try {
      const service = await startService('src/main.ts', {
        TOPUP_DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: '0',
        HOST: '127.0.0.1',
        SIMULATOR_DELAY_MS: '50',
      });
      try {
        const token = /API token, shown only now: (tk_test_\w+)/.exec(service.output())?.[1] ?? '';
        const call = (name: string, body: unknown) =>
          fetch(`${service.url}/api/${name}`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
        expect((await call('add_callback_endpoint', { url: sink.url })).status).toBe(200);
        expect((await call('add_callback_endpoint', { url: deadEndpoint })).status).toBe(200);
        const sent = (await (
          await call('send_agent_float', { mobile: '254733000123', amount: '100' })
        ).json()) as {
          data: { transaction: { reference: string } };
        };
        const { reference } = sent.data.transaction;
        await eventually('the float’s callback', () =>
          sink.arrived.find((callback) => callback.reference === reference),
        );
        const text = await eventually('both first attempts to be counted', async () => {
          const scraped = await scrape(service.url);
          return sample(scraped, 'topup_callback_deliveries_total{outcome="delivered"}') === 1 &&
            sample(scraped, 'topup_callback_deliveries_total{outcome="retry"}') === 1
            ? scraped
            : undefined;
        });
        expect(sample(text, 'topup_callback_queue_depth')).toBe(1);
        expect(sample(text, 'topup_callback_oldest_pending_age_seconds')).toBeGreaterThan(0);
        expect(sample(text, 'topup_callback_attempt_duration_seconds_count{result="2xx"}')).toBe(1);
        expect(sample(text, 'topup_requests_total{function="send_agent_float",code="0000"}')).toBe(1);
      } finally {
        expect(await service.stop()).toBe(0);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('still answers /metrics while the store fails, the queue gauges kept and marked stale', async () => {
    const store = await openStore({ dataDir: 'memory://' });
    const service = await startTestService(store, { worker: true });
    try {
      const before = await scrape(service.url);
      expect(sample(before, 'topup_worker_queue_stats_up')).toBe(1);
      expect(sample(before, 'topup_callback_queue_depth')).toBe(0);
      const answering = store.query.bind(store);
      store.query = () => Promise.reject(new Error('Connection terminated unexpectedly'));
      try {
        const during = await scrape(service.url);
        expect(sample(during, 'topup_worker_queue_stats_up')).toBe(0);
        expect(sample(during, 'topup_callback_queue_depth')).toBe(0);
        expect(during).toContain('topup_requests_total');
      } finally {
        store.query = answering;
      }
      expect(sample(await scrape(service.url), 'topup_worker_queue_stats_up')).toBe(1);
    } finally {
      await service.stop();
      await store.close();
    }
  });

  it.skipIf(databaseUrl === undefined)(
    'serves /healthz and /metrics with deliveries and queue depth on `pnpm start:worker`',
    async () => {
      const db = await openPostgresSchema(databaseUrl ?? '');
      const ledger = createLedger(db.store);
      try {
        const account = await ledger.createAccount({ name: 'Metrics Ltd', mobile: '254700000100' });
        await ledger.fund(account.id, 'float', 1_000_000n);
        await ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json' });
        await ledger.addCallbackEndpoint(account.id, { url: deadEndpoint, format: 'json' });
        const parsed = parseSendAgentFloat({
          mobile: '254712345670',
          amount: '100',
          agent_number: '300300',
          store_number: '400400',
        });
        if (!parsed.ok)
          throw new Error(`Expected a valid float request, received ${parsed.errors.join(', ')}`);
        const created = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
        if (created.kind !== 'created')
          throw new Error(`Expected a created transaction, received ${created.kind}`);
        const { reference } = created.transaction;
        // Submitted as the server does: the simulator's result is ready at once, for the worker to apply.
        await createSandboxSimulator(db.store, { delayMs: 0 }).submit(created.transaction);
        await ledger.markSubmitted(reference);

        const worker = await startWorkerProcess({ ...db.env, LOG_LEVEL: 'info', HOST: '127.0.0.1' });
        try {
          const health = await fetch(`${worker.url}/healthz`);
          expect(health.status).toBe(200);
          expect(await health.json()).toEqual({ status: 'ok' });
          expect((await fetch(`${worker.url}/api/get_balance`)).status).toBe(404);

          await eventually('the float’s callback', () =>
            sink.arrived.find((callback) => callback.reference === reference),
          );
          const text = await eventually('both first attempts to be counted', async () => {
            const scraped = await scrape(worker.url);
            return sample(scraped, 'topup_callback_deliveries_total{outcome="delivered"}') === 1 &&
              sample(scraped, 'topup_callback_deliveries_total{outcome="retry"}') === 1
              ? scraped
              : undefined;
          });
          expect(sample(text, 'topup_callback_queue_depth')).toBe(1);
          expect(sample(text, 'topup_callback_oldest_pending_age_seconds')).toBeGreaterThan(0);
          expect(sample(text, 'topup_provider_results_total{outcome="completed",applied="true"}')).toBe(1);
          expect(text).toContain('process_cpu_seconds_total');
        } finally {
          expect(await worker.stop()).toBe(0);
        }
      } finally {
        await ledger.close();
        await db.drop();
      }
    },
    90_000,
  );
});
