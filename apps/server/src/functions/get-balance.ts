// `get_balance`: both channels of the caller, with the spec's balance-found text.

import { success, successMessages } from '@topup/envelope';
import { channelView } from '@topup/ledger';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const getBalance: ApiHandler<unknown> = async ({ deps, account }) => {
  const [float, airtime] = await Promise.all([
    deps.ledger.balance(account.id, 'float'),
    deps.ledger.balance(account.id, 'airtime'),
  ]);
  return ok(success(successMessages.balanceFound, { channels: [channelView(float), channelView(airtime)] }));
};
