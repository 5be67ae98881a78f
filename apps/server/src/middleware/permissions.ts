// What an authenticated, valid request may do (5000 with HTTP 403): a token works only against a service
// of its own mode, so test traffic can never reach live money and the reverse.

import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, CallerState } from '../api-state.js';

export function permissions(mode: 'sandbox' | 'live'): Middleware<ApiState & CallerState> {
  const expected = mode === 'live' ? 'live' : 'test';
  return (ctx, next) => {
    if (ctx.state.tokenMode !== expected) {
      throw new ApiFailure('5000', [
        `a ${ctx.state.tokenMode} token cannot be used against a ${mode} service; use a tk_${expected}_ token`,
      ]);
    }
    return next();
  };
}
