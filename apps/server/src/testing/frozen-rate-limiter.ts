// A rate limiter for tests whose clock stands still, so its buckets never refill and a burst is exactly
// the bucket's size however slowly the test sends it.

import { createMemoryRateLimiter } from '../rate-limit/memory-rate-limiter.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

export function frozenRateLimiter(burst: number): RateLimiter {
  const frozenMs = Date.now();
  return createMemoryRateLimiter({ perSecond: 1, burst }, () => frozenMs);
}
