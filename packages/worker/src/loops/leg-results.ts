// Applying a result about one leg of a purchase that two providers carry (the results a provider names by
// a leg id). A paid payment is noted, and the purchase-chains loop hands the delivery to the carrier; a
// declined payment cancels the purchase (nothing was collected). A delivery completes the purchase, or,
// failed, is noted so the payer is refunded. A refund cancels the purchase with the payment given back, or,
// refused, waits for an operator: nothing else may end a purchase the payer has paid for.

import { NOT_DELIVERED_REFUNDED } from '@topup/ledger';
import type { Ledger, LegKind, ResolveOutcome } from '@topup/ledger';
import type { ProviderResult } from '@topup/providers';

/** What applying a result did: resolved its transaction, noted its leg, or changed nothing. */
export type ResultApplication = ResolveOutcome | { readonly kind: 'leg_noted' | 'leg_unchanged' };

export type LegResultLedger = Pick<Ledger, 'complete' | 'cancel' | 'noteLeg'>;

async function noted(done: Promise<boolean>): Promise<ResultApplication> {
  return { kind: (await done) ? 'leg_noted' : 'leg_unchanged' };
}

/** Applies `result`, which is about leg `kind` of purchase `reference`, carried by `provider`. */
export function applyLegResult(
  ledger: LegResultLedger,
  leg: { readonly reference: string; readonly kind: Exclude<LegKind, 'disbursement'> },
  result: ProviderResult,
  provider: string,
): Promise<ResultApplication> {
  const { reference, kind } = leg;
  const { providerCode } = result;
  const succeeded = result.outcome === 'completed';
  switch (kind) {
    case 'payment':
      return succeeded
        ? noted(
            ledger.noteLeg(reference, {
              kind,
              state: 'succeeded',
              provider,
              providerReference: providerCode,
            }),
          )
        : ledger.cancel(reference, { reason: result.reason, providerCode, provider });
    case 'delivery':
      return succeeded
        ? ledger.complete(reference, { providerCode, provider })
        : noted(
            ledger.noteLeg(reference, { kind, state: 'failed', provider, providerReference: providerCode }),
          );
    case 'refund':
      return succeeded
        ? ledger.cancel(reference, {
            reason: NOT_DELIVERED_REFUNDED,
            providerCode,
            provider,
            paymentCollected: true,
          })
        : noted(
            ledger.noteLeg(reference, {
              kind,
              state: 'failed',
              provider,
              providerReference: providerCode,
              review: true,
            }),
          );
  }
}
