// The embedded store: PGlite (PostgreSQL in WebAssembly) in a data folder. PGlite runs one connection,
// so transactions are serialised by PGlite itself; notifications stay inside the process because
// nothing outside it can share the instance. PGlite is loaded only when an embedded store is opened: its
// module costs about 50 MB of memory, which a process on PostgreSQL never needs. A data folder is locked
// while its store is open, so a second process fails with a readable message instead of corrupting it,
// and it is its owner's alone: 0700, with everything in it owner-only (data-dir-permissions.ts).

import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { createClusterApart, holdsCluster } from './pglite-cluster.js';
import { lockDataDir } from './data-dir-lock.js';
import { claimDataDir, restrictDataDir } from './data-dir-permissions.js';
import type { Queryable, Store } from './store.js';

export interface PgliteStoreOptions {
  /** A folder, or `memory://`. */
  dataDir: string;
  /** A data folder dumped by `dumpDataDir`, to start from instead of running initdb. */
  loadDataDir?: Blob;
}

// PostgreSQL touches all of its shared buffers at start-up, inside WebAssembly memory that is never given
// back, so each megabyte here is a megabyte resident for the life of the process. The embedded store
// serves one process whose data files the operating system caches anyway: 8 MB held the benchmark's
// embedded cases at the same rate as 32 MB, with 25 MB less resident (docs/benchmarks.md).
const sharedBuffers = '8MB';

const int8 = 20;
const numeric = 1700;
// `pg` hands out int8 and numeric as strings; PGlite is told to do the same, so the mapping code
// converts to bigint in one place and behaves identically on both stores.
const keepAsText = (value: string): string => value;

function asQueryable(db: Pick<PGlite, 'query'>): Queryable {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- see Queryable
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<R>(sql, [...params]);
      return { rows: result.rows };
    },
  };
}

/**
 * Opens PGlite in `dataDir`, holding the folder's lock until `close` (DataDirLockedError while another
 * process has it open). The schema is not migrated here; `openStore` does that.
 */
export async function openPgliteStore(options: PgliteStoreOptions): Promise<Store & { readonly db: PGlite }> {
  // PGlite creates the data folder but not its parents; `memory://` and other schemes are not folders.
  const inFolder = !options.dataDir.includes('://');
  if (inFolder) await claimDataDir(options.dataDir);
  const lock = inFolder ? await lockDataDir(options.dataDir) : undefined;
  let db: PGlite;
  try {
    const { PGlite: EmbeddedPostgres } = await import('@electric-sql/pglite');
    const startParams = [...EmbeddedPostgres.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
    if (inFolder && options.loadDataDir === undefined && !(await holdsCluster(options.dataDir))) {
      await createClusterApart(options.dataDir, startParams);
    }
    db = await EmbeddedPostgres.create(options.dataDir, {
      parsers: { [int8]: keepAsText, [numeric]: keepAsText },
      startParams,
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // A new cluster's files were just written open to everyone.
  if (inFolder)
    await restrictDataDir(options.dataDir).catch(async (error: unknown) => {
      await db.close();
      await lock?.release();
      throw error;
    });
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const queryable = asQueryable(db);

  return {
    kind: 'pglite',
    db,
    ...queryable,
    transaction: (fn) => db.transaction((tx) => fn(asQueryable(tx))),
    listen(channel, onNotify) {
      emitter.on(channel, onNotify);
      return Promise.resolve(() => {
        emitter.off(channel, onNotify);
        return Promise.resolve();
      });
    },
    notify(channel, payload) {
      // Delivered on a later tick, as a real NOTIFY would be, never inside the notifier's call stack.
      setImmediate(() => emitter.emit(channel, payload));
      return Promise.resolve();
    },
    async close() {
      emitter.removeAllListeners();
      try {
        if (!db.closed) await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
}
