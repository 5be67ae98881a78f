// `pnpm soak`: the service in its production shape on PostgreSQL (a server process and a worker process,
// logs at info to a file, synchronous_commit on) under a steady mix of `send_agent_float` and `buy_airtime`
// at half the benchmark's float throughput, every transaction calling back a keep-alive receiver on
// loopback. Reports each minute's rate, errors, callbacks delivered against transactions answered, and the
// resident memory of both processes; after the load, waits (bounded) for the last callbacks. Exits non-zero
// unless there were no errors, every transaction's callback arrived, and neither process's memory grew by
// 10 % or more from minute 1 to the last minute. A run of the default length also writes
// bench/results/soak-latest.json.

import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { createBenchCaller } from './bench-caller.js';
import { writeFormattedFile } from './formatted-file.js';
import { airtimeRequest, floatRequest } from './bench-requests.js';
import { postgresBenchStore } from './bench-store.js';
import { startBenchCallbackReceiver } from './callback-receiver.js';
import type { BenchCallbackReceiver } from './callback-receiver.js';
import { runLoad } from './load-run.js';
import { describeMachine } from './machine.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';
import type { ServiceProcess } from './service-process.js';
import { parseSoakOptions } from './soak-options.js';
import { defaultSoakRate } from './soak-rate.js';

interface SoakMinute {
  readonly minute: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  /** 2xx answers up to the end of this minute: each is a transaction that owes a callback. */
  readonly answeredTotal: number;
  /** Distinct transactions whose callback had arrived by the end of this minute. */
  readonly deliveredTotal: number;
  readonly serverRssBytes: number | undefined;
  readonly workerRssBytes: number | undefined;
}

const megabyte = 1024 * 1024;
const allowedGrowth = 0.1;
const defaultMinutes = 5;

function mb(bytes: number | undefined): string {
  return bytes === undefined ? '–' : `${(bytes / megabyte).toFixed(0)} MB`;
}

function growth(first: number | undefined, last: number | undefined): number {
  return first === undefined || last === undefined ? Number.NaN : (last - first) / first;
}

function row(cells: readonly string[]): string {
  const widths = [6, 12, 10, 8, 22, 12, 12];
  return cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
}

function assertRunning(processes: readonly ServiceProcess[]): void {
  for (const service of processes) {
    const exit = service.exitReport();
    if (exit !== undefined)
      throw new Error(`Expected the ${service.entry} to run through the soak, but ${exit}`);
  }
}

interface TransactionCount {
  readonly created: number;
  readonly open: number;
}

async function countTransactions(database: pg.Client): Promise<TransactionCount> {
  const { rows } = await database.query<{ created: string; open: string }>(
    "SELECT count(*) AS created, count(*) FILTER (WHERE state = 'requested') AS open FROM transactions",
  );
  return { created: Number(rows[0]?.created ?? 0), open: Number(rows[0]?.open ?? 0) };
}

/**
 * Waits until one callback has arrived for every stored transaction. The count is re-read rather than
 * taken once when the load stops, because requests still in flight then are committed a moment later
 * and owe callbacks too.
 */
async function drainCallbacks(
  database: pg.Client,
  receiver: BenchCallbackReceiver,
  timeoutMs: number,
): Promise<{ readonly drained: boolean; readonly created: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { created } = await countTransactions(database);
    const arrived = await receiver.waitFor(created, Math.max(0, deadline - Date.now()));
    const settled = await countTransactions(database);
    if (arrived && settled.created === created)
      return { drained: receiver.arrivals.size === created, created };
    if (!arrived) return { drained: false, created: settled.created };
  }
}

