// Operator functions on accounts, their tokens and their channels' balances.

import { z } from 'zod';
import { cursor, id, optionalText, pageLines } from './fields.js';
import { answerOf, operatorFunction } from './operator-function.js';
import type { AccountSummary, AccountView, ChannelBalanceView, IssuedToken, TokenView } from './views.js';

const tokenMode = z.enum(['test', 'live']);

function statusChange(command: string, status: 'active' | 'suspended' | 'closed', summary: string) {
  return {
    command,
    summary,
    fixed: { status },
    json: ({ account }: { account: AccountView }) => ({ account: account.id, status: account.status }),
    human: ({ account }: { account: AccountView }) => `Account ${account.id} is now ${account.status}.`,
  };
}

export const accountFunctions = {
  list_accounts: operatorFunction({
    summary:
      'Accounts, newest first, 50 a page, with both channels’ available balances; `query` matches an exact id, mobile or email, or part of the name.',
    input: z.object({ query: optionalText, cursor }),
    answer: answerOf<{ accounts: AccountSummary[]; next_cursor: string }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'account list',
        summary: 'accounts, newest first, 50 a page, with their status',
        human: ({ accounts, next_cursor }) =>
          pageLines(
            accounts.map((a) => `${a.id}  ${a.status.padEnd(9)}  ${a.name}`),
            'No accounts.',
            next_cursor,
          ),
      },
    ],
  }),
  create_account: operatorFunction({
    summary:
      'Creates an active account with both channels; with `token`, issues its first token (shown once).',
    input: z.object({
      name: z.string().trim().min(1).max(100),
      mobile: optionalText,
      email: optionalText,
      agent_name: optionalText,
      agent_number: optionalText,
      store_number: optionalText,
      token: tokenMode.optional(),
    }),
    answer: answerOf<{ account: AccountView; token?: IssuedToken }>(),
    access: 'change',
    reauthenticate: (input) => input.token !== undefined,
    cli: [
      {
        command: 'account create',
        summary: 'creates an account and issues its first token (shown once)',
        options: { token: 'mode' },
        defaults: { token: 'test' },
        json: ({ account, token }) => ({
          account: account.id,
          token: token?.token,
          tokenId: token?.token_id,
        }),
        human: ({ account, token }) =>
          `Created account ${account.id} (${account.name}).` +
          (token === undefined ? '' : `\nAPI token (shown only now): ${token.token}`),
      },
    ],
  }),
  set_account_status: operatorFunction({
    summary: 'Suspends (`6000`), resumes or closes an account; closing is final.',
    input: z.object({ account: id, status: z.enum(['active', 'suspended', 'closed']) }),
    answer: answerOf<{ account: AccountView }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      statusChange('account suspend', 'suspended', 'suspends an account: its calls answer 6000'),
      statusChange('account resume', 'active', 'resumes a suspended account'),
      statusChange('account close', 'closed', 'closes an account for good'),
    ],
  }),
  list_tokens: operatorFunction({
    summary: 'The account’s API tokens: id, prefix, mode, and when revoked.',
    input: z.object({ account: id }),
    answer: answerOf<{ tokens: TokenView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'token list',
        summary: 'the account’s tokens: id, prefix, mode, whether revoked',
        json: ({ tokens }) => tokens,
        human: ({ tokens }) =>
          pageLines(
            tokens.map((t) => `${t.id}  ${t.prefix}…  ${t.mode}  ${t.revoked === '' ? 'active' : 'revoked'}`),
            'No tokens.',
          ),
      },
    ],
  }),
  issue_token: operatorFunction({
    summary: 'Issues an API token, shown this once and stored only as a SHA-256 hash.',
    input: z.object({ account: id, mode: tokenMode.default('test') }),
    answer: answerOf<IssuedToken>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'token issue',
        summary: 'issues a token (shown once; stored as a SHA-256 hash)',
        json: ({ token_id, token }) => ({ tokenId: token_id, token }),
        human: ({ token_id, token }) => `Issued token ${token_id}.\nAPI token (shown only now): ${token}`,
      },
    ],
  }),
  revoke_token: operatorFunction({
    summary: 'Revokes a token; revoking it again changes nothing.',
    input: z.object({ token_id: id }),
    answer: answerOf<{ token_id: string; revoked: boolean }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      {
        command: 'token revoke',
        summary: 'revokes a token',
        json: ({ token_id, revoked }) => ({ tokenId: token_id, revoked }),
        human: ({ token_id }) => `Revoked token ${token_id}.`,
      },
    ],
  }),
  channel_balances: operatorFunction({
    summary: 'Both channels’ available and pending balances.',
    input: z.object({ account: id }),
    answer: answerOf<{ channels: ChannelBalanceView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'channel balance',
        summary: 'both channels’ available and pending balances',
        json: ({ channels }) => channels,
        human: ({ channels }) =>
          channels
            .map((b) => `${b.channel.padEnd(7)}  available KES ${b.available}  pending KES ${b.pending}`)
            .join('\n'),
      },
    ],
  }),
};
