// Bearer-token authentication (4000 with 401 and `WWW-Authenticate: Bearer`) and the account status check
// (6000 for a suspended or closed account). An unknown and a revoked token get the same answer. Whether
// the token may be used here at all (its mode) is a permission, checked later (middleware/permissions).

import type { Ledger } from '@topup/ledger';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, CallerState } from '../api-state.js';

// RFC 7235: the scheme is case-insensitive (`bearer`, `BEARER`), and one or more spaces follow it.
const bearer = /^Bearer +([A-Za-z0-9_]{1,200})$/i;

function invalidToken(problem: string): ApiFailure {
  return new ApiFailure('4000', [problem], { headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** Sets the caller (`CallerState`) for every later stage, or answers 4000. */
export function authentication(ledger: Ledger): Middleware<ApiState & CallerState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '')
      throw invalidToken('the Authorization header is missing; expected "Bearer <API_TOKEN>"');
    const token = bearer.exec(header)?.[1];
    if (token === undefined)
      throw invalidToken('the Authorization header is not of the form "Bearer <API_TOKEN>"');
    const session = await ledger.authenticate(token);
    if (session === undefined) throw invalidToken('the API token is not valid');
    ctx.state.account = session.account;
    ctx.state.tokenId = session.tokenId;
    ctx.state.tokenMode = session.mode;
    await next();
  };
}

export function activeAccount(): Middleware<ApiState & CallerState> {
  return async (ctx, next) => {
    const status = ctx.state.account.status;
    if (status !== 'active') throw new ApiFailure('6000', [`the account is ${status}`]);
    await next();
  };
}
