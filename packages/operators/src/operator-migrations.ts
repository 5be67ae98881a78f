// The console's tables, applied beside the ledger's own migrations: users, their one-time sign-in links,
// sessions (only hashes of their ids), the audit log, and what waits for a second admin (large funding,
// a new admin, an admin's sign-in link).

import { applyMigrations } from '@topup/ledger';
import type { Migration, Store } from '@topup/ledger';

const consoleTables: Migration = {
  id: 'operators/0001_console',
  statements: [
    `CREATE TABLE IF NOT EXISTS console_users (
      id text PRIMARY KEY,
      email text NOT NULL UNIQUE,
      role text NOT NULL CHECK (role IN ('admin', 'support', 'caller')),
      account_id text REFERENCES accounts (id),
      password_hash text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((role = 'caller') = (account_id IS NOT NULL))
    )`,
    `CREATE TABLE IF NOT EXISTS console_sign_in_links (
      token_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES console_users (id),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS console_sign_in_links_user ON console_sign_in_links (user_id)`,
    `CREATE TABLE IF NOT EXISTS console_sessions (
      id_hash text PRIMARY KEY,
      user_id text NOT NULL REFERENCES console_users (id),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      reauthenticated_at timestamptz,
      ended_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS console_sessions_user ON console_sessions (user_id) WHERE ended_at IS NULL`,
    `CREATE TABLE IF NOT EXISTS audit_records (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      action text NOT NULL,
      target text NOT NULL DEFAULT '',
      before jsonb,
      after jsonb
    )`,
    `CREATE INDEX IF NOT EXISTS audit_records_actor ON audit_records (actor, id)`,
    `CREATE INDEX IF NOT EXISTS audit_records_action ON audit_records (action, id)`,
    `CREATE TABLE IF NOT EXISTS funding_requests (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts (id),
      channel text NOT NULL CHECK (channel IN ('float', 'airtime')),
      amount_minor bigint NOT NULL CHECK (amount_minor > 0),
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'awaiting_approval'
        CHECK (state IN ('awaiting_approval', 'approved', 'rejected')),
      decided_by text,
      decided_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS funding_requests_waiting ON funding_requests (requested_at)
      WHERE state = 'awaiting_approval'`,
  ],
};

// Users can be disabled; a new admin and an admin's sign-in link wait for a second admin like large
// funding does; the operators' list of accounts reads newest first.
const twoPersonRule: Migration = {
  id: 'operators/0002_two_person_rule',
  statements: [
    `ALTER TABLE console_users ADD COLUMN IF NOT EXISTS disabled_at timestamptz`,
    `CREATE TABLE IF NOT EXISTS admin_requests (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('create_admin', 'admin_link')),
      email text NOT NULL,
      requested_by text NOT NULL,
      requested_at timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'awaiting_approval'
        CHECK (state IN ('awaiting_approval', 'approved', 'rejected')),
      decided_by text,
      decided_at timestamptz
    )`,
    `CREATE INDEX IF NOT EXISTS admin_requests_waiting ON admin_requests (requested_at)
      WHERE state = 'awaiting_approval'`,
    `CREATE INDEX IF NOT EXISTS accounts_newest ON accounts (created_at DESC, id DESC)`,
  ],
};

/** Creates or updates the console's tables; the ledger's own must be migrated first (users name accounts). */
export function migrateOperators(store: Store): Promise<{ applied: string[] }> {
  return applyMigrations(store, [consoleTables, twoPersonRule]);
}
