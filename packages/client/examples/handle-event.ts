import { createCallbackDeduplicator } from '@topup/client';
import type { CallbackEvent } from '@topup/client';

/** Your record of each transaction, by reference (a database table in a real system). */
export const outcomes = new Map<
  string,
  { readonly kind: 'completed' | 'cancelled'; readonly detail: string }
>();
const once = createCallbackDeduplicator();

/**
 * Acts on each callback once. Delivery is at least once, and every retry of one callback (and any replay
 * of a captured one) carries the same `key`, so a repeat is dropped; a failure leaves the key free for the
 * service's retry. The transaction is found by the reference its operation answered. A test callback
 * (`sendTestCallback`) has no transaction: it is answered like any other, and nothing is done.
 */
export async function handleEvent(event: CallbackEvent): Promise<void> {
  if (event.kind === 'test') return;
  await once(event, () => {
    outcomes.set(event.transaction.reference, {
      kind: event.kind,
      // 'Airtime delivered' or 'Agent float deposited'; when cancelled, the reason: 'payment declined'
      detail: event.kind === 'completed' ? event.message : event.errors.join('; '),
    });
  });
}
