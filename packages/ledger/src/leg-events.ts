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
import { isolatingFailures, type ItemResult } from './group-commit.js';
import { reviewStatement, type ReviewMark, type ReviewReason } from './leg-reviews.js';
import { NOT_DELIVERED_REFUNDED } from './purchase-chain-legs.js';
import {
  resolveBatch,
  type Resolution,
  type ResolutionContext,
  type ResolutionRequest,
} from './resolution.js';
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

type LegRow =
  (LockedLeg & { reference: string; collected: false }) | { reference: string; kind: null; collected: true };

/**
 * Locks the transactions of `references` in reference order (as every batch that locks transactions
 * does, so two never wait on each other crosswise), then reads their legs and whether each purchase's
 * collection is posted.
 */
async function lockTransactions(
  tx: Queryable,
  references: readonly string[],
  timeZone: string,
): Promise<Map<string, Locked>> {
  const { rows } = await tx.query<TransactionRow>(
    `SELECT ${transactionColumns} FROM transactions WHERE reference = ANY($1::text[])
     ORDER BY reference FOR UPDATE`,
    [references],
  );
  const locked = new Map<string, Locked>();
  if (rows.length === 0) return locked;
  for (const row of rows) {
    locked.set(row.reference, {
      record: transactionRecordOf(row, timeZone),
      legs: new Map(),
      collected: false,
    });
  }
  // A statement of its own, after the locks are granted: under READ COMMITTED it sees every leg written by
  // whoever held a lock before, where a join in the locking statement would read its older snapshot.
  const { rows: legRows } = await tx.query<LegRow>(
    `SELECT reference, kind, state, provider, provider_reference, calls,
       review_since IS NOT NULL AND reviewed_at IS NULL AS review_open, false AS collected
     FROM transaction_legs WHERE reference = ANY($1::text[])
     UNION ALL
     SELECT reference, NULL, NULL, NULL, NULL, NULL, NULL, true FROM transfers
     WHERE reference = ANY($1::text[]) AND purpose = 'airtime_collection'`,
    [[...locked.keys()]],
  );
  for (const leg of legRows) {
    const entry = locked.get(leg.reference);
    if (entry === undefined) continue;
    if (leg.kind === null) entry.collected = true;
    else entry.legs.set(leg.kind, leg);
  }
  return locked;
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

/** A leg's new state, and what goes with it, as one row of `writeLegs`. */
interface LegWrite {
  readonly reference: string;
  readonly kind: LegKind;
  readonly state: LegState;
  readonly provider: string;
  readonly providerReference: string;
  readonly nextQueryAt: Date | undefined;
  /** It answers a question put to the provider (counted in `queries`). */
  readonly asked: boolean;
  /** The leg's claimed calls: as read under the lock, or one more for a claim. */
  readonly calls: number;
  readonly reviewedBy: string;
  readonly finding: string;
}

/** An operator's settlement ending the open review of a leg. */
interface ReviewClose {
  readonly reference: string;
  readonly kind: LegKind;
  readonly by: string;
  readonly finding: string;
}

/**
 * What the events of one batch write, gathered while the table decides and written a kind at a time, in
 * the order one event writes them: legs, then closed reviews, then new reviews, then resolutions. Each
 * transaction has at most one event in a batch, so no two rows of one statement name the same leg.
 */
interface Writes {
  readonly legs: LegWrite[];
  readonly closes: ReviewClose[];
  readonly reviews: ReviewMark[];
  readonly resolutions: ResolutionRequest[];
}

/** Writes each leg's new state (and what goes with it) on the locked transactions, in one statement. */
async function writeLegs(tx: Queryable, legs: readonly LegWrite[], now: Date): Promise<void> {
  if (legs.length === 0) return;
  await tx.query(
    `INSERT INTO transaction_legs (reference, kind, provider, state, provider_reference, queries,
       next_query_at, calls, reviewed_by, reviewed_at, review_finding, created_at, updated_at)
     SELECT u.reference, u.kind, u.provider, u.state, u.provider_reference, CASE WHEN u.asked THEN 1 ELSE 0 END,
       u.next_query_at, u.calls, u.reviewed_by, CASE WHEN u.reviewed_by = '' THEN NULL ELSE $11::timestamptz END,
       u.finding, $11::timestamptz, $11::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::boolean[],
       $8::integer[], $9::text[], $10::text[])
       AS u (reference, kind, provider, state, provider_reference, next_query_at, asked, calls, reviewed_by, finding)
     ON CONFLICT (reference, kind) DO UPDATE SET
       state = excluded.state,
       provider = CASE WHEN excluded.provider = '' THEN transaction_legs.provider ELSE excluded.provider END,
       provider_reference = CASE WHEN excluded.provider_reference = ''
         THEN transaction_legs.provider_reference ELSE excluded.provider_reference END,
       queries = transaction_legs.queries + excluded.queries,
       next_query_at = excluded.next_query_at,
       calls = excluded.calls,
       reviewed_by = CASE WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_by
         WHEN ${providerSettles} THEN 'provider' ELSE transaction_legs.reviewed_by END,
       reviewed_at = CASE WHEN excluded.reviewed_by <> '' THEN excluded.reviewed_at
         WHEN ${providerSettles} THEN excluded.updated_at ELSE transaction_legs.reviewed_at END,
       review_finding = CASE WHEN excluded.reviewed_by <> '' THEN excluded.review_finding
         WHEN ${providerSettles} THEN 'settled by the provider''s own result' ELSE transaction_legs.review_finding END,
       updated_at = excluded.updated_at`,
    [
      legs.map((leg) => leg.reference),
      legs.map((leg) => leg.kind),
      legs.map((leg) => leg.provider),
      legs.map((leg) => leg.state),
      legs.map((leg) => leg.providerReference),
      legs.map((leg) => leg.nextQueryAt?.toISOString() ?? null),
      legs.map((leg) => leg.asked),
      legs.map((leg) => leg.calls),
      legs.map((leg) => leg.reviewedBy),
      legs.map((leg) => leg.finding),
      now.toISOString(),
    ],
  );
}

/** Ends the open review of each leg named, with the operator's finding. */
async function closeReviews(tx: Queryable, closes: readonly ReviewClose[], now: Date): Promise<void> {
  if (closes.length === 0) return;
  await tx.query(
    `UPDATE transaction_legs SET reviewed_by = u.by, reviewed_at = $5::timestamptz, review_finding = u.finding,
       next_query_at = NULL, updated_at = $5::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u (reference, kind, by, finding)
     WHERE transaction_legs.reference = u.reference AND transaction_legs.kind = u.kind
       AND transaction_legs.review_since IS NOT NULL AND transaction_legs.reviewed_at IS NULL`,
    [
      closes.map((close) => close.reference),
      closes.map((close) => close.kind),
      closes.map((close) => close.by),
      closes.map((close) => close.finding),
      now.toISOString(),
    ],
  );
}

/** Writes what a batch's events decided; returns the transactions its resolutions changed. */
async function write(
  tx: Queryable,
  writes: Writes,
  context: ResolutionContext,
): Promise<Map<string, TransactionRecord>> {
  await writeLegs(tx, writes.legs, context.now);
  await closeReviews(tx, writes.closes, context.now);
  if (writes.reviews.length > 0) {
    const marked = reviewStatement(writes.reviews, context.now);
    await tx.query(marked.text, marked.values);
  }
  const resolved = new Map<string, TransactionRecord>();
  if (writes.resolutions.length === 0) return resolved;
  const { outcomes } = await resolveBatch(tx, writes.resolutions, context);
  writes.resolutions.forEach((request, index) => {
    const outcome = outcomes[index];
    if (outcome?.kind === 'resolved' || outcome?.kind === 'already_resolved') {
      resolved.set(request.reference, outcome.transaction);
    }
  });
  return resolved;
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
  readonly reference: string;
  readonly kind: LegKind;
  readonly event: LegEvent;
  readonly leg: LockedLeg | undefined;
  readonly recorded: LegRecord;
  readonly differences: readonly string[];
  readonly why: string;
  readonly now: Date;
  readonly writes: Writes;
}

const providerOf = ({ event, leg }: Change) => ('provider' in event ? event.provider : (leg?.provider ?? ''));
const reviewerOf = ({ event }: Change) => (event.kind === 'settled' ? event.by : '');

/** Writes leg `kind`'s new state; what is not given stays as it is, but the next query time, which clears. */
function writeLeg(
  change: Change,
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
): void {
  change.writes.legs.push({
    reference: change.reference,
    kind: change.kind,
    state: leg.state,
    provider: leg.provider,
    providerReference: leg.providerReference ?? '',
    nextQueryAt: leg.nextQueryAt,
    asked: leg.asked === true,
    // The row lock makes the count read with it the count there is: only a claim, under it, changes it.
    calls: leg.calls ?? change.leg?.calls ?? 0,
    reviewedBy: leg.reviewedBy ?? '',
    finding: leg.finding ?? '',
  });
}

function settleReview(change: Change): void {
  const { event } = change;
  if (event.kind !== 'settled') return;
  change.writes.closes.push({
    reference: change.reference,
    kind: change.kind,
    by: event.by,
    finding: change.why,
  });
}

function endLeg(change: Change, state: 'succeeded' | 'failed', providerReference: string): void {
  const reviewedBy = reviewerOf(change);
  writeLeg(change, {
    state,
    provider: providerOf(change),
    providerReference,
    nextQueryAt: undefined,
    reviewedBy,
    finding: reviewedBy === '' ? '' : change.why,
  });
  settleReview(change);
}

function review(change: Change, reason: ReviewReason): void {
  const entry = evidenceEntry(change.event, change.recorded, change.why, change.now, change.differences);
  change.writes.reviews.push({ reference: change.reference, kind: change.kind, reason, evidence: entry });
}

function resolveWith(change: Change, action: LegAction): void {
  settleReview(change);
  change.writes.resolutions.push({
    reference: change.reference,
    resolution: resolutionOf(action, change.event, providerOf(change), reviewerOf(change)),
  });
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

/**
 * Carries out the table's action by gathering its writes; returns the leg's calls, whether a resolution
 * was asked for, and why the leg went to review, when it did.
 */
function perform(
  change: Change,
  action: LegAction,
): { resolves: boolean; calls: number; review?: ReviewReason } {
  const { event, leg } = change;
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
        writeLeg(change, {
          state: leg.state,
          provider: providerOf(change),
          providerReference: event.providerCode,
        });
      }
      return { resolves: false, calls };
    case 'review': {
      const reason = change.differences.length > 0 ? 'mismatch' : 'contradiction';
      review(change, reason);
      return { resolves: false, calls, review: reason };
    }
    case 'end leg':
      endLeg(change, endStateOf(event), receiptOf(event));
      return { resolves: false, calls };
    case 'end leg for review':
      endLeg(change, 'failed', receiptOf(event));
      review(change, 'refused');
      return { resolves: false, calls, review: 'refused' };
    case 'complete':
    case 'cancel':
    case 'cancel refunded':
      resolveWith(change, action);
      return { resolves: true, calls };
    case 'note open':
      if (event.kind === 'open') {
        writeLeg(change, {
          state: event.state,
          provider: event.provider,
          nextQueryAt: event.nextQueryAt,
          asked: event.asked,
        });
        if (event.review) {
          review(change, 'unsettled');
          return { resolves: false, calls, review: 'unsettled' };
        }
      } else if (event.kind === 'accepted' || event.kind === 'never taken') {
        const state = event.kind === 'accepted' ? 'submitted' : 'unknown';
        writeLeg(change, { state, provider: event.provider, nextQueryAt: event.nextQueryAt });
      }
      return { resolves: false, calls };
    case 'claim': {
      // Claimed and not yet answered: the call may be under way, so the leg is unknown until it is, and
      // due to be asked about, so a claimant that dies mid-call never leaves it unseen.
      const state = leg?.state === 'pending' || leg?.state === 'submitted' ? leg.state : 'unknown';
      const nextQueryAt = (event.kind === 'call' ? event.nextQueryAt : undefined) ?? change.now;
      writeLeg(change, { state, provider: providerOf(change), calls: calls + 1, nextQueryAt });
      return { resolves: false, calls: calls + 1 };
    }
    case 'refuse':
      if (event.kind === 'settled') {
        throw new LedgerError(
          'invalid_input',
          `Expected a settlement the ledger allows for ${change.reference}-${change.kind}, received ${event.as}: ${change.why}.`,
        );
      }
      return { resolves: false, calls };
    case 'close review':
      settleReview(change);
      return { resolves: false, calls };
    case 'reopen for refund':
      endLeg(change, 'succeeded', receiptOf(event));
      return { resolves: false, calls };
  }
}

