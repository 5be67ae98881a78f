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

import type { Store } from '@topup/ledger';
import type { Provider, ProviderResult, ProviderStatus } from '@topup/providers';
import type { ExplorationModel } from './model-exploration.js';
import {
  askRound,
  CallerPool,
  eventTable,
  finishRun,
  hearing,
  interruptedRound,
  legView,
  noteAsTheServerDid,
  pushResult,
  recordedOf,
  runLedger,
  serverCalls,
  serverRoots,
  settleAsOperator,
  settleRun,
  timeoutsRound,
  violate,
  type ModelEvent,
  type ModelRun,
  type Phase,
  type Recorded,
  type ServerLeft,
} from './model-runs.js';
import { oneTransactionLedger } from './one-transaction-ledger.js';
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

type StatusAnswer = 'done' | 'failed' | 'pending' | 'fails' | 'not found';

interface World {
  readonly b2b: ProviderSide;
  finding?: Finding;
  handCorrected: boolean;
  expectedReview: boolean;
}

export interface FloatRun extends ModelRun {
  readonly world: World;
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

/** A pushed Result; a contradiction must wait for review. */
function push(run: FloatRun, result: ProviderResult): Promise<void> {
  return pushResult(run, 'disbursement', result, AMOUNT_MINOR, () => {
    run.world.expectedReview = true;
  });
}

function askMpesa(run: FloatRun, status: StatusAnswer, passTimeout: boolean): Promise<void> {
  run.answers = { status, calls: 'accept', honest: false };
  return askRound(run, passTimeout);
}

async function settleLeg(run: FloatRun, as: Finding): Promise<void> {
  const settled = await settleAsOperator(run, 'disbursement', as);
  if (settled === 'refused') return;
  run.world.finding = as;
  run.world.expectedReview = false;
  if (settled === 'hand corrected') run.world.handCorrected = true;
}

type FloatEvent = ModelEvent<FloatState, FloatRun>;

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

/** The pushed Results: what each says, what M-Pesa then said all told, and the details it names. */
const pushedResults: readonly [string, Finding, Finding | 'both', { amountMinor: bigint } | undefined][] = [
  ['B2B Result: done', 'succeeded', 'succeeded', correct],
  ['B2B Result: done, no details', 'succeeded', 'succeeded', undefined],
  ['B2B Result: failed', 'failed', 'failed', undefined],
  ['B2B Result: another amount', 'succeeded', 'both', { amountMinor: 100n }],
];

const resultEvents = pushedResults.map(([name, outcome, said, details]): FloatEvent => ({
  name,
  when: taken,
  run: (run) => {
    tell(run.world.b2b, said);
    return push(run, b2bResult(run, outcome, details, 'result'));
  },
}));

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

const roots = serverRoots('B2B');

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
    ...eventTable(floatEvents, (run) => {
      run.answers = { calls: 'accept', honest: false };
    }),

    async start(root) {
      const { ledger, clock } = runLedger(store);
      const caller = await callers.take(ledger);
      const { reference } = await requestFloat(ledger, caller.id, AGENT, AMOUNT_KES);
      const how = roots[root] as ServerLeft;
      const world: World = {
        b2b: { calls: serverCalls(how), has: how.taken, said: 'nothing' },
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
      await noteAsTheServerDid(ledger, reference, clock, how);
      return run;
    },

    observe,

    violations: (run) => run.violations,

    async settle(run) {
      run.answers = { calls: 'accept', honest: true };
      const { world } = run;
      await settleRun(
        run,
        async () => {
          if (world.b2b.has && world.b2b.said === 'nothing' && world.finding === undefined) {
            tell(world.b2b, 'succeeded');
            await push(run, b2bResult(run, 'succeeded', correct, 'result'));
          }
          await interruptedRound(run);
          await timeoutsRound(run);
        },
        async () => stateOf(run, await recordedOf(store, run.reference)),
      );
      await observe(run);
      checkEnd(run, await recordedOf(store, run.reference));
    },

    close: (run) => finishRun(run, callers, AMOUNT_MINOR),
  };
}
