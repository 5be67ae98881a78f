// Test helper: the exhaustive model of one airtime purchase carried by two providers (M-Pesa takes the
// payment and gives it back by reversal, the carrier delivers), run through the real ledger and the real
// worker loops with the providers scripted. model-exploration.ts explores its event sequences.
//
// Roots, how the server's request left the purchase: the prompt accepted and noted; the prompt lost on the
// way (the server held it unknown); the server stopped after M-Pesa took the prompt, or before it was sent,
// in both cases before noting it (the interrupted-submissions loop finds it).
//
// Events:
// - `paid`, `declined`, `paid another amount`: M-Pesa's callback about the prompt. A duplicate callback is
//   the same event twice, a late one comes after a timeout or a round, a contradicting one after another.
// - `query: <answer>`: a round of the interrupted-submissions and the timeouts loops while STK Query
//   answers paid, declined, pending, fails (cannot be asked) or not found; `timeout; query: <answer>`: the
//   same once the clock passed the purchase's timeout.
// - `round`: a worker's round of the purchase-chains loop (deliver, refund or ask, whichever is due), the
//   provider it calls accepting; `round: refused`, `round: unreachable` (the call fails and the provider
//   never got it; questions fail too) and `round: silent` (the provider took it, but the answer is lost;
//   questions fail too).
// - `two workers`: two workers' rounds at once, taking turns call by call (lockstep.ts), so each acts on
//   what it read while the other moved on.
// - `delivered`, `not delivered`: the carrier's callback about the delivery; `reversed`,
//   `reversal failed`: M-Pesa's Result about the reversal.
// - `operator: <leg> <finding>`: an operator settles a leg that waits for review, as succeeded or failed.
// An event is left out where it cannot happen or cannot differ from doing nothing: a provider calls back
// only about a call it got; an operator settles only a leg that waits; STK Query answers and rounds only
// where their loop may list the purchase (every listing is checked, model-runs.ts), and the timeout passes
// only once. So a repeat of a result is in, as is every contradiction.
//
// The providers are honest where the worker must trust them: "not found" is said of a call the provider
// never got, except that STK Query may say it of a prompt once the purchase was noted submitted (the
// timeout then cancels it; the payer may still pay, which the ledger must catch). Everything else they
// say may contradict what they said before.
//
// The abstract state (`PurchaseState`) is what decides the rest of a run: the transaction's state; each
// leg as the table and the listings read it (model-runs.ts `legView`); the postings by purpose and kind;
// the clock's phase and whether the purchase was noted submitted, while the loops that read them may still
// list it (requested, payment not succeeded); the payment's receipt, while a reversal may still name it;
// and on the providers' side, for the prompt, the delivery and the reversal: whether our side called,
// whether the provider has the call, what it said of it (provider-sides.ts), whether the carrier said
// "not found" since the last send; the operator's findings; and the reviews the model expects. The
// amounts, numbers and caller are the same in every run; calls claimed, question counts, providers' names
// on legs, review evidence, timestamps and callbacks decide nothing (a claim compares calls with what the
// same round read). The scripted providers answer from this state alone.

import { legId, type LegKind, type Store } from '@topup/ledger';
import type { LegOrder, Provider, ProviderResult, ProviderStatus } from '@topup/providers';
import { lockstep } from './lockstep.js';
import {
  askRound,
  CallerPool,
  chainRound,
  COMMISSION_BASIS_POINTS,
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
  type RecordedLeg,
  type ServerLeft,
} from './model-runs.js';
import type { ExplorationModel } from './model-exploration.js';
import {
  answerCall,
  questionsFail,
  settledTruth,
  sideView,
  tell,
  truthOf,
  type Answers,
  type Finding,
  type ProviderSide,
} from './provider-sides.js';
import { inTurns, oneTransactionLedger } from './one-transaction-ledger.js';
import { requestAirtime } from './scenario.js';

const AMOUNT_KES = 50;
const AMOUNT_MINOR = 5_000n;
const RECIPIENT = '254733000001';
const PAYER = '254711222333';
const RECEIPT = 'NLJ7RT61SV';

