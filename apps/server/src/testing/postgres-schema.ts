// A fresh PostgreSQL schema for tests that run the service as child processes: the database URL and schema
// to hand them (`DATABASE_URL`, `DATABASE_SCHEMA`), a store of the test's own on the same schema, and a
// drop at the end. Under CI PostgreSQL is required, so a missing TEST_DATABASE_URL fails instead of skipping.

import { randomBytes } from 'node:crypto';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import pg from 'pg';

export interface PostgresSchema {
  readonly databaseUrl: string;
  readonly schema: string;
  /** The test's own store on the schema, migrated. */
  readonly store: Store;
  /** The environment that points a service process at this schema. */
  readonly env: Readonly<Record<string, string>>;
  /** Closes the test's store and drops the schema with everything in it. */
  drop(): Promise<void>;
}

/** TEST_DATABASE_URL, or undefined when PostgreSQL suites may be skipped (outside CI). */
export function postgresTestUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  if (url !== undefined && url !== '') return url;
  if (process.env.CI !== undefined && process.env.CI !== '') {
    throw new Error('TEST_DATABASE_URL must be set under CI: PostgreSQL suites may not be skipped');
  }
  return undefined;
}

/** Runs one statement on its own connection (for DDL and fault setup outside any pool). */
export async function runSql(databaseUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a schema named `rel_<random>`, migrated, with a store of the test's own on it. */
export async function openPostgresSchema(databaseUrl: string): Promise<PostgresSchema> {
  const schema = `rel_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ databaseUrl, schema, poolSize: 8 });
  return {
    databaseUrl,
    schema,
    store,
    env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
    async drop() {
      await store.close();
      await runSql(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}
