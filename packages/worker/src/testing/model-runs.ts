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
  LedgerError,
  createLedger,
  legId,
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
import type { ProviderResult, ProviderRoutes } from '@topup/providers';
import { pino } from 'pino';
import { resumeInterruptedSubmissions } from '../loops/interrupted-submissions.js';
import { applyProviderResult } from '../loops/result-application.js';
import { advancePurchaseChains } from '../loops/purchase-chains.js';
import { cancelTimedOutTransactions } from '../loops/transaction-timeouts.js';
import { createWorkerMetrics } from '../worker-metrics.js';
import { holdUnknownSubmission } from '../submit-within.js';
import type { ExplorationModel } from './model-exploration.js';
import type { HeardAnswer, LoopLedger } from './one-transaction-ledger.js';
import type { StoreKind } from './test-stores.js';

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

/** Runs at once on each store: PGlite runs one statement at a time anyway; PostgreSQL works while runs wait. */
export const runsAtOnce: Record<StoreKind, number> = { pglite: 1, postgres: 3 };

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

/** What every model's run holds. */
export interface ModelRun {
  readonly store: Store;
  readonly ledger: Ledger;
  readonly clock: RunClock;
  readonly reference: string;
  readonly caller: Caller;
  readonly violations: string[];
  /** The ledger as the run's loops see it: narrowed to its transaction. */
  readonly loopLedger: LoopLedger;
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  /** Runs under way at once: the listings must reach past their transactions to the run's own. */
  readonly concurrency: number;
  /** What the run last observed; it ends from there. */
  observed?: Observed;
}

/** Notes that `run` broke a rule, once. */
export function violate(run: Pick<ModelRun, 'violations'>, what: string): void {
  if (!run.violations.includes(what)) run.violations.push(what);
}

/** What a round of a loop is run with: the run's, or one of two workers' taking turns. */
export type LoopContext = Pick<ModelRun, 'loopLedger' | 'providers' | 'clock' | 'concurrency'>;

const common = (context: LoopContext) => ({
  ...modelSchedule,
  logger,
  metrics,
  ledger: context.loopLedger,
  providers: context.providers,
  batchSize: context.concurrency + 1,
  now: () => context.clock.now,
});

/** One round of the purchase-chains loop. */
export async function chainRound(context: LoopContext): Promise<void> {
  await advancePurchaseChains(common(context));
}

/** One round of the transaction-timeouts loop. */
export async function timeoutsRound(context: LoopContext): Promise<void> {
  await cancelTimedOutTransactions(common(context));
}

/** One round of the interrupted-submissions loop. */
export async function interruptedRound(context: LoopContext): Promise<void> {
  await resumeInterruptedSubmissions(common(context));
}

/**
 * How the server's request left a transaction, a model's root: the provider took the call or not, and the
 * server noted it submitted, held it unknown (the answer was lost), or stopped before noting anything.
 */
export interface ServerLeft {
  readonly taken: boolean;
  readonly noted: 'submitted' | 'unknown' | 'nothing';
}

/** The four ways a server's request can leave a transaction, named after what was sent. */
export function serverRoots(call: string): Record<string, ServerLeft> {
  return {
    [`${call} accepted`]: { taken: true, noted: 'submitted' },
    [`${call} lost on the way`]: { taken: false, noted: 'unknown' },
    [`server stopped after the ${call}`]: { taken: true, noted: 'nothing' },
    [`server stopped before the ${call}`]: { taken: false, noted: 'nothing' },
  };
}

/** The calls the server made to the provider: none only when it stopped before making one. */
export const serverCalls = (how: ServerLeft) => (how.noted === 'nothing' && !how.taken ? 0 : 1);

/** Notes transaction `reference` as the server left it. */
export async function noteAsTheServerDid(
  ledger: Ledger,
  reference: string,
  clock: RunClock,
  how: ServerLeft,
): Promise<void> {
  if (how.noted === 'submitted') await ledger.markSubmitted(reference);
  if (how.noted === 'unknown') {
    await holdUnknownSubmission(
      ledger,
      reference,
      'daraja',
      new Date(clock.now.getTime() + modelSchedule.queryAfterMs),
    );
  }
}

/** One event of a model: its name, where it may happen, and what it does to a run. */
export interface ModelEvent<State, Run> {
  readonly name: string;
  readonly when: (state: State) => boolean;
  readonly run: (run: Run) => Promise<void>;
}

