// The end of a transaction's life: completion or cancellation, with its money effect and its callback
// deliveries, all in one database transaction, for many transactions at once. The state moves by a
// conditional UPDATE (… WHERE state = 'requested'), so a provider result, a retry and a timeout racing on
// one transaction resolve it once.

import type { Carrier } from '@topup/envelope';
import { callbackInsertStatement, listeningEndpoints, type AnnouncedTransaction } from './callback-outbox.js';
import {
  availableOf,
  channelBalanceOf,
  lockLedgerAccounts,
  balanceUpdateStatement,
  systemAccountIds,
  type ChannelName,
} from './ledger-accounts.js';
import type { ResolveOutcome } from './outcomes.js';
import { runWithWrites } from './sql-statement.js';
import { unappliedInsertStatement, type UnappliedResolution } from './unapplied-resolutions.js';
import type { Queryable } from './store.js';
import { legTransition } from './leg-transitions.js';
import { reviewStatement, type ReviewMark } from './leg-reviews.js';
import {
  firstLegKind,
  legEndConflict,
  legEndStatement,
  legEndsOf,
  type LegEnd,
  type LegKind,
} from './transaction-legs.js';
import {
  transactionColumns,
  transactionRecordOf,
  type TransactionRecord,
  type TransactionRow,
} from './transaction-record.js';
import {
  applyDelta,
  balanceDeltas,
  OverdraftError,
  transferInsertStatement,
  type TransferInput,
} from './transfers.js';

/** Who reached a resolution: the provider that carried the transaction, or the operator who reviewed it. */
interface ResolvedBy {
  /** The provider that carried the transaction, recorded on its legs. */
  provider?: string;
  /** The operator whose review settled the transaction's leg. */
  reviewedBy?: string;
}

export type Resolution =
  | ({ kind: 'complete'; providerCode: string } & ResolvedBy)
  | ({
      kind: 'cancel';
      reason: string;
      providerCode?: string;
      /** Airtime: the payer's payment was collected before the failure, so it is collected and refunded. */
      paymentCollected?: boolean;
      /** Asked by the transaction timeout, not a provider: losing to a result is no disagreement. */
      timedOut?: boolean;
    } & ResolvedBy);

export interface ResolutionContext {
  now: Date;
  timeZone: string;
  /** Airtime commission per carrier, in basis points of the amount. */
  commissionBasisPoints: Readonly<Record<Carrier, number>>;
}

interface PendingTransferRow {
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount: string;
  reference: string;
}

/** A completion or cancellation asked for one transaction. */
export interface ResolutionRequest {
  reference: string;
  resolution: Resolution;
}

/**
 * The commission a completed airtime payout earns the caller's channel, whoever paid for the airtime: the
 * carrier's discount on airtime bought through the channel.
 */
function commissionOf(
  record: TransactionRecord,
  channelId: bigint,
  context: ResolutionContext,
): TransferInput[] {
  const commission =
    (record.amountMinor * BigInt(context.commissionBasisPoints[record.network as Carrier])) / 10_000n;
  if (commission === 0n) return [];
  return [
    {
      debitAccountId: systemAccountIds.commission,
      creditAccountId: channelId,
      amount: commission,
      kind: 'single',
      purpose: 'airtime_commission',
      reference: record.reference,
    },
  ];
}

/**
 * The effect of a transaction paid from the caller's channel (float, airtime sent from the balance): its
 * reservation posted on completion, voided on cancellation; sent airtime also earns its commission.
 */
function reservationEffect(
  record: TransactionRecord,
  resolution: Resolution,
  pending: PendingTransferRow | undefined,
  context: ResolutionContext,
): TransferInput[] {
  if (pending === undefined) {
    throw new Error(`Expected ${record.reference} to hold a pending transfer, found none.`);
  }
  const settled: TransferInput = {
    debitAccountId: BigInt(pending.debit_account_id),
    creditAccountId: BigInt(pending.credit_account_id),
    amount: BigInt(pending.amount),
    kind: resolution.kind === 'complete' ? 'post' : 'void',
    pendingId: BigInt(pending.id),
    purpose: record.type === 'Agent Float' ? 'float' : 'airtime_payout',
    reference: record.reference,
  };
  if (record.type === 'Agent Float' || resolution.kind !== 'complete') return [settled];
  return [settled, ...commissionOf(record, BigInt(pending.debit_account_id), context)];
}

