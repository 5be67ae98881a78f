// When to ask a provider again about a leg it has not settled, and whether the leg now waits for an
// operator: never sooner than PROVIDER_QUERY_AFTER_SECONDS, then after half the transaction's age, never
// more than 15 minutes apart (a long wait costs few questions and a late answer is still found soon); and
// for review once the transaction is older than its timeout plus the reconciliation window. The first leg
// (transaction-timeouts.ts, interrupted-submissions.ts) and a purchase's later legs (purchase-chains.ts)
// follow the same schedule: two loops noting one leg on schedules of their own could keep it from review.

import type { Ledger, TransactionRecord } from '@topup/ledger';

/** The longest wait between two questions about one unsettled leg. */
const MAX_QUERY_INTERVAL_MS = 15 * 60_000;

export interface QuerySchedule {
  readonly queryAfterMs: number;
  readonly timeoutMs: number;
  readonly reconciliationWindowMs: number;
}

/** The next question about a leg of a transaction made at `createdAt`, asked at `now`. */
export function nextQueryOf(
  schedule: QuerySchedule,
  createdAt: Date,
  now: Date,
): { readonly nextQueryAt: Date; readonly review: boolean } {
  const ageMs = now.getTime() - createdAt.getTime();
  const waitMs = Math.min(Math.max(schedule.queryAfterMs, ageMs / 2), MAX_QUERY_INTERVAL_MS);
  return {
    nextQueryAt: new Date(now.getTime() + waitMs),
    review: ageMs >= schedule.timeoutMs + schedule.reconciliationWindowMs,
  };
}

/**
 * Notes the first leg of still-requested `transaction` unsettled, to be asked about again on `schedule`;
 * returns whether it now waits for an operator.
 */
export async function noteFirstLegOnSchedule(
  ledger: Pick<Ledger, 'noteUnsettledLeg'>,
  schedule: QuerySchedule,
  transaction: Pick<TransactionRecord, 'reference' | 'createdAt'>,
  leg: { readonly state: 'pending' | 'unknown'; readonly provider: string },
  now: Date,
): Promise<boolean> {
  const { nextQueryAt, review } = nextQueryOf(schedule, transaction.createdAt, now);
  await ledger.noteUnsettledLeg(transaction.reference, { ...leg, nextQueryAt, review });
  return review;
}
