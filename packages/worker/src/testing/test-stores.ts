// Test helper: the stores an integration suite runs on. Embedded PGlite always; PostgreSQL too when
// TEST_DATABASE_URL is set (and when CI is set without it, so the PostgreSQL suites fail rather than
// skip). Each PostgreSQL store works in its own schema, dropped on dispose, so files run in parallel.

import { randomBytes } from 'node:crypto';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';

export type StoreKind = 'pglite' | 'postgres';

export interface TestStore {
  readonly kind: StoreKind;
  readonly store: Store;
  /** PostgreSQL only: the connection settings, for a second process on the same schema. */
  readonly databaseUrl: string | undefined;
  readonly schema: string | undefined;
  dispose(): Promise<void>;
}

/** The kinds of store the integration suites run on here. */
export function testStoreKinds(): StoreKind[] {
  return process.env.TEST_DATABASE_URL !== undefined || process.env.CI !== undefined
    ? ['pglite', 'postgres']
    : ['pglite'];
}

/** The PostgreSQL test database; throws a readable error when none is configured. */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'Expected TEST_DATABASE_URL to name a PostgreSQL database (CI is set, so the PostgreSQL suites must run), ' +
        'received nothing. Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.',
    );
  }
  return url;
}

/** A fresh, migrated, empty store of the given kind. */
export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { kind, store, databaseUrl: undefined, schema: undefined, dispose: () => store.close() };
  }
  const databaseUrl = testDatabaseUrl();
  const schema = `worker_test_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ databaseUrl, schema, poolSize: 8 });
  return {
    kind,
    store,
    databaseUrl,
    schema,
    async dispose() {
      await store.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await store.close();
    },
  };
}
