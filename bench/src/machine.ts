// What the numbers were measured on: CPU, cores, memory, Node.js and PostgreSQL versions.

import { cpus, release, totalmem, type } from 'node:os';
import pg from 'pg';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly os: string;
  readonly node: string;
  readonly postgres: string;
}

/** Describes this machine and the PostgreSQL server at `databaseUrl`. */
export async function describeMachine(databaseUrl: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: databaseUrl });
  let postgres = 'unreachable';
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string; synchronous_commit: string }>(
      "SELECT current_setting('server_version') AS server_version, current_setting('synchronous_commit') AS synchronous_commit",
    );
    const row = rows[0];
    if (row !== undefined) postgres = `${row.server_version} (synchronous_commit ${row.synchronous_commit})`;
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
  };
}