function airtimeEffect(
  record: TransactionRecord,
  resolution: Resolution,
  channelId: bigint | undefined,
  context: ResolutionContext,
): TransferInput[] {
  if (resolution.kind === 'cancel' && resolution.paymentCollected !== true) return [];
  if (channelId === undefined)
    throw new Error(`Expected account ${record.accountId} to have an airtime channel.`);
  const { reference, amountMinor: amount } = record;
  const collections = systemAccountIds.payerCollections;
  const collection: TransferInput = {
    debitAccountId: collections,
    creditAccountId: channelId,
    amount,
    kind: 'single',
    purpose: 'airtime_collection',
    reference,
  };
  if (resolution.kind === 'cancel') {
    return [
      collection,
      {
        debitAccountId: channelId,
        creditAccountId: collections,
        amount,
        kind: 'single',
        purpose: 'airtime_refund',
        reference,
      },
    ];
  }
  const payout: TransferInput = {
    debitAccountId: channelId,
    creditAccountId: systemAccountIds.carrier[record.network as Carrier],
    amount,
    kind: 'single',
    purpose: 'airtime_payout',
    reference,
  };
  return [collection, payout, ...commissionOf(record, channelId, context)];
}

/** A resolved transaction and, when paid from its caller's channel, the pending transfer its resolution posts or voids. */
interface ResolvedRow extends TransactionRow {
  pending_id: string | null;
  pending_debit_account_id: string | null;
  pending_credit_account_id: string | null;
  pending_amount: string | null;
}

/**
 * Moves each still-requested transaction to its new state, ends its legs as the resolution says (in the
 * same statement, before any account is locked: a completion's legs all succeeded; a cancellation's first
 * leg failed, or for a purchase whose payment was collected, the payment succeeded, the delivery failed and
 * the payment was refunded; airtime sent from the balance: its delivery), and returns it with its pending
 * transfer (paid from the caller's channel). The rows are locked in reference order first, so two workers resolving overlapping batches never
 * wait on each other crosswise. They are found by primary key alone and their state is checked once
 * locked: a condition on `state` would let the planner walk the partial index of every requested
 * transaction and test each against the batch, a cost that grows with the number in flight.
 */
