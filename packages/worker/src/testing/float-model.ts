// Test helper: the exhaustive model of one agent float (a B2B payment from our short code to the agent's
// store, paid from the caller's Float channel), run through the real ledger and the real worker loops with
// M-Pesa scripted. model-exploration.ts explores its event sequences.
//
// Roots, how the server's request left the float: the B2B accepted and noted; the B2B lost on the way (the
// server held it unknown); the server stopped after M-Pesa took the B2B, or before it was sent, in both
// cases before noting it (the interrupted-submissions loop finds it).
//
// Events:
// - `B2B Result: done` (naming the amount and store), `done, no details` (a plain result, which the ledger
//   group-commits), `failed` (plain, as M-Pesa's failed Results are), `another amount`: the B2B's pushed
//   Result. A duplicate is the same event twice, a contradicting one the opposite after it.
// - `status: <answer>`: a round of the interrupted-submissions and the timeouts loops while Transaction
//   Status answers done or failed (naming the amount and store), pending, fails (cannot be asked) or not
//   found; `timeout; status: <answer>`: the same once the clock passed the float's timeout.
// - `operator: succeeded`, `operator: failed`: an operator settles the disbursement waiting for review.
// An event is left out where it cannot happen or cannot differ from doing nothing: M-Pesa sends a Result
// only about a B2B it got; an operator settles only a leg that waits; Transaction Status answers only where
// its loops may list the float (every listing is checked, model-runs.ts), and the timeout passes only once.
//
// M-Pesa is honest where the worker must trust it: "not found" is said of a B2B it never got, except that
// it may be said (wrongly) of one once the float was noted submitted (the timeout then cancels it, and a
// later Result must be caught). Whatever else it says may contradict what it said before.
//
// The abstract state (`FloatState`) is: the float's state; its leg as the table and the listings read it
// (model-runs.ts `legView`); its postings by purpose and kind; the clock's phase and whether it was noted
// submitted, while it is requested (nothing else reads them); M-Pesa's side (provider-sides.ts); the
// operator's finding; and the review the model expects. The amounts, numbers and caller are the same in
// every run, and nothing else recorded (evidence, question counts, timestamps, callbacks) decides anything.

import { LedgerError, legId, type Ledger, type Store } from '@topup/ledger';
import type { Provider, ProviderResult, ProviderStatus } from '@topup/providers';
import { applyProviderResult } from '../loops/result-application.js';
import { holdUnknownSubmission } from '../submit-within.js';
import type { ExplorationModel } from './model-exploration.js';
import {
  CallerPool,
  handCorrections,
  interruptedRound,
  legView,
  modelSchedule,
  finishRun,
  recordedOf,
  resultDependencies,
  hearing,
  runLedger,
  timeoutsRound,
  type Caller,
  type Observed,
  type LoopContext,
  type Phase,
  type Recorded,
  type RunClock,
} from './model-runs.js';
import { oneTransactionLedger, type LoopLedger } from './one-transaction-ledger.js';
import {
  answerCall,
  settledTruth,
  sideView,
  tell,
  truthOf,
  type Answers,
  type Finding,
  type ProviderSide,
} from './provider-sides.js';
import { requestFloat } from './scenario.js';

const AMOUNT_KES = 100;
const AMOUNT_MINOR = 10_000n;
const AGENT = '254722000001';
const STORE = '765432';
const FUNDING_MINOR = 1_000_000_000_000n;
const OPERATOR = 'ops@topup.example';
const SETTLING_ROUNDS = 8;

type StatusAnswer = 'done' | 'failed' | 'pending' | 'fails' | 'not found';

interface World {
  readonly b2b: ProviderSide;
  finding?: Finding;
  handCorrected: boolean;
  expectedReview: boolean;
}

export interface FloatRun {
  readonly store: Store;
  readonly ledger: Ledger;
  readonly clock: RunClock;
  readonly reference: string;
  readonly caller: Caller;
  /** What the run last observed; it ends from there. */
  observed?: Observed;
  readonly world: World;
  readonly violations: string[];
  readonly loopLedger: LoopLedger;
  readonly providers: { forNetwork(network: string): Provider | undefined };
  readonly concurrency: number;
  answers: Answers & { readonly status?: StatusAnswer };
}

export interface FloatState {
  readonly phase: Phase;
  readonly submitted: boolean;
  readonly transaction: string;
  readonly legs: readonly ReturnType<typeof legView>[];
  readonly postings: readonly string[];
  readonly b2b: ReturnType<typeof sideView>;
  readonly finding: string;
  readonly handCorrected: boolean;
  readonly expectedReview: boolean;
}

