// Where a case keeps its data: a fresh PostgreSQL schema (created, migrated, dropped afterwards) or a fresh
// PGlite data folder in the temp directory (removed afterwards). The harness seeds it, then hands the
// service child the environment that points at the same place.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import pg from 'pg';

export type StoreKind = 'postgres' | 'pglite';

export interface BenchStore {
  readonly kind: StoreKind;
  /** The variables that point the service at this store. */
  readonly env: Readonly<Record<string, string>>;
  /** Opens (and migrates) the store in this process; PGlite must be closed before a child opens it. */
  open(): Promise<Store>;
  /** Removes everything the case wrote. */
  remove(): Promise<void>;
}

/** A fresh schema `bench_<random>` in the database at `databaseUrl`. */
export function postgresBenchStore(databaseUrl: string): BenchStore {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  return {
    kind: 'postgres',
    env: { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema },
    open: () => openStore({ databaseUrl, schema }),
    async remove() {
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

/** A fresh PGlite data folder under the temp directory. */
export async function pgliteBenchStore(): Promise<BenchStore> {
  const folder = await mkdtemp(join(tmpdir(), 'topup-bench-'));
  const dataDir = join(folder, 'data');
  return {
    kind: 'pglite',
    env: { TOPUP_DATA_DIR: dataDir, DATABASE_URL: '' },
    open: () => openStore({ dataDir }),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
