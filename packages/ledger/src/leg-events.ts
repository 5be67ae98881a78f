// Carrying out the transition table (leg-transitions.ts) for one event about one leg: the transaction's row
// is locked, what is recorded of it and its legs is read, the table decides, and the decision is written
// (the leg's new state, the resolution with its postings and callback, a review with its evidence, a claim)
// in the same database transaction. Every event about a transaction is so serialised on its row, so a
// result, a contradicting result, a worker's claim and an operator's settlement can never both act on a
// state the other has changed.

import {
  legTransition,
  type LegAction,
  type LegEventKind,
  type LegRecord,
  type LegSituation,
} from './leg-transitions.js';
import { LedgerError } from './ledger-error.js';
import { reviewStatement, type ReviewReason } from './leg-reviews.js';
import { NOT_DELIVERED_REFUNDED } from './purchase-chain-legs.js';
import { resolveBatch, type Resolution, type ResolutionContext } from './resolution.js';
import type { Queryable, Store } from './store.js';
import { firstLegKind, unsettledReview, type LegKind, type LegState } from './transaction-legs.js';
import {
  transactionColumns,
  transactionRecordOf,
  type TransactionRecord,
  type TransactionRow,
} from './transaction-record.js';

/**
 * What a provider's message says was moved, compared with what was asked before the message may move
 * money: the amount, the phone number (maybe masked with `*`), the short code, till or store number.
 *
 * @example
 * ```ts
 * import type { LegEvidence } from '@topup/ledger';
 *
 * const paid: LegEvidence = { amountMinor: 50_000n, mobile: '2547******49' };
 * ```
 */
export interface LegEvidence {
  readonly amountMinor?: bigint;
  readonly mobile?: string;
  readonly partyCode?: string;
}

/**
 * Something that happened to one leg: a provider's result (pushed or answered to a query), an answer that
 * leaves the leg unsettled, a submission's answer, the timeout, a worker's wish to call the provider, or an
 * operator's settlement.
 *
 * @example
 * ```ts
 * import type { LegEvent } from '@topup/ledger';
 *
 * const delivered: LegEvent = {
 *   kind: 'result', outcome: 'succeeded', provider: 'africastalking', providerCode: 'ATQid_1',
 *   reason: '', source: 'webhook',
 * };
 * ```
 */
export type LegEvent =
  | {
      readonly kind: 'result';
      readonly outcome: 'succeeded' | 'failed';
      readonly provider: string;
      readonly providerCode: string;
      readonly reason: string;
      /** Where it came from (`webhook`, `query`, `pulled`), kept with a review's evidence. */
      readonly source: string;
      readonly evidence?: LegEvidence;
    }
  | {
      readonly kind: 'open';
      readonly state: 'pending' | 'unknown';
      readonly provider: string;
      readonly nextQueryAt: Date;
      /** The reconciliation window is over: the leg now waits for an operator. */
      readonly review: boolean;
      /** It answers a question put to the provider (counted in `queries`). */
      readonly asked: boolean;
      /** What the provider said, or why it could not be asked: kept with a review. */
      readonly said: string;
    }
  | { readonly kind: 'accepted'; readonly provider: string; readonly nextQueryAt: Date }
  | {
      readonly kind: 'refused';
      readonly provider: string;
      readonly providerCode: string;
      readonly reason: string;
    }
  | { readonly kind: 'never taken'; readonly provider: string; readonly nextQueryAt: Date }
  | { readonly kind: 'timed out'; readonly provider: string; readonly reason: string }
  | {
      readonly kind: 'call';
      readonly provider: string;
      readonly seenCalls: number;
      /**
       * When to ask the provider about the call if its claimant never says what came of it (it died
       * mid-call); at once when not given. The claimant's own answer replaces it.
       */
      readonly nextQueryAt?: Date;
    }
  | {
      readonly kind: 'settled';
      readonly as: 'succeeded' | 'failed';
      readonly by: string;
      /** The provider's reference the operator found (M-Pesa's receipt of a payment). */
      readonly receipt?: string;
    };

