// The legs a transaction is carried out as: float is one disbursement; airtime is a payment, then a
// delivery, then a refund when the delivery fails after payment. A leg's row is written when the ledger
// learns more of it than its submission: its end, in the database transaction that resolves its
// transaction (so postings, the leg's state and the callback change together), or that its provider has
// not settled it yet (when to ask again, and whether it now waits for an operator's review). A leg only
// submitted is read from its transaction's `submitted_at`, so the common path writes nothing more for it.

import type { Resolution } from './resolution.js';
import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';
import type { TransactionRecord } from './transaction-record.js';

/**
 * What a leg does: a float's `disbursement`; an airtime purchase's `payment` (the payer's prompt),
 * `delivery` (the airtime) and `refund` (the payment given back when the delivery failed).
 *
 * @example
 * ```ts
 * import type { LegKind } from '@topup/ledger';
 *
 * const first: LegKind = 'payment';
 * ```
 */
export type LegKind = 'disbursement' | 'payment' | 'delivery' | 'refund';

/**
 * Where a leg stands with its provider. `pending`: the provider says it is still working on it;
 * `unknown`: the provider could not be asked, or did not answer.
 *
 * @example
 * ```ts
 * import type { LegState } from '@topup/ledger';
 *
 * const settled = (state: LegState) => state === 'succeeded' || state === 'failed';
 * ```
 */
export type LegState = 'submitted' | 'pending' | 'succeeded' | 'failed' | 'unknown';

/**
 * One leg of a transaction, as `Ledger.legs` and `Ledger.legsForReview` show it.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type TransactionLeg } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const legs: TransactionLeg[] = await ledger.legs('TXVQYSN6XMFZTY');
 * for (const leg of legs) console.log(leg.id, leg.state);
 * ```
 */
export interface TransactionLeg {
  /** `<reference>-<kind>`: what an operator names it by, and the key it is submitted under. */
  id: string;
  reference: string;
  kind: LegKind;
  /** The provider that carries it; blank when the resolution did not say. */
  provider: string;
  state: LegState;
  /** The provider's own id for it, once known. */
  providerReference: string;
  /** How many times the provider was asked about it without settling it. */
  queries: number;
  /** When the worker asks the provider again. */
  nextQueryAt: Date | undefined;
  /**
   * Since when it waits for an operator: unsettled at the end of the reconciliation window, or a result
   * that contradicts what is recorded (`reviewReason`).
   */
  reviewSince: Date | undefined;
  /**
   * Why it waits: `unsettled` (still unknown at the end of the window), `contradiction` (a result disagrees
   * with what is recorded), `mismatch` (a result names another amount, phone or party than was asked),
   * `refused` (a refund was not made); blank when it never waited.
   */
  reviewReason: string;
  /** Every message that put it in review, oldest first: what was recorded, what was said, and why. */
  reviewEvidence: readonly Readonly<Record<string, string>>[];
  /** The operator who settled it, when one did. */
  reviewedBy: string;
  reviewedAt: Date | undefined;
  /** What the operator's settlement found, as the transition table words it. */
  reviewFinding: string;
  /** Provider calls claimed for it (each by one worker, who alone made it). */
  calls: number;
  updatedAt: Date;
}

interface LegRow {
  reference: string;
  kind: LegKind;
  provider: string;
  state: LegState;
  provider_reference: string;
  queries: number;
  next_query_at: Date | null;
  review_since: Date | null;
  review_reason: string;
  review_evidence: Record<string, string>[] | string;
  reviewed_by: string;
  reviewed_at: Date | null;
  review_finding: string;
  calls: number;
  updated_at: Date;
}

const legColumnNames = [
  'reference',
  'kind',
  'provider',
  'state',
  'provider_reference',
  'queries',
  'next_query_at',
  'review_since',
  'review_reason',
  'review_evidence',
  'reviewed_by',
  'reviewed_at',
  'review_finding',
  'calls',
  'updated_at',
];

/** The columns of a leg row, read through table alias `l`. */
const legColumns = legColumnNames.map((name) => `l.${name}`).join(', ');

