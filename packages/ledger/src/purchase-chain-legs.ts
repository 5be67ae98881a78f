// The legs of an airtime purchase carried by two providers: the payer's money network takes the payment,
// the recipient's carrier delivers, and the money network refunds when the delivery fails. Each step is
// noted on its leg while the transaction stays requested (postings move only when it resolves), so the
// worker can pick up where it stopped after a crash: a purchase whose payment succeeded is under way until
// its delivery succeeds (completed) or its refund does (cancelled), and the transaction timeout never
// cancels it, since the payer has paid.

import type { Queryable } from './store.js';
import { transactionColumns, transactionRecordOf, type TransactionRow } from './transaction-record.js';
import type { TransactionRecord } from './transaction-record.js';
import { listLegsOf, type TransactionLeg } from './transaction-legs.js';

/**
 * The reason a purchase's cancellation carries when its airtime was not delivered and the payer was
 * refunded.
 *
 * @example
 * ```ts
 * import { NOT_DELIVERED_REFUNDED } from '@topup/ledger';
 *
 * const refunded = (reason: string) => reason === NOT_DELIVERED_REFUNDED;
 * ```
 */
export const NOT_DELIVERED_REFUNDED = 'the airtime could not be delivered; the payment was refunded';

/**
 * A purchase under way: requested, its payment succeeded, and a step of its chain due.
 *
 * @example
 * ```ts
 * import type { PurchaseUnderWay } from '@topup/ledger';
 *
 * const next = ({ legs }: PurchaseUnderWay) => legs.find((leg) => leg.kind === 'delivery')?.state ?? 'none';
 * ```
 */
export interface PurchaseUnderWay {
  transaction: TransactionRecord;
  legs: TransactionLeg[];
}

/**
 * Purchases whose payment succeeded and whose chain has a step due at `now`, oldest first. Requested ones:
 * a delivery to submit, a refund to submit after a failed delivery, or a delivery or refund to ask about.
 * Cancelled ones whose payment an operator found collected and whose collection is not posted yet: a refund
 * to submit or ask about. Purchases with a leg waiting for an operator are left out.
 */
export async function listPurchasesUnderWay(
  db: Queryable,
  now: Date,
  limit: number,
  timeZone: string,
): Promise<PurchaseUnderWay[]> {
  const due = `NOT EXISTS (SELECT 1 FROM transaction_legs w WHERE w.reference = t.reference
         AND w.review_since IS NOT NULL AND w.reviewed_at IS NULL)`;
  const refundDue = `(NOT EXISTS (SELECT 1 FROM transaction_legs r WHERE r.reference = t.reference AND r.kind = 'refund')
         OR EXISTS (SELECT 1 FROM transaction_legs r WHERE r.reference = t.reference AND r.kind = 'refund'
           AND r.state NOT IN ('succeeded', 'failed') AND r.next_query_at <= $1::timestamptz))`;
  // The requested purchases are read first, behind an OFFSET 0 fence, so the plan starts from the
  // transactions in flight (their partial index) and not from every succeeded payment leg ever recorded,
  // which the planner chose on a busy, fast-growing table and which grew with the history.
  const { rows } = await db.query<TransactionRow>(
    `(SELECT ${transactionColumns} FROM (
       SELECT * FROM transactions WHERE state = 'requested' AND type = 'Airtime' OFFSET 0) t
     WHERE EXISTS (SELECT 1 FROM transaction_legs p WHERE p.reference = t.reference
         AND p.kind = 'payment' AND p.state = 'succeeded')
       AND ${due}
       AND (
         NOT EXISTS (SELECT 1 FROM transaction_legs d WHERE d.reference = t.reference AND d.kind = 'delivery')
         OR EXISTS (SELECT 1 FROM transaction_legs d WHERE d.reference = t.reference AND d.kind = 'delivery'
           AND d.state = 'failed'
           AND NOT EXISTS (SELECT 1 FROM transaction_legs r WHERE r.reference = t.reference AND r.kind = 'refund'))
         OR EXISTS (SELECT 1 FROM transaction_legs l WHERE l.reference = t.reference
           AND l.kind IN ('delivery', 'refund') AND l.state NOT IN ('succeeded', 'failed')
           AND l.next_query_at <= $1::timestamptz)
       ))
     UNION ALL
     (SELECT ${transactionColumns.replace(/(\w+)/g, 't.$1')} FROM transaction_legs p
     JOIN transactions t ON t.reference = p.reference AND t.state = 'cancelled'
     WHERE p.reviewed_at IS NOT NULL AND p.kind = 'payment' AND p.state = 'succeeded'
       AND NOT EXISTS (SELECT 1 FROM transfers c WHERE c.reference = t.reference AND c.purpose = 'airtime_collection')
       AND ${due} AND ${refundDue})
     ORDER BY created_at, reference LIMIT $2`,
    [now.toISOString(), limit],
  );
  const legs = await listLegsOf(
    db,
    rows.map((row) => row.reference),
  );
  return rows.map((row) => ({
    transaction: transactionRecordOf(row, timeZone),
    legs: legs.get(row.reference) ?? [],
  }));
}
