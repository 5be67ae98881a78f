// How long to wait before the next attempt: exponential backoff with full jitter (a uniform draw
// between zero and the exponential bound), so many clients failing together do not retry in step.
// A `Retry-After` from the service is a floor; when it asks for more than the policy's longest wait the
// call gives up instead of blocking for longer than the caller allowed.

/** The retry settings of a client, resolved from its options. */
export interface RetryPolicy {
  /** Most attempts per call, the first one included; 1 means no retries. */
  readonly attempts: number;
  /** Bound of the first retry's wait; each further retry doubles it. */
  readonly baseDelayMs: number;
  /** No wait is longer than this, whatever the exponent or `Retry-After`. */
  readonly maxDelayMs: number;
}

/**
 * The jittered wait before retry number `retry` (1 for the first retry): uniform in
 * [0, min(maxDelayMs, baseDelayMs × 2^(retry − 1))]. `random` returns a number in [0, 1).
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const bound = Math.min(policy.maxDelayMs, exponential);
  return Math.floor(random() * bound);
}

/**
 * The wait before retry number `retry`, honouring `Retry-After` as a floor; undefined when
 * `Retry-After` asks for more than `maxDelayMs`, which means: do not retry.
 */
export function retryDelayMs(
  retry: number,
  policy: RetryPolicy,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  const backoff = backoffDelayMs(retry, policy, random);
  if (retryAfterSeconds === undefined) return backoff;
  const requested = retryAfterSeconds * 1000;
  if (requested > policy.maxDelayMs) return undefined;
  return Math.max(requested, backoff);
}