type CalledLeg = 'payment' | 'delivery' | 'refund';

interface World {
  readonly prompt: ProviderSide;
  readonly delivery: ProviderSide & { notFoundSinceSend: boolean };
  readonly reversal: ProviderSide;
  readonly findings: Partial<Record<CalledLeg, Finding>>;
  /** An operator recorded a finding against money that had moved the other way: theirs to correct. */
  handCorrected: boolean;
  /** Legs that must wait for review: a result contradicted them, or the ledger said so. */
  readonly expectedReviews: Set<LegKind>;
}

type QueryAnswer = 'paid' | 'declined' | 'pending' | 'fails' | 'not found';

export interface PurchaseRun extends ModelRun {
  readonly world: World;
  /** How the providers answer during the current event; honest ones answer the truth. */
  answers: Answers & { readonly query?: QueryAnswer };
}

type SideView = ReturnType<typeof sideView>;

export interface PurchaseState {
  readonly phase: Phase;
  readonly transaction: string;
  readonly submitted: boolean;
  readonly legs: readonly ReturnType<typeof legView>[];
  readonly postings: readonly string[];
  readonly prompt: SideView;
  readonly delivery: SideView & { readonly notFoundSinceSend: boolean };
  readonly reversal: SideView;
  readonly findings: string;
  readonly handCorrected: boolean;
  readonly expectedReviews: string;
}

const sorted = (values: Iterable<string>) => [...values].sort().join(',');
const reviewOpen = (leg: RecordedLeg) => leg.review !== '';

const legOf = (recorded: Recorded, kind: LegKind) => recorded.legs.find((leg) => leg.kind === kind);

// ---- What the providers say ----

function paymentResult(run: PurchaseRun, outcome: 'completed' | 'declined', amountMinor: bigint) {
  return {
    id: `stk:${outcome}:${amountMinor}`,
    reference: legId(run.reference, 'payment'),
    outcome,
    providerCode: outcome === 'completed' ? RECEIPT : '1032',
    reason: outcome === 'completed' ? '' : 'Request cancelled by user',
    ...(outcome === 'completed' ? { evidence: { amountMinor, mobile: PAYER } } : {}),
  } satisfies ProviderResult;
}

function legResult(run: PurchaseRun, kind: 'delivery' | 'refund', finding: Finding): ProviderResult {
  const succeeded = finding === 'succeeded';
  return {
    id: `${kind}:${finding}`,
    reference: legId(run.reference, kind),
    outcome: succeeded ? 'completed' : 'declined',
    providerCode: kind === 'delivery' ? 'ATQid_1' : succeeded ? 'REV1' : 'R000002',
    reason: succeeded ? '' : kind === 'delivery' ? 'Failed' : 'The reversal was declined',
    evidence:
      kind === 'delivery' ? { amountMinor: AMOUNT_MINOR, mobile: RECIPIENT } : { amountMinor: AMOUNT_MINOR },
  };
}

function paymentTruth(world: World): 'paid' | 'not paid' | 'unclear' {
  const finding = world.findings.payment;
  if (finding !== undefined) return finding === 'succeeded' ? 'paid' : 'not paid';
  if (!world.prompt.has) return 'not paid';
  const { said } = world.prompt;
  return said === 'both' ? 'unclear' : said === 'failed' ? 'not paid' : 'paid';
}

async function checkDeliveryAllowed(run: PurchaseRun): Promise<void> {
  const recorded = await recordedOf(run.store, run.reference);
  if (
    recorded.transaction !== 'requested' ||
    legOf(recorded, 'payment')?.state !== 'succeeded' ||
    legOf(recorded, 'refund') !== undefined
  ) {
    violate(run, 'airtime was sent for a purchase not paid, resolved, or being refunded');
  }
}

async function checkReversalAllowed(run: PurchaseRun): Promise<void> {
  const recorded = await recordedOf(run.store, run.reference);
  if (recorded.transaction === 'completed' || legOf(recorded, 'delivery')?.state === 'succeeded') {
    violate(run, 'a reversal was sent for a purchase recorded delivered');
  }
  if (legOf(recorded, 'payment')?.state !== 'succeeded')
    violate(run, 'a reversal was sent for a payment not recorded');
}

