// `list_statement`: a page of the postings of one of the caller's channels, newest first, each with the
// posted balance before and after it, beside the channel as `get_balance` shows it.

import { success, successMessages } from '@topup/envelope';
import type { StatementData } from '@topup/envelope';
import { channelView, formatMinor } from '@topup/ledger';
import type { ListStatementRequest } from '@topup/validation';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

const channels = { 'Agent Float': 'float', Airtime: 'airtime' } as const;

export const listStatement: ApiHandler<ListStatementRequest> = async ({ deps, account, input }) => {
  const page = await deps.ledger.listStatement(account.id, channels[input.channel], {
    from: input.from,
    to: input.to,
    limit: input.limit,
    cursor: input.cursor,
  });
  const data: StatementData = {
    channel: channelView(page.channel),
    postings: page.postings.map((posting) => ({
      id: posting.id,
      date: posting.date,
      reference: posting.reference,
      purpose: posting.purpose,
      amount: formatMinor(posting.amountMinor),
      balance_before: formatMinor(posting.balanceBeforeMinor),
      balance_after: formatMinor(posting.balanceAfterMinor),
    })),
    next_cursor: page.nextCursor,
  };
  return ok(success(successMessages.statementFound, data));
};
