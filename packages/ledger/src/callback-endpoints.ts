// Callback endpoints, per account: URL, format (json or xml), description and a signing secret that can
// be rotated with a grace period during which the previous secret still signs. Removing an endpoint
// keeps its row (deliveries and attempts refer to it) but hides it and fails its pending deliveries.

import { newCallbackSecret, newEndpointId } from './ids.js';
import { LedgerError } from './ledger-error.js';
import type { Queryable } from './store.js';
import { assertWireFields } from './wire-text.js';

/**
 * The body format of an endpoint's callbacks.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { endpoint } = await ledger.addCallbackEndpoint(id, {
 *   url: 'https://caller.example/callbacks',
 *   format: 'xml',
 * });
 * endpoint.format; // 'xml'
 * ```
 */
export type CallbackFormat = 'json' | 'xml';

/**
 * An endpoint as listed: never its secrets.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.addCallbackEndpoint(id, { url: 'https://caller.example/callbacks', format: 'json' });
 * const [endpoint] = await ledger.listCallbackEndpoints(id);
 * endpoint?.enabled; // true
 * ```
 */
export interface CallbackEndpoint {
  id: string;
  accountId: string;
  url: string;
  format: CallbackFormat;
  description: string;
  enabled: boolean;
  /** Why it was disabled (e.g. the receiver answered 410 Gone); blank while enabled. */
  disabledReason: string;
  createdAt: Date;
}

/**
 * What a caller gives to add a callback endpoint.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { endpoint, secret } = await ledger.addCallbackEndpoint(id, {
 *   url: 'https://caller.example/callbacks',
 *   format: 'json',
 *   description: 'production',
 * });
 * secret.startsWith('whsec_'); // true: shown to the caller once
 * ```
 */
export interface NewCallbackEndpoint {
  url: string;
  format: CallbackFormat;
  description?: string;
}

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  format: CallbackFormat;
  description: string;
  enabled: boolean;
  disabled_reason: string;
  created_at: Date;
}

const endpointColumns = 'id, account_id, url, format, description, enabled, disabled_reason, created_at';

function endpointOf(row: EndpointRow): CallbackEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    format: row.format,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
  };
}

function checkEndpoint(input: NewCallbackEndpoint): void {
  assertWireFields('callback endpoint', { url: input.url, description: input.description });
  let protocol: string;
  try {
    protocol = new URL(input.url).protocol;
  } catch {
    throw new LedgerError(
      'invalid_input',
      `Expected an absolute callback URL, received ${JSON.stringify(input.url)}.`,
    );
  }
  if (protocol !== 'https:' && protocol !== 'http:') {
    throw new LedgerError(
      'invalid_input',
      `Expected an http or https callback URL, received ${JSON.stringify(input.url)}.`,
    );
  }
}

/** Registers an endpoint; the secret is returned here and only here. */
/** How many endpoints (not removed) an account may have unless the caller says otherwise. */
export const DEFAULT_MAX_ENDPOINTS = 10;

/**
 * Adds an endpoint unless the account already has `maxEndpoints` (removed ones do not count, disabled ones
 * do), inside the caller's transaction. The account's row is locked first and the endpoints counted after, in a statement of their own, so
 * two concurrent adds cannot both see room for one.
 */
export async function addCallbackEndpoint(
  tx: Queryable,
  accountId: string,
  input: NewCallbackEndpoint,
  now: Date,
  maxEndpoints: number = DEFAULT_MAX_ENDPOINTS,
): Promise<{ endpoint: CallbackEndpoint; secret: string }> {
  checkEndpoint(input);
  const secret = newCallbackSecret();
  const { rows: accounts } = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  if (accounts.length === 0) throw new LedgerError('account_not_found', `No account ${accountId}.`);
  const { rows: held } = await tx.query<{ endpoints: number }>(
    `SELECT count(*)::int AS endpoints FROM callback_endpoints WHERE account_id = $1 AND removed_at IS NULL`,
    [accountId],
  );
  const endpoints = held[0]?.endpoints ?? 0;
  if (endpoints >= maxEndpoints) {
    throw new LedgerError(
      'endpoint_limit_reached',
      `Expected fewer than ${String(maxEndpoints)} callback endpoints on account ${accountId} to add one, ` +
        `found ${String(endpoints)}; remove one first.`,
    );
  }
  const { rows } = await tx.query<EndpointRow>(
    `INSERT INTO callback_endpoints (id, account_id, url, format, description, secret, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${endpointColumns}`,
    [
      newEndpointId(),
      accountId,
      input.url,
      input.format,
      input.description?.trim() ?? '',
      secret,
      now.toISOString(),
    ],
  );
  return { endpoint: endpointOf(rows[0] as EndpointRow), secret };
}

/** The account's endpoints (not removed ones), oldest first. */
export async function listCallbackEndpoints(db: Queryable, accountId: string): Promise<CallbackEndpoint[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM callback_endpoints
     WHERE account_id = $1 AND removed_at IS NULL ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map(endpointOf);
}

/** Removes the account's endpoint, inside the caller's transaction; false when the account has no such endpoint. */
export async function removeCallbackEndpoint(
  tx: Queryable,
  accountId: string,
  endpointId: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await tx.query(
    `UPDATE callback_endpoints SET removed_at = $3, enabled = false, disabled_reason = 'removed'
     WHERE id = $1 AND account_id = $2 AND removed_at IS NULL RETURNING id`,
    [endpointId, accountId, now.toISOString()],
  );
  if (rows.length === 0) return false;
  await tx.query(
    `UPDATE callback_deliveries SET status = 'failed', last_error = 'endpoint removed', lease_owner = NULL,
       lease_until = NULL, updated_at = $2
     WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId, now.toISOString()],
  );
  return true;
}

/**
 * Gives the endpoint a new secret; the previous one keeps signing for `graceSeconds`. Undefined when the
 * account has no such endpoint.
 */
export async function rotateCallbackSecret(
  db: Queryable,
  accountId: string,
  endpointId: string,
  graceSeconds: number,
  now: Date,
): Promise<string | undefined> {
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0) {
    throw new LedgerError(
      'invalid_input',
      `Expected a grace period of 0 seconds or more, received ${String(graceSeconds)}.`,
    );
  }
  const secret = newCallbackSecret();
  const { rows } = await db.query(
    `UPDATE callback_endpoints
     SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3
     WHERE id = $1 AND account_id = $2 AND removed_at IS NULL RETURNING id`,
    [endpointId, accountId, secret, new Date(now.getTime() + graceSeconds * 1000).toISOString()],
  );
  return rows.length === 0 ? undefined : secret;
}

/** The secrets that sign for the endpoint now: the current one first, then the previous within its grace. */
export async function endpointSecrets(db: Queryable, endpointId: string, now: Date): Promise<string[]> {
  const { rows } = await db.query<{
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
  }>('SELECT secret, previous_secret, previous_secret_expires_at FROM callback_endpoints WHERE id = $1', [
    endpointId,
  ]);
  const row = rows[0];
  if (row === undefined) return [];
  const previousValid =
    row.previous_secret !== null &&
    row.previous_secret_expires_at !== null &&
    row.previous_secret_expires_at.getTime() > now.getTime();
  return previousValid && row.previous_secret !== null ? [row.secret, row.previous_secret] : [row.secret];
}