function scriptedProviders(run: PurchaseRun): { payer: Provider; carrier: Provider } {
  const { world } = run;
  const nothingPulled = {
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),
  };
  const payer: Provider = {
    name: 'daraja',
    idempotentSubmissions: false,
    laterLegs: ['refund'],
    ...nothingPulled,
    // The prompt, made again only by the interrupted-submissions loop.
    submit() {
      world.prompt.calls += 1;
      if (world.prompt.calls > 1) violate(run, 'the payer was prompted twice');
      return answerCall(run.answers, world.prompt);
    },
    query(): Promise<ProviderStatus> {
      const answer: QueryAnswer | undefined = run.answers.honest
        ? world.prompt.has
          ? paymentTruth(world) === 'not paid'
            ? 'declined'
            : 'paid'
          : 'not found'
        : run.answers.query;
      switch (answer) {
        case undefined:
          violate(run, 'STK Query was asked outside a round of the loops that ask it');
          return Promise.reject(new Error('unexpected STK Query'));
        case 'paid':
        case 'declined':
          if (!run.answers.honest) tell(world.prompt, answer === 'paid' ? 'succeeded' : 'failed');
          // STK Query tells no receipt and no amount.
          return Promise.resolve({
            kind: 'result',
            result: {
              id: `stk-query:${answer}`,
              reference: legId(run.reference, 'payment'),
              outcome: answer === 'paid' ? 'completed' : 'declined',
              providerCode: answer === 'paid' ? '' : '1032',
              reason: answer === 'paid' ? '' : 'Request cancelled by user',
            },
          });
        case 'pending':
          return Promise.resolve({ kind: 'pending' });
        case 'not found':
          return Promise.resolve({ kind: 'not_found' });
        case 'fails':
          return Promise.reject(new Error('STK Query answered 500'));
      }
    },
    async submitLeg(order: LegOrder) {
      if (order.kind !== 'refund') {
        violate(run, `M-Pesa was asked to carry a ${order.kind}`);
        return { kind: 'unavailable', reason: 'not carried here', taken: false };
      }
      // Daraja refuses a reversal naming no receipt before any call is made.
      if (order.paymentReference === '') {
        return { kind: 'refused', reason: 'no M-Pesa receipt to reverse', providerCode: 'NO_RECEIPT' };
      }
      await checkReversalAllowed(run);
      world.reversal.calls += 1;
      if (world.reversal.calls > 1) violate(run, 'a second reversal was sent');
      return answerCall(run.answers, world.reversal);
    },
    queryLeg(id: string): Promise<ProviderStatus> {
      if (id !== legId(run.reference, 'refund')) {
        violate(run, `M-Pesa was asked about ${id}`);
        return Promise.reject(new Error('unexpected question'));
      }
      if (questionsFail(run.answers))
        return Promise.reject(new Error('Transaction Status could not be asked'));
      if (!world.reversal.has) return Promise.resolve({ kind: 'not_found' });
      // Daraja answers Transaction Status by a later Result; an honest one at the end has it at once.
      if (!run.answers.honest) return Promise.resolve({ kind: 'pending' });
      const truth = truthOf(world.reversal, world.findings.refund, 'succeeded');
      return Promise.resolve({ kind: 'result', result: legResult(run, 'refund', truth) });
    },
  };
  const carrier: Provider = {
    name: 'africastalking',
    idempotentSubmissions: false,
    laterLegs: ['delivery'],
    ...nothingPulled,
    submit() {
      violate(run, 'the carrier was sent a whole purchase');
      return Promise.reject(new Error('unexpected submission'));
    },
    query() {
      violate(run, 'the carrier was asked about a whole purchase');
      return Promise.reject(new Error('unexpected question'));
    },
    async submitLeg(order: LegOrder) {
      if (order.kind !== 'delivery') {
        violate(run, `the carrier was asked to carry a ${order.kind}`);
        return { kind: 'unavailable', reason: 'not carried here', taken: false };
      }
      await checkDeliveryAllowed(run);
      const side = world.delivery;
      side.calls += 1;
      if (side.calls > 1 && (side.has || !side.notFoundSinceSend)) {
        violate(run, 'airtime was sent again though the carrier never said it did not have it');
      }
      side.notFoundSinceSend = false;
      // Africa's Talking refuses a repeat of a send it took as a duplicate: taken, outcome unknown.
      if (side.has) return { kind: 'unavailable', reason: 'duplicate request' };
      return answerCall(run.answers, side);
    },
    queryLeg(id: string): Promise<ProviderStatus> {
      if (id !== legId(run.reference, 'delivery')) {
        violate(run, `the carrier was asked about ${id}`);
        return Promise.reject(new Error('unexpected question'));
      }
      if (questionsFail(run.answers)) return Promise.reject(new Error('the carrier could not be asked'));
      if (!world.delivery.has) {
        world.delivery.notFoundSinceSend = true;
        return Promise.resolve({ kind: 'not_found' });
      }
      if (!run.answers.honest) return Promise.resolve({ kind: 'pending' });
      const truth = truthOf(world.delivery, world.findings.delivery, 'failed');
      return Promise.resolve({ kind: 'result', result: legResult(run, 'delivery', truth) });
    },
  };
  return { payer, carrier };
}