async function updateStates(
  tx: Queryable,
  requests: readonly ResolutionRequest[],
  now: Date,
  timeZone: string,
): Promise<Map<string, { record: TransactionRecord; pending: PendingTransferRow | undefined }>> {
  const { rows } = await tx.query<ResolvedRow>(
    `WITH locked AS (
       SELECT reference AS locked_reference, state AS locked_state FROM transactions
       WHERE reference = ANY($1::text[])
       ORDER BY reference FOR UPDATE
     ),
     resolved AS (
       UPDATE transactions SET
         state = u.new_state, resolved_at = $5::timestamptz,
         code = CASE WHEN u.new_code = '' THEN code ELSE u.new_code END,
         cancel_reason = u.new_reason
       FROM locked JOIN unnest($1::text[], $2::text[], $3::text[], $4::text[])
         AS u (new_reference, new_state, new_code, new_reason) ON u.new_reference = locked.locked_reference
       WHERE reference = locked.locked_reference AND locked.locked_state = 'requested'
       RETURNING ${transactionColumns}
     ),
     ended_legs AS (
       INSERT INTO transaction_legs (reference, kind, provider, state, provider_reference, reviewed_by,
         reviewed_at, created_at, updated_at)
       SELECT resolved.reference, e.kind, u.provider, e.state, u.code, u.reviewed_by,
         CASE WHEN u.reviewed_by = '' THEN NULL ELSE $5::timestamptz END, $5::timestamptz, $5::timestamptz
       FROM resolved
       JOIN unnest($1::text[], $6::text[], $3::text[], $7::text[], $8::boolean[])
         AS u (leg_reference, provider, code, reviewed_by, collected) ON u.leg_reference = resolved.reference
       JOIN (VALUES ('float_done', 'disbursement', 'succeeded'), ('float_failed', 'disbursement', 'failed'),
           ('bought', 'payment', 'succeeded'), ('bought', 'delivery', 'succeeded'),
           ('declined', 'payment', 'failed'),
           ('refunded', 'payment', 'succeeded'), ('refunded', 'delivery', 'failed'),
           ('refunded', 'refund', 'succeeded'), ('sent', 'delivery', 'succeeded'),
           ('unsent', 'delivery', 'failed')) AS e (outcome, kind, state)
         ON e.outcome = CASE
           WHEN resolved.type = 'Agent Float' THEN
             CASE WHEN resolved.state = 'completed' THEN 'float_done' ELSE 'float_failed' END
           WHEN resolved.payment_network IS NULL THEN
             CASE WHEN resolved.state = 'completed' THEN 'sent' ELSE 'unsent' END
           WHEN resolved.state = 'completed' THEN 'bought'
           WHEN u.collected THEN 'refunded'
           ELSE 'declined' END
       ${legEndConflict}
     )
     SELECT resolved.*, p.id AS pending_id, p.debit_account_id AS pending_debit_account_id,
       p.credit_account_id AS pending_credit_account_id, p.amount AS pending_amount
     FROM resolved LEFT JOIN transfers p ON p.reference = resolved.reference AND p.kind = 'pending'`,
    [
      requests.map((request) => request.reference),
      requests.map((request) => (request.resolution.kind === 'complete' ? 'completed' : 'cancelled')),
      requests.map((request) => request.resolution.providerCode ?? ''),
      requests.map((request) => (request.resolution.kind === 'cancel' ? request.resolution.reason : '')),
      now.toISOString(),
      requests.map((request) => request.resolution.provider ?? ''),
      requests.map((request) => request.resolution.reviewedBy ?? ''),
      requests.map(
        (request) => request.resolution.kind === 'cancel' && request.resolution.paymentCollected === true,
      ),
    ],
  );
  return new Map(
    rows.map((row) => [
      row.reference,
      {
        record: transactionRecordOf(row, timeZone),
        pending:
          row.pending_id === null
            ? undefined
            : {
                id: row.pending_id,
                debit_account_id: row.pending_debit_account_id ?? '',
                credit_account_id: row.pending_credit_account_id ?? '',
                amount: row.pending_amount ?? '',
                reference: row.reference,
              },
      },
    ]),
  );
}

async function readRecords(
  tx: Queryable,
  references: readonly string[],
  timeZone: string,
): Promise<Map<string, TransactionRecord>> {
  if (references.length === 0) return new Map();
  const { rows } = await tx.query<TransactionRow>(
    `SELECT ${transactionColumns} FROM transactions WHERE reference = ANY($1::text[])`,
    [references],
  );
  return new Map(rows.map((row) => [row.reference, transactionRecordOf(row, timeZone)]));
}

/**
 * Airtime purchases already cancelled with nothing collected, for which a request now reports that the
 * payer did pay (delivery failed after payment). The payer's money went through the provider and back, so
 * the ledger must show it: the collection and its refund are posted late, and nothing else changes (the
 * cancellation and its callback stand). A purchase whose collection is already posted is left alone.
 */
async function uncollectedPayments(
  tx: Queryable,
  requests: readonly ResolutionRequest[],
  existing: ReadonlyMap<string, TransactionRecord>,
): Promise<TransactionRecord[]> {
  const candidates = new Map<string, TransactionRecord>();
  for (const request of requests) {
    const record = existing.get(request.reference);
    if (
      record?.type === 'Airtime' &&
      record.payment !== undefined &&
      record.state === 'cancelled' &&
      request.resolution.kind === 'cancel' &&
      request.resolution.paymentCollected === true
    ) {
      candidates.set(record.reference, record);
    }
  }
  if (candidates.size === 0) return [];
  const { rows } = await tx.query<{ reference: string }>(
    `SELECT DISTINCT reference FROM transfers
     WHERE reference = ANY($1::text[]) AND purpose = 'airtime_collection'`,
    [[...candidates.keys()]],
  );
  for (const row of rows) candidates.delete(row.reference);
  return [...candidates.values()];
}

