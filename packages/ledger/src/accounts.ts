// Caller accounts: the business profile, its status and its two channel ledger accounts. An account is
// created with both channels in one transaction, so a caller without channels never exists.

import { newAccountId } from './ids.js';
import { createChannelAccounts } from './ledger-accounts.js';
import { LedgerError } from './ledger-error.js';
import type { Queryable } from './store.js';
import { assertWireFields } from './wire-text.js';

/**
 * An account's state: `active` accounts transact, `suspended` ones are refused for now, `closed` is final.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * (await ledger.setAccountStatus(id, 'suspended')).status; // 'suspended'
 * ```
 */
export type AccountStatus = 'active' | 'suspended' | 'closed';

/**
 * What the operator gives when creating an account; blank optional fields are stored as ''.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const account = await ledger.createAccount({
 *   name: 'Duka Supplies',
 *   mobile: '254722000001',
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * account.email; // ''
 * ```
 */
export interface AccountProfile {
  name: string;
  mobile?: string;
  email?: string;
  agent_name?: string;
  agent_number?: string;
  store_number?: string;
}

/**
 * A caller's account: its profile (the `sender` of its transactions) and its status.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * account.id.startsWith('acct_'); // true
 * account.status; // 'active'
 * ```
 */
export interface Account {
  id: string;
  name: string;
  mobile: string;
  email: string;
  agent_name: string;
  agent_number: string;
  store_number: string;
  status: AccountStatus;
  createdAt: Date;
  updatedAt: Date;
}

export interface AccountRow {
  id: string;
  name: string;
  mobile: string;
  email: string;
  agent_name: string;
  agent_number: string;
  store_number: string;
  status: AccountStatus;
  created_at: Date;
  updated_at: Date;
}

export const accountColumns =
  'id, name, mobile, email, agent_name, agent_number, store_number, status, created_at, updated_at';

const statuses: readonly AccountStatus[] = ['active', 'suspended', 'closed'];

/** Maps an `accounts` row. */
export function accountOf(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    agent_name: row.agent_name,
    agent_number: row.agent_number,
    store_number: row.store_number,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Creates an active account with both channels, inside the caller's transaction. */
export async function createAccount(tx: Queryable, profile: AccountProfile, now: Date): Promise<Account> {
  const name = profile.name.trim();
  if (name === '')
    throw new LedgerError('invalid_input', 'Expected a non-blank account name, received a blank one.');
  assertWireFields('account', profile);
  const id = newAccountId();
  const { rows } = await tx.query<AccountRow>(
    `INSERT INTO accounts (id, name, mobile, email, agent_name, agent_number, store_number, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $8)
     RETURNING ${accountColumns}`,
    [
      id,
      name,
      profile.mobile?.trim() ?? '',
      profile.email?.trim() ?? '',
      profile.agent_name?.trim() ?? '',
      profile.agent_number?.trim() ?? '',
      profile.store_number?.trim() ?? '',
      now.toISOString(),
    ],
  );
  await createChannelAccounts(tx, id);
  return accountOf(rows[0] as AccountRow);
}

/** The account, or undefined when there is none with that id. */
export async function getAccount(db: Queryable, accountId: string): Promise<Account | undefined> {
  const { rows } = await db.query<AccountRow>(`SELECT ${accountColumns} FROM accounts WHERE id = $1`, [
    accountId,
  ]);
  return rows[0] === undefined ? undefined : accountOf(rows[0]);
}

/** Every account, oldest first. */
export async function listAccounts(db: Queryable): Promise<Account[]> {
  const { rows } = await db.query<AccountRow>(
    `SELECT ${accountColumns} FROM accounts ORDER BY created_at, id`,
  );
  return rows.map(accountOf);
}

/** Sets the status; `closed` is final, so a closed account can only be "closed" again. */
export async function setAccountStatus(
  db: Queryable,
  accountId: string,
  status: AccountStatus,
  now: Date,
): Promise<Account> {
  if (!statuses.includes(status)) {
    throw new LedgerError(
      'invalid_input',
      `Expected a status of ${statuses.join(', ')}, received ${JSON.stringify(status)}.`,
    );
  }
  const { rows } = await db.query<AccountRow>(
    `UPDATE accounts SET status = $2, updated_at = CASE WHEN status = $2 THEN updated_at ELSE $3::timestamptz END
     WHERE id = $1 AND (status <> 'closed' OR $2 = 'closed')
     RETURNING ${accountColumns}`,
    [accountId, status, now.toISOString()],
  );
  if (rows[0] !== undefined) return accountOf(rows[0]);
  const existing = await getAccount(db, accountId);
  if (existing === undefined) throw new LedgerError('account_not_found', `No account ${accountId}.`);
  throw new LedgerError(
    'account_closed',
    `Account ${accountId} is closed, and closing is final; it cannot become ${status}.`,
  );
}
