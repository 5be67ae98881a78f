// Test helper: the stores a suite runs on. PGlite always; PostgreSQL when TEST_DATABASE_URL is set, and
// also when CI is set without it, so that the PostgreSQL suites fail instead of silently skipping.
// Each PostgreSQL store works in a fresh schema, dropped on dispose, so test files can run in parallel.
// PGlite runs initdb on every new instance (seconds); a migrated data folder is dumped once into the
// temporary directory and every later instance starts from that dump instead.

import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate } from '../migrate.js';
import { migrations } from '../migrations.js';
import { openPgliteStore } from '../pglite-store.js';
import { openStore } from '../store.js';
import type { Store } from '../store.js';

export type StoreKind = 'pglite' | 'postgres';

export interface TestStore {
  readonly kind: StoreKind;
  readonly store: Store;
  /**
   * Another store on the same data through its own connection pool (a second process's worth);
   * PostgreSQL only, since PGlite is a single in-process instance.
   */
  openSecondStore(poolSize?: number): Promise<Store>;
  /** Closes the store (and every second store) and drops its schema. */
  dispose(): Promise<void>;
}

/** The kinds of store every suite runs on in this environment. */
export function testStoreKinds(): StoreKind[] {
  const postgres = process.env.TEST_DATABASE_URL !== undefined || process.env.CI !== undefined;
  return postgres ? ['pglite', 'postgres'] : ['pglite'];
}

function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'Expected TEST_DATABASE_URL to name a PostgreSQL database (CI is set, so the PostgreSQL suites must run), ' +
        'received nothing. Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.',
    );
  }
  return url;
}

let template: Promise<Blob> | undefined;

async function buildTemplate(path: string): Promise<Blob> {
  const store = await openPgliteStore({ dataDir: 'memory://' });
  try {
    await migrate(store);
    const dump = await store.db.dumpDataDir('none');
    const bytes = new Uint8Array(await dump.arrayBuffer());
    // Written aside and renamed, so a parallel test file never reads half a dump.
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, path);
    return new Blob([bytes]);
  } finally {
    await store.close();
  }
}

function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    // The installed PGlite's path carries its version: a dump from another version is never reused.
    const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const version = createHash('sha256')
      .update(JSON.stringify(migrations))
      .update(pglite)
      .digest('hex')
      .slice(0, 16);
    const path = join(tmpdir(), `topup-ledger-pglite-${version}.tar`);
    try {
      return new Blob([await readFile(path)]);
    } catch {
      return buildTemplate(path);
    }
  })();
  return template;
}

async function openPgliteTestStore(): Promise<TestStore> {
  const store = await openPgliteStore({ dataDir: 'memory://', loadDataDir: await pgliteTemplate() });
  // The dump is a migrated schema already; this is a no-op unless migrations changed meanwhile.
  await migrate(store);
  return {
    kind: 'pglite',
    store,
    openSecondStore: () =>
      Promise.reject(new Error('PGlite is a single in-process instance; no second pool exists.')),
    dispose: () => store.close(),
  };
}

async function openPostgresTestStore(): Promise<TestStore> {
  const databaseUrl = testDatabaseUrl();
  const schema = `ledger_test_${randomBytes(8).toString('hex')}`;
  const store = await openStore({ databaseUrl, schema, poolSize: 8 });
  const others: Store[] = [];
  return {
    kind: 'postgres',
    store,
    async openSecondStore(poolSize = 8) {
      const other = await openStore({ databaseUrl, schema, poolSize });
      others.push(other);
      return other;
    },
    async dispose() {
      await Promise.all([store, ...others].map((each) => each.close()));
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A fresh, migrated, empty store of the given kind. */
export function openTestStore(kind: StoreKind): Promise<TestStore> {
  return kind === 'pglite' ? openPgliteTestStore() : openPostgresTestStore();
}
