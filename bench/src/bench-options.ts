// The command line of `pnpm bench`: a full run (warm-up, then three 10-second runs per case) or `--smoke`
// (one 1-second run of every case, for CI), optionally narrowed to some cases and with the server children
// profiled.

import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** One short run of every case: proves the harness works, measures nothing worth keeping. */
  readonly smoke: boolean;
  /** Case ids to run; empty means every case. */
  readonly only: readonly string[];
  /** Directory for `node --cpu-prof` profiles of the service children; unset means no profiling. */
  readonly cpuProfileDir: string | undefined;
  readonly databaseUrl: string;
  /** Seconds of one measured run. */
  readonly durationSeconds: number;
  /** Seconds of the warm-up before the measured runs of a case. */
  readonly warmupSeconds: number;
  /** Measured runs per case; the table shows their median. */
  readonly runs: number;
  /** Concurrent connections of the load generator. */
  readonly connections: number;
  /** Transactions the simulator completes in the callback throughput run. */
  readonly callbackTransactions: number;
  /** Offered transactions per second in the callback latency run. */
  readonly callbackOfferedRate: number;
  /** Purchases per measured run of the live airtime case (a tenth of it warms up). */
  readonly livePurchases: number;
}

const usage = `Usage: pnpm bench [--smoke] [--only case,case] [--runs N] [--seconds S] [--cpu-prof DIR]

  --smoke        one 1-second run of every case (what CI runs)
  --only         run only these cases (ids as printed in the table)
  --runs         measured runs per case (default 3)
  --seconds      seconds per measured run (default 10)
  --cpu-prof     write node --cpu-prof profiles of the service children to DIR

Only a full run (no option but --runs 3 --seconds 10) writes bench/results and docs/benchmarks.md.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
`;

function positiveNumber(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(
      `${option}: expected a positive number, received ${JSON.stringify(text)}\n\n${usage}`,
    );
    process.exit(64);
  }
  return value;
}

/** Parses `pnpm bench` arguments; prints the usage and exits on `--help` or an unknown option. */
export function parseBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        smoke: { type: 'boolean', default: false },
        only: { type: 'string' },
        runs: { type: 'string' },
        seconds: { type: 'string' },
        'cpu-prof': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      allowPositionals: false,
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
    process.exit(64);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const smoke = values.smoke;
  const runs = positiveNumber('--runs', values.runs) ?? (smoke ? 1 : 3);
  const seconds = positiveNumber('--seconds', values.seconds) ?? (smoke ? 1 : 10);
  return {
    smoke,
    only: (values.only ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    cpuProfileDir: values['cpu-prof'],
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    durationSeconds: seconds,
    warmupSeconds: smoke ? 0 : 3,
    runs,
    connections: 64,
    callbackTransactions: smoke ? 200 : 20_000,
    callbackOfferedRate: 500,
    livePurchases: smoke ? 100 : 2_000,
  };
}
