// The command line of `pnpm soak`: how long to run (5 minutes by default), at what rate (by default half
// the float throughput of the last full `pnpm bench`, or of a short calibration when there is none), and
// how long to wait for the last callbacks.

import { parseArgs } from 'node:util';

export interface SoakOptions {
  readonly minutes: number;
  /** Offered requests per second over both operations; undefined means derive it. */
  readonly rate: number | undefined;
  /** Upper bound on the wait for outstanding callbacks once the load stops. */
  readonly drainSeconds: number;
  readonly databaseUrl: string;
  readonly connections: number;
}

const usage = `Usage: pnpm soak [--minutes N] [--rate R] [--drain-seconds S]

  --minutes        minutes of load (default 5); figures are reported per minute
  --rate           offered requests per second, float and airtime alternating (default: half the
                   send_agent_float rate in bench/results/latest.json, else of a 5-second calibration)
  --drain-seconds  longest wait for outstanding callbacks after the load (default 120)

Passes only with zero errors, every callback delivered, and server and worker RSS growing less than
10 % from minute 1 to the last minute.

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
`;

function positive(option: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    process.stderr.write(
      `${option}: expected a positive ${integer ? 'whole ' : ''}number, received ${JSON.stringify(text)}\n\n${usage}`,
    );
    process.exit(64);
  }
  return value;
}

/** Parses `pnpm soak` arguments; prints the usage and exits on `--help` or an unknown option. */
export function parseSoakOptions(argv: readonly string[], env: NodeJS.ProcessEnv): SoakOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        minutes: { type: 'string' },
        rate: { type: 'string' },
        'drain-seconds': { type: 'string' },
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
  return {
    minutes: positive('--minutes', values.minutes, true) ?? 5,
    rate: positive('--rate', values.rate, false),
    drainSeconds: positive('--drain-seconds', values['drain-seconds'], false) ?? 120,
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    connections: 64,
  };
}
