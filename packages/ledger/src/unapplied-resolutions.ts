// Resolutions that came too late: a completion or cancellation asked for a transaction already resolved
// the other way (a provider's result after the timeout cancelled it, say). The ledger applies a transaction's
// first resolution only; a later one that disagrees is kept here, in the same database transaction that
// refused it, so an operator can reconcile with the provider: a late "completed" for a cancelled float
// means the provider may have paid out what the ledger voided.

import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';
import type { TransactionState } from '@topup/envelope';

/**
 * A resolution the ledger refused because its transaction was already resolved the other way.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type UnappliedResolution } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const late: UnappliedResolution[] = await ledger.listUnappliedResolutions({ limit: 100 });
 * for (const entry of late) console.log(entry.reference, entry.asked, 'but it is', entry.state);
 * ```
 */
export interface UnappliedResolution {
  reference: string;
  /** What the refused resolution asked for. */
  asked: 'completed' | 'cancelled';
  /** What the transaction already was. */
  state: TransactionState;
  providerCode: string;
  reason: string;
  receivedAt: Date;
}

interface UnappliedRow {
  reference: string;
  asked: 'completed' | 'cancelled';
  state: TransactionState;
  provider_code: string;
  reason: string;
  received_at: Date;
}

/** One INSERT of every refused resolution; none when there is nothing to keep. */
export function unappliedInsertStatement(
  entries: readonly Omit<UnappliedResolution, 'receivedAt'>[],
  now: Date,
): SqlStatement | undefined {
  if (entries.length === 0) return undefined;
  return {
    text: `INSERT INTO unapplied_resolutions (reference, asked, state, provider_code, reason, received_at)
     SELECT r, a, s, c, w, $6::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u (r, a, s, c, w)`,
    values: [
      entries.map((entry) => entry.reference),
      entries.map((entry) => entry.asked),
      entries.map((entry) => entry.state),
      entries.map((entry) => entry.providerCode),
      entries.map((entry) => entry.reason),
      now.toISOString(),
    ],
  };
}

/** Refused resolutions, newest first: of one transaction, or of all, at most `limit`. */
export async function listUnappliedResolutions(
  db: Queryable,
  filter: { reference?: string; limit?: number },
): Promise<UnappliedResolution[]> {
  const { rows } = await db.query<UnappliedRow>(
    `SELECT reference, asked, state, provider_code, reason, received_at FROM unapplied_resolutions
     WHERE $1::text IS NULL OR reference = $1
     ORDER BY received_at DESC, id DESC LIMIT $2`,
    [filter.reference ?? null, filter.limit ?? 1_000],
  );
  return rows.map((row) => ({
    reference: row.reference,
    asked: row.asked,
    state: row.state,
    providerCode: row.provider_code,
    reason: row.reason,
    receivedAt: row.received_at,
  }));
}