const legKinds: ReadonlySet<string> = new Set<LegKind>(['disbursement', 'payment', 'delivery', 'refund']);

/**
 * A leg's id: its transaction's reference and its kind.
 *
 * @example
 * ```ts
 * import { legId } from '@topup/ledger';
 *
 * legId('TXVQYSN6XMFZTY', 'delivery'); // 'TXVQYSN6XMFZTY-delivery'
 * ```
 */
export function legId(reference: string, kind: LegKind): string {
  return `${reference}-${kind}`;
}

/**
 * The reference and kind a leg id names, or undefined when it names none (a bare reference).
 *
 * @example
 * ```ts
 * import { parseLegId } from '@topup/ledger';
 *
 * parseLegId('TXVQYSN6XMFZTY-refund'); // { reference: 'TXVQYSN6XMFZTY', kind: 'refund' }
 * parseLegId('TXVQYSN6XMFZTY'); // undefined
 * ```
 */
export function parseLegId(id: string): { reference: string; kind: LegKind } | undefined {
  const dash = id.lastIndexOf('-');
  const kind = id.slice(dash + 1);
  if (dash < 1 || !legKinds.has(kind)) return undefined;
  return { reference: id.slice(0, dash), kind: kind as LegKind };
}

function legOf(row: LegRow): TransactionLeg {
  return {
    id: legId(row.reference, row.kind),
    reference: row.reference,
    kind: row.kind,
    provider: row.provider,
    state: row.state,
    providerReference: row.provider_reference,
    queries: row.queries,
    nextQueryAt: row.next_query_at ?? undefined,
    reviewSince: row.review_since ?? undefined,
    reviewReason: row.review_reason,
    // PGlite hands jsonb back parsed, and so does pg; a driver configured otherwise hands back text.
    reviewEvidence:
      typeof row.review_evidence === 'string'
        ? (JSON.parse(row.review_evidence) as Record<string, string>[])
        : row.review_evidence,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at ?? undefined,
    reviewFinding: row.review_finding,
    calls: row.calls,
    updatedAt: row.updated_at,
  };
}

/**
 * The leg a transaction starts with: the one submitted to its provider. Airtime sent from the caller's
 * balance has no payer, so it starts with its delivery.
 */
export function firstLegKind(type: TransactionRecord['type'], hasPayer: boolean): LegKind {
  if (type === 'Agent Float') return 'disbursement';
  return hasPayer ? 'payment' : 'delivery';
}

/** A leg's end, written with the resolution that reached it. */
export interface LegEnd {
  reference: string;
  kind: LegKind;
  state: 'succeeded' | 'failed';
  provider: string;
  providerReference: string;
  /** The operator whose review settled it. */
  reviewedBy: string;
}

/**
 * The legs a resolution ends. A completion: every leg succeeded. A cancellation: the first leg failed, or
 * for a purchase whose payment was collected, the payment succeeded, the delivery failed and the payment
 * was refunded.
 */
export function legEndsOf(record: TransactionRecord, resolution: Resolution): LegEnd[] {
  const base = {
    reference: record.reference,
    provider: resolution.provider ?? '',
    providerReference: resolution.providerCode ?? '',
    reviewedBy: resolution.reviewedBy ?? '',
  };
  if (record.type === 'Agent Float' || record.payment === undefined) {
    return [
      {
        ...base,
        kind: firstLegKind(record.type, false),
        state: resolution.kind === 'complete' ? 'succeeded' : 'failed',
      },
    ];
  }
  if (resolution.kind === 'complete') {
    return [
      { ...base, kind: 'payment', state: 'succeeded' },
      { ...base, kind: 'delivery', state: 'succeeded' },
    ];
  }
  if (resolution.paymentCollected !== true) return [{ ...base, kind: 'payment', state: 'failed' }];
  return [
    { ...base, kind: 'payment', state: 'succeeded' },
    { ...base, kind: 'delivery', state: 'failed' },
    { ...base, kind: 'refund', state: 'succeeded' },
  ];
}

