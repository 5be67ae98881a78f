// Every leg transition in one table: what a provider's result, an answer to a query or a submission, a
// worker's wish to call a provider, or an operator's settlement does to a leg, given what is recorded of
// its transaction. The ledger reads this table and nothing else to decide (leg-events.ts carries out the
// decision under the transaction's row lock), and docs/architecture.md prints it (a test keeps the two
// equal). The rules are tried in order and the first that holds decides; the last rule of each event
// catches everything else, so no situation goes undecided. A result that disagrees with what is recorded
// never moves money: it is kept for an operator with its evidence.

import type { LegKind } from './transaction-legs.js';

/**
 * What is recorded of a leg: no row and no submission, unsettled (submitted, pending, unknown), or ended.
 *
 * @example
 * ```ts
 * import type { LegRecord } from '@topup/ledger';
 *
 * const delivery: LegRecord = 'failed';
 * ```
 */
export type LegRecord = 'none' | 'open' | 'succeeded' | 'failed';

/**
 * A transaction as the table reads it. `whole`: one leg carries it (a float's disbursement, airtime sent
 * from the balance, a purchase one provider carries alone); `chain`: a purchase whose payment, delivery and
 * refund are legs of their own (two providers).
 *
 * @example
 * ```ts
 * import { legTransition, type LegSituation } from '@topup/ledger';
 *
 * // A purchase whose delivery failed and whose refund is under way: a late delivery success contradicts it.
 * const situation: LegSituation = {
 *   shape: 'chain',
 *   transaction: 'requested',
 *   leg: 'delivery',
 *   legs: { first: 'none', payment: 'succeeded', delivery: 'failed', refund: 'open' },
 *   review: false,
 *   collected: false,
 *   callsAsSeen: true,
 * };
 * legTransition(situation, 'succeeded').then; // 'review'
 * ```
 */
export interface LegSituation {
  readonly shape: 'whole' | 'chain';
  readonly transaction: 'requested' | 'completed' | 'cancelled';
  /** The leg the event is about. */
  readonly leg: LegKind;
  readonly legs: Readonly<Record<'first' | 'payment' | 'delivery' | 'refund', LegRecord>>;
  /** Some leg of the transaction waits for an operator. */
  readonly review: boolean;
  /** The payment of a cancelled purchase was collected in the ledger (its late refund is posted). */
  readonly collected: boolean;
  /** For a call: it is the claim the caller saw (no other worker claimed a call since). */
  readonly callsAsSeen: boolean;
}

/**
 * What happened, as the table reads it.
 *
 * @example
 * ```ts
 * import type { LegEventKind } from '@topup/ledger';
 *
 * const duplicate: LegEventKind = 'still open'; // a duplicate answer: taken, outcome unknown
 * ```
 */
export type LegEventKind =
  | 'succeeded'
  | 'failed'
  | 'differs'
  | 'still open'
  | 'never taken'
  | 'timed out'
  | 'accepted'
  | 'refused'
  | 'call'
  | 'settled succeeded'
  | 'settled failed';

/**
 * What the ledger does.
 *
 * @example
 * ```ts
 * import { legRules, type LegAction } from '@topup/ledger';
 *
 * const reviewed: LegAction[] = legRules.filter((rule) => rule.then === 'review').map((rule) => rule.then);
 * ```
 */
export type LegAction =
  /** It repeats what is recorded: nothing changes. */
  | 'ignore'
  /** The leg ends as the event says; the transaction stays requested and its next leg follows. */
  | 'end leg'
  /** The leg ends as the event says and waits for an operator. */
  | 'end leg for review'
  /** All legs succeeded: the transaction completes (postings, callback). */
  | 'complete'
  /** Nothing was collected or moved: the transaction is cancelled (reservation voided, callback). */
  | 'cancel'
  /** The payer has their payment back: the purchase is cancelled with the collection and its refund. */
  | 'cancel refunded'
  /** The event contradicts what is recorded: kept with its evidence for an operator; nothing moves. */
  | 'review'
  /** The leg stays unsettled, to be asked about again (and waits for an operator once the window is over). */
  | 'note open'
  /** The call is claimed for this caller, who alone makes it. */
  | 'claim'
  /** The call or settlement is not allowed now. */
  | 'refuse'
  /** The operator's finding is recorded and the review ends; nothing moves. */
  | 'close review'
  /** The payment of a cancelled purchase is recorded as collected, and its refund follows. */
  | 'reopen for refund';

/**
 * One row of the table.
 *
 * @example
 * ```ts
 * import { legRules, type LegRule } from '@topup/ledger';
 *
 * const first: LegRule | undefined = legRules[0];
 * console.log(first?.event, first?.when, first?.then, first?.why);
 * ```
 */
