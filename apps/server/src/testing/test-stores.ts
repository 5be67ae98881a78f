// The stores a suite runs on: embedded PGlite always, and PostgreSQL when TEST_DATABASE_URL is set, each
// test store in a schema of its own so files run in parallel. Under CI, PostgreSQL is required: a missing
// TEST_DATABASE_URL fails the suite rather than skipping it.

import { randomBytes } from 'node:crypto';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import pg from 'pg';

export interface TestStores {
  readonly name: 'pglite' | 'postgres';
  open(): Promise<Store>;
  close(store: Store): Promise<void>;
}

const schemas = new WeakMap<Store, string>();

function postgresStores(databaseUrl: string): TestStores {
  return {
    name: 'postgres',
    async open() {
      const schema = `test_${randomBytes(6).toString('hex')}`;
      const store = await openStore({ databaseUrl, schema, poolSize: 12 });
      schemas.set(store, schema);
      return store;
    },
    async close(store) {
      await store.close();
      const schema = schemas.get(store);
      if (schema === undefined) return;
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

const pgliteStores: TestStores = {
  name: 'pglite',
  open: () => openStore({ dataDir: 'memory://' }),
  close: (store) => store.close(),
};

export function openTestStores(): TestStores[] {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== '') return [pgliteStores, postgresStores(databaseUrl)];
  if (process.env.CI !== undefined && process.env.CI !== '') {
    return [
      pgliteStores,
      {
        name: 'postgres',
        open: () =>
          Promise.reject(
            new Error('TEST_DATABASE_URL must be set under CI: PostgreSQL suites may not be skipped'),
          ),
        close: () => Promise.resolve(),
      },
    ];
  }
  return [pgliteStores];
}
