// A request case: a fresh store with a funded caller, the service (or the baseline) in child processes,
// a warm-up, then the measured runs at full speed from 64 connections; the server's memory at the end.
// The service runs in its production shape for its store: on PostgreSQL a server process and a worker
// process side by side (`pnpm start:server` and `pnpm start:worker`), so the worker's completions compete
// for the same cores and database as they would in production; on PGlite the one process of `pnpm start`,
// which runs the worker inside.

import type { BenchOptions } from './bench-options.js';
import type { BenchCaller } from './bench-caller.js';
import { createBenchCaller } from './bench-caller.js';
import { pgliteBenchStore, postgresBenchStore } from './bench-store.js';
import type { BenchStore, StoreKind } from './bench-store.js';
import type { CaseResult } from './case-result.js';
import { runLoad } from './load-run.js';
import type { LoadRequest, LoadSample } from './load-run.js';
import { serverResidentBytes } from './server-memory.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';
import { median } from './statistics.js';

export interface RequestCase {
  readonly id: string;
  readonly title: string;
  /** No store: the bare Koa baseline. */
  readonly store: StoreKind | 'none';
  readonly request: (caller: BenchCaller) => LoadRequest;
}

async function benchStoreFor(kind: StoreKind, options: BenchOptions): Promise<BenchStore> {
  return kind === 'postgres' ? postgresBenchStore(options.databaseUrl) : pgliteBenchStore();
}

async function seededCaller(store: BenchStore): Promise<BenchCaller> {
  const opened = await store.open();
  try {
    return await createBenchCaller(opened);
  } finally {
    await opened.close();
  }
}

/** Runs one request case from a clean store to a stopped service. */
export async function runRequestCase(definition: RequestCase, options: BenchOptions): Promise<CaseResult> {
  const store = definition.store === 'none' ? undefined : await benchStoreFor(definition.store, options);
  try {
    const caller = store === undefined ? { accountId: '', token: '' } : await seededCaller(store);
    const entry =
      definition.store === 'none' ? 'baseline' : definition.store === 'pglite' ? 'service' : 'server';
    const env = { ...serviceEnvironment, ...store?.env };
    const profiling = { cpuProfileDir: options.cpuProfileDir };
    const service = await startServiceProcess(entry, env, profiling);
    const worker =
      definition.store === 'postgres'
        ? await startServiceProcess('worker', env, profiling).catch(async (error: unknown) => {
            await service.stop();
            throw error;
          })
        : undefined;
    try {
      const load = (durationSeconds: number) =>
        runLoad({
          url: service.url,
          request: definition.request(caller),
          connections: options.connections,
          durationSeconds,
        });
      if (options.warmupSeconds > 0) await load(options.warmupSeconds);
      const runs: LoadSample[] = [];
      for (let run = 0; run < options.runs; run += 1) runs.push(await load(options.durationSeconds));
      const rss =
        (await serverResidentBytes(service.url).catch(() => undefined)) ?? (await service.residentBytes());
      const workerRssBytes = await worker?.residentBytes();
      const workerExit = worker?.exitReport();
      if (workerExit !== undefined) {
        throw new Error(`Expected the worker to run through ${definition.id}, but ${workerExit}`);
      }
      return {
        id: definition.id,
        title: definition.title,
        unit: 'requests/s',
        perSecond: median(runs.map((run) => run.requestsPerSecond)),
        p50Ms: median(runs.map((run) => run.p50Ms)),
        p99Ms: median(runs.map((run) => run.p99Ms)),
        errors: runs.reduce((sum, run) => sum + run.errors, 0),
        serverRssBytes: rss,
        runs,
        ...(worker === undefined ? {} : { details: { workerRssBytes } }),
      };
    } finally {
      await Promise.all([service.stop(), worker?.stop()]);
    }
  } finally {
    await store?.remove();
  }
}
