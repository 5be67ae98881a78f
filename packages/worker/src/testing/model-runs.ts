// Test helper: what the exhaustive models of a purchase and of a float share. Each run gets a ledger of its
// own over the shared store, with a clock of its own, and drives the real worker loops on its transaction.
//
// Time, as the models abstract it: a run's clock is in one of three phases (before its transaction's
// timeout, past it, past the reconciliation window too), and every round of a loop first moves the clock
// on by ROUND_MS, which is longer than the longest wait between two questions (15 minutes), so whatever a
// leg waits for is due at the next round, whatever the clock read when it was noted. Six rounds stay
// inside their phase. Within a phase, then, the clock decides nothing that the phase does not.
//
// Every run starts at the same instant. Runs never see each other's transactions (one-transaction-ledger.ts),
// and a finished run's transaction is ended (`park`), so the store's listings hold only the runs under way,
// whatever their clocks read.

import {
  createLedger,
  legRules,
  type ChannelBalance,
  type ChannelName,
  type Ledger,
  type LegKind,
  type LegState,
  type Queryable,
  type Store,
  type TransactionRecord,
} from '@topup/ledger';
import type { ProviderRoutes } from '@topup/providers';
import { pino } from 'pino';
import { resumeInterruptedSubmissions } from '../loops/interrupted-submissions.js';
import { advancePurchaseChains } from '../loops/purchase-chains.js';
import { cancelTimedOutTransactions } from '../loops/transaction-timeouts.js';
import { createWorkerMetrics } from '../worker-metrics.js';
import type { HeardAnswer, LoopLedger } from './one-transaction-ledger.js';

/** The worker's schedule in the models. */
export const modelSchedule = {
  queryAfterMs: 60_000,
  timeoutMs: 3 * 3_600_000,
  reconciliationWindowMs: 2 * 86_400_000,
  interruptedAfterMs: 60_000,
  /** Scripted providers answer at once: this never runs out, so no answer depends on wall time. */
  providerTimeoutMs: 600_000,
} as const;

/** How far a round moves a run's clock: past any leg's next question. */
export const ROUND_MS = 16 * 60_000;
const START = Date.UTC(2026, 10, 24, 10);

export type Phase = 'before the timeout' | 'past the timeout' | 'past the window';

/** A run's clock. */
export class RunClock {
  readonly createdAt: Date;
  now: Date;
  phase: Phase = 'before the timeout';

  constructor() {
    this.createdAt = new Date(START);
    this.now = this.createdAt;
  }

  /** A round's worth of time passes. */
  round(): void {
    this.now = new Date(this.now.getTime() + ROUND_MS);
  }

  /** Time passes beyond the transaction's timeout (and a round's worth at least). */
  passTimeout(): void {
    this.passTo('past the timeout', modelSchedule.timeoutMs);
  }

  /** Time passes beyond the reconciliation window (and a round's worth at least). */
  passWindow(): void {
    this.passTo('past the window', modelSchedule.timeoutMs + modelSchedule.reconciliationWindowMs);
  }

  private passTo(phase: Phase, afterCreationMs: number): void {
    const beyond = this.createdAt.getTime() + afterCreationMs + 60_000;
    this.now = new Date(Math.max(this.now.getTime() + ROUND_MS, beyond));
    this.phase = phase;
  }
}

/** The caller's commission on CarrierB airtime, so a completed purchase leaves a trace on its channel. */
export const COMMISSION_BASIS_POINTS = 150;

/** A ledger of the run's own over `store`, on the run's clock, with purchases carried by two providers. */
export function runLedger(store: Store): { ledger: Ledger; clock: RunClock } {
  const clock = new RunClock();
  const ledger = createLedger(store, {
    now: () => clock.now,
    chainedPurchases: true,
    commissionBasisPoints: { CarrierB: COMMISSION_BASIS_POINTS },
    batch: { maxWaitMs: 0 },
  });
  return { ledger, clock };
}

const logger = pino({ level: 'silent' });
const metrics = createWorkerMetrics(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 }));

/** What a round of a loop is run with. */
export interface LoopContext {
  readonly ledger: LoopLedger;
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  readonly clock: RunClock;
  /** Runs under way at once: the listings must reach past their transactions to the run's own. */
  readonly concurrency: number;
}

const common = (context: LoopContext) => ({
  ...modelSchedule,
  logger,
  metrics,
  batchSize: context.concurrency + 1,
  now: () => context.clock.now,
});

/** One round of the purchase-chains loop. */
export async function chainRound(context: LoopContext): Promise<void> {
  await advancePurchaseChains({ ...common(context), ledger: context.ledger, providers: context.providers });
}

/** One round of the transaction-timeouts loop. */
export async function timeoutsRound(context: LoopContext): Promise<void> {
  await cancelTimedOutTransactions({
    ...common(context),
    ledger: context.ledger,
    providers: context.providers,
  });
}

