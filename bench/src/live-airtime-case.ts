// The live airtime case, on PostgreSQL: the service in live mode (a server child and a worker child, as
// the other PostgreSQL cases run it) against the fake Daraja and the fake Africa's Talking in the harness
// process (live-providers.ts), with a live caller. Each run sends a fixed number of purchases from 64
// connections, each paid by STK push and delivered by the carrier, and measures:
//
// - the requests: answers per second and their latency, as the request cases report them (plus p95);
// - the purchases end to end: completed purchases per second from the first request until the last of them
//   is `completed` (its `resolved_at`), polled from the database with a bounded wait;
// - the CPU each purchase cost the server, the worker and the harness (the load generator and both fakes),
//   since on a busy machine CPU per purchase moves far less than purchases per second, and the harness's
//   share says how much of the cores the fakes took from the service.
//
// There is no target yet: the case fails the bench only when the harness breaks (an answer that is not
// 2xx, a purchase that ends otherwise or is not completed within the wait), never on speed.

import pg from 'pg';
import type { BenchOptions } from './bench-options.js';
import { createBenchCaller } from './bench-caller.js';
import type { BenchCaller } from './bench-caller.js';
import { liveAirtimeRequest } from './bench-requests.js';
import { postgresBenchStore } from './bench-store.js';
import type { CaseResult } from './case-result.js';
import { fakeDelayMs, startBenchLiveProviders } from './live-providers.js';
import type { BenchLiveProviders } from './live-providers.js';
import { runLoad } from './load-run.js';
import type { LoadSample } from './load-run.js';
import { cpuSeconds } from './process-cpu.js';
import { serverResidentBytes } from './server-memory.js';
import { serviceEnvironment } from './service-environment.js';
import { freePort, startServiceProcess } from './service-process.js';
import type { ServiceProcess } from './service-process.js';
import { median, percentile } from './statistics.js';

export const liveAirtimeCaseId = 'airtime-live';
export const liveAirtimeCaseTitle = 'live airtime against the fakes (Daraja STK push, Africa’s Talking)';

/** One run: its requests as the load generator saw them, and its purchases as the database holds them. */
export interface PurchaseRun {
  readonly requests: LoadSample;
  /** Purchases answered 2xx, each of which must end `completed`. */
  readonly purchases: number;
  readonly completed: number;
  /** Purchases that ended otherwise (cancelled) or were still open when the wait ran out. */
  readonly notCompleted: number;
  /** From the moment the first request was sent to the last purchase's `resolved_at`. */
  readonly seconds: number;
  readonly purchasesPerSecond: number;
  /** Each completed purchase's time from `created_at` to `resolved_at`: p50 and p95. */
  readonly completionP50Ms: number;
  readonly completionP95Ms: number;
  /** CPU milliseconds per purchase, from /proc over the run until every purchase ended (0 off Linux). */
  readonly cpuMsPerPurchase: { readonly server: number; readonly worker: number; readonly harness: number };
}

interface Context {
  readonly options: BenchOptions;
  readonly caller: BenchCaller;
  readonly server: ServiceProcess;
  readonly worker: ServiceProcess;
  readonly database: pg.Client;
  readonly providers: BenchLiveProviders;
}

interface Settlement {
  readonly total: number;
  readonly open: number;
  readonly completed: number;
  readonly lastResolved: Date | null;
}

/**
 * Time for `count` purchases to complete, generously: each needs a few worker rounds and two fake
 * delays; a broken pipeline is reported, not waited on forever.
 */
function patienceMs(count: number): number {
  return 30_000 + count * 10;
}

const pollMs = 50;

/** Where the purchases created since `since` stand. */
async function settlementSince(database: pg.Client, since: Date): Promise<Settlement> {
  const { rows } = await database.query<Settlement>(
    `SELECT count(*)::int AS total,
            (count(*) FILTER (WHERE state = 'requested'))::int AS open,
            (count(*) FILTER (WHERE state = 'completed'))::int AS completed,
            max(resolved_at) AS "lastResolved"
       FROM transactions WHERE created_at >= $1`,
    [since],
  );
  const [row] = rows;
  if (row === undefined) throw new Error('Expected one row of counts, received none.');
  return row;
}