/**
 * What an event did: the table's action and why, the transaction as it now is, and the leg's claimed
 * calls (a `call` event was claimed when the action is `claim`).
 *
 * @example
 * ```ts
 * import type { LegEventOutcome } from '@topup/ledger';
 *
 * const contradicted = (outcome: LegEventOutcome) => outcome.action === 'review';
 * ```
 */
export interface LegEventOutcome {
  readonly action: LegAction;
  readonly why: string;
  readonly transaction: TransactionRecord;
  readonly calls: number;
  /** Why the event put the leg in review, when it did. */
  readonly review?: ReviewReason;
}

/** The reason a transaction carries when an operator settled its leg as failed. */
export const SETTLED_AS_FAILED = 'the provider did not carry it out';

interface LockedLeg {
  kind: LegKind;
  state: LegState;
  provider: string;
  provider_reference: string;
  calls: number;
  review_open: boolean;
}

interface Locked {
  record: TransactionRecord;
  legs: Map<LegKind, LockedLeg>;
  collected: boolean;
}

async function lockTransaction(
  tx: Queryable,
  reference: string,
  timeZone: string,
): Promise<Locked | undefined> {
  const { rows } = await tx.query<TransactionRow>(
    `SELECT ${transactionColumns} FROM transactions WHERE reference = $1 FOR UPDATE`,
    [reference],
  );
  const [row] = rows;
  if (row === undefined) return undefined;
  // The last row, with no kind, only says whether the collection is posted.
  const { rows: legRows } = await tx.query<
    (LockedLeg & { collected: false }) | { kind: null; collected: true }
  >(
    `SELECT kind, state, provider, provider_reference, calls,
       review_since IS NOT NULL AND reviewed_at IS NULL AS review_open, false AS collected
     FROM transaction_legs WHERE reference = $1
     UNION ALL
     SELECT NULL, NULL, NULL, NULL, NULL, NULL, true FROM transfers
     WHERE reference = $1 AND purpose = 'airtime_collection'`,
    [reference],
  );
  return {
    record: transactionRecordOf(row, timeZone),
    legs: new Map(legRows.flatMap((leg) => (leg.kind === null ? [] : [[leg.kind, leg] as const]))),
    collected: legRows.some((leg) => leg.collected),
  };
}

function recordOf(leg: LockedLeg | undefined, fallback: LegRecord): LegRecord {
  if (leg === undefined) return fallback;
  return leg.state === 'succeeded' || leg.state === 'failed' ? leg.state : 'open';
}

/**
 * Whether the event is about one leg of a purchase carried by two providers: it names a payment, delivery
 * or refund of a purchase; `first` speaks for the whole transaction.
 */
function chainLeg(record: TransactionRecord, leg: LegKind | 'first'): boolean {
  return (
    record.type === 'Airtime' && record.payment !== undefined && leg !== 'first' && leg !== 'disbursement'
  );
}

function situationOf(
  locked: Locked,
  named: LegKind | 'first',
  kind: LegKind,
  seenCalls: number | undefined,
): LegSituation {
  const { record, legs } = locked;
  const first = firstLegKind(record.type, record.payment !== undefined);
  const firstRecord = recordOf(legs.get(first), 'open');
  const leg = legs.get(kind);
  return {
    shape: chainLeg(record, named) ? 'chain' : 'whole',
    transaction: record.state,
    leg: kind,
    legs: {
      first: firstRecord,
      payment: first === 'payment' ? firstRecord : 'none',
      delivery: recordOf(legs.get('delivery'), first === 'delivery' ? 'open' : 'none'),
      refund: recordOf(legs.get('refund'), 'none'),
    },
    review: [...legs.values()].some((candidate) => candidate.review_open),
    collected: locked.collected,
    callsAsSeen: seenCalls === undefined || (leg?.calls ?? 0) === seenCalls,
  };
}

