// Every table the service keeps in its one database: the ledger's, then the sandbox simulator's. One call,
// so `topup migrate` reports all it applied and the processes never serve a half-migrated schema.

import { migrate } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { migrateSandboxSimulator } from '@topup/providers';

/** Brings every table of the service up to date; returns the ids applied by this call, in order. */
export async function migrateService(store: Store): Promise<{ applied: string[] }> {
  const ledger = await migrate(store);
  const simulator = await migrateSandboxSimulator(store);
  return { applied: [...ledger.applied, ...simulator.applied] };
}
