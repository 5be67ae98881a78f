// What the numbers were measured on: CPU, cores, memory, load, Node.js and PostgreSQL versions. PostgreSQL must
// run with `synchronous_commit = on` (every `0000` durable before it is sent): figures measured with it off
// would trade away that promise, so the harness refuses to measure at all.

import { cpus, loadavg, release, totalmem, type } from 'node:os';
import pg from 'pg';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly postgres: string;
  /** The 1, 5 and 15-minute load averages when the run started: other work on the cores shows here. */
  readonly loadAverage: readonly number[];
}

/** The URL without its password, for messages. */
function redacted(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Describes this machine and the PostgreSQL server at `databaseUrl`; throws unless a new session there runs
 * with `synchronous_commit = on`.
 */
export async function describeMachine(databaseUrl: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let postgres: string;
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string; synchronous_commit: string }>(
      "SELECT current_setting('server_version') AS server_version, current_setting('synchronous_commit') AS synchronous_commit",
    );
    const row = rows[0];
    if (row?.synchronous_commit !== 'on') {
      throw new Error(
        `Expected PostgreSQL at ${redacted(databaseUrl)} to run with synchronous_commit = on (durability is ` +
          `part of what is measured), received ${row?.synchronous_commit ?? 'no setting'}.`,
      );
    }
    postgres = `${row.server_version} (synchronous_commit ${row.synchronous_commit})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
    node: process.version,
    postgres,
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
