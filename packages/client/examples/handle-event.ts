import type { CallbackEvent } from '@topup/client';

/** Your record of each transaction, by reference (a database table in a real system). */
export const outcomes = new Map<string, { readonly kind: CallbackEvent['kind']; readonly detail: string }>();
const handled = new Set<string>();

/**
 * Acts on each callback once. Delivery is at least once, and every retry of one callback carries the
 * same `id` (its webhook-id), so a repeat is dropped; the transaction is found by the reference its
 * operation answered.
 */
export function handleEvent(event: CallbackEvent): Promise<void> {
  if (event.id !== undefined && handled.has(event.id)) return Promise.resolve();
  outcomes.set(event.transaction.reference, {
    kind: event.kind,
    // 'Airtime delivered' or 'Agent float deposited'; when cancelled, the reason: 'payment declined'
    detail: event.kind === 'completed' ? event.message : event.errors.join('; '),
  });
  if (event.id !== undefined) handled.add(event.id);
  return Promise.resolve();
}
