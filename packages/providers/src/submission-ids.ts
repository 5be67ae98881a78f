// The ids providers give our submissions. Daraja's callbacks name a submission by its ConversationID and
// Africa's Talking's by its requestId, never by our reference; an adapter records the id when the provider
// acknowledges a submission, so the worker can apply a callback that names only that id (once it is
// recorded: a callback may come before the acknowledgement) and the adapter can ask about a submission.

import type { Queryable } from '@topup/ledger';
import { takenInOrder } from './taken-in-order.js';

/**
 * One id a provider gave a submission: what it is for (the submission itself, or a status query about it)
 * and a second id the provider gave with it, where it gives two.
 *
 * @example
 * ```ts
 * import type { SubmissionId } from '@topup/providers';
 *
 * const b2b: SubmissionId = {
 *   provider: 'daraja', providerId: 'AG_20261124_0000abcd', reference: 'TXVQYSN6XMFZTY',
 *   purpose: 'submission', otherId: '16740-34861180-1',
 * };
 * ```
 */
export interface SubmissionId {
  readonly provider: string;
  readonly providerId: string;
  readonly reference: string;
  /**
   * `submission`: the id the provider gave the submission; `status`: a status query's about it;
   * `attempt`: our own mark, written before a call that cannot be deduplicated is sent, so a call whose
   * acknowledgement was lost is told from one never made.
   */
  readonly purpose: 'submission' | 'status' | 'attempt';
  readonly otherId: string;
}

/**
 * Records the ids providers gave submissions, in one statement; recording one again changes nothing.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, recordSubmissionIds } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await recordSubmissionIds(store, [
 *   { provider: 'daraja', providerId: 'ws_CO_1', reference: 'TXA-payment', purpose: 'submission', otherId: '' },
 *   { provider: 'daraja', providerId: 'ws_CO_2', reference: 'TXB-payment', purpose: 'submission', otherId: '' },
 * ], new Date());
 * ```
 */
