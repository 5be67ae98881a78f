// Putting legs in review: the one statement that marks a leg as waiting for an operator, with why and one
// more piece of evidence, used by a single leg event under its transaction's lock and by a batch of
// resolutions for the results that contradicted what they found. A leg with no row yet gets one (a result
// about a leg never asked for), and a leg whose earlier review was settled is put back in review.

import type { SqlStatement } from './sql-statement.js';
import type { LegKind } from './transaction-legs.js';

/**
 * Why a leg waits: still unsettled at the end of the reconciliation window, a result contradicting what is
 * recorded, a result naming another amount, phone or party than was asked, or a refund that was not made.
 *
 * @example
 * ```ts
 * import type { ReviewReason } from '@topup/ledger';
 *
 * const reason: ReviewReason = 'mismatch'; // a paid callback for another amount than the prompt asked
 * ```
 */
export type ReviewReason = 'unsettled' | 'contradiction' | 'mismatch' | 'refused';

/** One leg to put in review, with its evidence as a JSON array of one entry. */
export interface ReviewMark {
  readonly reference: string;
  readonly kind: LegKind;
  readonly reason: ReviewReason;
  readonly evidence: string;
}

/**
 * One INSERT marking every leg in `marks` for review. An open review keeps its start and its stronger
 * reason (anything but `unsettled`), and gathers the new evidence after the old.
 */
export function reviewStatement(marks: readonly ReviewMark[], now: Date): SqlStatement {
  return {
    text: `INSERT INTO transaction_legs (reference, kind, state, review_since, review_reason, review_evidence,
       created_at, updated_at)
     SELECT r, k, 'unknown', $5::timestamptz, w, e::jsonb, $5::timestamptz, $5::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u (r, k, w, e)
     ON CONFLICT (reference, kind) DO UPDATE SET
       review_since = CASE WHEN transaction_legs.reviewed_at IS NULL
         THEN coalesce(transaction_legs.review_since, excluded.review_since) ELSE excluded.review_since END,
       reviewed_at = NULL,
       review_reason = CASE WHEN transaction_legs.review_since IS NOT NULL AND transaction_legs.reviewed_at IS NULL
         AND transaction_legs.review_reason NOT IN ('', 'unsettled')
         THEN transaction_legs.review_reason ELSE excluded.review_reason END,
       review_evidence = transaction_legs.review_evidence || excluded.review_evidence,
       updated_at = excluded.updated_at`,
    values: [
      marks.map((mark) => mark.reference),
      marks.map((mark) => mark.kind),
      marks.map((mark) => mark.reason),
      marks.map((mark) => mark.evidence),
      now.toISOString(),
    ],
  };
}