function eventKindOf(event: LegEvent, differs: boolean): LegEventKind {
  switch (event.kind) {
    case 'result':
      return differs ? 'differs' : event.outcome;
    case 'open':
      return 'still open';
    case 'settled':
      return event.as === 'succeeded' ? 'settled succeeded' : 'settled failed';
    default:
      return event.kind;
  }
}

/** The digits a phone number ends with, `*` standing for any: the last nine, the subscriber's number. */
function subscriberOf(mobile: string): string {
  return mobile.replace(/[^\d*]/g, '').slice(-9);
}

function sameMobile(reported: string, asked: string): boolean {
  const a = subscriberOf(reported);
  const b = subscriberOf(asked);
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] !== '*' && a[index] !== b[index]) return false;
  }
  return true;
}

/**
 * How the evidence of a result differs from what was asked of leg `kind`; none when it agrees.
 *
 * @example
 * ```ts
 * import { evidenceDifferences, type TransactionRecord } from '@topup/ledger';
 *
 * declare const purchase: TransactionRecord; // KES 500 asked of the payer
 * evidenceDifferences(purchase, 'payment', { amountMinor: 100n }); // ['amount 100 cents where 50000 were asked']
 * ```
 */
export function evidenceDifferences(
  record: TransactionRecord,
  kind: LegKind,
  evidence: LegEvidence | undefined,
): string[] {
  if (evidence === undefined) return [];
  const differences: string[] = [];
  if (evidence.amountMinor !== undefined && evidence.amountMinor !== record.amountMinor) {
    differences.push(
      `amount ${evidence.amountMinor.toString()} cents where ${record.amountMinor.toString()} were asked`,
    );
  }
  const askedMobile =
    kind === 'payment' || kind === 'refund' ? (record.payment?.mobile ?? '') : record.recipient.mobile;
  if (evidence.mobile !== undefined && evidence.mobile !== '' && !sameMobile(evidence.mobile, askedMobile)) {
    differences.push(`phone ${evidence.mobile} where ${askedMobile} was asked`);
  }
  if (kind === 'disbursement' && evidence.partyCode !== undefined && evidence.partyCode !== '') {
    const { store_number: store, agent_number: agent } = record.recipient;
    if (evidence.partyCode !== store && evidence.partyCode !== agent) {
      differences.push(`party ${evidence.partyCode} where store ${store} was asked`);
    }
  }
  return differences;
}

function evidenceEntry(
  event: LegEvent,
  recorded: LegRecord,
  why: string,
  now: Date,
  extra: readonly string[],
): string {
  const base: Record<string, string> = { at: now.toISOString(), event: event.kind, recorded, why };
  if (event.kind === 'result') {
    Object.assign(base, {
      outcome: event.outcome,
      provider: event.provider,
      providerCode: event.providerCode,
      reason: event.reason,
      source: event.source,
    });
    if (event.evidence?.amountMinor !== undefined)
      base['amountMinor'] = event.evidence.amountMinor.toString();
    if (event.evidence?.mobile !== undefined) base['mobile'] = event.evidence.mobile;
    if (event.evidence?.partyCode !== undefined) base['partyCode'] = event.evidence.partyCode;
  } else if (event.kind === 'open') {
    Object.assign(base, { provider: event.provider, said: event.said });
  } else if (event.kind === 'refused') {
    Object.assign(base, { provider: event.provider, providerCode: event.providerCode, reason: event.reason });
  }
  if (extra.length > 0) base['differences'] = extra.join('; ');
  return JSON.stringify([base]);
}

/** A provider's result ends a leg that waited for an operator only because it had no result. */
const providerSettles = `excluded.reviewed_by = '' AND excluded.state IN ('succeeded', 'failed')
         AND ${unsettledReview}`;

