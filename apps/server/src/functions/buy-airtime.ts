// `buy_airtime`: record the purchase (the payer's payment funds it, so the caller's balance never blocks
// it), submit, answer.

import { successMessages } from '@topup/envelope';
import type { BuyAirtimeRequest } from '@topup/validation';
import { storeDeadlineSignal } from '../store-deadline.js';
import { transactionHandler } from './transaction-operation.js';

export const buyAirtime = transactionHandler<BuyAirtimeRequest>({
  name: 'buy_airtime',
  requestedMessage: successMessages.airtimeRequested,
  channel: 'airtime',
  reserve: (deps, accountId, request, idempotency) =>
    deps.ledger.requestAirtime({
      accountId,
      request,
      ...(idempotency === undefined ? {} : { idempotency }),
      ...storeDeadlineSignal(),
    }),
});