// ---- Events ----

/** A pushed result about `leg`; a contradiction must wait for review. */
function push(run: PurchaseRun, leg: CalledLeg, result: ProviderResult): Promise<void> {
  return pushResult(run, leg, result, AMOUNT_MINOR, () => run.world.expectedReviews.add(leg));
}

function askMpesa(run: PurchaseRun, answer: QueryAnswer, passTimeout: boolean): Promise<void> {
  run.answers = { query: answer, calls: 'accept', honest: false };
  return askRound(run, passTimeout);
}

async function oneWorker(run: PurchaseRun, calls: Answers['calls']): Promise<void> {
  run.clock.round();
  run.answers = { calls, honest: false };
  await chainRound(run);
}

async function twoWorkers(run: PurchaseRun): Promise<void> {
  run.clock.round();
  run.answers = { calls: 'accept', honest: false };
  const turns = lockstep();
  await Promise.all(
    ([0, 1] as const).map(async (worker) => {
      try {
        const taking = inTurns(run.loopLedger, run.providers, turns, worker);
        await chainRound({ ...run, loopLedger: taking.ledger, providers: taking.providers });
      } finally {
        turns.finish(worker);
      }
    }),
  );
}

async function settleLeg(run: PurchaseRun, leg: CalledLeg, as: Finding): Promise<void> {
  const receipt = leg === 'payment' && as === 'succeeded' ? RECEIPT : undefined;
  const settled = await settleAsOperator(run, leg, as, receipt);
  if (settled === 'refused') return;
  run.world.findings[leg] = as;
  run.world.expectedReviews.delete(leg);
  if (settled === 'hand corrected') run.world.handCorrected = true;
}

type PurchaseEvent = ModelEvent<PurchaseState, PurchaseRun>;

const waiting = (leg: CalledLeg) => (state: PurchaseState) =>
  state.legs.some((found) => found.kind === leg && found.review !== '' && found.review !== 'settled');
const beforeTimeout = (state: PurchaseState) => state.phase === 'before the timeout';
/** STK Query may say "not found" of a prompt it never got, or (wrongly) once the purchase was noted submitted. */
const mayNotFind = (state: PurchaseState) => !state.prompt.has || state.submitted;
const promptTaken = (state: PurchaseState) => state.prompt.has;
const paid = (state: PurchaseState) =>
  state.legs.some((leg) => leg.kind === 'payment' && leg.record === 'succeeded');
const waitsForOperator = (state: PurchaseState) =>
  state.legs.some((leg) => leg.review === 'held' || leg.review === 'unsettled');
/**
 * Whether the loops that ask STK Query may list the purchase: requested, its payment not succeeded, and
 * nothing waiting for an operator. Elsewhere they list nothing (every listing is checked: model-runs.ts),
 * so every answer is the same event, one that changes nothing, and is left out.
 */
