// The in-process token-bucket store: enough for one server process.

import type { BucketSettings, RateLimiter } from './rate-limiter.js';
import { takeFromBucket } from './rate-limiter.js';

/** Buckets idle this long are full again, so they are forgotten to bound memory. */
const idleForgetMs = 60_000;

export function createMemoryRateLimiter(settings: BucketSettings, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; updatedMs: number }>();
  let lastSweepMs = now();
  return {
    take(key) {
      const nowMs = now();
      if (nowMs - lastSweepMs > idleForgetMs) {
        for (const [name, bucket] of buckets)
          if (nowMs - bucket.updatedMs > idleForgetMs) buckets.delete(name);
        lastSweepMs = nowMs;
      }
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        bucket = { tokens: settings.burst, updatedMs: nowMs };
        buckets.set(key, bucket);
      }
      return Promise.resolve(takeFromBucket(bucket, nowMs, settings));
    },
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
