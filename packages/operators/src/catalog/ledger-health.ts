// Operator functions on the ledger's health: its invariants, results refused because their transaction
// was resolved the other way, and the legs no provider settled, which an operator settles.

import { z } from 'zod';
import { id, optionalText, pageLines } from './fields.js';
import { answerOf, operatorFunction } from './operator-function.js';
import type { LedgerReport, LegView, UnappliedResult } from './views.js';

function legLine(leg: LegView): string {
  return (
    `${leg.id}  ${leg.state}` +
    (leg.provider === '' ? '' : `  via ${leg.provider}`) +
    (leg.provider_reference === '' ? '' : `  provider ref ${leg.provider_reference}`) +
    (leg.review_since === null || leg.reviewed_at !== null
      ? ''
      : `  waiting for review since ${leg.review_since} (${leg.review_reason})`) +
    (leg.reviewed_by === '' ? '' : `  settled by ${leg.reviewed_by} at ${leg.reviewed_at ?? ''}`) +
    (leg.reviewed_at !== null || leg.review_evidence.length === 0
      ? ''
      : leg.review_evidence.map((entry) => `\n    evidence: ${JSON.stringify(entry)}`).join(''))
  );
}

export const ledgerHealthFunctions = {
  verify_ledger: operatorFunction({
    summary: 'Checks the ledger’s invariants: every balance sums to zero and no caller channel is negative.',
    input: z.object({}),
    answer: answerOf<{ report: LedgerReport }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'ledger verify',
        summary: 'checks the ledger’s invariants; exits 1 on a breach',
        json: ({ report }) => report,
        fails: ({ report }) => !report.ok,
        human: ({ report }) =>
          report.ok
            ? 'Ledger verified: every invariant holds.'
            : `Ledger breaches:\n${report.breaches.map((b) => `  - ${b}`).join('\n')}`,
      },
    ],
  }),
  list_unapplied_results: operatorFunction({
    summary: 'Provider results refused because their transaction was already resolved the other way.',
    input: z.object({ reference: optionalText }),
    answer: answerOf<{ results: UnappliedResult[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'ledger unapplied',
        summary: 'results refused because their transaction was already resolved the other way',
        json: ({ results }) => results,
        human: ({ results }) =>
          pageLines(
            results.map(
              (entry) =>
                `${entry.received}  ${entry.reference}  asked ${entry.asked}, was ${entry.state}` +
                (entry.provider_code === '' ? '' : `  provider code ${entry.provider_code}`) +
                (entry.reason === '' ? '' : `  ${JSON.stringify(entry.reason)}`),
            ),
            'No unapplied resolutions.',
          ),
      },
    ],
  }),
  list_legs: operatorFunction({
    summary:
      'A transaction’s legs (disbursement; payment, delivery, refund), each with its provider and state.',
    input: z.object({ reference: id }),
    answer: answerOf<{ legs: LegView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'legs list',
        summary: 'a transaction’s legs, each with its provider and state',
        json: ({ legs }) => legs,
        human: ({ legs }, { reference }) =>
          pageLines(legs.map(legLine), `No legs for ${reference} (unknown, or not yet submitted).`),
      },
    ],
  }),
  list_review_legs: operatorFunction({
    summary: 'Legs still unsettled at the end of the reconciliation window, waiting for an operator.',
    input: z.object({}),
    answer: answerOf<{ legs: LegView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'legs unresolved',
        summary: 'legs still unsettled at the end of the reconciliation window, waiting for an operator',
        json: ({ legs }) => legs,
        human: ({ legs }) => pageLines(legs.map(legLine), 'No legs waiting for review.'),
      },
    ],
  }),
  resolve_leg: operatorFunction({
    summary:
      'Settles a leg waiting for review as its provider confirmed it, by the transition table’s settlement rows; a purchase’s payment found collected takes its M-Pesa `receipt`. The leg records who settled it and what was found.',
    input: z.object({
      leg: id,
      as: z.enum(['succeeded', 'failed']),
      receipt: z
        .string()
        .trim()
        .max(40)
        .regex(/^[A-Za-z0-9]*$/)
        .optional(),
      by: z.string().trim().min(1).max(100).optional(),
    }),
    answer: answerOf<{
      settled: boolean;
      transaction: { reference: string; state: string };
      /** Why the settlement moved no money, when it did not (`leg_settled`); "" otherwise. */
      why: string;
    }>(),
    access: 'change',
    reauthenticate: false,
    // Who established the leg's fate with the provider, when not the system user running the CLI; a
    // console user is who they are signed in as.
    cliOnly: ['by'],
    cli: [
      {
        command: 'legs resolve',
        summary:
          'settles a leg as the provider confirmed it; the leg records who did (--by, else the system user)',
        human: ({ settled, transaction, why }, input) =>
          settled
            ? `Leg ${input.leg} settled as ${input.as}; transaction ${transaction.reference} is ${transaction.state}${why === '' ? '' : `: ${why}`}.`
            : `Transaction ${transaction.reference} was already ${transaction.state}; nothing changed.`,
      },
    ],
  }),
};