export interface LegRule {
  readonly shape: LegSituation['shape'] | 'any';
  readonly leg: LegKind | 'first' | 'any';
  readonly event: LegEventKind;
  /** The condition, as the table prints it; `always` when none. */
  readonly when: string;
  readonly holds: (situation: LegSituation) => boolean;
  readonly then: LegAction;
  /** Why, as an operator reads it in the table and in a review's evidence. */
  readonly why: string;
}

const always = () => true;
const open = (record: LegRecord) => record === 'none' || record === 'open';
const ended = (record: LegRecord) => record === 'succeeded' || record === 'failed';
const requested = (s: LegSituation) => s.transaction === 'requested';
/** The record of the leg the event is about. */
const own = (s: LegSituation) =>
  s.legs[s.leg === 'disbursement' || s.shape === 'whole' ? 'first' : kindOf(s)];

function kindOf(s: LegSituation): 'payment' | 'delivery' | 'refund' {
  return s.leg === 'payment' || s.leg === 'delivery' || s.leg === 'refund' ? s.leg : 'payment';
}

/** The table. Order matters: the first row whose leg, event and condition hold decides. */
export const legRules: readonly LegRule[] = [
  // Results of a whole transaction (the result names the transaction's reference).
  {
    shape: 'any',
    leg: 'any',
    event: 'differs',
    when: 'always',
    holds: always,
    then: 'review',
    why: 'the result names another amount, phone or party than was asked',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'succeeded',
    when: 'requested',
    holds: requested,
    then: 'complete',
    why: 'the provider carried it out',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'failed',
    when: 'requested',
    holds: requested,
    then: 'cancel',
    why: 'the provider did not carry it out',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'succeeded',
    when: 'completed',
    holds: (s) => s.transaction === 'completed',
    then: 'ignore',
    why: 'a repeat of the result already applied',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'failed',
    when: 'cancelled',
    holds: (s) => s.transaction === 'cancelled',
    then: 'ignore',
    why: 'a repeat of the result already applied',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'succeeded',
    when: 'cancelled',
    holds: always,
    then: 'review',
    why: 'carried out after it was cancelled: the provider may have moved money the ledger gave back',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'failed',
    when: 'completed',
    holds: always,
    then: 'review',
    why: 'reported failed after it completed',
  },

  // A purchase's payment (the payer's prompt).
  {
    shape: 'chain',
    leg: 'payment',
    event: 'succeeded',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'end leg',
    why: 'the payer paid: the airtime is delivered next',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'failed',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'cancel',
    why: 'the payer did not pay: nothing was collected',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'succeeded',
    when: 'payment succeeded',
    holds: (s) => s.legs.payment === 'succeeded',
    then: 'ignore',
    why: 'a repeat of the payment already noted',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'failed',
    when: 'payment failed',
    holds: (s) => s.legs.payment === 'failed',
    then: 'ignore',
    why: 'a repeat of the decline already applied',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'succeeded',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'paid after the payment was recorded failed: the payer was charged for a cancelled purchase',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'failed',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'declined after the payment was recorded paid',
  },

  // A purchase's delivery (the airtime).
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'succeeded',
    when: 'delivery unsettled, payment succeeded, no refund, requested',
    holds: (s) => open(s.legs.delivery) && deliverable(s),
    then: 'complete',
    why: 'the carrier delivered the airtime',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'failed',
    when: 'delivery unsettled, payment succeeded, no refund, requested',
    holds: (s) => open(s.legs.delivery) && deliverable(s),
    then: 'end leg',
    why: 'the carrier did not deliver: the payer is refunded next',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'succeeded',
    when: 'delivery succeeded',
    holds: (s) => s.legs.delivery === 'succeeded',
    then: 'ignore',
    why: 'a repeat of the delivery already applied',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'failed',
    when: 'delivery failed',
    holds: (s) => s.legs.delivery === 'failed',
    then: 'ignore',
    why: 'a repeat of the failure already noted',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'succeeded',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'delivered after the delivery was recorded failed (the payer may be refunded already), or out of order',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'failed',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'failed after the delivery was recorded delivered, or out of order',
  },

  // A purchase's refund (the payment given back).
  {
    shape: 'chain',
    leg: 'refund',
    event: 'succeeded',
    when: 'refund unsettled',
    holds: (s) => s.legs.refund === 'open' && s.transaction !== 'completed',
    then: 'cancel refunded',
    why: 'the payer has their payment back',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'failed',
    when: 'refund unsettled',
    holds: (s) => s.legs.refund === 'open',
    then: 'end leg for review',
    why: 'the refund was not made: an operator must give the payer their money back',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'succeeded',
    when: 'refund succeeded',
    holds: (s) => s.legs.refund === 'succeeded',
    then: 'ignore',
    why: 'a repeat of the refund already applied',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'failed',
    when: 'refund failed',
    holds: (s) => s.legs.refund === 'failed',
    then: 'ignore',
    why: 'a repeat of the failure already noted',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'succeeded',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'a refund reported done that was recorded failed, or never asked for',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'failed',
    when: 'otherwise',
    holds: always,
    then: 'review',
    why: 'a refund reported failed that was recorded done, or never asked for',
  },

  // What a provider answers to a submission or a query, before any result.
  {
    shape: 'any',
    leg: 'any',
    event: 'accepted',
    when: 'leg unsettled, requested',
    holds: (s) => open(own(s)) && s.transaction !== 'completed',
    then: 'note open',
    why: 'taken: its result comes pushed, or is asked for',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'still open',
    when: 'leg unsettled, requested',
    holds: (s) => open(own(s)) && s.transaction !== 'completed',
    then: 'note open',
    why: 'still working, silent, a duplicate answer or an unknown code: asked again, an operator after the window',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'refused',
    when: 'requested',
    holds: requested,
    then: 'cancel',
    why: 'refused at once: nothing was taken',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'timed out',
    when: 'first leg unsettled, requested',
    holds: (s) => open(s.legs.first) && requested(s),
    then: 'cancel',
    why: 'its provider says it never took it, and the timeout passed',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'refused',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'cancel',
    why: 'the prompt was refused at once: nothing was collected',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'timed out',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'cancel',
    why: 'M-Pesa never took the prompt, and the timeout passed',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'refused',
    when: 'delivery unsettled, payment succeeded, no refund, requested',
    holds: (s) => open(s.legs.delivery) && deliverable(s),
    then: 'end leg',
    why: 'the carrier refused the delivery at once: the payer is refunded next',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'never taken',
    when: 'delivery unsettled, payment succeeded, no refund, requested',
    holds: (s) => open(s.legs.delivery) && deliverable(s),
    then: 'note open',
    why: 'the carrier never had it: it may be sent again, under a new claim',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'refused',
    when: 'refund unsettled',
    holds: (s) => s.legs.refund === 'open',
    then: 'end leg for review',
    why: 'the refund was refused: it is never sent again without an operator',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'still open',
    when: 'otherwise',
    holds: always,
    then: 'ignore',
    why: 'the leg has ended already',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'accepted',
    when: 'otherwise',
    holds: always,
    then: 'ignore',
    why: 'the leg has ended already',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'refused',
    when: 'otherwise',
    holds: always,
    then: 'ignore',
    why: 'the leg has ended already',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'timed out',
    when: 'otherwise',
    holds: always,
    then: 'ignore',
    why: 'resolved already, or it may still happen: asked again',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'never taken',
    when: 'otherwise',
    holds: always,
    then: 'ignore',
    why: 'the leg has ended already, or its purchase moved on',
  },

  // A worker's wish to call a provider: claimed in the database first; only the claimant calls.
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'call',
    when: 'delivery unsettled, payment succeeded, no refund, requested, no review, no other claim',
    holds: (s) => open(s.legs.delivery) && deliverable(s) && !s.review && s.callsAsSeen,
    then: 'claim',
    why: 'the payment succeeded and the delivery is not (or no longer) with the carrier',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'call',
    when: 'no refund, delivery failed, requested, no review',
    holds: (s) => s.legs.refund === 'none' && s.legs.delivery === 'failed' && requested(s) && !s.review,
    then: 'claim',
    why: 'the delivery failed after payment: the payer is refunded, once',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'call',
    when: 'no refund, payment succeeded, cancelled, not collected, no review',
    holds: (s) =>
      s.legs.refund === 'none' &&
      s.legs.payment === 'succeeded' &&
      s.transaction === 'cancelled' &&
      !s.collected &&
      !s.review,
    then: 'claim',
    why: 'an operator found the payer paid for a cancelled purchase: the payer is refunded, once',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'call',
    when: 'first leg unsettled, requested, no review, no other claim',
    holds: (s) => open(s.legs.first) && requested(s) && !s.review && s.callsAsSeen,
    then: 'claim',
    why: 'an interrupted submission is made again by one worker',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'call',
    when: 'payment unsettled, requested, no review, no other claim',
    holds: (s) => open(s.legs.payment) && requested(s) && !s.review && s.callsAsSeen,
    then: 'claim',
    why: 'an interrupted submission is made again by one worker',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'call',
    when: 'otherwise',
    holds: always,
    then: 'refuse',
    why: 'another worker claimed the call, or the transaction moved on',
  },

  // An operator's settlement of a leg that waits for review, as the provider confirmed it.
  {
    shape: 'any',
    leg: 'any',
    event: 'settled succeeded',
    when: 'leg succeeded',
    holds: (s) => own(s) === 'succeeded',
    then: 'close review',
    why: 'the finding agrees with what is recorded',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'settled failed',
    when: 'leg failed, refund not concerned',
    holds: (s) => own(s) === 'failed' && s.leg !== 'refund',
    then: 'close review',
    why: 'the finding agrees with what is recorded',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'settled succeeded',
    when: 'requested',
    holds: requested,
    then: 'complete',
    why: 'the operator confirmed it was carried out',
  },
  {
    shape: 'whole',
    leg: 'first',
    event: 'settled failed',
    when: 'requested',
    holds: requested,
    then: 'cancel',
    why: 'the operator confirmed it was not carried out',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'settled succeeded',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'end leg',
    why: 'the operator confirmed the payment: the airtime is delivered next (never completed unsent)',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'settled failed',
    when: 'payment unsettled, requested',
    holds: (s) => open(s.legs.payment) && requested(s),
    then: 'cancel',
    why: 'the operator confirmed the payer did not pay',
  },
  {
    shape: 'chain',
    leg: 'payment',
    event: 'settled succeeded',
    when: 'payment failed, cancelled, no refund',
    holds: (s) => s.legs.payment === 'failed' && s.transaction === 'cancelled' && s.legs.refund === 'none',
    then: 'reopen for refund',
    why: 'the payer was charged for a cancelled purchase: they are refunded next',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'settled succeeded',
    when: 'delivery unsettled or failed, payment succeeded, no refund, requested',
    holds: (s) => s.legs.delivery !== 'succeeded' && deliverable(s),
    then: 'complete',
    why: 'the operator confirmed the carrier delivered',
  },
  {
    shape: 'chain',
    leg: 'delivery',
    event: 'settled failed',
    when: 'delivery unsettled, payment succeeded, no refund, requested',
    holds: (s) => open(s.legs.delivery) && deliverable(s),
    then: 'end leg',
    why: 'the operator confirmed the carrier did not deliver: the payer is refunded next',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'settled succeeded',
    when: 'refund unsettled or failed',
    holds: (s) => (s.legs.refund === 'open' || s.legs.refund === 'failed') && s.transaction !== 'completed',
    then: 'cancel refunded',
    why: 'the operator confirmed the payer has their money back',
  },
  {
    shape: 'chain',
    leg: 'refund',
    event: 'settled failed',
    when: 'refund not succeeded',
    holds: (s) => s.legs.refund !== 'succeeded',
    then: 'refuse',
    why: 'the payer must have their money back before the purchase can end: refund them, then settle succeeded',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'settled succeeded',
    when: 'otherwise',
    holds: always,
    then: 'close review',
    why: 'money already moved the other way: the finding is recorded, and the operator corrects by hand',
  },
  {
    shape: 'any',
    leg: 'any',
    event: 'settled failed',
    when: 'otherwise',
    holds: always,
    then: 'close review',
    why: 'money already moved the other way: the finding is recorded, and the operator corrects by hand',
  },
];

