// Limits failed authentications per client address: an address over its limit is refused (5000 with 429
// and `Retry-After`) before its token is looked at, so a stream of guesses learns nothing; each `4000` the
// authentication below throws counts as one failure. A valid token from a refused address waits too:
// answering it differently would tell a guesser which guess was right.

import { alternateHttpStatus } from '@topup/envelope';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState } from '../api-state.js';
import type { AuthenticationFailureLimiter } from '../rate-limit/authentication-failure-limiter.js';

export function authenticationFailureLimit(limiter: AuthenticationFailureLimiter): Middleware<ApiState> {
  return async (ctx, next) => {
    const address = ctx.ip;
    const decision = await limiter.check(address);
    if (!decision.allowed) {
      throw new ApiFailure(
        '5000',
        ['too many failed authentications from this address; retry after the Retry-After delay'],
        {
          httpStatus: alternateHttpStatus.rateLimited,
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        },
      );
    }
    try {
      await next();
    } catch (error) {
      if (error instanceof ApiFailure && error.code === '4000') await limiter.recordFailure(address);
      throw error;
    }
  };
}
