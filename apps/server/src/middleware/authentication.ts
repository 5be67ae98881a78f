// Bearer-token authentication (4000 with 401 and `WWW-Authenticate: Bearer`) and the account status check
// (6000 for a suspended or closed account). An unknown and a revoked token get the same answer.

import type { Ledger } from '@topup/ledger';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState } from '../api-state.js';

const bearer = /^Bearer ([A-Za-z0-9_]{1,200})$/;

function invalidToken(problem: string): ApiFailure {
  return new ApiFailure('4000', [problem], { headers: { 'WWW-Authenticate': 'Bearer' } });
}

export function authentication(ledger: Ledger, mode: 'sandbox' | 'live'): Middleware<ApiState> {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (header === '')
      throw invalidToken('the Authorization header is missing; expected "Bearer <API_TOKEN>"');
    const token = bearer.exec(header)?.[1];
    if (token === undefined)
      throw invalidToken('the Authorization header is not of the form "Bearer <API_TOKEN>"');
    const session = await ledger.authenticate(token);
    if (session === undefined) throw invalidToken('the API token is not valid');
    if ((session.mode === 'live') !== (mode === 'live')) {
      throw new ApiFailure('5000', [
        `a ${session.mode} token cannot be used against a ${mode} service; use a tk_${mode === 'live' ? 'live' : 'test'}_ token`,
      ]);
    }
    ctx.state.account = session.account;
    ctx.state.tokenId = session.tokenId;
    await next();
  };
}

export function activeAccount(): Middleware<ApiState> {
  return async (ctx, next) => {
    const status = ctx.state.account?.status;
    if (status !== 'active') throw new ApiFailure('6000', [`the account is ${status ?? 'unknown'}`]);
    await next();
  };
}