/** A leg waiting for an operator only because its provider had not settled it. */
export const unsettledReview = `(transaction_legs.review_since IS NOT NULL AND transaction_legs.reviewed_at IS NULL
         AND transaction_legs.review_reason = 'unsettled')`;

/**
 * A leg waiting for an operator because a result contradicted it, named another amount or party, or its
 * refund was not made: only a settlement of that very leg ends its review.
 */
const heldReview = `(transaction_legs.review_since IS NOT NULL AND transaction_legs.reviewed_at IS NULL
         AND transaction_legs.review_reason NOT IN ('', 'unsettled'))`;

/**
 * How a leg's end meets a row already there: a leg noted as unsettled takes its end and keeps its history
 * (queries, review; a review for want of a result ends with the provider's result, while a contradiction
 * stays for its operator, even when an operator's settlement of another leg ends the transaction), and a
 * leg that already ended so (a purchase's payment, noted when it succeeded) keeps the provider and provider
 * reference noted then.
 */
export const legEndConflict = `ON CONFLICT (reference, kind) DO UPDATE SET
       state = excluded.state,
       provider = CASE WHEN excluded.provider = '' OR transaction_legs.state = excluded.state
         THEN transaction_legs.provider ELSE excluded.provider END,
       provider_reference = CASE WHEN excluded.provider_reference = '' OR transaction_legs.state = excluded.state
         THEN transaction_legs.provider_reference ELSE excluded.provider_reference END,
       reviewed_by = CASE WHEN ${heldReview} THEN transaction_legs.reviewed_by
         WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_by
         WHEN ${unsettledReview} THEN 'provider' ELSE transaction_legs.reviewed_by END,
       reviewed_at = CASE WHEN ${heldReview} THEN transaction_legs.reviewed_at
         WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_at
         WHEN ${unsettledReview} THEN excluded.updated_at ELSE transaction_legs.reviewed_at END,
       review_finding = CASE WHEN excluded.reviewed_by = '' AND ${unsettledReview}
         THEN 'settled by the provider''s own result' ELSE transaction_legs.review_finding END,
       next_query_at = NULL, updated_at = excluded.updated_at`;

/**
 * One INSERT of every leg's end; a leg already noted as unsettled takes its end and keeps its history
 * (queries, review), and a leg that already ended so (a purchase's payment, noted when it succeeded) keeps
 * the provider and provider reference noted then. None when there is nothing to write.
 */
export function legEndStatement(ends: readonly LegEnd[], now: Date): SqlStatement | undefined {
  if (ends.length === 0) return undefined;
  return {
    text: `INSERT INTO transaction_legs (reference, kind, provider, state, provider_reference, reviewed_by,
       reviewed_at, created_at, updated_at)
     SELECT r, k, p, s, c, b, CASE WHEN b = '' THEN NULL ELSE $7::timestamptz END, $7::timestamptz, $7::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u (r, k, p, s, c, b)
     ${legEndConflict}`,
    values: [
      ends.map((end) => end.reference),
      ends.map((end) => end.kind),
      ends.map((end) => end.provider),
      ends.map((end) => end.state),
      ends.map((end) => end.providerReference),
      ends.map((end) => end.reviewedBy),
      now.toISOString(),
    ],
  };
}

/**
 * What the worker learned of a leg its provider has not settled.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type UnsettledLeg } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const leg: UnsettledLeg = {
 *   state: 'pending',
 *   provider: 'sandbox',
 *   nextQueryAt: new Date(Date.now() + 60_000),
 *   review: false,
 * };
 * await ledger.noteUnsettledLeg('TXVQYSN6XMFZTY', leg);
 * ```
 */
export interface UnsettledLeg {
  state: 'pending' | 'unknown';
  provider: string;
  /** When to ask the provider again. */
  nextQueryAt: Date;
  /** The reconciliation window is over: the leg now waits for an operator. */
  review: boolean;
  /** What the provider said, or why it could not be asked: kept with the review. */
  said?: string;
}

/** A transaction with no leg row yet comes back once, with every leg column null. */
type JoinedLegRow = { [K in keyof LegRow]: LegRow[K] | null } & {
  transaction_reference: string;
  type: TransactionRecord['type'];
  payment_network: string | null;
  submitted_at: Date | null;
};

