// `get_transaction`: one of the caller's own transactions by reference. Another caller's reference is
// answered exactly like an unknown one.

import { success, successMessages } from '@topup/envelope';
import { transactionData } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type { GetTransactionRequest } from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const getTransaction: ApiHandler<GetTransactionRequest> = async ({ deps, account, input }) => {
  const transaction = await deps.ledger.getTransaction(account.id, input.reference);
  if (transaction === undefined) throw new ApiFailure('3000', [invalid('reference')]);
  const channel = await deps.ledger.balance(account.id, transaction.type === 'Airtime' ? 'airtime' : 'float');
  return ok(success(successMessages.transactionFound, transactionData(transaction, channel, account)));
};
