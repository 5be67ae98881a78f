// API tokens: shown once when issued, stored only as a SHA-256 hash and a short prefix for display.
// An unknown and a revoked token look the same to `authenticate`.

import { hash } from 'node:crypto';
import { accountOf, type Account, type AccountRow } from './accounts.js';
import { newApiToken, newTokenId } from './ids.js';
import { LedgerError } from './ledger-error.js';
import type { Queryable } from './store.js';

/**
 * Whether a token calls the sandbox (`test`) or real providers (`live`).
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { token } = await ledger.issueToken(id, 'test');
 * token.startsWith('tk_test_'); // true
 * ```
 */
export type TokenMode = 'test' | 'live';

/**
 * A token as listed: never the token or its hash.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.issueToken(id, 'live');
 * const [info] = await ledger.listTokens(id);
 * info?.mode; // 'live'
 * info?.prefix.startsWith('tk_live_'); // true
 * ```
 */
export interface TokenInfo {
  id: string;
  accountId: string;
  /** The first 12 characters, e.g. `tk_test_AbCd`. */
  prefix: string;
  mode: TokenMode;
  createdAt: Date;
  revokedAt: Date | undefined;
}

/**
 * Who a valid bearer token belongs to: the account, the token's id and its mode.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { token } = await ledger.issueToken(id, 'test');
 * const caller = await ledger.authenticate(token);
 * caller?.account.id === id; // true
 * await ledger.authenticate('tk_test_unknown'); // undefined
 * ```
 */
export interface AuthenticatedToken {
  account: Account;
  tokenId: string;
  mode: TokenMode;
}

const prefixLength = 12;

/** The SHA-256 hash a token is stored and looked up by. */
export function hashToken(token: string): string {
  // The one-shot hash: no Hash object per call, and every authenticated request makes one.
  return hash('sha256', token, 'hex');
}

/** Issues a token for the account; the token itself is returned here and never again. */
export async function issueToken(
  db: Queryable,
  accountId: string,
  mode: TokenMode,
  now: Date,
): Promise<{ tokenId: string; token: string }> {
  const token = newApiToken(mode);
  const tokenId = newTokenId();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO api_tokens (id, account_id, mode, prefix, token_hash, created_at)
     SELECT $1, id, $3, $4, $5, $6 FROM accounts WHERE id = $2 AND status <> 'closed'
     RETURNING id`,
    [tokenId, accountId, mode, token.slice(0, prefixLength), hashToken(token), now.toISOString()],
  );
  if (rows.length === 0) {
    const { rows: accounts } = await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
    if (accounts.length === 0) throw new LedgerError('account_not_found', `No account ${accountId}.`);
    throw new LedgerError('account_closed', `Account ${accountId} is closed; no token can be issued for it.`);
  }
  return { tokenId, token };
}

/** Revokes a token; revoking it again changes nothing. */
export async function revokeToken(db: Queryable, tokenId: string, now: Date): Promise<void> {
  const { rows } = await db.query(
    'UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, $2::timestamptz) WHERE id = $1 RETURNING id',
    [tokenId, now.toISOString()],
  );
  if (rows.length === 0) throw new LedgerError('token_not_found', `No token ${tokenId}.`);
}

interface TokenRow {
  id: string;
  account_id: string;
  prefix: string;
  mode: TokenMode;
  created_at: Date;
  revoked_at: Date | null;
}

/** The account's tokens, oldest first. */
export async function listTokens(db: Queryable, accountId: string): Promise<TokenInfo[]> {
  const { rows } = await db.query<TokenRow>(
    `SELECT id, account_id, prefix, mode, created_at, revoked_at FROM api_tokens
     WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    prefix: row.prefix,
    mode: row.mode,
    createdAt: row.created_at,
    revokedAt: row.revoked_at ?? undefined,
  }));
}

/** The account behind a live (unrevoked) token, or undefined. The account's status is not judged here. */
export async function authenticate(db: Queryable, token: string): Promise<AuthenticatedToken | undefined> {
  const { rows } = await db.query<AccountRow & { token_id: string; token_mode: TokenMode }>(
    `SELECT t.id AS token_id, t.mode AS token_mode, a.id, a.name, a.mobile, a.email, a.agent_name,
            a.agent_number, a.store_number, a.status, a.created_at, a.updated_at
     FROM api_tokens t JOIN accounts a ON a.id = t.account_id
     WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { account: accountOf(row), tokenId: row.token_id, mode: row.token_mode };
}