function violate(run: FloatRun, what: string): void {
  if (!run.violations.includes(what)) run.violations.push(what);
}

function context(run: FloatRun): LoopContext {
  return { ledger: run.loopLedger, providers: run.providers, clock: run.clock, concurrency: run.concurrency };
}

function b2bResult(
  run: FloatRun,
  finding: Finding,
  details: { amountMinor: bigint } | undefined,
  source: 'result' | 'status',
): ProviderResult {
  const done = finding === 'succeeded';
  return {
    id: `${source}:${finding}`,
    reference: run.reference,
    outcome: done ? 'completed' : 'declined',
    providerCode: done ? 'TK4D2B9F1A' : '2001',
    reason: done ? '' : 'M-Pesa declined the transaction',
    ...(details === undefined ? {} : { evidence: { amountMinor: details.amountMinor, partyCode: STORE } }),
  };
}

const correct = { amountMinor: AMOUNT_MINOR };

function scriptedMpesa(run: FloatRun): Provider {
  const { world } = run;
  return {
    name: 'daraja',
    idempotentSubmissions: false,
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),
    // The B2B, made again only by the interrupted-submissions loop.
    submit() {
      world.b2b.calls += 1;
      if (world.b2b.calls > 1) violate(run, 'a second B2B was sent');
      return answerCall(run.answers, world.b2b);
    },
    query(): Promise<ProviderStatus> {
      if (run.answers.honest) {
        if (!world.b2b.has) return Promise.resolve({ kind: 'not_found' });
        const truth = truthOf(world.b2b, world.finding, 'succeeded');
        return Promise.resolve({ kind: 'result', result: b2bResult(run, truth, correct, 'status') });
      }
      const status: StatusAnswer | undefined = run.answers.status;
      switch (status) {
        case undefined:
          violate(run, 'Transaction Status was asked outside a round of the loops that ask it');
          return Promise.reject(new Error('unexpected Transaction Status'));
        case 'done':
        case 'failed': {
          const finding = status === 'done' ? 'succeeded' : 'failed';
          tell(world.b2b, finding);
          return Promise.resolve({ kind: 'result', result: b2bResult(run, finding, correct, 'status') });
        }
        case 'pending':
          return Promise.resolve({ kind: 'pending' });
        case 'not found':
          return Promise.resolve({ kind: 'not_found' });
        case 'fails':
          return Promise.reject(new Error('Transaction Status could not be asked'));
      }
    },
  };
}

/** A pushed Result, applied as the pushed-results loop applies it; a contradiction must wait for review. */
async function push(run: FloatRun, result: ProviderResult): Promise<void> {
  const recorded = (await recordedOf(run.store, run.reference)).legs[0]?.state;
  const said: Finding = result.outcome === 'completed' ? 'succeeded' : 'failed';
  const mismatched =
    result.evidence?.amountMinor !== undefined && result.evidence.amountMinor !== AMOUNT_MINOR;
  await applyProviderResult(resultDependencies(run.loopLedger), result, 'daraja', 'webhook');
  if (mismatched || ((recorded === 'succeeded' || recorded === 'failed') && recorded !== said)) {
    run.world.expectedReview = true;
  }
}

async function askMpesa(run: FloatRun, status: StatusAnswer, passTimeout: boolean): Promise<void> {
  if (passTimeout) run.clock.passTimeout();
  else run.clock.round();
  run.answers = { status, calls: 'accept', honest: false };
  await interruptedRound(context(run));
  await timeoutsRound(context(run));
}

async function settleLeg(run: FloatRun, as: Finding): Promise<void> {
  let settled;
  try {
    settled = await run.ledger.settleReviewedLeg(legId(run.reference, 'disbursement'), { as, by: OPERATOR });
  } catch (error) {
    if (error instanceof LedgerError) return;
    throw error;
  }
  run.world.finding = as;
  run.world.expectedReview = false;
  if (settled.kind === 'leg_settled' && handCorrections.has(settled.why)) run.world.handCorrected = true;
}

interface FloatEvent {
  readonly name: string;
  readonly when: (state: FloatState) => boolean;
  readonly run: (run: FloatRun) => Promise<void>;
}

