// Idempotency keys: key + request hash + the stored response, per account, kept 24 hours. A request
// claims its key in the same database transaction that creates it (INSERT … ON CONFLICT), so two
// processes racing on one key create one transaction; the loser reads the winner's row. Keys past the
// window are deleted by a periodic purge.

import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';
import type { RequestOutcome, StoredResponse } from './outcomes.js';

/**
 * An `Idempotency-Key` and the fingerprint of the request sent with it.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 * import { createLedger, openStore } from '@topup/ledger';
 * import { createHash } from 'node:crypto';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 5_000_000n);
 * const parsed = parseSendAgentFloat({
 *   mobile: '0712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * if (!parsed.ok) throw new Error(parsed.errors.join(', '));
 *
 * const requestHash = createHash('sha256').update(JSON.stringify(parsed.value)).digest('hex');
 * const first = await ledger.requestAgentFloat({
 *   accountId: account.id,
 *   request: parsed.value,
 *   idempotency: { key: 'order-1042', requestHash },
 * });
 * const other = await ledger.requestAgentFloat({
 *   accountId: account.id,
 *   request: parsed.value,
 *   idempotency: { key: 'order-1042', requestHash: 'another' },
 * });
 * other.kind; // 'idempotency_conflict'
 * ```
 */
export interface IdempotencyClaim {
  key: string;
  /** A fingerprint of the request body; the same key with another hash is a conflict. */
  requestHash: string;
}

/** How long a key holds: a request with an older key is treated as new. */
export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export interface KeyClaim {
  accountId: string;
  key: string;
  requestHash: string;
  reference: string;
}

/** A key row as stored. */
export interface HeldKey {
  account_id: string;
  key: string;
  request_hash: string;
  reference: string;
  response_status: number | null;
  response_content_type: string | null;
  response_body: string | null;
  response_headers: string | null;
}

/** The map key of an (account, idempotency key) pair. */
export function keyOf(accountId: string, key: string): string {
  return `${accountId}\u0000${key}`;
}

function cutoff(now: Date): string {
  return new Date(now.getTime() - idempotencyWindowMs).toISOString();
}

/**
 * Claims keys with one INSERT: new keys and expired ones are taken (an expired row is overwritten);
 * returns the claimed pairs. A key held by another transaction that has not committed makes this wait
 * for it. Rows go in sorted order so two batches never wait on each other's keys crosswise.
 */
export async function claimKeys(tx: Queryable, claims: readonly KeyClaim[], now: Date): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const { rows } = await tx.query<{ account_id: string; key: string }>(
    `INSERT INTO idempotency_keys AS k (account_id, key, request_hash, reference, created_at)
     SELECT a, k, h, r, $5::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS c (a, k, h, r)
     ORDER BY a, k
     ON CONFLICT (account_id, key) DO UPDATE SET
       request_hash = EXCLUDED.request_hash, reference = EXCLUDED.reference, created_at = EXCLUDED.created_at,
       response_status = NULL, response_content_type = NULL, response_body = NULL, response_headers = NULL
     WHERE k.created_at <= $6::timestamptz
     RETURNING account_id, key`,
    [
      claims.map((c) => c.accountId),
      claims.map((c) => c.key),
      claims.map((c) => c.requestHash),
      claims.map((c) => c.reference),
      now.toISOString(),
      cutoff(now),
    ],
  );
  return new Set(rows.map((row) => keyOf(row.account_id, row.key)));
}

