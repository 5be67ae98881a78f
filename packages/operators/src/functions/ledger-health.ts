// What the ledger-health functions of the catalog do: verify the ledger, list refused results and legs,
// and settle a leg an operator established the fate of with its provider.

import { OperatorError } from '../operator-error.js';
import { legView, unappliedView } from '../views.js';
import type { Implementations } from './implementation.js';

export const ledgerHealthImplementations: Implementations<
  'verify_ledger' | 'list_unapplied_results' | 'list_legs' | 'list_review_legs' | 'resolve_leg'
> = {
  async verify_ledger({ ledger }) {
    return { report: await ledger.verify() };
  },
  async list_unapplied_results({ ledger }, input) {
    const entries = await ledger.listUnappliedResolutions(
      input.reference === undefined || input.reference === '' ? {} : { reference: input.reference },
    );
    return { results: entries.map(unappliedView) };
  },
  async list_legs({ ledger }, input) {
    return { legs: (await ledger.legs(input.reference)).map(legView) };
  },
  async list_review_legs({ ledger }) {
    return { legs: (await ledger.legsForReview(1_000)).map(legView) };
  },
  async resolve_leg({ ledger, actor, audited }, input) {
    // Who established the leg's fate: the console's user, or whom the CLI names (its system user unless
    // told); the audit record's actor is the caller either way.
    const by = actor.kind === 'cli' ? (input.by ?? actor.systemUser) : actor.name;
    const receipt = input.receipt ?? '';
    const outcome = await ledger.settleReviewedLeg(
      input.leg,
      { as: input.as, by, ...(receipt === '' ? {} : { receipt }) },
      audited((settled) => ({
        target: input.leg,
        before: { state: 'review' },
        after: {
          as: input.as,
          by,
          receipt,
          transaction: settled.kind === 'not_found' ? null : settled.transaction.reference,
          why: settled.kind === 'leg_settled' ? settled.why : '',
        },
      })),
    );
    if (outcome.kind === 'not_found')
      throw new OperatorError(
        'not_found',
        `No transaction for leg ${input.leg}.`,
        [],
        'transaction_not_found',
      );
    const transaction = { reference: outcome.transaction.reference, state: outcome.transaction.state };
    const why = outcome.kind === 'leg_settled' ? outcome.why : '';
    return { settled: outcome.kind !== 'already_resolved', transaction, why };
  },
};