async function main(): Promise<void> {
  const options = parseSoakOptions(process.argv.slice(2), process.env);
  const startedAt = new Date().toISOString();
  const machine = await describeMachine(options.databaseUrl);
  const rate =
    options.rate === undefined
      ? await defaultSoakRate(options.databaseUrl)
      : { perSecond: options.rate, source: '--rate' };
  process.stdout.write(
    `Soak: ${options.minutes} min at ${rate.perSecond} requests/s (${rate.source}), float and airtime ` +
      `alternating, ${options.connections} connections, PostgreSQL ${machine.postgres}.\n\n`,
  );

  const store = postgresBenchStore(options.databaseUrl);
  const receiver = await startBenchCallbackReceiver();
  const database = new pg.Client({
    connectionString: options.databaseUrl,
    options: `-c search_path=${store.env.DATABASE_SCHEMA ?? 'public'}`,
  });
  const minutes: SoakMinute[] = [];
  try {
    const opened = await store.open();
    const caller = await createBenchCaller(opened, { callbackUrl: receiver.url }).finally(() =>
      opened.close(),
    );
    await database.connect();
    const env = { ...serviceEnvironment, ...store.env };
    const server = await startServiceProcess('server', env);
    const processes: ServiceProcess[] = [server];
    try {
      processes.push(await startServiceProcess('worker', env));
      const [, worker] = processes;
      const mix = [floatRequest(caller.token), airtimeRequest(caller.token, 'json')];
      process.stdout.write(
        `${row(['minute', 'requests/s', 'p99 ms', 'errors', 'callbacks delivered', 'server RSS', 'worker RSS'])}\n`,
      );
      let answeredTotal = 0;
      for (let minute = 1; minute <= options.minutes; minute += 1) {
        const sample = await runLoad({
          url: server.url,
          request: mix,
          connections: options.connections,
          durationSeconds: 60,
          overallRate: rate.perSecond,
        });
        assertRunning(processes);
        answeredTotal += sample.succeeded;
        const result: SoakMinute = {
          minute,
          requestsPerSecond: sample.requestsPerSecond,
          p99Ms: sample.p99Ms,
          errors: sample.errors,
          statusCodes: sample.statusCodes,
          answeredTotal,
          deliveredTotal: receiver.arrivals.size,
          serverRssBytes: await server.residentBytes(),
          workerRssBytes: await worker?.residentBytes(),
        };
        minutes.push(result);
        process.stdout.write(
          `${row([
            String(minute),
            result.requestsPerSecond.toFixed(0),
            result.p99Ms.toFixed(0),
            String(result.errors),
            `${result.deliveredTotal} / ${result.answeredTotal}`,
            mb(result.serverRssBytes),
            mb(result.workerRssBytes),
          ])}\n`,
        );
      }

      const atLoadEnd = await countTransactions(database);
      const drainStarted = Date.now();
      const drain = await drainCallbacks(database, receiver, options.drainSeconds * 1000);
      const drainSeconds = (Date.now() - drainStarted) / 1000;
      assertRunning(processes);

      const first = minutes[0];
      const last = minutes.at(-1);
      const errors = minutes.reduce((sum, minute) => sum + minute.errors, 0);
      const serverGrowth = growth(first?.serverRssBytes, last?.serverRssBytes);
      const workerGrowth = growth(first?.workerRssBytes, last?.workerRssBytes);
      const checks = [
        { check: 'zero errors', met: errors === 0, measured: `${errors} errors` },
        {
          // More are expected: requests still in flight when a minute's load generator stops are
          // committed by the service but never counted as answered.
          check: 'at least one stored transaction per 2xx answer',
          met: drain.created >= answeredTotal,
          measured: `${drain.created} transactions for ${answeredTotal} 2xx answers`,
        },
        {
          check: `every callback delivered (drain ≤ ${options.drainSeconds} s)`,
          met: drain.drained,
          measured:
            `${receiver.arrivals.size} of ${drain.created} delivered, ${drainSeconds.toFixed(1)} s after the load ` +
            `(${atLoadEnd.open} transactions still open at its end, ${receiver.repeats} repeats)`,
        },
        {
          check: 'server RSS growth < 10 % from minute 1 to the last',
          met: serverGrowth < allowedGrowth,
          measured: `${mb(first?.serverRssBytes)} → ${mb(last?.serverRssBytes)} (${(serverGrowth * 100).toFixed(1)} %)`,
        },
        {
          check: 'worker RSS growth < 10 % from minute 1 to the last',
          met: workerGrowth < allowedGrowth,
          measured: `${mb(first?.workerRssBytes)} → ${mb(last?.workerRssBytes)} (${(workerGrowth * 100).toFixed(1)} %)`,
        },
      ];
      process.stdout.write(
        `\n${checks.map((check) => `${check.met ? 'met ' : 'MISSED'} ${check.check}: ${check.measured}`).join('\n')}\n`,
      );
      if (options.minutes === defaultMinutes && options.rate === undefined) {
        const folder = new URL('../results/', import.meta.url);
        await mkdir(folder, { recursive: true });
        const report = { startedAt, command: 'pnpm soak', machine, options, rate, minutes, checks };
        await writeFormattedFile(new URL('soak-latest.json', folder), JSON.stringify(report, null, 2));
        process.stdout.write('\nWrote bench/results/soak-latest.json.\n');
      }
      if (checks.some((check) => !check.met)) process.exitCode = 1;
    } finally {
      await Promise.all(processes.map((service) => service.stop()));
    }
  } finally {
    await database.end().catch(() => undefined);
    await receiver.close();
    await store.remove();
  }
}

await main();
