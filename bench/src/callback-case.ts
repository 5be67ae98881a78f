// The callback case, on PostgreSQL: the server (a child) takes `buy_airtime` requests and the simulator
// completes each with no delay; a separate worker child completes them and delivers the signed callbacks
// to a keep-alive receiver in the harness.
//
// Throughput: with the worker stopped, N transactions are requested; then the worker starts and
// deliveries per second = N / (last arrival − first completion). Latency: with the worker running,
// requests are offered at a fixed rate and each callback's arrival is compared with the moment its
// transaction was completed (`resolved_at`).

import pg from 'pg';
import type { BenchOptions } from './bench-options.js';
import { createBenchCaller } from './bench-caller.js';
import type { BenchCaller } from './bench-caller.js';
import { airtimeRequest } from './bench-requests.js';
import { postgresBenchStore } from './bench-store.js';
import type { BenchStore } from './bench-store.js';
import { startBenchCallbackReceiver } from './callback-receiver.js';
import type { BenchCallbackReceiver } from './callback-receiver.js';
import type { CaseResult } from './case-result.js';
import { runLoad } from './load-run.js';
import type { LoadSample } from './load-run.js';
import { serverResidentBytes } from './server-memory.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';
import type { ServiceProcess } from './service-process.js';
import { median, percentile } from './statistics.js';

export const callbackCaseId = 'callbacks';

interface Completion {
  readonly reference: string;
  readonly resolvedAt: number;
}

interface Context {
  readonly options: BenchOptions;
  readonly store: BenchStore;
  readonly caller: BenchCaller;
  readonly receiver: BenchCallbackReceiver;
  readonly server: ServiceProcess;
  readonly database: pg.Client;
  readonly env: Readonly<Record<string, string>>;
}

/** Completion times of the transactions created since `since`. */
async function completionsSince(database: pg.Client, since: Date): Promise<Completion[]> {
  const { rows } = await database.query<{ reference: string; resolved_at: Date | null }>(
    'SELECT reference, resolved_at FROM transactions WHERE created_at >= $1',
    [since],
  );
  return rows.flatMap((row) =>
    row.resolved_at === null ? [] : [{ reference: row.reference, resolvedAt: row.resolved_at.getTime() }],
  );
}

/** Time for `count` callbacks to arrive, generously: a broken pipeline is reported, not waited on forever. */
function patienceMs(count: number): number {
  return 30_000 + count * 5;
}

/** One throughput run: N requested with the worker stopped, then drained by a fresh worker. */
async function throughputRun(context: Context, count: number): Promise<LoadSample> {
  const { options, receiver, server, database } = context;
  receiver.reset();
  const since = new Date();
  const created = await runLoad({
    url: server.url,
    request: airtimeRequest(context.caller.token, 'json'),
    connections: options.connections,
    durationSeconds: 0,
    amount: count,
  });
  const worker = await startServiceProcess('worker', context.env, { cpuProfileDir: options.cpuProfileDir });
  let complete: boolean;
  try {
    complete = await receiver.waitFor(created.succeeded, patienceMs(created.succeeded));
  } finally {
    await worker.stop();
  }
  const completions = await completionsSince(database, since);
  const firstCompletion = Math.min(...completions.map((completion) => completion.resolvedAt));
  const lastArrival = Math.max(...receiver.arrivals.values());
  const seconds = (lastArrival - firstCompletion) / 1000;
  const latencies = latenciesOf(completions, receiver.arrivals);
  return {
    requestsPerSecond: receiver.arrivals.size / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: created.errors + (complete ? 0 : created.succeeded - receiver.arrivals.size),
    succeeded: receiver.arrivals.size,
    statusCodes: created.statusCodes,
  };
}

function latenciesOf(completions: readonly Completion[], arrivals: ReadonlyMap<string, number>): number[] {
  return completions.flatMap((completion) => {
    const arrivedAt = arrivals.get(completion.reference);
    return arrivedAt === undefined ? [] : [arrivedAt - completion.resolvedAt];
  });
}

/** One latency run: requests offered at a fixed rate while the worker runs. */
async function latencyRun(context: Context): Promise<LoadSample> {
  const { options, receiver, server, database } = context;
  receiver.reset();
  const since = new Date();
  const offered = await runLoad({
    url: server.url,
    request: airtimeRequest(context.caller.token, 'json'),
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    overallRate: options.callbackOfferedRate,
  });
  const complete = await receiver.waitFor(offered.succeeded, patienceMs(offered.succeeded));
  const latencies = latenciesOf(await completionsSince(database, since), receiver.arrivals);
  return {
    requestsPerSecond: offered.requestsPerSecond,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: offered.errors + (complete ? 0 : offered.succeeded - receiver.arrivals.size),
    succeeded: receiver.arrivals.size,
    statusCodes: offered.statusCodes,
  };
}

/** Runs the callback case from a clean schema to stopped children. */
export async function runCallbackCase(options: BenchOptions): Promise<CaseResult> {
  const store = postgresBenchStore(options.databaseUrl);
  const receiver = await startBenchCallbackReceiver();
  const database = new pg.Client({
    connectionString: options.databaseUrl,
    options: `-c search_path=${store.env.DATABASE_SCHEMA ?? 'public'}`,
  });
  try {
    const opened = await store.open();
    const caller = await createBenchCaller(opened, { callbackUrl: receiver.url }).finally(() =>
      opened.close(),
    );
    await database.connect();
    const env = { ...serviceEnvironment, ...store.env, SIMULATOR_DELAY_MS: '0' };
    const server = await startServiceProcess('server', env, { cpuProfileDir: options.cpuProfileDir });
    try {
      const context: Context = { options, store, caller, receiver, server, database, env };
      if (options.warmupSeconds > 0)
        await throughputRun(context, Math.round(options.callbackTransactions / 10));
      const drains: LoadSample[] = [];
      for (let run = 0; run < options.runs; run += 1) {
        drains.push(await throughputRun(context, options.callbackTransactions));
      }
      const worker = await startServiceProcess('worker', env, { cpuProfileDir: options.cpuProfileDir });
      const offered: LoadSample[] = [];
      let workerRssBytes: number | undefined;
      try {
        for (let run = 0; run < options.runs; run += 1) offered.push(await latencyRun(context));
        workerRssBytes = await worker.residentBytes();
      } finally {
        await worker.stop();
      }
      return {
        id: callbackCaseId,
        title: `callbacks: ${options.callbackTransactions} completed, delivered; latency at ${options.callbackOfferedRate}/s`,
        unit: 'deliveries/s',
        perSecond: median(drains.map((run) => run.requestsPerSecond)),
        p50Ms: median(offered.map((run) => run.p50Ms)),
        p99Ms: median(offered.map((run) => run.p99Ms)),
        errors: [...drains, ...offered].reduce((sum, run) => sum + run.errors, 0),
        serverRssBytes: await serverResidentBytes(server.url),
        runs: drains,
        details: { latencyRuns: offered, workerRssBytes, repeatedCallbacks: receiver.repeats },
      };
    } finally {
      await server.stop();
    }
  } finally {
    await database.end().catch(() => undefined);
    await receiver.close();
    await store.remove();
  }
}
