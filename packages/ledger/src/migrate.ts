// Applies pending migrations, all in one transaction: the ledger's own, and any other package's that keeps
// tables in the same database (the sandbox simulator's). On PostgreSQL an advisory lock (one per schema)
// makes concurrent starts safe: the second process waits, then finds nothing left to do.

import { migrations } from './migrations.js';
import type { Migration } from './migrations.js';
import type { Store } from './store.js';

/**
 * Brings the schema up to date; returns the ids applied by this call (empty when already current).
 *
 * @example
 * ```ts
 * import { migrate, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' }); // already migrated by openStore
 * await migrate(store); // { applied: [] }
 * ```
 */
export async function migrate(store: Store): Promise<{ applied: string[] }> {
  return applyMigrations(store, migrations);
}

/**
 * Brings tables of another package up to date in the ledger's database, with the ledger's bookkeeping and
 * lock; returns the ids applied by this call.
 *
 * @example
 * ```ts
 * import { applyMigrations, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await applyMigrations(store, [
 *   { id: 'notes/0001_notes', statements: ['CREATE TABLE IF NOT EXISTS notes (id text PRIMARY KEY)'] },
 * ]); // { applied: ['notes/0001_notes'] }
 * ```
 */
export async function applyMigrations(
  store: Store,
  list: readonly Migration[],
): Promise<{ applied: string[] }> {
  return store.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':topup-migrations'))`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL)`,
    );
    const { rows } = await tx.query<{ id: string }>('SELECT id FROM schema_migrations');
    const done = new Set(rows.map((row) => row.id));
    const applied: string[] = [];
    for (const migration of list) {
      if (done.has(migration.id)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, now())', [migration.id]);
      applied.push(migration.id);
    }
    return { applied };
  });
}
