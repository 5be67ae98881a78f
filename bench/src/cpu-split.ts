// `pnpm bench:cpu`: where the CPU of one request goes. A fixed number of requests is sent to the service in
// its production shape (server and worker processes on PostgreSQL, or the one process of `pnpm start` on
// PGlite), and the CPU time each process used meanwhile is read from /proc: the server, the worker, the
// PostgreSQL backends of each (found by application_name) and the load generator. Unlike requests per
// second, CPU per request hardly moves when other work shares the cores, so it compares two versions of
// the code on a busy machine. Linux only.
//
//   pnpm bench:cpu [float|airtime-json|airtime-xml] [postgres|pglite] [requests]

import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createBenchCaller } from './bench-caller.js';
import { airtimeRequest, floatRequest } from './bench-requests.js';
import { pgliteBenchStore, postgresBenchStore } from './bench-store.js';
import { runLoad } from './load-run.js';
import { cpuSeconds } from './process-cpu.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';

const kinds = ['float', 'airtime-json', 'airtime-xml'] as const;
const stores = ['postgres', 'pglite'] as const;

function choice<T extends string>(what: string, allowed: readonly T[], given: string | undefined): T {
  const value = given ?? allowed[0];
  if (!allowed.includes(value as T)) {
    throw new Error(`Expected ${what} among ${allowed.join(', ')}, received ${JSON.stringify(given)}.`);
  }
  return value as T;
}

async function backendPids(database: pg.Client, application: string): Promise<number[]> {
  const { rows } = await database.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
    [application],
  );
  return rows.map((row) => row.pid);
}

async function main(): Promise<void> {
  const [kindArgument, storeArgument, countArgument] = process.argv.slice(2);
  const kind = choice('a request kind', kinds, kindArgument);
  const storeKind = choice('a store', stores, storeArgument);
  const count = Number(countArgument ?? '20000');
  if (!Number.isInteger(count) || count < 1000) {
    throw new Error(`Expected at least 1000 requests, received ${JSON.stringify(countArgument)}.`);
  }
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const store = storeKind === 'postgres' ? postgresBenchStore(databaseUrl) : await pgliteBenchStore();
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    const seeding = await store.open();
    const caller = await createBenchCaller(seeding).finally(() => seeding.close());
    const env = { ...serviceEnvironment, ...store.env };
    const onPostgres = storeKind === 'postgres';
    const server = await startServiceProcess(onPostgres ? 'server' : 'service', {
      ...env,
      PGAPPNAME: 'bench-cpu-server',
    });
    const worker = onPostgres
      ? await startServiceProcess('worker', { ...env, PGAPPNAME: 'bench-cpu-worker' })
      : undefined;
    try {
      const request =
        kind === 'float'
          ? floatRequest(caller.token)
          : airtimeRequest(caller.token, kind === 'airtime-xml' ? 'xml' : 'json');
      const load = (amount: number, durationSeconds: number) =>
        runLoad({ url: server.url, request, connections: 64, durationSeconds, amount });
      await load(Math.floor(count / 5), 0);
      const processes = async () => ({
        server: [server.pid],
        'server PostgreSQL': await backendPids(database, 'bench-cpu-server'),
        worker: worker === undefined ? [] : [worker.pid],
        'worker PostgreSQL': await backendPids(database, 'bench-cpu-worker'),
        'load generator': [process.pid],
      });
      const before = await processes();
      const used = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const start = Object.fromEntries(Object.entries(before).map(([name, pids]) => [name, used(pids)]));
      const started = performance.now();
      const sample = await load(count, 0);
      const seconds = (performance.now() - started) / 1000;
      // The worker completes what the load created after the simulator's delay: its share is counted too.
      await sleep(2_500);
      const after = await processes();
      const lines: string[] = [];
      let total = 0;
      for (const [name, pids] of Object.entries(after)) {
        // Backends opened during the run count from zero.
        const known = before[name as keyof typeof before];
        const spent =
          used(pids.filter((pid) => known.includes(pid))) -
          (start[name] ?? 0) +
          used(pids.filter((pid) => !known.includes(pid)));
        const micros = (spent / sample.succeeded) * 1e6;
        total += micros;
        lines.push(`  ${name.padEnd(18)} ${micros.toFixed(0).padStart(5)} µs`);
      }
      process.stdout.write(
        `${kind} on ${storeKind}: ${sample.succeeded} answered 2xx, ${sample.errors} errors, ` +
          `${(sample.succeeded / seconds).toFixed(0)} per second\nCPU per request:\n${lines.join('\n')}\n` +
          `  ${'total'.padEnd(18)} ${total.toFixed(0).padStart(5)} µs\n`,
      );
      if (sample.errors > 0) process.exitCode = 1;
    } finally {
      await Promise.all([server.stop(), worker?.stop()]);
    }
  } finally {
    await database.end();
    await store.remove();
  }
}

await main();
