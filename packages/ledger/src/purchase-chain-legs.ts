// The legs of an airtime purchase carried by two providers: the payer's money network takes the payment,
// the recipient's carrier delivers, and the money network refunds when the delivery fails. Each step is
// noted on its leg while the transaction stays requested (postings move only when it resolves), so the
// worker can pick up where it stopped after a crash: a purchase whose payment succeeded is under way until
// its delivery succeeds (completed) or its refund does (cancelled), and the transaction timeout never
// cancels it, since the payer has paid.

import type { Queryable } from './store.js';
import { transactionColumns, transactionRecordOf, type TransactionRow } from './transaction-record.js';
import type { TransactionRecord } from './transaction-record.js';
import { listLegs, type LegKind, type LegState, type TransactionLeg } from './transaction-legs.js';

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
 * What the worker learned of one leg of a still-requested transaction.
 *
 * @example
 * ```ts
 * import type { LegStep } from '@topup/ledger';
 *
 * const handedToCarrier: LegStep = {
 *   kind: 'delivery', state: 'submitted', provider: 'africastalking',
 *   nextQueryAt: new Date(Date.now() + 60_000),
 * };
 * ```
 */
export interface LegStep {
  kind: LegKind;
  state: LegState;
  provider: string;
  /** The provider's own id for the leg (M-Pesa's receipt of a payment), when this step tells it. */
  providerReference?: string;
  /** When to ask the provider about it; none for a leg that has ended. */
  nextQueryAt?: Date;
  /** It now waits for an operator. */
  review?: boolean;
  /** This step is the answer to a question put to the provider (counted in `queries`). */
  asked?: boolean;
  /** The operator whose review established this step. */
  reviewedBy?: string;
  /**
   * Noted only when the leg has no row yet: the claim a worker takes before a call that must never be
   * made twice (a reversal), so that of two workers only one makes it.
   */
  onlyIfAbsent?: boolean;
}

/**
 * Notes `step` on its leg while transaction `reference` is requested. A leg that has ended keeps its end,
 * unless an operator is settling it from review, or the same end now comes with the provider's reference it
 * lacked (a payment learned from STK Query, which tells no receipt, and then from its late callback, which
 * does); a leg marked for review stays marked until an operator settles it. Returns whether anything was
 * noted.
 */
export async function noteLegStep(
  db: Queryable,
  reference: string,
  step: LegStep,
  now: Date,
): Promise<boolean> {
  const { rows } = await db.query<{ reference: string }>(
    `INSERT INTO transaction_legs (reference, kind, provider, state, provider_reference, queries,
       next_query_at, review_since, reviewed_by, reviewed_at, created_at, updated_at)
     SELECT t.reference, $2, $3, $4, $5, CASE WHEN $8::boolean THEN 1 ELSE 0 END, $6::timestamptz,
       CASE WHEN $7::boolean THEN $10::timestamptz END, $9,
       CASE WHEN $9 = '' THEN NULL ELSE $10::timestamptz END, $10::timestamptz, $10::timestamptz
     FROM transactions t WHERE t.reference = $1 AND t.state = 'requested'
     ON CONFLICT (reference, kind) DO UPDATE SET
       state = excluded.state,
       provider = CASE WHEN excluded.provider = '' THEN transaction_legs.provider ELSE excluded.provider END,
       provider_reference = CASE WHEN excluded.provider_reference = ''
         THEN transaction_legs.provider_reference ELSE excluded.provider_reference END,
       queries = transaction_legs.queries + excluded.queries,
       next_query_at = excluded.next_query_at,
       review_since = CASE WHEN excluded.reviewed_by <> '' THEN transaction_legs.review_since
         ELSE coalesce(transaction_legs.review_since, excluded.review_since) END,
       reviewed_by = CASE WHEN excluded.reviewed_by = '' THEN transaction_legs.reviewed_by
         ELSE excluded.reviewed_by END,
       reviewed_at = coalesce(excluded.reviewed_at, transaction_legs.reviewed_at),
       updated_at = excluded.updated_at
     WHERE NOT $11::boolean
       AND (transaction_legs.state NOT IN ('succeeded', 'failed') OR excluded.reviewed_by <> ''
         OR (transaction_legs.state = excluded.state AND transaction_legs.provider_reference = ''
           AND excluded.provider_reference <> ''))
     RETURNING reference`,
    [
      reference,
      step.kind,
      step.provider,
      step.state,
      step.providerReference ?? '',
      step.nextQueryAt?.toISOString() ?? null,
      step.review === true,
      step.asked === true,
      step.reviewedBy ?? '',
      now.toISOString(),
      step.onlyIfAbsent === true,
    ],
  );
  return rows.length > 0;
}

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
 * Requested purchases whose payment succeeded and whose chain has a step due at `now`: a delivery to
 * submit, a refund to submit after a failed delivery, or a delivery or refund to ask about. Legs waiting
 * for an operator are left out. Oldest first.
 */
export async function listPurchasesUnderWay(
  db: Queryable,
  now: Date,
  limit: number,
  timeZone: string,
): Promise<PurchaseUnderWay[]> {
  const { rows } = await db.query<TransactionRow>(
    `SELECT ${transactionColumns} FROM transactions t
     WHERE t.state = 'requested' AND t.type = 'Airtime'
       AND EXISTS (SELECT 1 FROM transaction_legs p WHERE p.reference = t.reference
         AND p.kind = 'payment' AND p.state = 'succeeded')
       AND NOT EXISTS (SELECT 1 FROM transaction_legs w WHERE w.reference = t.reference
         AND w.review_since IS NOT NULL AND w.reviewed_at IS NULL)
       AND (
         NOT EXISTS (SELECT 1 FROM transaction_legs d WHERE d.reference = t.reference AND d.kind = 'delivery')
         OR EXISTS (SELECT 1 FROM transaction_legs d WHERE d.reference = t.reference AND d.kind = 'delivery'
           AND d.state = 'failed'
           AND NOT EXISTS (SELECT 1 FROM transaction_legs r WHERE r.reference = t.reference AND r.kind = 'refund'))
         OR EXISTS (SELECT 1 FROM transaction_legs l WHERE l.reference = t.reference
           AND l.kind IN ('delivery', 'refund') AND l.state NOT IN ('succeeded', 'failed')
           AND l.next_query_at <= $1::timestamptz)
       )
     ORDER BY t.created_at, t.reference LIMIT $2`,
    [now.toISOString(), limit],
  );
  return Promise.all(
    rows.map(async (row) => {
      const transaction = transactionRecordOf(row, timeZone);
      return { transaction, legs: await listLegs(db, transaction.reference) };
    }),
  );
}
