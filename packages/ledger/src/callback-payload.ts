// The callback a terminal transaction announces, as the envelope object itself: SUCCESS/0000 with the
// delivered/deposited text on completion, FAIL/8000 with the cancellation reason on cancellation, both
// with the full transaction data. Airtime callbacks carry no `payment` object (spec, Events).

import { cancellationCallback, success, successMessages } from '@topup/envelope';
import type { AgentFloatData, AirtimeCallbackData, CancellableOperation } from '@topup/envelope';
import type { ChannelBalance } from './ledger-accounts.js';
import type { TransactionRecord } from './transaction-record.js';
import { transactionDataFrom } from './transaction-view.js';

/**
 * What a callback announces: the transaction completed, or it was cancelled.
 *
 * @example
 * ```ts
 * import type { CallbackEvent, DeliveryRecord } from '@topup/ledger';
 *
 * function describe(delivery: DeliveryRecord): string {
 *   const event: CallbackEvent = delivery.event;
 *   return `${delivery.reference} ${event}: ${delivery.status}`;
 * }
 * ```
 */
export type CallbackEvent = 'completed' | 'cancelled';

/** The event a transaction's state announces; undefined while it is still requested. */
export function callbackEventOf(record: TransactionRecord): CallbackEvent | undefined {
  if (record.state === 'completed') return 'completed';
  if (record.state === 'cancelled') return 'cancelled';
  return undefined;
}

function callbackData(
  record: TransactionRecord,
  channel: ChannelBalance,
): AgentFloatData | AirtimeCallbackData {
  const data = transactionDataFrom(record, channel, record.sender);
  if (!('payment' in data)) return data;
  return {
    sender: data.sender,
    recipient: data.recipient,
    transaction: data.transaction,
    messaging: data.messaging,
    channel: data.channel,
  };
}

/** The operation whose `8000` message a cancellation callback carries. */
function cancelledOperation(record: TransactionRecord): CancellableOperation {
  if (record.type === 'Agent Float') return 'send_agent_float';
  return record.payment === undefined ? 'send_airtime' : 'buy_airtime';
}

/** The callback envelope of a completed or cancelled transaction, as JSON text. */
export function callbackPayload(record: TransactionRecord, channel: ChannelBalance): string {
  const data = callbackData(record, channel);
  const airtime = record.type === 'Airtime';
  if (record.state === 'completed') {
    return JSON.stringify(
      success(airtime ? successMessages.airtimeDelivered : successMessages.agentFloatDeposited, data),
    );
  }
  if (record.state === 'cancelled') {
    const errors = record.cancelReason === '' ? [] : [record.cancelReason];
    return JSON.stringify(cancellationCallback(cancelledOperation(record), errors, data));
  }
  throw new Error(
    `Expected a completed or cancelled transaction for a callback, received ${record.state} ${record.reference}.`,
  );
}
