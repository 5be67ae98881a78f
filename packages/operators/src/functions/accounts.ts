// What the account functions of the catalog do: accounts, their tokens and their channels' balances.

import type { Ledger } from '@topup/ledger';
import { searchAccounts } from '../account-search.js';
import { OperatorError } from '../operator-error.js';
import { accountSummary, accountView, channelBalanceView, tokenView } from '../views.js';
import type { Implementations } from './implementation.js';

export async function accountOrFail(ledger: Ledger, accountId: string) {
  const account = await ledger.getAccount(accountId);
  if (account === undefined)
    throw new OperatorError('not_found', `No account ${accountId}.`, [], 'account_not_found');
  return account;
}

export const accountImplementations: Implementations<
  | 'list_accounts'
  | 'create_account'
  | 'set_account_status'
  | 'list_tokens'
  | 'issue_token'
  | 'revoke_token'
  | 'channel_balances'
> = {
  async list_accounts({ store }, input) {
    const page = await searchAccounts(store, { query: input.query, after: input.cursor, limit: 50 });
    return { accounts: page.accounts.map(accountSummary), next_cursor: page.nextCursor ?? '' };
  },
  async create_account({ ledger, audited }, { token, ...fields }) {
    const profile = {
      name: fields.name,
      ...Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''),
      ),
    };
    const account = accountView(
      await ledger.createAccount(
        profile,
        audited((made) => ({ target: made.id, after: accountView(made) })),
      ),
    );
    if (token === undefined) return { account };
    // Each is its own change with its own record: a token that could not be issued leaves the account.
    const issued = await ledger.issueToken(
      account.id,
      token,
      audited(({ tokenId }) => ({
        action: 'issue_token',
        target: account.id,
        after: { token_id: tokenId, mode: token },
      })),
    );
    return { account, token: { token_id: issued.tokenId, token: issued.token, mode: token } };
  },
  async set_account_status({ ledger, audited }, input) {
    const before = await accountOrFail(ledger, input.account);
    const after = await ledger.setAccountStatus(
      input.account,
      input.status,
      audited((changed) => ({
        target: input.account,
        before: { status: before.status },
        after: { status: changed.status },
      })),
    );
    return { account: accountView(after) };
  },
  async list_tokens({ ledger }, input) {
    await accountOrFail(ledger, input.account);
    return { tokens: (await ledger.listTokens(input.account)).map(tokenView) };
  },
  async issue_token({ ledger, audited }, input) {
    await accountOrFail(ledger, input.account);
    // The token itself is shown once, here, and never recorded.
    const { token, tokenId } = await ledger.issueToken(
      input.account,
      input.mode,
      audited(({ tokenId: id }) => ({ target: input.account, after: { token_id: id, mode: input.mode } })),
    );
    return { token_id: tokenId, token, mode: input.mode };
  },
  async revoke_token({ ledger, audited }, input) {
    await ledger.revokeToken(
      input.token_id,
      audited(() => ({ target: input.token_id, after: { revoked: true } })),
    );
    return { token_id: input.token_id, revoked: true };
  },
  async channel_balances({ ledger }, input) {
    await accountOrFail(ledger, input.account);
    const balances = await Promise.all([
      ledger.balance(input.account, 'float'),
      ledger.balance(input.account, 'airtime'),
    ]);
    return { channels: balances.map(channelBalanceView) };
  },
};