/** One event for one leg (`first`: the one the transaction started with) of transaction `reference`. */
export interface LegEventRequest {
  readonly reference: string;
  readonly leg: LegKind | 'first';
  readonly event: LegEvent;
}

/**
 * Applies events about distinct transactions together in `tx`, as the transition table says: their rows
 * are locked at once, each event is decided on what its own transaction records, and what they decided is
 * written a statement per kind of write for all of them, resolutions in one batch. Undefined for a
 * transaction there is not. A settlement the table refuses throws `invalid_input`, failing them all.
 */
async function applyTogether(
  tx: Queryable,
  requests: readonly LegEventRequest[],
  context: ResolutionContext,
): Promise<(LegEventOutcome | undefined)[]> {
  const references = [...new Set(requests.map((request) => request.reference))];
  if (references.length !== requests.length) {
    throw new Error(
      `Expected events about distinct transactions, received ${requests.length} about ${references.length}.`,
    );
  }
  const lockedAll = await lockTransactions(tx, references, context.timeZone);
  const writes: Writes = { legs: [], closes: [], reviews: [], resolutions: [] };
  const decided = requests.map((request) => {
    const locked = lockedAll.get(request.reference);
    if (locked === undefined) return undefined;
    const { record } = locked;
    const { event } = request;
    const kind =
      request.leg === 'first' ? firstLegKind(record.type, record.payment !== undefined) : request.leg;
    const differences = event.kind === 'result' ? evidenceDifferences(record, kind, event.evidence) : [];
    const situation = situationOf(
      locked,
      request.leg,
      kind,
      event.kind === 'call' ? event.seenCalls : undefined,
    );
    const rule = legTransition(situation, eventKindOf(event, differences.length > 0));
    const recorded = situation.shape === 'whole' ? situation.legs.first : situation.legs[chainKindOf(kind)];
    const performed = perform(
      {
        reference: request.reference,
        kind,
        event,
        leg: locked.legs.get(kind),
        recorded,
        differences,
        why: rule.why,
        now: context.now,
        writes,
      },
      rule.then,
    );
    return { locked, rule, performed };
  });
  const resolved = await write(tx, writes, context);
  return decided.map((entry, index): LegEventOutcome | undefined => {
    if (entry === undefined) return undefined;
    const { locked, rule, performed } = entry;
    const reference = requests[index]?.reference ?? '';
    return {
      action: rule.then,
      why: rule.why,
      transaction: (performed.resolves ? resolved.get(reference) : undefined) ?? locked.record,
      calls: performed.calls,
      ...(performed.review === undefined ? {} : { review: performed.review }),
    };
  });
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
    const [outcome] = await applyTogether(tx, [{ reference, leg, event }], context);
    if (outcome !== undefined) await alongside?.(tx, outcome);
    return outcome;
  });
}

