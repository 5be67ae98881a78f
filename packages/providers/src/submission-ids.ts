// The ids providers give our submissions. Daraja's callbacks name a submission by its ConversationID and
// Africa's Talking's by its requestId, never by our reference; an adapter records the id when the provider
// acknowledges a submission, so the worker can apply a callback that names only that id (once it is
// recorded: a callback may come before the acknowledgement) and the adapter can ask about a submission.

import type { Queryable } from '@topup/ledger';

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
  await db.query(
    `INSERT INTO provider_submission_ids (provider, provider_id, reference, purpose, other_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz)
     ON CONFLICT (provider, provider_id) DO NOTHING`,
    [id.provider, id.providerId, id.reference, id.purpose, id.otherId, now.toISOString()],
  );
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
 * Before the one call for `reference` to `provider`, in one statement: `acknowledged` when the provider's
 * id for its submission is recorded already (no call is needed), otherwise `recordAttempt`'s claim, `won`
 * or `held` by another. A claim held by another may have been acknowledged since; ask `submissionIdOf`.
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
  const { rows } = await db.query<{ acknowledged: boolean; won: boolean }>(
    `WITH submitted AS (
       SELECT 1 FROM provider_submission_ids
       WHERE provider = $1 AND reference = $3 AND purpose = 'submission' LIMIT 1
     ), claimed AS (
       INSERT INTO provider_submission_ids (provider, provider_id, reference, purpose, other_id, created_at)
       SELECT $1, $2, $3, 'attempt', '', $4::timestamptz WHERE NOT EXISTS (SELECT 1 FROM submitted)
       ON CONFLICT (provider, provider_id) DO NOTHING
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM submitted) AS acknowledged, EXISTS (SELECT 1 FROM claimed) AS won`,
    [provider, `attempt:${reference}`, reference, now.toISOString()],
  );
  const [row] = rows;
  if (row?.acknowledged === true) return 'acknowledged';
  return row?.won === true ? 'won' : 'held';
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
