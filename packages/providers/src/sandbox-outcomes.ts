// The sandbox simulator's deterministic outcomes, chosen by the last four digits of the number concerned
// (docs/decisions.md): the payer's number for the payment leg of a purchase, the recipient's otherwise.

import type { TransactionRecord } from '@topup/ledger';

/**
 * What the simulator does with a transaction.
 *
 * @example
 * ```ts
 * import type { SandboxOutcome } from '@topup/providers';
 *
 * const endsInMoney = (outcome: SandboxOutcome) => outcome === 'completes' || outcome === 'fails_after_payment';
 * ```
 */
export type SandboxOutcome =
  'completes' | 'declined' | 'never_answers' | 'refused_at_once' | 'unavailable' | 'fails_after_payment';

const byLastFourDigits: Readonly<Record<string, SandboxOutcome>> = {
  '0001': 'declined',
  '0002': 'never_answers',
  '0003': 'refused_at_once',
  '0004': 'unavailable',
  '0005': 'fails_after_payment',
};

const paymentLegOutcomes: ReadonlySet<SandboxOutcome> = new Set([
  'declined',
  'never_answers',
  'refused_at_once',
  'unavailable',
]);

function outcomeOf(mobile: string): SandboxOutcome | undefined {
  return byLastFourDigits[mobile.slice(-4)];
}

/**
 * The outcome the simulator will give a transaction.
 *
 * @example
 * ```ts
 * import type { TransactionRecord } from '@topup/ledger';
 * import { sandboxOutcome } from '@topup/providers';
 *
 * declare const transaction: TransactionRecord;
 * if (sandboxOutcome(transaction) === 'never_answers') console.log('the timeout will cancel it');
 * ```
 */
export function sandboxOutcome(transaction: TransactionRecord): SandboxOutcome {
  if (transaction.type === 'Airtime' && transaction.payment !== undefined) {
    const payerOutcome = outcomeOf(transaction.payment.mobile);
    if (payerOutcome !== undefined && paymentLegOutcomes.has(payerOutcome)) return payerOutcome;
    return outcomeOf(transaction.recipient.mobile) ?? 'completes';
  }
  const outcome = outcomeOf(transaction.recipient.mobile) ?? 'completes';
  // A float deposit, or airtime sent from the caller's balance, has no payment leg: a failure after
  // acceptance is a decline.
  return outcome === 'fails_after_payment' ? 'declined' : outcome;
}