export async function recordSubmissionIds(
  db: Queryable,
  ids: readonly SubmissionId[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  // In key order, as claims are, so two batches recording the same ids at once never deadlock.
  await db.query(
    `INSERT INTO provider_submission_ids (provider, provider_id, reference, purpose, other_id, created_at)
     SELECT u.provider, u.provider_id, u.reference, u.purpose, u.other_id, $6::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY
       AS u (provider, provider_id, reference, purpose, other_id, position)
     ORDER BY u.provider, u.provider_id, u.position
     ON CONFLICT (provider, provider_id) DO NOTHING`,
    [
      ids.map((id) => id.provider),
      ids.map((id) => id.providerId),
      ids.map((id) => id.reference),
      ids.map((id) => id.purpose),
      ids.map((id) => id.otherId),
      now.toISOString(),
    ],
  );
}

/**
 * Records the id a provider gave a submission; recording it again changes nothing.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, recordSubmissionId } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await recordSubmissionId(store, {
 *   provider: 'daraja', providerId: 'AG_20261124_0000abcd', reference: 'TXVQYSN6XMFZTY',
 *   purpose: 'submission', otherId: '16740-34861180-1',
 * }, new Date());
 * ```
 */
export async function recordSubmissionId(db: Queryable, id: SubmissionId, now: Date): Promise<void> {
  await recordSubmissionIds(db, [id], now);
}

/**
 * What each of a provider's ids was recorded for; an id not recorded (yet) is absent from the map.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, recordedSubmissionIds } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * const found = await recordedSubmissionIds(store, 'daraja', ['AG_20261124_0000abcd']);
 * found.get('AG_20261124_0000abcd'); // undefined: not recorded
 * ```
 */
export async function recordedSubmissionIds(
  db: Queryable,
  provider: string,
  providerIds: readonly string[],
): Promise<ReadonlyMap<string, SubmissionId>> {
  if (providerIds.length === 0) return new Map();
  const { rows } = await db.query<{
    provider_id: string;
    reference: string;
    purpose: SubmissionId['purpose'];
    other_id: string;
  }>(
    `SELECT provider_id, reference, purpose, other_id FROM provider_submission_ids
     WHERE provider = $1 AND provider_id = ANY($2::text[])`,
    [provider, [...providerIds]],
  );
  return new Map(
    rows.map((row) => [
      row.provider_id,
      {
        provider,
        providerId: row.provider_id,
        reference: row.reference,
        purpose: row.purpose,
        otherId: row.other_id,
      },
    ]),
  );
}

/**
 * The id a provider gave the submission of `reference` itself, or undefined when none was recorded (the
 * provider never acknowledged it, or its acknowledgement was lost).
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, submissionIdOf } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await submissionIdOf(store, 'daraja', 'TXVQYSN6XMFZTY'); // undefined
 * ```
 */
export async function submissionIdOf(
  db: Queryable,
  provider: string,
  reference: string,
): Promise<SubmissionId | undefined> {
  const { rows } = await db.query<{ provider_id: string; other_id: string }>(
    `SELECT provider_id, other_id FROM provider_submission_ids
     WHERE provider = $1 AND reference = $2 AND purpose = 'submission'
     ORDER BY created_at LIMIT 1`,
    [provider, reference],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { provider, providerId: row.provider_id, reference, purpose: 'submission', otherId: row.other_id };
}

/**
 * Claims the one call for `reference` to `provider`, before it is sent: true when this caller won the
 * claim, and alone may make the call; false when it was claimed already (by another process at the same
 * moment, or by an earlier call whose acknowledgement was lost), in which case it must not be made.
 * Afterwards, no recorded id and no mark means the call was never made, so it may be made now.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, recordAttempt } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await recordAttempt(store, 'daraja', 'TXVQYSN6XMFZTY-payment', new Date()); // true: call it
 * await recordAttempt(store, 'daraja', 'TXVQYSN6XMFZTY-payment', new Date()); // false: never call it again
 * ```
 */
export async function recordAttempt(
  db: Queryable,
  provider: string,
  reference: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO provider_submission_ids (provider, provider_id, reference, purpose, other_id, created_at)
     VALUES ($1, $2, $3, 'attempt', '', $4::timestamptz)
     ON CONFLICT (provider, provider_id) DO NOTHING
     RETURNING 1`,
    [provider, `attempt:${reference}`, reference, now.toISOString()],
  );
  return rows.length > 0;
}

/**
 * What `claimCall` found: the call was acknowledged before (its id is recorded), this caller now holds
 * its claim, or another holds it.
 *
 * @example
 * ```ts
 * import type { CallClaim } from '@topup/providers';
 *
 * const mayCall = (claim: CallClaim) => claim === 'won';
 * ```
 */
export type CallClaim = 'acknowledged' | 'won' | 'held';

/**
 * Before the one call for each `reference` to its `provider`, all in one statement: `acknowledged` when
 * the provider's id for its submission is recorded already (no call is needed), otherwise
 * `recordAttempt`'s claim, `won` or `held` by another. Of two claims of one call in the same batch, the
 * first wins. A claim held by another may have been acknowledged since; ask `submissionIdOf`.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { claimCalls, migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * const call = { provider: 'daraja', reference: 'TXVQYSN6XMFZTY-payment' };
 * await claimCalls(store, [call, call], new Date()); // ['won', 'held']
 * ```
 */
export async function claimCalls(
  db: Queryable,
  calls: readonly { readonly provider: string; readonly reference: string }[],
  now: Date,
): Promise<CallClaim[]> {
  if (calls.length === 0) return [];
  // Claims are inserted in key order, so two batches claiming the same calls at once (a server's and a
  // worker's) wait for each other in one order and never deadlock; the first of a batch's duplicates wins.
  const { rows } = await db.query<{ acknowledged: number[] | null; won: [string, string][] | null }>(
    `WITH asked AS (
       SELECT * FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS a (provider, reference, position)
     ), submitted AS (
       SELECT a.position FROM asked a
       WHERE EXISTS (SELECT 1 FROM provider_submission_ids s
         WHERE s.provider = a.provider AND s.reference = a.reference AND s.purpose = 'submission')
     ), claimed AS (
       INSERT INTO provider_submission_ids (provider, provider_id, reference, purpose, other_id, created_at)
       SELECT a.provider, 'attempt:' || a.reference, a.reference, 'attempt', '', $3::timestamptz
       FROM asked a WHERE a.position NOT IN (SELECT position FROM submitted)
       ORDER BY a.provider, a.reference, a.position
       ON CONFLICT (provider, provider_id) DO NOTHING
       RETURNING provider, reference
     )
     SELECT (SELECT array_agg(position::int) FROM submitted) AS acknowledged,
       (SELECT json_agg(json_build_array(provider, reference)) FROM claimed) AS won`,
    [calls.map((call) => call.provider), calls.map((call) => call.reference), now.toISOString()],
  );
  const [row] = rows;
  const acknowledged = new Set(row?.acknowledged ?? []);
  const won = takenInOrder(row?.won ?? []);
  return calls.map((call, index) => {
    if (acknowledged.has(index + 1)) return 'acknowledged';
    return won([call.provider, call.reference]) ? 'won' : 'held';
  });
}

/**
 * Before the one call for `reference` to `provider`, in one statement: `claimCalls` for one call.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { claimCall, migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await claimCall(store, 'daraja', 'TXVQYSN6XMFZTY-payment', new Date()); // 'won': call it
 * await claimCall(store, 'daraja', 'TXVQYSN6XMFZTY-payment', new Date()); // 'held': never call it again
 * ```
 */
export async function claimCall(
  db: Queryable,
  provider: string,
  reference: string,
  now: Date,
): Promise<CallClaim> {
  const [claim] = await claimCalls(db, [{ provider, reference }], now);
  return claim ?? 'held';
}

/**
 * Gives up the claim on a call that surely never left (the connection was refused before any byte was
 * sent), so the call counts as never made and may be made later. Only the claimant calls it.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { forgetAttempt, migrateProviders, recordAttempt } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await recordAttempt(store, 'africastalking', 'TXVQYSN6XMFZTY-delivery', new Date()); // true
 * await forgetAttempt(store, 'africastalking', 'TXVQYSN6XMFZTY-delivery');
 * await recordAttempt(store, 'africastalking', 'TXVQYSN6XMFZTY-delivery', new Date()); // true again
 * ```
 */
export async function forgetAttempt(db: Queryable, provider: string, reference: string): Promise<void> {
  await db.query(
    `DELETE FROM provider_submission_ids WHERE provider = $1 AND provider_id = $2 AND purpose = 'attempt'`,
    [provider, `attempt:${reference}`],
  );
}

/**
 * Whether a call for `reference` was ever about to be sent to `provider` (`recordAttempt`).
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { attemptRecorded, migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await attemptRecorded(store, 'daraja', 'TXVQYSN6XMFZTY'); // false
 * ```
 */
export async function attemptRecorded(db: Queryable, provider: string, reference: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM provider_submission_ids WHERE provider = $1 AND provider_id = $2`,
    [provider, `attempt:${reference}`],
  );
  return rows.length > 0;
}