/** Writes leg `kind`'s new state (and what goes with it) on the locked transaction. */
async function writeLeg(
  tx: Queryable,
  reference: string,
  kind: LegKind,
  leg: {
    state: LegState;
    provider: string;
    providerReference?: string;
    nextQueryAt?: Date | undefined;
    asked?: boolean;
    calls?: number;
    reviewedBy?: string;
    finding?: string;
  },
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO transaction_legs (reference, kind, provider, state, provider_reference, queries,
       next_query_at, calls, reviewed_by, reviewed_at, review_finding, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $7::boolean THEN 1 ELSE 0 END, $6::timestamptz, coalesce($8::integer, 0),
       $9, CASE WHEN $9 = '' THEN NULL ELSE $11::timestamptz END, $10, $11::timestamptz, $11::timestamptz)
     ON CONFLICT (reference, kind) DO UPDATE SET
       state = excluded.state,
       provider = CASE WHEN excluded.provider = '' THEN transaction_legs.provider ELSE excluded.provider END,
       provider_reference = CASE WHEN excluded.provider_reference = ''
         THEN transaction_legs.provider_reference ELSE excluded.provider_reference END,
       queries = transaction_legs.queries + excluded.queries,
       next_query_at = excluded.next_query_at,
       calls = coalesce($8::integer, transaction_legs.calls),
       reviewed_by = CASE WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_by
         WHEN ${providerSettles} THEN 'provider' ELSE transaction_legs.reviewed_by END,
       reviewed_at = CASE WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_at
         WHEN ${providerSettles} THEN excluded.updated_at ELSE transaction_legs.reviewed_at END,
       review_finding = CASE WHEN excluded.reviewed_by <> '' THEN excluded.review_finding
         WHEN ${providerSettles} THEN 'settled by the provider''s own result' ELSE transaction_legs.review_finding END,
       updated_at = excluded.updated_at`,
    [
      reference,
      kind,
      leg.provider,
      leg.state,
      leg.providerReference ?? '',
      leg.nextQueryAt?.toISOString() ?? null,
      leg.asked === true,
      leg.calls ?? null,
      leg.reviewedBy ?? '',
      leg.finding ?? '',
      now.toISOString(),
    ],
  );
}

/** Ends the review of every leg of `reference` waiting for one, with the operator's finding. */
async function closeReviews(
  tx: Queryable,
  reference: string,
  kind: LegKind,
  by: string,
  finding: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE transaction_legs SET reviewed_by = $3, reviewed_at = $5::timestamptz, review_finding = $4,
       next_query_at = NULL, updated_at = $5::timestamptz
     WHERE reference = $1 AND kind = $2 AND review_since IS NOT NULL AND reviewed_at IS NULL`,
    [reference, kind, by, finding, now.toISOString()],
  );
}

function resolutionOf(action: LegAction, event: LegEvent, provider: string, reviewedBy: string): Resolution {
  const providerCode = event.kind === 'result' || event.kind === 'refused' ? event.providerCode : '';
  const by = { provider, ...(reviewedBy === '' ? {} : { reviewedBy }) };
  if (action === 'complete') return { kind: 'complete', providerCode, ...by };
  if (action === 'cancel refunded') {
    return { kind: 'cancel', reason: NOT_DELIVERED_REFUNDED, providerCode, paymentCollected: true, ...by };
  }
  const reason =
    event.kind === 'settled'
      ? SETTLED_AS_FAILED
      : event.kind === 'result' || event.kind === 'refused' || event.kind === 'timed out'
        ? event.reason
        : SETTLED_AS_FAILED;
  return {
    kind: 'cancel',
    reason,
    providerCode,
    ...by,
    ...(event.kind === 'timed out' ? { timedOut: true } : {}),
  };
}