/** A purchase whose delivery may still decide it: paid, no refund asked for, requested. */
function deliverable(s: LegSituation): boolean {
  return s.legs.payment === 'succeeded' && s.legs.refund === 'none' && requested(s);
}

function legMatches(rule: LegRule, situation: LegSituation): boolean {
  if (rule.shape !== 'any' && rule.shape !== situation.shape) return false;
  if (rule.leg === 'any') return true;
  if (rule.leg === 'first') return situation.shape === 'whole';
  return rule.leg === situation.leg;
}

/**
 * The row of the table that decides `event` in `situation`.
 *
 * @example
 * ```ts
 * import { legTransition } from '@topup/ledger';
 *
 * const rule = legTransition(
 *   {
 *     shape: 'chain', transaction: 'requested', leg: 'delivery', review: false, collected: false, callsAsSeen: true,
 *     legs: { first: 'succeeded', payment: 'succeeded', delivery: 'failed', refund: 'open' },
 *   },
 *   'succeeded',
 * );
 * rule.then; // 'review': delivered after the delivery was recorded failed
 * ```
 */
export function legTransition(situation: LegSituation, event: LegEventKind): LegRule {
  const rule = legRules.find(
    (candidate) =>
      candidate.event === event && legMatches(candidate, situation) && candidate.holds(situation),
  );
  if (rule === undefined) {
    throw new Error(`Expected a rule for ${event} on a ${situation.shape} ${situation.leg} leg, found none.`);
  }
  return rule;
}

/** Whether a leg record has ended. */
export function legEnded(record: LegRecord): boolean {
  return ended(record);
}
