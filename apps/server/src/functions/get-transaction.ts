// `get_transaction`: one of the caller's own transactions by reference, with its legs. Another caller's
// reference is answered exactly like an unknown one.

import { success, successMessages } from '@topup/envelope';
import type { FoundTransactionData } from '@topup/envelope';
import { transactionData } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type { GetTransactionRequest } from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const getTransaction: ApiHandler<GetTransactionRequest> = async ({ deps, account, input }) => {
  const transaction = await deps.ledger.getTransaction(account.id, input.reference);
  if (transaction === undefined) throw new ApiFailure('3000', [invalid('reference')]);
  const [channel, legs] = await Promise.all([
    deps.ledger.balance(account.id, transaction.type === 'Airtime' ? 'airtime' : 'float'),
    deps.ledger.legs(transaction.reference),
  ]);
  const data: FoundTransactionData = {
    ...transactionData(transaction, channel, account),
    legs: legs.map((leg) => ({
      id: leg.id,
      kind: leg.kind,
      provider: leg.provider,
      state: leg.state,
      provider_reference: leg.providerReference,
      updated: leg.updatedAt.toISOString(),
    })),
  };
  return ok(success(successMessages.transactionFound, data));
};