const asked = (state: PurchaseState) =>
  state.transaction === 'requested' && !paid(state) && !waitsForOperator(state);

const queryEvents = (['paid', 'declined', 'pending', 'fails', 'not found'] as const).map(
  (answer): PurchaseEvent => ({
    name: `query: ${answer}`,
    when:
      answer === 'not found'
        ? (state) => asked(state) && mayNotFind(state)
        : answer === 'fails'
          ? asked
          : (state) => asked(state) && promptTaken(state),
    run: (run) => askMpesa(run, answer, false),
  }),
);

const timeoutEvents = (['pending', 'fails', 'not found'] as const).map((answer): PurchaseEvent => ({
  name: `timeout; query: ${answer}`,
  when: (state) =>
    beforeTimeout(state) &&
    (answer === 'not found' ? mayNotFind(state) : answer === 'pending' ? promptTaken(state) : true),
  run: (run) => askMpesa(run, answer, true),
}));

/**
 * Whether the chain may list the purchase: paid, nothing waiting for an operator, and requested, or
 * cancelled with its payment not collected (an operator found it paid).
 */
const chained = (state: PurchaseState) =>
  paid(state) &&
  !waitsForOperator(state) &&
  (state.transaction === 'requested' ||
    (state.transaction === 'cancelled' &&
      !state.postings.some((posting) => posting.startsWith('airtime_collection'))));

/**
 * The chain lists a purchase only in `chained` states (every listing is checked: model-runs.ts): elsewhere
 * every round is the same event, one that changes nothing, and is left out.
 */
const roundEvents: PurchaseEvent[] = [
  { name: 'round', when: chained, run: (run) => oneWorker(run, 'accept') },
  { name: 'round: refused', when: chained, run: (run) => oneWorker(run, 'refuse') },
  { name: 'round: unreachable', when: chained, run: (run) => oneWorker(run, 'unreachable') },
  { name: 'round: silent', when: chained, run: (run) => oneWorker(run, 'silent') },
  { name: 'two workers', when: chained, run: twoWorkers },
];

const callbackEvents: PurchaseEvent[] = [
  {
    name: 'paid',
    when: promptTaken,
    run: (run) => {
      tell(run.world.prompt, 'succeeded');
      return push(run, 'payment', paymentResult(run, 'completed', AMOUNT_MINOR));
    },
  },
  {
    name: 'declined',
    when: promptTaken,
    run: (run) => {
      tell(run.world.prompt, 'failed');
      return push(run, 'payment', paymentResult(run, 'declined', AMOUNT_MINOR));
    },
  },
  {
    name: 'paid another amount',
    when: promptTaken,
    run: (run) => {
      tell(run.world.prompt, 'both');
      return push(run, 'payment', paymentResult(run, 'completed', 100n));
    },
  },
  ...(['succeeded', 'failed'] as const).map((finding): PurchaseEvent => ({
    name: finding === 'succeeded' ? 'delivered' : 'not delivered',
    when: (state) => state.delivery.has,
    run: (run) => {
      tell(run.world.delivery, finding);
      return push(run, 'delivery', legResult(run, 'delivery', finding));
    },
  })),
  ...(['succeeded', 'failed'] as const).map((finding): PurchaseEvent => ({
    name: finding === 'succeeded' ? 'reversed' : 'reversal failed',
    when: (state) => state.reversal.has,
    run: (run) => {
      tell(run.world.reversal, finding);
      return push(run, 'refund', legResult(run, 'refund', finding));
    },
  })),
];

const operatorEvents = (['payment', 'delivery', 'refund'] as const).flatMap((leg) =>
  (['succeeded', 'failed'] as const).map((as): PurchaseEvent => ({
    name: `operator: ${leg} ${as}`,
    when: waiting(leg),
    run: (run) => settleLeg(run, leg, as),
  })),
);

const purchaseEvents: readonly PurchaseEvent[] = [
  ...callbackEvents.slice(0, 3),
  ...queryEvents,
  ...timeoutEvents,
  ...roundEvents,
  ...callbackEvents.slice(3),
  ...operatorEvents,
];

const roots = serverRoots('prompt');