/** A model's alphabet, and how its events are applied; `after` runs after each event. */
export function eventTable<State, Run>(
  events: readonly ModelEvent<State, Run>[],
  after: (run: Run) => void,
): Pick<ExplorationModel<Run, State>, 'events' | 'apply' | 'applicable'> {
  const named = new Map(events.map((event) => [event.name, event]));
  return {
    events: events.map((event) => event.name),
    async apply(run, name) {
      const event = named.get(name);
      if (event === undefined) throw new Error(`Expected an event of the model, received ${name}.`);
      await event.run(run);
      after(run);
    },
    applicable: (state, name) => named.get(name)?.when(state) ?? false,
  };
}

const SETTLING_ROUNDS = 12;

/**
 * Settles a run as time would: past the reconciliation window, `round` (what honest providers push, then
 * the loops) runs once a round's worth of time, until the abstract state `snapshot` reads stops changing.
 */
export async function settleRun(
  run: ModelRun,
  round: () => Promise<void>,
  snapshot: () => Promise<unknown>,
): Promise<void> {
  run.clock.passWindow();
  let before = JSON.stringify(await snapshot());
  for (let rounds = 0; rounds < SETTLING_ROUNDS; rounds += 1) {
    await round();
    run.clock.round();
    const after = JSON.stringify(await snapshot());
    if (after === before) return;
    before = after;
  }
  violate(run, `it does not settle within ${SETTLING_ROUNDS} rounds`);
}

/** What the worker's result paths are given. */
function resultDependencies(ledger: LoopLedger) {
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
export async function finishRun(run: ModelRun, callers: CallerPool, reservedMinor: bigint): Promise<void> {
  const { observed } = run;
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

/**
 * A provider's pushed result about leg `leg` of `run`, applied as the pushed-results loop applies it. A
 * result naming another amount than `amountMinor`, or contradicting the leg's recorded end, must leave the
 * leg waiting for an operator: `expectReview` is told, whatever the ledger did.
 */
export async function pushResult(
  run: ModelRun,
  leg: LegKind,
  result: ProviderResult,
  amountMinor: bigint,
  expectReview: () => void,
): Promise<void> {
  const recorded = (await recordedOf(run.store, run.reference)).legs.find((found) => found.kind === leg);
  const said = result.outcome === 'completed' ? 'succeeded' : 'failed';
  const ended = recorded?.state === 'succeeded' || recorded?.state === 'failed';
  const mismatched =
    result.evidence?.amountMinor !== undefined && result.evidence.amountMinor !== amountMinor;
  await applyProviderResult(resultDependencies(run.loopLedger), result, providerNames[leg], 'webhook');
  if (mismatched || (ended && recorded.state !== said)) expectReview();
}

/** Who reports on each leg. */
const providerNames: Record<LegKind, string> = {
  payment: 'daraja',
  delivery: 'africastalking',
  refund: 'daraja',
  disbursement: 'daraja',
};

/**
 * A round of the loops that ask about a first leg (interrupted submissions, then timeouts), once a round's
 * worth of time has passed, or once the timeout has.
 */
export async function askRound(run: ModelRun, passTimeout: boolean): Promise<void> {
  if (passTimeout) run.clock.passTimeout();
  else run.clock.round();
  await interruptedRound(run);
  await timeoutsRound(run);
}

/**
 * An operator settles leg `leg` of `run` as `as` (with M-Pesa's `receipt` for a payment found paid):
 * `refused` when the table refuses that finding there, `hand corrected` when it records a finding against
 * money already moved the other way, for the operator to correct by hand.
 */
export async function settleAsOperator(
  run: ModelRun,
  leg: LegKind,
  as: 'succeeded' | 'failed',
  receipt?: string,
): Promise<'refused' | 'settled' | 'hand corrected'> {
  let settled;
  try {
    settled = await run.ledger.settleReviewedLeg(legId(run.reference, leg), {
      as,
      by: 'ops@topup.example',
      ...(receipt === undefined ? {} : { receipt }),
    });
  } catch (error) {
    if (error instanceof LedgerError) return 'refused';
    throw error;
  }
  return settled.kind === 'leg_settled' && handCorrections.has(settled.why) ? 'hand corrected' : 'settled';
}