/** What a leg's change is written with, from the event that brought it. */
interface Change {
  readonly tx: Queryable;
  readonly reference: string;
  readonly kind: LegKind;
  readonly event: LegEvent;
  readonly locked: Locked;
  readonly leg: LockedLeg | undefined;
  readonly recorded: LegRecord;
  readonly differences: readonly string[];
  readonly why: string;
  readonly context: ResolutionContext;
}

const providerOf = ({ event, leg }: Change) => ('provider' in event ? event.provider : (leg?.provider ?? ''));
const reviewerOf = ({ event }: Change) => (event.kind === 'settled' ? event.by : '');

async function settleReview(change: Change): Promise<void> {
  const { event } = change;
  if (event.kind !== 'settled') return;
  await closeReviews(change.tx, change.reference, change.kind, event.by, change.why, change.context.now);
}

async function endLeg(
  change: Change,
  state: 'succeeded' | 'failed',
  providerReference: string,
): Promise<void> {
  const reviewedBy = reviewerOf(change);
  await writeLeg(
    change.tx,
    change.reference,
    change.kind,
    {
      state,
      provider: providerOf(change),
      providerReference,
      nextQueryAt: undefined,
      reviewedBy,
      finding: reviewedBy === '' ? '' : change.why,
    },
    change.context.now,
  );
  await settleReview(change);
}

async function review(change: Change, reason: ReviewReason): Promise<void> {
  const { now } = change.context;
  const entry = evidenceEntry(change.event, change.recorded, change.why, now, change.differences);
  const marked = reviewStatement(
    [{ reference: change.reference, kind: change.kind, reason, evidence: entry }],
    now,
  );
  await change.tx.query(marked.text, marked.values);
}

async function resolveWith(change: Change, action: LegAction): Promise<TransactionRecord | undefined> {
  await settleReview(change);
  const resolution = resolutionOf(action, change.event, providerOf(change), reviewerOf(change));
  const { outcomes } = await resolveBatch(
    change.tx,
    [{ reference: change.reference, resolution }],
    change.context,
  );
  const [outcome] = outcomes;
  return outcome?.kind === 'resolved' || outcome?.kind === 'already_resolved'
    ? outcome.transaction
    : undefined;
}

function endStateOf(event: LegEvent): 'succeeded' | 'failed' {
  if (event.kind === 'result') return event.outcome;
  if (event.kind === 'settled') return event.as;
  return 'failed';
}

function receiptOf(event: LegEvent): string {
  if (event.kind === 'result' || event.kind === 'refused') return event.providerCode;
  return event.kind === 'settled' ? (event.receipt ?? '') : '';
}

