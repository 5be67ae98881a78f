// The one connection factory: a `databaseUrl` opens PostgreSQL through a `pg` pool, anything else opens
// embedded PGlite in a data folder. Both are handed back as the same small `Store` interface, and the
// schema is migrated before the store is returned (unless the caller migrates itself, as the operator's
// `migrate` command does to report what it applied), so callers never see a half-built database.

import { migrate } from './migrate.js';
import { openPgliteStore } from './pglite-store.js';
import { openPostgresStore } from './postgres-store.js';

/**
 * Anything SQL can be sent to: the store itself, or a transaction inside it.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { rows } = await store.query<{ n: number }>('SELECT $1::int + 1 AS n', [41]);
 * rows; // [{ n: 42 }]
 * ```
 */
export interface Queryable {
  // The row type is the caller's assertion about its own SQL, as in `pg` and PGlite.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: R[] }>;
}

/**
 * A migrated database: PostgreSQL through a `pg` pool or embedded PGlite, behind one small interface.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * store.kind; // 'pglite'
 * const total = await store.transaction(async (tx) => {
 *   const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
 *   return rows[0]?.n ?? 0;
 * });
 * await store.close();
 * ```
 */
export interface Store extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one database transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on PostgreSQL; an in-process emitter on PGlite. Returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where `openStore` connects: PostgreSQL when `databaseUrl` is given, otherwise PGlite in `dataDir`.
 *
 * @example
 * ```ts
 * import { openStore, type OpenStoreOptions } from '@topup/ledger';
 *
 * const options: OpenStoreOptions = process.env.DATABASE_URL
 *   ? { databaseUrl: process.env.DATABASE_URL, poolSize: 20, schema: 'topup' }
 *   : { dataDir: './.topup' };
 * const store = await openStore(options);
 * ```
 */
export interface OpenStoreOptions {
  /**
   * A PostgreSQL connection string; when absent or empty the embedded store is used, so an unset
   * `DATABASE_URL` and one set to nothing (`DATABASE_URL=`) mean the same.
   */
  databaseUrl?: string;
  /** The PGlite data folder (`memory://` keeps it in memory). Default `./.topup`. */
  dataDir?: string;
  /** Connections in the PostgreSQL pool. Default 10. */
  poolSize?: number;
  /** PostgreSQL schema to work in (created when missing). Default: the server's search_path. */
  schema?: string;
  /** PostgreSQL: longest wait for a connection, new or from the pool, in ms. Default 5000. */
  connectionTimeoutMs?: number;
  /** PostgreSQL: longest run of one statement, in ms; past it the statement fails. Default 15000. */
  queryTimeoutMs?: number;
  /**
   * Apply pending migrations before returning. Default true; false leaves that to the caller's own
   * `migrate(store)`, which reports what it applied.
   */
  migrate?: boolean;
}

const defaultDataDir = './.topup';

/**
 * Opens the store and brings its schema up to date (unless `migrate: false`). A non-empty `databaseUrl` →
 * PostgreSQL (`pg.Pool`); otherwise PGlite in `dataDir`, which stays locked to this process until `close`
 * (a second opener gets a DataDirLockedError).
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 *
 * const embedded = await openStore({ dataDir: 'memory://' }); // PGlite, nothing on disk
 * const shared = process.env.DATABASE_URL
 *   ? await openStore({ databaseUrl: process.env.DATABASE_URL })
 *   : undefined;
 * await embedded.close();
 * ```
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const databaseUrl = options.databaseUrl ?? '';
  const store =
    databaseUrl === ''
      ? await openPgliteStore({ dataDir: options.dataDir ?? defaultDataDir })
      : await openPostgresStore({
          databaseUrl,
          ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
          ...(options.schema === undefined ? {} : { schema: options.schema }),
          ...(options.connectionTimeoutMs === undefined
            ? {}
            : { connectionTimeoutMs: options.connectionTimeoutMs }),
          ...(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs }),
        });
  if (options.migrate === false) return store;
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