/**
 * Applies many events, each as `applyLegEvent` would, in as few database transactions as the table allows:
 * one for all the events about distinct transactions, then one for each further event about a transaction
 * already named, in the order given. When one database transaction fails, its events are applied again one
 * at a time, so an event that cannot be applied fails alone. Returns one result per event, in order.
 */
export async function applyLegEvents(
  store: Store,
  requests: readonly LegEventRequest[],
  context: () => ResolutionContext,
): Promise<ItemResult<LegEventOutcome | undefined>[]> {
  const results: ItemResult<LegEventOutcome | undefined>[] = [];
  // Wave n holds the nth event about each transaction, so each wave sees what the waves before it wrote.
  const waves: number[][] = [];
  const seen = new Map<string, number>();
  requests.forEach((request, index) => {
    const wave = seen.get(request.reference) ?? 0;
    seen.set(request.reference, wave + 1);
    (waves[wave] ??= []).push(index);
  });
  const inOneTransaction = isolatingFailures(async (items: readonly LegEventRequest[]) => {
    const outcomes = await store.transaction((tx) => applyTogether(tx, items, context()));
    return outcomes.map((value): ItemResult<LegEventOutcome | undefined> => ({ ok: true, value }));
  });
  for (const wave of waves) {
    const outcomes = await inOneTransaction(wave.map((index) => requests[index] as LegEventRequest));
    wave.forEach((index, position) => {
      results[index] = outcomes[position] as ItemResult<LegEventOutcome | undefined>;
    });
  }
  return results;
}

function chainKindOf(kind: LegKind): 'first' | 'payment' | 'delivery' | 'refund' {
  return kind === 'disbursement' ? 'first' : kind;
}
