// Bearer-token authentication (4000 with 401 and `WWW-Authenticate: Bearer`) and the account status check
// (6000 for a suspended or closed account). An unknown and a revoked token get the same answer. Every
// failure counts against the client's authentication-failure limit (middleware/authentication-guard),
// which answers a locked client's failures 5000 with 429. Whether the token may be used here at all (its
// mode) is a permission, checked later (middleware/permissions).

import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, CallerState } from '../api-state.js';
import type { AuthenticationGuard } from './authentication-guard.js';

// RFC 7235: the scheme is case-insensitive (`bearer`, `BEARER`), and one or more spaces follow it.
const bearer = /^Bearer +([A-Za-z0-9_]{1,200})$/i;

/** Sets the caller (`CallerState`) for every later stage, or answers 4000 (5000/429 when locked). */
export function authentication(guard: AuthenticationGuard): Middleware<ApiState & CallerState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '') {
      return guard.refuse('the Authorization header is missing; expected "Bearer <API_TOKEN>"', ctx.ip);
    }
    const token = bearer.exec(header)?.[1];
    if (token === undefined) {
      return guard.refuse('the Authorization header is not of the form "Bearer <API_TOKEN>"', ctx.ip);
    }
    const budget = ctx.state.storeBudget;
    const session = await guard.authenticate(token, ctx.ip, (call) => budget.spend(call));
    ctx.state.account = session.account;
    ctx.state.tokenId = session.tokenId;
    ctx.state.tokenMode = session.mode;
    await next();
  };
}

export function activeAccount(): Middleware<ApiState & CallerState> {
  return (ctx, next) => {
    const status = ctx.state.account.status;
    if (status !== 'active') throw new ApiFailure('6000', [`the account is ${status}`]);
    return next();
  };
}