/** Polls until `expected` purchases since `since` have all ended, or `timeoutMs` has passed. */
async function waitUntilSettled(
  database: pg.Client,
  since: Date,
  expected: number,
  timeoutMs: number,
): Promise<Settlement> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const settlement = await settlementSince(database, since);
    if ((settlement.total >= expected && settlement.open === 0) || Date.now() > deadline) return settlement;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Milliseconds from creation to completion of each purchase completed since `since`. */
async function completionTimesSince(database: pg.Client, since: Date): Promise<number[]> {
  const { rows } = await database.query<{ ms: number }>(
    `SELECT (extract(epoch FROM resolved_at - created_at) * 1000)::float8 AS ms
       FROM transactions WHERE created_at >= $1 AND state = 'completed'`,
    [since],
  );
  return rows.map((row) => row.ms);
}

/** One run: `count` purchases sent as fast as the server answers, then waited on until all are completed. */
async function purchaseRun(context: Context, count: number): Promise<PurchaseRun> {
  const { options, caller, server, worker, database } = context;
  const pids = { server: server.pid, worker: worker.pid, harness: process.pid };
  const cpuBefore = {
    server: cpuSeconds(pids.server),
    worker: cpuSeconds(pids.worker),
    harness: cpuSeconds(pids.harness),
  };
  const since = new Date();
  const requests = await runLoad({
    url: server.url,
    request: liveAirtimeRequest(caller.token),
    // autocannon refuses more connections than requests (a smoke run's few purchases).
    connections: Math.min(options.connections, count),
    durationSeconds: 0,
    amount: count,
    p95: true,
  });
  const settlement = await waitUntilSettled(
    database,
    since,
    requests.succeeded,
    patienceMs(requests.succeeded),
  );
  const seconds =
    settlement.lastResolved === null
      ? Number.NaN
      : (settlement.lastResolved.getTime() - since.getTime()) / 1000;
  // Per purchase taken (2xx), completed or not, so a broken run still reports a finite figure.
  const cpuMs = (name: keyof typeof pids) =>
    ((cpuSeconds(pids[name]) - cpuBefore[name]) * 1000) / Math.max(1, requests.succeeded);
  const times = await completionTimesSince(database, since);
  return {
    requests,
    purchases: requests.succeeded,
    completed: settlement.completed,
    notCompleted: Math.max(requests.succeeded, settlement.total) - settlement.completed,
    seconds,
    purchasesPerSecond: settlement.completed / seconds,
    completionP50Ms: percentile(times, 50),
    completionP95Ms: percentile(times, 95),
    cpuMsPerPurchase: { server: cpuMs('server'), worker: cpuMs('worker'), harness: cpuMs('harness') },
  };
}

const errorsOf = (run: PurchaseRun) => run.requests.errors + run.notCompleted;

function broken(run: PurchaseRun, providers: BenchLiveProviders): string {
  return (
    `${run.requests.errors} error answers (${JSON.stringify(run.requests.statusCodes)}), ` +
    `${run.notCompleted} of ${run.purchases} purchases not completed, ` +
    `${providers.refusedCallbacks()} fake callbacks not answered 200`
  );
}

function whole(value: number): string {
  return Math.round(value).toLocaleString('en-GB');
}

