// `buy_airtime`: record the purchase (the payer's payment funds it, so the caller's balance never blocks
// it), submit, answer.

import { successMessages } from '@topup/envelope';
import type { BuyAirtimeRequest } from '@topup/validation';
import { transactionHandler } from './transaction-operation.js';

export const buyAirtime = transactionHandler<BuyAirtimeRequest>({
  name: 'buy_airtime',
  requestedMessage: successMessages.airtimeRequested,
  channel: 'airtime',
  networks: (request) => [request.network, request.payment_network],
  reserve: (deps, accountId, request, idempotency, signal) =>
    deps.ledger.requestAirtime({
      accountId,
      request,
      ...(idempotency === undefined ? {} : { idempotency }),
      signal,
    }),
});
