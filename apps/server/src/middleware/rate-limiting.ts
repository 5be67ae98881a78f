// Per-token rate limit: 5000 with HTTP 429 and `Retry-After` once the token's bucket is empty.

import { alternateHttpStatus } from '@topup/envelope';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, CallerState } from '../api-state.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

export function rateLimiting(limiter: RateLimiter): Middleware<ApiState & CallerState> {
  return async (ctx, next) => {
    const decision = await limiter.take(ctx.state.tokenId);
    if (!decision.allowed) {
      throw new ApiFailure(
        '5000',
        ['rate limit exceeded for this token; retry after the Retry-After delay'],
        {
          httpStatus: alternateHttpStatus.rateLimited,
          headers: { 'Retry-After': String(decision.retryAfterSeconds) },
        },
      );
    }
    await next();
  };
}