/** One round of the interrupted-submissions loop. */
export async function interruptedRound(context: LoopContext): Promise<void> {
  await resumeInterruptedSubmissions({
    ...common(context),
    ledger: context.ledger,
    providers: context.providers,
  });
}

/** What the worker's result paths are given. */
export function resultDependencies(ledger: LoopLedger) {
  return { ledger, logger, metrics };
}

/** A leg as a model reads it. */
export interface RecordedLeg {
  readonly kind: LegKind;
  readonly state: LegState;
  /** The provider's reference is known. */
  readonly receipt: boolean;
  /** A next question is noted. */
  readonly asked: boolean;
  /** Waiting for review: `unsettled`, or the stronger reason; blank when not waiting. */
  readonly review: string;
  /** An operator (or a provider's result) ended a review of it. */
  readonly reviewed: boolean;
}

/** What is recorded of one transaction. */
export interface Recorded {
  readonly transaction: TransactionRecord['state'] | 'missing';
  readonly submitted: boolean;
  readonly legs: readonly RecordedLeg[];
  /** Postings by `purpose:kind`. */
  readonly postings: ReadonlyMap<string, number>;
}

/** What is recorded of transaction `reference`, read in one statement. */
export async function recordedOf(store: Queryable, reference: string): Promise<Recorded> {
  const { rows } = await store.query<{
    state: TransactionRecord['state'];
    submitted: boolean;
    legs: RecordedLeg[] | null;
    postings: string[] | null;
  }>(
    `SELECT t.state, t.submitted_at IS NOT NULL AS submitted,
       (SELECT json_agg(json_build_object('kind', l.kind, 'state', l.state,
           'receipt', l.provider_reference <> '', 'asked', l.next_query_at IS NOT NULL,
           'review', CASE WHEN l.review_since IS NOT NULL AND l.reviewed_at IS NULL THEN l.review_reason ELSE '' END,
           'reviewed', l.reviewed_at IS NOT NULL) ORDER BY l.kind)
        FROM transaction_legs l WHERE l.reference = t.reference) AS legs,
       (SELECT json_agg(x.purpose || ':' || x.kind) FROM transfers x WHERE x.reference = t.reference) AS postings
     FROM transactions t WHERE t.reference = $1`,
    [reference],
  );
  const [row] = rows;
  if (row === undefined) return { transaction: 'missing', submitted: false, legs: [], postings: new Map() };
  const postings = new Map<string, number>();
  for (const posting of row.postings ?? []) postings.set(posting, (postings.get(posting) ?? 0) + 1);
  return { transaction: row.state, submitted: row.submitted, legs: row.legs ?? [], postings };
}

/** The operator's settlements the table answers "money already moved the other way": theirs to correct. */
export const handCorrections: ReadonlySet<string> = new Set(
  legRules
    .filter((rule) => rule.event.startsWith('settled') && rule.when === 'otherwise')
    .map((rule) => rule.why),
);

/**
 * A leg as the table and the listings read it: its record (pending, unknown and submitted are all `open`),
 * whether a later leg is to be asked about (a noted question is due at the next round; none noted is never
 * due; a first leg is listed whenever its next question is not in the future, so the same either way),
 * whether the provider's reference matters and is known, and its review: `held` for a contradiction,
 * mismatch or refusal, which no result ends, `unsettled` for one a result ends, `settled` once ended.
 */
export interface LegView {
  readonly kind: LegKind;
  readonly record: 'open' | 'succeeded' | 'failed';
  readonly asked: boolean;
  readonly receipt: boolean;
  readonly review: '' | 'unsettled' | 'held' | 'settled';
}

/** `leg` as a model's abstract state holds it; `receiptMatters` says whether its reference is read again. */
export function legView(leg: RecordedLeg, first: boolean, receiptMatters: boolean): LegView {
  return {
    kind: leg.kind,
    record: leg.state === 'succeeded' || leg.state === 'failed' ? leg.state : 'open',
    asked: !first && leg.asked,
    receipt: receiptMatters && leg.receipt,
    review:
      leg.review === 'unsettled' ? 'unsettled' : leg.review !== '' ? 'held' : leg.reviewed ? 'settled' : '',
  };
}

/**
 * Why a listing that held the transaction must not have, if it must not: the loops that settle a first
 * leg list only a requested transaction whose payment has not succeeded and that waits for no operator; the
 * chain lists only a purchase whose payment succeeded and that waits for no operator, requested, or
 * cancelled after an operator found it paid. The models rely on it to leave out events that are the same
 * as another where nothing is listed, so every listing is checked.
 */
