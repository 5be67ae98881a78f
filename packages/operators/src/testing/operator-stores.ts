// The stores this package's tests run on: embedded PGlite always, and PostgreSQL (a schema of its own,
// dropped afterwards) when TEST_DATABASE_URL is set. Under CI a missing TEST_DATABASE_URL fails the
// suite instead of skipping it. Each store is migrated like the service's: the ledger, then the console.

import { randomBytes } from 'node:crypto';
import { migrate, openStore, type Store } from '@topup/ledger';
import pg from 'pg';
import { migrateOperators } from '../operator-migrations.js';

export interface OperatorStore {
  readonly store: Store;
  dispose(): Promise<void>;
}

export type StoreOpener = () => Promise<OperatorStore>;

async function migrated(store: Store): Promise<Store> {
  await migrate(store);
  await migrateOperators(store);
  return store;
}

export function operatorStores(): [name: string, open: StoreOpener][] {
  const url = process.env['TEST_DATABASE_URL'];
  const pglite: [string, StoreOpener] = [
    'pglite',
    async () => {
      const store = await migrated(await openStore({ dataDir: 'memory://' }));
      return { store, dispose: () => store.close() };
    },
  ];
  if (url === undefined || url === '') {
    if (process.env['CI'] !== undefined && process.env['CI'] !== '')
      return [
        pglite,
        ['postgres', () => Promise.reject(new Error('TEST_DATABASE_URL must be set under CI'))],
      ];
    return [pglite];
  }
  return [
    pglite,
    [
      'postgres',
      async () => {
        const schema = `test_${randomBytes(6).toString('hex')}`;
        const store = await migrated(await openStore({ databaseUrl: url, schema, poolSize: 8 }));
        return {
          store,
          async dispose() {
            await store.close();
            const client = new pg.Client({ connectionString: url });
            await client.connect();
            try {
              await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
            } finally {
              await client.end();
            }
          },
        };
      },
    ],
  ];
}