/** Removes claims whose request was refused (insufficient balance), so that nothing is written. */
export function keyReleaseStatement(
  pairs: readonly { accountId: string; key: string }[],
): SqlStatement | undefined {
  if (pairs.length === 0) return undefined;
  return {
    text: `DELETE FROM idempotency_keys
     WHERE (account_id, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    values: [pairs.map((p) => p.accountId), pairs.map((p) => p.key)],
  };
}

function storedResponseOf(row: HeldKey): StoredResponse | undefined {
  if (row.response_status === null || row.response_body === null) return undefined;
  const response: StoredResponse = {
    httpStatus: row.response_status,
    contentType: row.response_content_type ?? '',
    body: row.response_body,
  };
  if (row.response_headers !== null)
    response.headers = JSON.parse(row.response_headers) as Record<string, string>;
  return response;
}

/** The answer to a request whose key is already held: replay, in progress, or conflict. */
export function outcomeOfHeldKey(
  row: HeldKey,
  requestHash: string,
): Exclude<RequestOutcome, { kind: 'created' }> {
  if (row.request_hash !== requestHash) return { kind: 'idempotency_conflict' };
  const response = storedResponseOf(row);
  if (response !== undefined) return { kind: 'idempotent_replay', response };
  return { kind: 'idempotency_in_progress', reference: row.reference };
}

/** The rows of keys that could not be claimed, keyed by `keyOf`. */
export async function readHeldKeys(
  tx: Queryable,
  pairs: readonly { accountId: string; key: string }[],
): Promise<Map<string, HeldKey>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await tx.query<HeldKey>(
    `SELECT account_id, key, request_hash, reference, response_status, response_content_type, response_body,
            response_headers
     FROM idempotency_keys WHERE (account_id, key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [pairs.map((p) => p.accountId), pairs.map((p) => p.key)],
  );
  return new Map(rows.map((row) => [keyOf(row.account_id, row.key), row]));
}

/**
 * What saving a response under a key for one transaction came to.
 *
 * @example
 * ```ts
 * import type { IdempotentSave, Ledger, StoredResponse } from '@topup/ledger';
 *
 * declare const ledger: Ledger;
 * declare const reply: StoredResponse;
 * const saved: IdempotentSave = await ledger.saveIdempotentResponse('acct_1', 'order-1042', 'TX7Q2M9K4D', reply);
 * if (saved.kind === 'answered') console.log('the key already answers', saved.response.httpStatus);
 * ```
 */
export type IdempotentSave =
  | { readonly kind: 'saved' }
  /** The key already holds an answer (the first one saved wins): that is the one to give. */
  | { readonly kind: 'answered'; readonly response: StoredResponse }
  /** The key was given back and claimed again by `reference`, which has not answered yet. */
  | { readonly kind: 'held_by_another'; readonly reference: string }
  /** The key holds nothing: it was given back (its transaction came to nothing) or purged. */
  | { readonly kind: 'absent' };

/**
 * Stores the first response under a key, only while the key still holds the transaction `reference` the
 * response answers for: a key given back and claimed again by a retry must never take an answer about the
 * transaction before it. One statement, so the answer describes the key as the save found it.
 */
export async function saveIdempotentResponse(
  db: Queryable,
  accountId: string,
  key: string,
  reference: string,
  response: StoredResponse,
): Promise<IdempotentSave> {
  const { rows } = await db.query<HeldKey & { saved: boolean; held: boolean }>(
    `WITH saved AS (
       UPDATE idempotency_keys
       SET response_status = $4, response_content_type = $5, response_body = $6, response_headers = $7
       WHERE account_id = $1 AND key = $2 AND reference = $3 AND response_body IS NULL
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM saved) AS saved, k.key IS NOT NULL AS held, k.account_id, k.key, k.request_hash, k.reference,
            k.response_status, k.response_content_type, k.response_body, k.response_headers
     FROM (VALUES (1)) AS one (x)
     LEFT JOIN idempotency_keys AS k ON k.account_id = $1 AND k.key = $2`,
    [
      accountId,
      key,
      reference,
      response.httpStatus,
      response.contentType,
      response.body,
      response.headers === undefined ? null : JSON.stringify(response.headers),
    ],
  );
  const row = rows[0];
  if (row?.saved === true) return { kind: 'saved' };
  if (row?.held !== true) return { kind: 'absent' };
  const stored = storedResponseOf(row);
  if (stored !== undefined) return { kind: 'answered', response: stored };
  return { kind: 'held_by_another', reference: row.reference };
}

/**
 * Gives back a key whose request came to nothing: its transaction was voided before any provider took it.
 * Only the claim of that very transaction, still without a stored response, is removed; returns whether
 * one was.
 */
export async function releaseKey(
  db: Queryable,
  accountId: string,
  key: string,
  reference: string,
): Promise<boolean> {
  const { rows } = await db.query(
    `DELETE FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND reference = $3 AND response_body IS NULL
     RETURNING key`,
    [accountId, key, reference],
  );
  return rows.length > 0;
}

/** The response stored under a live (unexpired) key, if any. */
export async function findIdempotentResponse(
  db: Queryable,
  accountId: string,
  key: string,
  now: Date,
): Promise<StoredResponse | undefined> {
  const { rows } = await db.query<HeldKey>(
    `SELECT account_id, key, request_hash, reference, response_status, response_content_type, response_body,
            response_headers
     FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND created_at > $3::timestamptz`,
    [accountId, key, cutoff(now)],
  );
  return rows[0] === undefined ? undefined : storedResponseOf(rows[0]);
}

/**
 * Deletes up to `limit` keys past the 24-hour window; returns how many. Keys locked by a batch that is
 * claiming them anew are skipped rather than waited for, so a purge never holds up requests.
 */
export async function purgeExpiredKeys(db: Queryable, now: Date, limit: number): Promise<number> {
  const { rows } = await db.query<{ purged: number }>(
    `WITH expired AS (
       SELECT account_id, key FROM idempotency_keys WHERE created_at <= $1::timestamptz
       LIMIT $2 FOR UPDATE SKIP LOCKED
     ), purged AS (
       DELETE FROM idempotency_keys AS k USING expired AS e
       WHERE k.account_id = e.account_id AND k.key = e.key
       RETURNING 1
     )
     SELECT count(*)::int AS purged FROM purged`,
    [cutoff(now), limit],
  );
  return rows[0]?.purged ?? 0;
}