function channelOf(record: TransactionRecord): ChannelName {
  return record.type === 'Agent Float' ? 'float' : 'airtime';
}

/**
 * Completes or cancels a batch of requested transactions in `tx`, each with its money effect and
 * callbacks, with a handful of statements whatever the batch size. The result of each request is what
 * resolving the requests one after another, in order, would give: the first of two requests for one
 * transaction resolves it, the second finds it already resolved, and each callback shows the channel's
 * balance just after its own transaction. Returns one outcome per request and how many callback
 * deliveries were queued (the caller notifies workers after commit). A failure fails the whole batch.
 */
export async function resolveBatch(
  tx: Queryable,
  requests: readonly ResolutionRequest[],
  context: ResolutionContext,
): Promise<{ outcomes: ResolveOutcome[]; callbacks: number }> {
  const { now, timeZone } = context;
  const firsts = new Map<string, ResolutionRequest>();
  for (const request of requests) if (!firsts.has(request.reference)) firsts.set(request.reference, request);
  const updated = await updateStates(tx, [...firsts.values()], now, timeZone);
  const resolved = new Map([...updated].map(([reference, { record }]) => [reference, record]));
  const untouched = [...firsts.keys()].filter((reference) => !resolved.has(reference));
  const existing = await readRecords(tx, untouched, timeZone);
  const late = await uncollectedPayments(tx, requests, existing);

  const records = [...firsts.keys()].flatMap((reference) => resolved.get(reference) ?? []);
  const pending = new Map(
    [...updated].flatMap(([reference, { pending: transfer }]) =>
      transfer === undefined ? [] : [[reference, transfer] as const],
    ),
  );
  const callers = [...new Set(records.map((record) => record.accountId))];
  // Every record here was just completed or cancelled, so each announces a callback.
  const endpoints = await listeningEndpoints(tx, callers);
  const lateCallers = late.map((record) => record.accountId);
  // Every account involved is locked in one statement, in ascending id order like every other writer:
  // the callers' channels, and the system accounts the effects will touch.
  const systemIds = new Set<bigint>();
  for (const record of records) {
    const resolution = (firsts.get(record.reference) as ResolutionRequest).resolution;
    const transfer = pending.get(record.reference);
    if (transfer !== undefined) systemIds.add(BigInt(transfer.credit_account_id));
    const purchase = record.type === 'Airtime' && record.payment !== undefined;
    if (purchase && (resolution.kind === 'complete' || resolution.paymentCollected === true)) {
      systemIds.add(systemAccountIds.payerCollections);
    }
    if (record.type === 'Airtime' && resolution.kind === 'complete') {
      const carrier = record.network as Carrier;
      systemIds.add(systemAccountIds.carrier[carrier]);
      if (context.commissionBasisPoints[carrier] > 0) systemIds.add(systemAccountIds.commission);
    }
  }
  if (late.length > 0) systemIds.add(systemAccountIds.payerCollections);
  const locked = await lockLedgerAccounts(tx, [...systemIds], [...new Set([...callers, ...lateCallers])]);
  const channelIds = new Map<string, bigint>();
  for (const account of locked.values()) {
    if (account.accountId !== undefined && account.channel !== undefined) {
      channelIds.set(`${account.accountId}:${account.channel}`, account.id);
    }
  }
  const running = new Map(locked);

  // Each transaction's effect in turn, so each callback carries the balance just after its own.
  const announced: AnnouncedTransaction[] = [];
  const allTransfers: TransferInput[] = [];
  const legEnds: LegEnd[] = [];
  const post = (record: TransactionRecord, transfers: readonly TransferInput[]) => {
    for (const [id, delta] of balanceDeltas(transfers)) {
      const account = running.get(id);
      if (account === undefined)
        throw new Error(`Expected ledger account ${id.toString()} to exist, found none.`);
      const next = applyDelta(account, delta);
      if (next.mustNotGoNegative && availableOf(next) < 0n) {
        throw new OverdraftError(
          `Expected ${account.code} to stay at or above zero, but ${record.reference} would leave ${availableOf(next).toString()} cents available.`,
        );
      }
      running.set(id, next);
    }
    allTransfers.push(...transfers);
  };
  for (const record of records) {
    const resolution = (firsts.get(record.reference) as ResolutionRequest).resolution;
    post(
      record,
      record.type === 'Agent Float' || record.payment === undefined
        ? reservationEffect(record, resolution, pending.get(record.reference), context)
        : airtimeEffect(record, resolution, channelIds.get(`${record.accountId}:airtime`), context),
    );
    const channelName = channelOf(record);
    const channelId = channelIds.get(`${record.accountId}:${channelName}`);
    const channelAccount = channelId === undefined ? undefined : running.get(channelId);
    if (channelAccount === undefined)
      throw new Error(`Expected account ${record.accountId} to have a ${channelName} channel.`);
    announced.push({ record, channel: channelBalanceOf(channelName, channelAccount) });
  }
  for (const record of late) {
    const asked = requests.find((request) => request.reference === record.reference)?.resolution;
    const collectedAndRefunded: Resolution = {
      kind: 'cancel',
      reason: '',
      paymentCollected: true,
      ...(asked?.provider === undefined ? {} : { provider: asked.provider }),
      ...(asked?.providerCode === undefined ? {} : { providerCode: asked.providerCode }),
    };
    legEnds.push(...legEndsOf(record, collectedAndRefunded));
    post(
      record,
      airtimeEffect(record, collectedAndRefunded, channelIds.get(`${record.accountId}:airtime`), context),
    );
  }
  const outcomes = outcomesInOrder(requests, resolved, existing);
  const refused = disagreeing(requests, outcomes);
  const queued = await runWithWrites(tx, callbackInsertStatement(announced, endpoints, now), [
    transferInsertStatement(allTransfers, now),
    balanceUpdateStatement(balanceDeltas(allTransfers)),
    unappliedInsertStatement(refused, now),
    legEndStatement(legEnds, now),
    refused.length === 0
      ? undefined
      : reviewStatement(
          refused.map((entry) => reviewMarkOf(entry, now)),
          now,
        ),
  ]);
  return { outcomes, callbacks: queued.length };
}

