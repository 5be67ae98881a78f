// Every table the service keeps in its one database: the ledger's, then the providers' (the sandbox
// simulator's jobs, the inbox of pushed results), then the console's (users, sessions, audit). One call,
// so `topup migrate` reports all it applied and the processes never serve a half-migrated schema.

import { migrate } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { migrateOperators } from '@topup/operators';
import { migrateProviders } from '@topup/providers';

/** Brings every table of the service up to date; returns the ids applied by this call, in order. */
export async function migrateService(store: Store): Promise<{ applied: string[] }> {
  const ledger = await migrate(store);
  const providers = await migrateProviders(store);
  const operators = await migrateOperators(store);
  return { applied: [...ledger.applied, ...providers.applied, ...operators.applied] };
}
