// The sandbox simulator's table, kept in the ledger's database under the ledger's migration bookkeeping.
// Databases made before the table left the ledger's own migrations already have it: `IF NOT EXISTS` adopts
// it, and the results marked taken in those days are deleted.

import { applyMigrations } from '@topup/ledger';
import type { Migration, Store } from '@topup/ledger';

const simulatorJobs: Migration = {
  id: 'providers/0001_simulator_jobs',
  statements: [
    `CREATE TABLE IF NOT EXISTS provider_simulator_jobs (
      reference text PRIMARY KEY,
      outcome text NOT NULL,
      provider_code text NOT NULL,
      due_at timestamptz NOT NULL,
      acknowledged_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS provider_simulator_jobs_due ON provider_simulator_jobs (due_at)
      WHERE acknowledged_at IS NULL`,
    `DELETE FROM provider_simulator_jobs WHERE acknowledged_at IS NOT NULL`,
  ],
};

/**
 * Creates the sandbox simulator's table, when missing, in the ledger's database; returns the ids applied.
 * The simulator also does this on first use; a process that migrates with long time limits before serving
 * with short ones calls it then.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateSandboxSimulator } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateSandboxSimulator(store); // { applied: ['providers/0001_simulator_jobs'] }
 * ```
 */
export function migrateSandboxSimulator(store: Store): Promise<{ applied: string[] }> {
  return applyMigrations(store, [simulatorJobs]);
}