/** Carries out the table's action; returns the transaction when a resolution changed it, and the leg's calls. */
async function perform(
  change: Change,
  action: LegAction,
): Promise<{ resolved?: TransactionRecord | undefined; calls: number; review?: ReviewReason }> {
  const { tx, reference, kind, event, leg, context } = change;
  const calls = leg?.calls ?? 0;
  switch (action) {
    case 'ignore':
      // A paid result's receipt fills in the one STK Query could not tell.
      if (
        event.kind === 'result' &&
        leg !== undefined &&
        leg.provider_reference === '' &&
        event.providerCode !== ''
      ) {
        await writeLeg(
          tx,
          reference,
          kind,
          { state: leg.state, provider: providerOf(change), providerReference: event.providerCode },
          context.now,
        );
      }
      return { calls };
    case 'review': {
      const reason = change.differences.length > 0 ? 'mismatch' : 'contradiction';
      await review(change, reason);
      return { calls, review: reason };
    }
    case 'end leg':
      await endLeg(change, endStateOf(event), receiptOf(event));
      return { calls };
    case 'end leg for review':
      await endLeg(change, 'failed', receiptOf(event));
      await review(change, 'refused');
      return { calls, review: 'refused' };
    case 'complete':
    case 'cancel':
    case 'cancel refunded':
      return { resolved: await resolveWith(change, action), calls };
    case 'note open':
      if (event.kind === 'open') {
        await writeLeg(
          tx,
          reference,
          kind,
          {
            state: event.state,
            provider: event.provider,
            nextQueryAt: event.nextQueryAt,
            asked: event.asked,
          },
          context.now,
        );
        if (event.review) {
          await review(change, 'unsettled');
          return { calls, review: 'unsettled' };
        }
      } else if (event.kind === 'accepted' || event.kind === 'never taken') {
        const state = event.kind === 'accepted' ? 'submitted' : 'unknown';
        await writeLeg(
          tx,
          reference,
          kind,
          { state, provider: event.provider, nextQueryAt: event.nextQueryAt },
          context.now,
        );
      }
      return { calls };
    case 'claim': {
      // Claimed and not yet answered: the call may be under way, so the leg is unknown until it is, and
      // due to be asked about, so a claimant that dies mid-call never leaves it unseen.
      const state = leg?.state === 'pending' || leg?.state === 'submitted' ? leg.state : 'unknown';
      const nextQueryAt = (event.kind === 'call' ? event.nextQueryAt : undefined) ?? context.now;
      await writeLeg(
        tx,
        reference,
        kind,
        { state, provider: providerOf(change), calls: calls + 1, nextQueryAt },
        context.now,
      );
      return { calls: calls + 1 };
    }
    case 'refuse':
      if (event.kind === 'settled') {
        throw new LedgerError(
          'invalid_input',
          `Expected a settlement the ledger allows for ${reference}-${kind}, received ${event.as}: ${change.why}.`,
        );
      }
      return { calls };
    case 'close review':
      await settleReview(change);
      return { calls };
    case 'reopen for refund':
      await endLeg(change, 'succeeded', receiptOf(event));
      return { calls };
  }
}

/**
 * Applies `event` to leg `leg` (`first`: the one the transaction started with) of transaction `reference`
 * as the transition table says, in one database
 * transaction holding the transaction's row lock. Undefined when there is no such transaction. A
 * settlement the table refuses throws `invalid_input` with the table's reason. `alongside` runs last in
 * that transaction with the outcome (an operator's audit record of a settlement), and its throwing
 * rolls the event back.
 */
export async function applyLegEvent(
  store: Store,
  reference: string,
  leg: LegKind | 'first',
  event: LegEvent,
  context: ResolutionContext,
  alongside?: (tx: Queryable, outcome: LegEventOutcome) => Promise<void>,
): Promise<LegEventOutcome | undefined> {
  return store.transaction(async (tx) => {
    const locked = await lockTransaction(tx, reference, context.timeZone);
    if (locked === undefined) return undefined;
    const { record } = locked;
    const kind = leg === 'first' ? firstLegKind(record.type, record.payment !== undefined) : leg;
    const differences =
      event.kind === 'result' ? evidenceDifferences(locked.record, kind, event.evidence) : [];
    const situation = situationOf(locked, leg, kind, event.kind === 'call' ? event.seenCalls : undefined);
    const rule = legTransition(situation, eventKindOf(event, differences.length > 0));
    const recorded = situation.shape === 'whole' ? situation.legs.first : situation.legs[chainKindOf(kind)];
    const change: Change = {
      tx,
      reference,
      kind,
      event,
      locked,
      leg: locked.legs.get(kind),
      recorded,
      differences,
      why: rule.why,
      context,
    };
    const { resolved, calls, review: reason } = await perform(change, rule.then);
    const outcome: LegEventOutcome = {
      action: rule.then,
      why: rule.why,
      transaction: resolved ?? locked.record,
      calls,
      ...(reason === undefined ? {} : { review: reason }),
    };
    await alongside?.(tx, outcome);
    return outcome;
  });
}

function chainKindOf(kind: LegKind): 'first' | 'payment' | 'delivery' | 'refund' {
  return kind === 'disbursement' ? 'first' : kind;
}