// ---- Settling and the end ----

/** Results honest providers push for calls they took and said nothing of yet. */
async function pushWhatIsInFlight(run: PurchaseRun): Promise<void> {
  const { world } = run;
  if (world.prompt.has && world.prompt.said === 'nothing' && world.findings.payment === undefined) {
    tell(world.prompt, 'succeeded');
    await push(run, 'payment', paymentResult(run, 'completed', AMOUNT_MINOR));
  }
  if (world.delivery.has && world.delivery.said === 'nothing' && world.findings.delivery === undefined) {
    tell(world.delivery, 'failed');
    await push(run, 'delivery', legResult(run, 'delivery', 'failed'));
  }
  if (world.reversal.has && world.reversal.said === 'nothing' && world.findings.refund === undefined) {
    tell(world.reversal, 'succeeded');
    await push(run, 'refund', legResult(run, 'refund', 'succeeded'));
  }
}

function checkEnd(run: PurchaseRun, end: Recorded): void {
  const { world } = run;
  const { transaction, postings } = end;
  const reviewing = end.legs.some(reviewOpen);
  const delivered = transaction === 'completed';
  const refunded = transaction === 'cancelled' && legOf(end, 'refund')?.state === 'succeeded';
  if (transaction === 'requested' && !reviewing) {
    violate(run, 'once settled it is still requested, and nothing waits for an operator');
  }
  if (delivered && world.reversal.calls > 0) violate(run, 'completed, though a reversal was sent');
  if (refunded && legOf(end, 'delivery')?.state === 'succeeded') violate(run, 'both delivered and refunded');
  if (reviewing || world.handCorrected) return;
  const posted = (purpose: string) => postings.get(`${purpose}:single`) ?? 0;
  const paid = paymentTruth(world);
  const deliveryTruth = settledTruth(world.delivery, world.findings.delivery);
  if (paid === 'unclear' || deliveryTruth === 'unclear') {
    violate(run, 'its providers said two things, yet nothing waits for an operator');
    return;
  }
  if (paid === 'not paid') {
    if (transaction !== 'cancelled' || postings.size > 0) {
      violate(run, 'the payer did not pay, yet it did not end cancelled with nothing posted');
    }
    if (world.delivery.calls > 0 || world.reversal.calls > 0) {
      violate(run, 'the payer did not pay, yet airtime or a reversal was sent');
    }
    return;
  }
  if (delivered) {
    if (
      posted('airtime_collection') !== 1 ||
      posted('airtime_payout') !== 1 ||
      posted('airtime_refund') !== 0
    ) {
      violate(run, 'delivered without exactly one collection and one payout');
    }
    if (deliveryTruth !== 'succeeded') violate(run, 'completed, though the carrier did not deliver');
  } else if (refunded) {
    if (
      posted('airtime_collection') !== 1 ||
      posted('airtime_refund') !== 1 ||
      posted('airtime_payout') !== 0
    ) {
      violate(run, 'refunded without exactly one collection and one refund');
    }
    if (deliveryTruth === 'succeeded') violate(run, 'refunded, though the carrier delivered');
    if (settledTruth(world.reversal, world.findings.refund) !== 'succeeded') {
      violate(run, 'recorded refunded, though the payer was not given their money back');
    }
  } else {
    violate(run, 'the payer paid, and it ended neither delivered nor refunded');
  }
}

function stateOf(run: PurchaseRun, recorded: Recorded): PurchaseState {
  const { world } = run;
  const paidFor = legOf(recorded, 'payment')?.state === 'succeeded';
  // The phase and the submission matter to the loops that settle a first leg, which only ever list a
  // requested transaction whose payment has not succeeded (and a succeeded payment never changes).
  const firstLegOpen = recorded.transaction === 'requested' && !paidFor;
  // The receipt matters to a reversal, which is only sent while no refund was claimed.
  const refundable = recorded.transaction !== 'completed' && legOf(recorded, 'refund') === undefined;
  return {
    phase: firstLegOpen ? run.clock.phase : 'past the timeout',
    transaction: recorded.transaction,
    submitted: firstLegOpen ? recorded.submitted : true,
    legs: recorded.legs.map((leg) =>
      legView(leg, leg.kind === 'payment', leg.kind === 'payment' && refundable),
    ),
    postings: [...recorded.postings].map(([posting, count]) => `${posting}×${count}`).sort(),
    prompt: sideView(world.prompt),
    delivery: { ...sideView(world.delivery), notFoundSinceSend: world.delivery.notFoundSinceSend },
    reversal: sideView(world.reversal),
    findings: sorted(Object.entries(world.findings).map(([leg, finding]) => `${leg} ${finding}`)),
    handCorrected: world.handCorrected,
    expectedReviews: sorted(world.expectedReviews),
  };
}