/** Each request's outcome, as resolving them one after another in order would give. */
function outcomesInOrder(
  requests: readonly ResolutionRequest[],
  resolved: ReadonlyMap<string, TransactionRecord>,
  existing: ReadonlyMap<string, TransactionRecord>,
): ResolveOutcome[] {
  const seen = new Set<string>();
  return requests.map((request): ResolveOutcome => {
    const first = !seen.has(request.reference);
    seen.add(request.reference);
    const record = resolved.get(request.reference);
    if (record !== undefined) {
      return first
        ? { kind: 'resolved', transaction: record }
        : { kind: 'already_resolved', transaction: record };
    }
    const found = existing.get(request.reference);
    return found === undefined ? { kind: 'not_found' } : { kind: 'already_resolved', transaction: found };
  });
}

/** A request the batch refused, with the transaction it found and its first leg. */
interface Refused extends Omit<UnappliedResolution, 'receivedAt'> {
  readonly provider: string;
  readonly firstLeg: LegKind;
  readonly why: string;
}

/**
 * The refused requests that the transition table sends to review: a result of the whole transaction that
 * asked for another end than it had (a timeout's own cancellation losing to a result is no result). Each is
 * kept for reconciliation and puts the transaction's first leg in review, in the same statement.
 */
function disagreeing(requests: readonly ResolutionRequest[], outcomes: readonly ResolveOutcome[]): Refused[] {
  return requests.flatMap((request, index) => {
    const outcome = outcomes[index];
    if (outcome?.kind !== 'already_resolved') return [];
    if (request.resolution.kind === 'cancel' && request.resolution.timedOut === true) return [];
    const { transaction } = outcome;
    if (transaction.state === 'requested') return [];
    const firstLeg = firstLegKind(transaction.type, transaction.payment !== undefined);
    const rule = legTransition(
      {
        shape: 'whole',
        transaction: transaction.state,
        leg: firstLeg,
        legs: {
          first: transaction.state === 'completed' ? 'succeeded' : 'failed',
          payment: 'none',
          delivery: 'none',
          refund: 'none',
        },
        review: false,
        collected: false,
        callsAsSeen: true,
      },
      request.resolution.kind === 'complete' ? 'succeeded' : 'failed',
    );
    if (rule.then !== 'review') return [];
    return [
      {
        reference: request.reference,
        asked: request.resolution.kind === 'complete' ? 'completed' : 'cancelled',
        state: transaction.state,
        providerCode: request.resolution.providerCode ?? '',
        reason: request.resolution.kind === 'cancel' ? request.resolution.reason : '',
        provider: request.resolution.provider ?? '',
        firstLeg,
        why: rule.why,
      },
    ];
  });
}

