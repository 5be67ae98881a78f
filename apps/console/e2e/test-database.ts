// The suite's own PostgreSQL schema (e2e_<random>) in TEST_DATABASE_URL: the environment that points the
// service and the CLI at it, the SQL a test uses to age a user's console sessions (ended, or with a stale
// password confirmation), and the drop at the end. Each statement runs on a short-lived connection with
// time limits.

import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  readonly schema: string;
  /** DATABASE_URL and DATABASE_SCHEMA for the service and the CLI. */
  readonly env: Readonly<Record<string, string>>;
  /** Ends every console session of the user with `email` now, as the clock would. */
  expireSessions(email: string): Promise<number>;
  /** Makes the user's sessions' last password entry older than the 5 minutes a sensitive change needs. */
  forgetReauthentication(email: string): Promise<number>;
  /** Drops the schema with everything in it. */
  drop(): Promise<void>;
}

async function query(databaseUrl: string, sql: string, values: readonly unknown[] = []): Promise<number> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 30_000,
    query_timeout: 35_000,
  });
  await client.connect();
  try {
    return (await client.query(sql, [...values])).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

export function testDatabase(databaseUrl: string): TestDatabase {
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const ofUser = `user_id IN (SELECT id FROM ${schema}.console_users WHERE email = $1)`;
  return {
    schema,
    env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
    expireSessions: (email) =>
      query(databaseUrl, `UPDATE ${schema}.console_sessions SET expires_at = now() WHERE ${ofUser}`, [email]),
    forgetReauthentication: (email) =>
      query(
        databaseUrl,
        `UPDATE ${schema}.console_sessions SET reauthenticated_at = now() - interval '1 hour' WHERE ${ofUser}`,
        [email],
      ),
    drop: async () => {
      await query(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}