/** Runs the live airtime case from a clean schema to stopped children and closed fakes. */
export async function runLiveAirtimeCase(options: BenchOptions): Promise<CaseResult> {
  const store = postgresBenchStore(options.databaseUrl);
  // The server's address is part of its configuration (PUBLIC_BASE_URL) and of the fake carrier's.
  const port = await freePort();
  const providers = await startBenchLiveProviders(port);
  const database = new pg.Client({
    connectionString: options.databaseUrl,
    options: `-c search_path=${store.env.DATABASE_SCHEMA ?? 'public'}`,
  });
  try {
    const opened = await store.open();
    const caller = await createBenchCaller(opened, { tokenMode: 'live' }).finally(() => opened.close());
    await database.connect();
    const env = { ...serviceEnvironment, ...store.env, ...providers.env };
    const profiling = { cpuProfileDir: options.cpuProfileDir };
    const server = await startServiceProcess('server', env, { ...profiling, port });
    const worker = await startServiceProcess('worker', env, profiling).catch(async (error: unknown) => {
      await server.stop();
      throw error;
    });
    try {
      const context: Context = { options, caller, server, worker, database, providers };
      if (options.warmupSeconds > 0) {
        const warmup = await purchaseRun(context, Math.round(options.livePurchases / 10));
        if (errorsOf(warmup) > 0) {
          throw new Error(
            `Expected the ${liveAirtimeCaseId} warm-up to complete, but ${broken(warmup, providers)}`,
          );
        }
      }
      const runs: PurchaseRun[] = [];
      for (let run = 0; run < options.runs; run += 1) {
        const measured = await purchaseRun(context, options.livePurchases);
        runs.push(measured);
        // A run that left purchases behind has already waited its full patience; another would too.
        if (errorsOf(measured) > 0) {
          process.stderr.write(`${liveAirtimeCaseId}: ${broken(measured, providers)}\n`);
          break;
        }
      }
      const workerRssBytes = await worker.residentBytes();
      const workerExit = worker.exitReport();
      if (workerExit !== undefined) {
        throw new Error(`Expected the worker to run through ${liveAirtimeCaseId}, but ${workerExit}`);
      }
      const samples = runs.map((run) => run.requests);
      const perSecond = median(samples.map((run) => run.requestsPerSecond));
      const p50Ms = median(samples.map((run) => run.p50Ms));
      const p95Ms = median(samples.map((run) => run.p95Ms ?? Number.NaN));
      const purchasesPerSecond = median(runs.map((run) => run.purchasesPerSecond));
      const completed = runs.map((run) => `${whole(run.completed)}/${whole(run.purchases)}`).join(', ');
      const completionP50Ms = median(runs.map((run) => run.completionP50Ms));
      const cpuMs = (name: keyof PurchaseRun['cpuMsPerPurchase']) =>
        median(runs.map((run) => run.cpuMsPerPurchase[name]));
      return {
        id: liveAirtimeCaseId,
        title: liveAirtimeCaseTitle,
        unit: 'requests/s',
        perSecond,
        p50Ms,
        p99Ms: median(samples.map((run) => run.p99Ms)),
        errors: runs.reduce((sum, run) => sum + errorsOf(run), 0),
        serverRssBytes: await serverResidentBytes(server.url),
        runs: samples,
        details: {
          purchasesPerRun: options.livePurchases,
          p95Ms,
          purchasesPerSecond,
          completionP50Ms,
          fakeDelayMs,
          cpuMsPerPurchase: { server: cpuMs('server'), worker: cpuMs('worker'), harness: cpuMs('harness') },
          purchaseRuns: runs,
          workerRssBytes,
        },
        note:
          `${liveAirtimeCaseId} (no target yet): ${whole(options.livePurchases)} purchases per run from ` +
          `${options.connections} connections; requests ${whole(perSecond)}/s, p50 ${p50Ms.toFixed(1)} ms, ` +
          `p95 ${p95Ms.toFixed(1)} ms; end to end ${whole(purchasesPerSecond)} purchases/s (completed per ` +
          `run: ${completed}), each completed in p50 ${whole(completionP50Ms)} ms; CPU per purchase: ` +
          `server ${cpuMs('server').toFixed(2)} ms, worker ${cpuMs('worker').toFixed(2)} ms, harness (load ` +
          `and fakes) ${cpuMs('harness').toFixed(2)} ms. The fakes end each STK prompt and each delivery after ${fakeDelayMs} ms, ` +
          `so the figures measure the service carrying the legs, not the providers' scripted delays.`,
      };
    } finally {
      await Promise.all([server.stop(), worker.stop()]);
    }
  } finally {
    await database.end().catch(() => undefined);
    await providers.close();
    await store.remove();
  }
}
