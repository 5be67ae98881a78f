// `list_transactions`: a page of the caller's own transactions, newest first, each as its `get_transaction`
// answer shows its transaction, recipient and payer, with the cursor of the next page.

import { success, successMessages } from '@topup/envelope';
import type { TransactionsData } from '@topup/envelope';
import { listedTransaction } from '@topup/ledger';
import type { ListTransactionsRequest } from '@topup/validation';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const listTransactions: ApiHandler<ListTransactionsRequest> = async ({ deps, account, input }) => {
  const page = await deps.ledger.listTransactions(account.id, {
    type: input.type,
    state: input.state,
    from: input.from,
    to: input.to,
    reference: input.reference,
    idempotencyKey: input.idempotency_key,
    mobile: input.mobile,
    limit: input.limit,
    cursor: input.cursor,
  });
  const data: TransactionsData = {
    transactions: page.transactions.map(listedTransaction),
    next_cursor: page.nextCursor,
  };
  return ok(success(successMessages.transactionsFound, data));
};