function reviewMarkOf(refused: Refused, now: Date): ReviewMark {
  const evidence = {
    at: now.toISOString(),
    event: 'result',
    outcome: refused.asked === 'completed' ? 'succeeded' : 'failed',
    recorded: refused.state,
    provider: refused.provider,
    providerCode: refused.providerCode,
    reason: refused.reason,
    why: refused.why,
  };
  return {
    reference: refused.reference,
    kind: refused.firstLeg,
    reason: 'contradiction',
    evidence: JSON.stringify([evidence]),
  };
}

/**
 * Notes that the provider accepted these transactions; each one's first submission time is kept. The rows
 * are locked in reference order first, as a batch of leg events or resolutions locks them: left to the
 * plan, the UPDATE would lock them in the order they lie on disk and could deadlock with such a batch.
 */
export async function markAllSubmitted(
  db: Queryable,
  references: readonly string[],
  now: Date,
): Promise<void> {
  await db.query(
    `WITH locked AS (
       SELECT reference AS locked_reference FROM transactions
       WHERE reference = ANY($1::text[]) AND submitted_at IS NULL
       ORDER BY reference FOR UPDATE
     )
     UPDATE transactions SET submitted_at = $2::timestamptz
     FROM locked WHERE reference = locked.locked_reference AND submitted_at IS NULL`,
    [references, now.toISOString()],
  );
}

/**
 * Requested transactions created before `olderThan`, oldest first; `unsubmittedOnly` narrows to never
 * submitted. A transaction whose leg is not to be asked about again before a later time, or waits for an
 * operator's review, is left out, so it stands in front of no other; so is a purchase whose payment
 * succeeded, which its chain of legs settles (the payer has paid: no timeout may cancel it).
 */
export async function listRequested(
  db: Queryable,
  olderThan: Date,
  limit: number,
  unsubmittedOnly: boolean,
  timeZone: string,
  now: Date,
): Promise<TransactionRecord[]> {
  const { rows } = await db.query<TransactionRow>(
    `SELECT ${transactionColumns} FROM transactions t
     WHERE state = 'requested' AND created_at < $1::timestamptz AND (NOT $3::boolean OR submitted_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM transaction_legs l WHERE l.reference = t.reference
         AND (l.next_query_at > $4::timestamptz OR (l.review_since IS NOT NULL AND l.reviewed_at IS NULL)
           OR (l.kind = 'payment' AND l.state = 'succeeded')))
     ORDER BY created_at, reference LIMIT $2`,
    [olderThan.toISOString(), limit, unsubmittedOnly, now.toISOString()],
  );
  return rows.map((row) => transactionRecordOf(row, timeZone));
}