const taken = (state: FloatState) => state.b2b.has;
/** Transaction Status may say "not found" of a B2B it never got, or (wrongly) once the float was noted submitted. */
const mayNotFind = (state: FloatState) => !state.b2b.has || state.submitted;
/**
 * Whether the loops that ask Transaction Status may list the float: requested, and not waiting for an
 * operator. Elsewhere they list nothing (every listing is checked: model-runs.ts), so every answer is the
 * same event, one that changes nothing, and is left out.
 */
const asked = (state: FloatState) =>
  state.transaction === 'requested' &&
  !state.legs.some((leg) => leg.review === 'held' || leg.review === 'unsettled');

const resultEvents: FloatEvent[] = [
  {
    name: 'B2B Result: done',
    when: taken,
    run: (run) => {
      tell(run.world.b2b, 'succeeded');
      return push(run, b2bResult(run, 'succeeded', correct, 'result'));
    },
  },
  {
    name: 'B2B Result: done, no details',
    when: taken,
    run: (run) => {
      tell(run.world.b2b, 'succeeded');
      return push(run, b2bResult(run, 'succeeded', undefined, 'result'));
    },
  },
  {
    name: 'B2B Result: failed',
    when: taken,
    run: (run) => {
      tell(run.world.b2b, 'failed');
      return push(run, b2bResult(run, 'failed', undefined, 'result'));
    },
  },
  {
    name: 'B2B Result: another amount',
    when: taken,
    run: (run) => {
      tell(run.world.b2b, 'both');
      return push(run, b2bResult(run, 'succeeded', { amountMinor: 100n }, 'result'));
    },
  },
];

const statusEvents = (['done', 'failed', 'pending', 'fails', 'not found'] as const).map(
  (status): FloatEvent => ({
    name: `status: ${status}`,
    when:
      status === 'not found'
        ? (state) => asked(state) && mayNotFind(state)
        : status === 'fails'
          ? asked
          : (state) => asked(state) && taken(state),
    run: (run) => askMpesa(run, status, false),
  }),
);

const timeoutEvents = (['pending', 'fails', 'not found'] as const).map((status): FloatEvent => ({
  name: `timeout; status: ${status}`,
  when: (state) =>
    state.phase === 'before the timeout' &&
    (status === 'not found' ? mayNotFind(state) : status === 'pending' ? taken(state) : true),
  run: (run) => askMpesa(run, status, true),
}));

const operatorEvents = (['succeeded', 'failed'] as const).map((as): FloatEvent => ({
  name: `operator: ${as}`,
  when: (state) => state.legs.some((leg) => leg.review === 'held' || leg.review === 'unsettled'),
  run: (run) => settleLeg(run, as),
}));

const floatEvents: readonly FloatEvent[] = [
  ...resultEvents,
  ...statusEvents,
  ...timeoutEvents,
  ...operatorEvents,
];

const roots = {
  'B2B accepted': { taken: true, noted: 'submitted' },
  'B2B lost on the way': { taken: false, noted: 'unknown' },
  'server stopped after the B2B': { taken: true, noted: 'nothing' },
  'server stopped before the B2B': { taken: false, noted: 'nothing' },
} as const;

function stateOf(run: FloatRun, recorded: Recorded): FloatState {
  const { world } = run;
  // The phase and the submission matter to the loops that settle a first leg, which list only requested ones.
  const requested = recorded.transaction === 'requested';
  return {
    phase: requested ? run.clock.phase : 'past the timeout',
    submitted: requested ? recorded.submitted : true,
    transaction: recorded.transaction,
    legs: recorded.legs.map((leg) => legView(leg, true, false)),
    postings: [...recorded.postings].map(([posting, count]) => `${posting}×${count}`).sort(),
    b2b: sideView(world.b2b),
    finding: world.finding ?? '',
    handCorrected: world.handCorrected,
    expectedReview: world.expectedReview,
  };
}

function checkEnd(run: FloatRun, end: Recorded): void {
  const { world } = run;
  const reviewing = end.legs.some((leg) => leg.review !== '');
  if (end.transaction === 'requested' && !reviewing) {
    violate(run, 'once settled it is still requested, and nothing waits for an operator');
  }
  if (reviewing || world.handCorrected) return;
  const truth = settledTruth(world.b2b, world.finding);
  if (truth === 'unclear') violate(run, 'M-Pesa said two things, yet nothing waits for an operator');
  else if (truth === 'succeeded' && end.transaction !== 'completed') {
    violate(run, 'the agent was paid, yet the float did not complete');
  } else if (truth !== 'succeeded' && end.transaction !== 'cancelled') {
    violate(run, 'the agent was not paid, yet the float was not cancelled');
  }
}

