// A token bucket per API token: `perSecond` tokens refill each second up to `burst`. One interface, two
// stores: process memory by default, Redis when many server processes must enforce one limit.

export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds until a request would be allowed; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
  /** Resolves when the limiter's store can answer (always, in memory); for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface BucketSettings {
  readonly perSecond: number;
  readonly burst: number;
}

/** The bucket arithmetic shared by both stores: refill, then take one token if there is one. */
export function takeFromBucket(
  bucket: { tokens: number; updatedMs: number },
  nowMs: number,
  settings: BucketSettings,
): RateDecision {
  const elapsedSeconds = Math.max(0, nowMs - bucket.updatedMs) / 1000;
  bucket.tokens = Math.min(settings.burst, bucket.tokens + elapsedSeconds * settings.perSecond);
  bucket.updatedMs = nowMs;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / settings.perSecond)),
  };
}
