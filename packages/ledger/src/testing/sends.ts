// Test helper: valid `send_airtime` requests as the validation package hands them to the ledger, and the
// transactions a send created.

import type { SendAirtimeRequest } from '@topup/validation';
import type { SendAirtimeOutcome } from '../outcomes.js';
import type { TransactionRecord } from '../transaction-record.js';

export type SentRecipient = SendAirtimeRequest['recipients'][number];

/** One valid recipient: 50 KES of CarrierB airtime for 254733123456, with overrides. */
export function sentRecipient(overrides: Partial<SentRecipient> = {}): SentRecipient {
  return {
    country: 'KE',
    network: 'CarrierB',
    mobile: '254733123456',
    currency: 'KES',
    amount: 50,
    ...overrides,
  };
}

/**
 * A valid `send_airtime` request with one recipient per amount (in shillings), in order, each with its own
 * mobile (2547331000NN, NN its position) unless `recipient` says otherwise.
 */
export function sendRequest(
  amounts: readonly number[],
  recipient: (position: number) => Partial<SentRecipient> = () => ({}),
  note?: string,
): SendAirtimeRequest {
  return {
    recipients: amounts.map((amount, position) =>
      sentRecipient({
        amount,
        mobile: `2547331000${String(position).padStart(2, '0')}`,
        ...recipient(position),
      }),
    ),
    ...(note === undefined ? {} : { note }),
  };
}

/** The transactions a send created; throws naming the outcome otherwise. */
export function sentTransactions(outcome: SendAirtimeOutcome): TransactionRecord[] {
  if (outcome.kind !== 'created') throw new Error(`Expected a created send, received ${outcome.kind}.`);
  return outcome.transactions;
}