const COMMISSION_MINOR = (AMOUNT_MINOR * BigInt(COMMISSION_BASIS_POINTS)) / 10_000n;

/** The purchase model over `store`, for runs `concurrency` at a time. */
export function purchaseModel(
  store: Store,
  concurrency: number,
): ExplorationModel<PurchaseRun, PurchaseState> {
  const callers = new CallerPool('airtime', 0n);

  async function observe(run: PurchaseRun): Promise<PurchaseState> {
    const recorded = await recordedOf(store, run.reference);
    for (const leg of run.world.expectedReviews) {
      const found = legOf(recorded, leg);
      if (found === undefined || !reviewOpen(found)) {
        violate(run, `a result contradicted the ${leg}, yet it does not wait for an operator`);
      }
    }
    for (const [posting, count] of recorded.postings) {
      if (count > 1) violate(run, `${posting} posted ${count} times`);
    }
    const channel = await run.ledger.balance(run.caller.id, 'airtime');
    const expected = run.caller.postedMinor + (recorded.transaction === 'completed' ? COMMISSION_MINOR : 0n);
    if (channel.postedMinor !== expected || channel.pendingMinor !== 0n) {
      violate(
        run,
        `the caller's airtime channel holds ${channel.postedMinor} cents where ${expected} were due`,
      );
    }
    run.observed = { recorded, channel };
    return stateOf(run, recorded);
  }

  return {
    roots: Object.keys(roots),
    ...eventTable(purchaseEvents, (run) => {
      run.answers = { calls: 'accept', honest: false };
    }),

    async start(root) {
      const { ledger, clock } = runLedger(store);
      const caller = await callers.take(ledger);
      const transaction = await requestAirtime(ledger, caller.id, RECIPIENT, PAYER, AMOUNT_KES);
      const { reference } = transaction;
      const how = roots[root] as ServerLeft;
      const world: World = {
        prompt: { calls: serverCalls(how), has: how.taken, said: 'nothing' },
        delivery: { calls: 0, has: false, said: 'nothing', notFoundSinceSend: false },
        reversal: { calls: 0, has: false, said: 'nothing' },
        findings: {},
        handCorrected: false,
        expectedReviews: new Set(),
      };
      const violations: string[] = [];
      const run: PurchaseRun = {
        store,
        ledger,
        clock,
        reference,
        caller,
        world,
        violations,
        loopLedger: oneTransactionLedger(
          ledger,
          reference,
          hearing(
            'payment',
            (what) => {
              violate(run, what);
            },
            (leg) => world.expectedReviews.add(leg),
          ),
        ),
        providers: { forNetwork: (network) => (network.startsWith('Carrier') ? carrier : payer) },
        concurrency,
        answers: { calls: 'accept', honest: false },
      };
      const { payer, carrier } = scriptedProviders(run);
      await noteAsTheServerDid(ledger, reference, clock, how);
      return run;
    },

    observe,

    violations: (run) => run.violations,

    async settle(run) {
      run.answers = { calls: 'accept', honest: true };
      await settleRun(
        run,
        async () => {
          await pushWhatIsInFlight(run);
          await interruptedRound(run);
          await timeoutsRound(run);
          await chainRound(run);
        },
        async () => stateOf(run, await recordedOf(store, run.reference)),
      );
      await observe(run);
      checkEnd(run, await recordedOf(store, run.reference));
    },

    close: (run) => finishRun(run, callers, 0n),
  };
}