/** The float model over `store`, for runs `concurrency` at a time. */
export function floatModel(store: Store, concurrency: number): ExplorationModel<FloatRun, FloatState> {
  const callers = new CallerPool('float', FUNDING_MINOR);

  async function observe(run: FloatRun): Promise<FloatState> {
    const recorded = await recordedOf(store, run.reference);
    const waits = recorded.legs.some((leg) => leg.kind === 'disbursement' && leg.review !== '');
    if (run.world.expectedReview && !waits) {
      violate(run, 'a Result contradicted the disbursement, yet it does not wait for an operator');
    }
    const posted = (kind: string) => recorded.postings.get(`float:${kind}`) ?? 0;
    if (posted('pending') !== 1 || posted('post') + posted('void') > 1) {
      violate(run, 'the reservation was not made once and posted or voided at most once');
    }
    const channel = await run.ledger.balance(run.caller.id, 'float');
    const completed = recorded.transaction === 'completed' ? AMOUNT_MINOR : 0n;
    const reserved = recorded.transaction === 'requested' ? AMOUNT_MINOR : 0n;
    if (
      channel.postedMinor !== run.caller.postedMinor - completed ||
      channel.pendingMinor !== run.caller.pendingMinor + reserved
    ) {
      violate(
        run,
        `the caller's float channel holds ${channel.postedMinor} posted and ${channel.pendingMinor} reserved, ` +
          `where ${run.caller.postedMinor - completed} and ${run.caller.pendingMinor + reserved} were due`,
      );
    }
    run.observed = { recorded, channel };
    return stateOf(run, recorded);
  }

  return {
    roots: Object.keys(roots),
    events: floatEvents.map((event) => event.name),

    async start(root) {
      const { ledger, clock } = runLedger(store);
      const caller = await callers.take(ledger);
      const { reference } = await requestFloat(ledger, caller.id, AGENT, AMOUNT_KES);
      const how = roots[root as keyof typeof roots];
      const world: World = {
        b2b: { calls: how.noted === 'nothing' && !how.taken ? 0 : 1, has: how.taken, said: 'nothing' },
        handCorrected: false,
        expectedReview: false,
      };
      const run: FloatRun = {
        store,
        ledger,
        clock,
        reference,
        caller,
        world,
        violations: [],
        loopLedger: oneTransactionLedger(
          ledger,
          reference,
          hearing(
            'disbursement',
            (what) => {
              violate(run, what);
            },
            () => {
              world.expectedReview = true;
            },
          ),
        ),
        providers: { forNetwork: () => mpesa },
        concurrency,
        answers: { calls: 'accept', honest: false },
      };
      const mpesa = scriptedMpesa(run);
      if (how.noted === 'submitted') await ledger.markSubmitted(reference);
      if (how.noted === 'unknown') {
        await holdUnknownSubmission(
          ledger,
          reference,
          'daraja',
          new Date(clock.now.getTime() + modelSchedule.queryAfterMs),
        );
      }
      return run;
    },

    async apply(run, name) {
      const event = floatEvents.find((candidate) => candidate.name === name);
      if (event === undefined) throw new Error(`Expected a float event, received ${name}.`);
      await event.run(run);
      run.answers = { calls: 'accept', honest: false };
    },

    observe,

    applicable: (state, name) =>
      floatEvents.find((candidate) => candidate.name === name)?.when(state) ?? false,

    violations: (run) => run.violations,

    async settle(run) {
      run.clock.passWindow();
      run.answers = { calls: 'accept', honest: true };
      const { world } = run;
      let before = JSON.stringify(stateOf(run, await recordedOf(store, run.reference)));
      let settled = false;
      for (let round = 0; round < SETTLING_ROUNDS && !settled; round += 1) {
        if (world.b2b.has && world.b2b.said === 'nothing' && world.finding === undefined) {
          tell(world.b2b, 'succeeded');
          await push(run, b2bResult(run, 'succeeded', correct, 'result'));
        }
        await interruptedRound(context(run));
        await timeoutsRound(context(run));
        run.clock.round();
        const after = JSON.stringify(stateOf(run, await recordedOf(store, run.reference)));
        settled = after === before;
        before = after;
      }
      if (!settled) violate(run, `it does not settle within ${SETTLING_ROUNDS} rounds`);
      await observe(run);
      checkEnd(run, await recordedOf(store, run.reference));
    },

    close: (run) => finishRun(run, run.observed, callers, AMOUNT_MINOR),
  };
}