function wrongListing(heard: HeardAnswer): string | undefined {
  if (heard.kind !== 'listed') return undefined;
  const { transaction, legs } = heard;
  const paid = legs.some((leg) => leg.kind === 'payment' && leg.state === 'succeeded');
  const waiting = legs.some((leg) => leg.reviewSince !== undefined && leg.reviewedAt === undefined);
  const ok =
    heard.listing === 'purchases under way'
      ? paid &&
        !waiting &&
        (transaction.state === 'requested' ||
          (transaction.state === 'cancelled' &&
            legs.some((leg) => leg.kind === 'payment' && leg.reviewedAt !== undefined)))
      : transaction.state === 'requested' && !paid && !waiting;
  return ok ? undefined : `the ${heard.listing} listing held it in a state it must leave alone`;
}

/**
 * What a model learns from the ledger's answers to the loops: a loop touching another transaction or a
 * listing holding it where it must not is a violation; a table's `review`, a refusal put in review, or a
 * whole result refused for contradicting the transaction's end puts a leg (the first, for a whole result)
 * in the reviews the model expects.
 */
export function hearing(
  firstLeg: LegKind,
  violate: (what: string) => void,
  expectReview: (leg: LegKind) => void,
): (heard: HeardAnswer) => void {
  return (heard) => {
    if (heard.kind === 'another transaction') {
      violate(`a loop acted on another transaction, ${heard.reference}`);
    } else if (heard.kind === 'listed') {
      const wrong = wrongListing(heard);
      if (wrong !== undefined) violate(wrong);
    } else if (heard.kind === 'leg event') {
      const action = heard.outcome?.action;
      if (action === 'review' || action === 'end leg for review') {
        expectReview(heard.leg === 'first' ? firstLeg : heard.leg);
      }
    } else if (heard.outcome.kind === 'already_resolved' && !heard.timedOut) {
      const asked = heard.asked === 'complete' ? 'completed' : 'cancelled';
      if (heard.outcome.transaction.state !== asked) expectReview(firstLeg);
    }
  };
}

/** A caller reused from run to run, one run at a time, with what its channel held when its run started. */
export interface Caller {
  readonly id: string;
  readonly postedMinor: bigint;
  readonly pendingMinor: bigint;
}

/**
 * Callers for a model's runs: creating an account costs more than the rest of a run's start, so each is
 * reused by one run after another, which checks only what it added to the channel. A run that ends before
 * its channel was read gives its caller up.
 */
export class CallerPool {
  private readonly idle: Caller[] = [];

  constructor(
    private readonly channel: ChannelName,
    /** What a new caller's channel is funded with. */
    private readonly fundingMinor: bigint,
  ) {}

  async take(ledger: Ledger): Promise<Caller> {
    const idle = this.idle.pop();
    if (idle !== undefined) return idle;
    const { id } = await ledger.createAccount({ name: 'Exhaustive Model Ltd' });
    if (this.fundingMinor > 0n) await ledger.fund(id, this.channel, this.fundingMinor);
    return { id, postedMinor: this.fundingMinor, pendingMinor: 0n };
  }

  giveBack(caller: Caller, channel: Pick<ChannelBalance, 'postedMinor' | 'pendingMinor'>): void {
    this.idle.push({ id: caller.id, postedMinor: channel.postedMinor, pendingMinor: channel.pendingMinor });
  }
}

/** What a run last observed of its transaction and its caller's channel. */
export interface Observed {
  readonly recorded: Recorded;
  readonly channel: ChannelBalance;
}

/**
 * Ends a finished run: its transaction is ended through the ledger, once its checks are done, so that the
 * loops' listings (which read every requested transaction in the store) stay as short as the runs under
 * way. A requested one is cancelled (a paid purchase with its payment collected and refunded, which leaves
 * the channel as it was; a float's reservation, `reservedMinor`, is given back), and a cancelled purchase
 * an operator found paid gets its collection and refund posted. Nothing is checked after it. Its caller
 * goes back to `callers`, unless the run ended before it observed anything.
 */
export async function finishRun(
  run: { readonly ledger: Ledger; readonly reference: string; readonly caller: Caller },
  observed: Observed | undefined,
  callers: CallerPool,
  reservedMinor: bigint,
): Promise<void> {
  if (observed !== undefined) {
    const { recorded, channel } = observed;
    const paid = recorded.legs.some((leg) => leg.kind === 'payment' && leg.state === 'succeeded');
    const collected = recorded.postings.has('airtime_collection:single');
    const requested = recorded.transaction === 'requested';
    if (requested || (recorded.transaction === 'cancelled' && paid && !collected)) {
      await run.ledger.cancel(run.reference, {
        reason: 'explored',
        timedOut: true,
        ...(paid ? { paymentCollected: true } : {}),
      });
    }
    callers.giveBack(run.caller, {
      postedMinor: channel.postedMinor,
      pendingMinor: channel.pendingMinor - (requested ? reservedMinor : 0n),
    });
  }
  await run.ledger.close();
}
