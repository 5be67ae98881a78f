// The providers' tables, kept in the ledger's database under the ledger's migration bookkeeping: the
// sandbox simulator's jobs, the inbox of webhook calls the server stores for the worker to apply, the
// access tokens providers issue, shared by every process, and the ids providers give our submissions.
// Databases made before the simulator's table left the ledger's own migrations already have it: `IF NOT
// EXISTS` adopts it, and the results marked taken in those days are deleted.

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

// A webhook call is stored in the request that received it, once per provider event id (a provider that
// repeats a call finds it stored); one that cannot be read is kept too, with its problem, for inspection.
const webhookInbox: Migration = {
  id: 'providers/0002_webhook_inbox',
  statements: [
    `CREATE TABLE IF NOT EXISTS provider_webhook_inbox (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      provider text NOT NULL,
      event text NOT NULL,
      event_id text,
      content_type text NOT NULL,
      body text NOT NULL,
      problem text NOT NULL DEFAULT '',
      received_at timestamptz NOT NULL,
      applied_at timestamptz,
      outcome text NOT NULL DEFAULT ''
    )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS provider_webhook_inbox_event
      ON provider_webhook_inbox (provider, event_id) WHERE event_id IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS provider_webhook_inbox_unapplied ON provider_webhook_inbox (id)
      WHERE applied_at IS NULL`,
  ],
};

// A provider token every process shares: Daraja invalidates its previous token whenever a new one is
// issued, so processes that each fetched their own would keep invalidating one another's.
const accessTokens: Migration = {
  id: 'providers/0003_access_tokens',
  statements: [
    `CREATE TABLE IF NOT EXISTS provider_access_tokens (
      provider text PRIMARY KEY,
      token text NOT NULL,
      expires_at timestamptz NOT NULL,
      fetched_at timestamptz NOT NULL
    )`,
  ],
};

// The ids a provider gave a submission, for providers whose callbacks name only their own id: written when
// the provider acknowledges the submission, read when its callback comes (which may be first: the worker
// waits for the id) and when the submission is asked about.
const submissionIds: Migration = {
  id: 'providers/0004_submission_ids',
  statements: [
    `CREATE TABLE IF NOT EXISTS provider_submission_ids (
      provider text NOT NULL,
      provider_id text NOT NULL,
      reference text NOT NULL,
      purpose text NOT NULL,
      other_id text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL,
      PRIMARY KEY (provider, provider_id)
    )`,
    `CREATE INDEX IF NOT EXISTS provider_submission_ids_reference
      ON provider_submission_ids (provider, reference, purpose)`,
  ],
};

// A call that names a provider id not recorded yet waits for it without standing in front of newer calls:
// the worker sets when to read it again.
const inboxRetries: Migration = {
  id: 'providers/0005_inbox_retries',
  statements: [`ALTER TABLE provider_webhook_inbox ADD COLUMN IF NOT EXISTS retry_at timestamptz`],
};

/**
 * Creates the providers' tables, when missing, in the ledger's database; returns the ids applied. The
 * simulator also does this on first use; a process that migrates with long time limits before serving
 * with short ones calls it then.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store); // { applied: ['providers/0001_simulator_jobs', 'providers/0002_webhook_inbox', 'providers/0003_access_tokens', 'providers/0004_submission_ids', 'providers/0005_inbox_retries'] }
 * ```
 */
export function migrateProviders(store: Store): Promise<{ applied: string[] }> {
  return applyMigrations(store, [simulatorJobs, webhookInbox, accessTokens, submissionIds, inboxRetries]);
}

const ready = new WeakMap<Store, Promise<unknown>>();

/**
 * Creates the providers' tables once per store in this process, for code that uses them on a store it did
 * not migrate itself; a failed attempt is forgotten, so the next call tries again.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { providerTablesReady } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await providerTablesReady(store);
 * await providerTablesReady(store); // made already: nothing asked of the store
 * ```
 */
export function providerTablesReady(store: Store): Promise<unknown> {
  let made = ready.get(store);
  if (made === undefined) {
    made = migrateProviders(store).catch((error: unknown) => {
      ready.delete(store);
      throw error;
    });
    ready.set(store, made);
  }
  return made;
}
