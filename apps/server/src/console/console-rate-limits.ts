// Rate limits of the console's API, like the API's per token: each session and each client address has a
// token bucket of RATE_LIMIT_PER_SECOND with bursts of RATE_LIMIT_BURST, so neither one busy tab nor many
// sessions from one address can run the console's queries at will. Signing in is left to the failed
// sign-in limit alone: a person locked out of the console's other calls must still be able to sign in.

import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { ApiState } from '../api-state.js';
import { failureCountKey } from '../rate-limit/failure-count-key.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ConsoleFailure } from './console-failure.js';
import { sessionIdOf } from './session-cookie.js';

const signInPath = '/console/api/session/sign-in';

export function consoleRateLimits(limiter: RateLimiter): Middleware<ApiState> {
  return async (ctx, next) => {
    if (ctx.path !== signInPath) {
      const sessionId = sessionIdOf(ctx);
      // Keyed by a hash: a session id is a secret, and the buckets may live in Redis.
      const keys = [
        `console-address:${failureCountKey(ctx.ip)}`,
        ...(sessionId === undefined
          ? []
          : [`console-session:${createHash('sha256').update(sessionId).digest('base64url')}`]),
      ];
      for (const key of keys) {
        const decision = await limiter.take(key);
        if (!decision.allowed) {
          ctx.set('Retry-After', String(decision.retryAfterSeconds));
          throw new ConsoleFailure(429, 'rate_limited', 'Too many requests; wait a moment and try again.');
        }
      }
    }
    await next();
  };
}