const legOrder: readonly LegKind[] = ['disbursement', 'payment', 'delivery', 'refund'];

/** One transaction's legs from its joined rows, with its first leg made up when only submitted_at says so. */
function legsFrom(reference: string, rows: readonly JoinedLegRow[]): TransactionLeg[] {
  const [first] = rows;
  if (first === undefined) return [];
  const legs = rows.flatMap((row) => (row.kind === null ? [] : [legOf(row as LegRow)]));
  const startedWith = firstLegKind(first.type, first.payment_network !== null);
  if (first.submitted_at !== null && !legs.some((leg) => leg.kind === startedWith)) {
    legs.push({
      id: legId(reference, startedWith),
      reference,
      kind: startedWith,
      provider: '',
      state: 'submitted',
      providerReference: '',
      queries: 0,
      nextQueryAt: undefined,
      reviewSince: undefined,
      reviewReason: '',
      reviewEvidence: [],
      reviewedBy: '',
      reviewedAt: undefined,
      reviewFinding: '',
      calls: 0,
      updatedAt: first.submitted_at,
    });
  }
  return legs.sort((a, b) => legOrder.indexOf(a.kind) - legOrder.indexOf(b.kind));
}

/**
 * The legs of each transaction in `references`, in the order they happen, read in one query; a
 * transaction with no leg, or none at all, maps to [].
 */
export async function listLegsOf(
  db: Queryable,
  references: readonly string[],
): Promise<ReadonlyMap<string, TransactionLeg[]>> {
  if (references.length === 0) return new Map();
  const { rows } = await db.query<JoinedLegRow>(
    `SELECT t.reference AS transaction_reference, t.type, t.payment_network, t.submitted_at, ${legColumns}
     FROM transactions t LEFT JOIN transaction_legs l ON l.reference = t.reference
     WHERE t.reference = ANY($1::text[])`,
    [[...references]],
  );
  const rowsOf = new Map<string, JoinedLegRow[]>();
  for (const row of rows) {
    const held = rowsOf.get(row.transaction_reference);
    if (held === undefined) rowsOf.set(row.transaction_reference, [row]);
    else held.push(row);
  }
  return new Map(
    references.map((reference) => [reference, legsFrom(reference, rowsOf.get(reference) ?? [])]),
  );
}

/** The legs of transaction `reference`, in the order they happen; [] when it has none or does not exist. */
export async function listLegs(db: Queryable, reference: string): Promise<TransactionLeg[]> {
  return (await listLegsOf(db, [reference])).get(reference) ?? [];
}

/**
 * Legs waiting for an operator, longest waiting first: unsettled at the end of the reconciliation window
 * (their transaction still requested), or holding a result that contradicts what is recorded (whatever
 * their transaction's state).
 */
export async function listLegsForReview(db: Queryable, limit: number): Promise<TransactionLeg[]> {
  const { rows } = await db.query<LegRow>(
    `SELECT ${legColumns} FROM transaction_legs l
     WHERE l.review_since IS NOT NULL AND l.reviewed_at IS NULL
     ORDER BY l.review_since, l.reference LIMIT $1`,
    [limit],
  );
  return rows.map(legOf);
}

/** How many legs wait for an operator. */
export async function countLegsForReview(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ waiting: string }>(
    `SELECT count(*) AS waiting FROM transaction_legs WHERE review_since IS NOT NULL AND reviewed_at IS NULL`,
  );
  return Number(rows[0]?.waiting ?? 0);
}

/** Whether the leg `id` waits for an operator. */
export async function legWaitsForReview(db: Queryable, id: string): Promise<boolean> {
  const named = parseLegId(id);
  if (named === undefined) return false;
  const { rows } = await db.query(
    `SELECT 1 FROM transaction_legs
     WHERE reference = $1 AND kind = $2 AND review_since IS NOT NULL AND reviewed_at IS NULL`,
    [named.reference, named.kind],
  );
  return rows.length > 0;
}
