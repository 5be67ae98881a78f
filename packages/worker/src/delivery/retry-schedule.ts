// When a failed callback is tried again (docs/architecture.md, Callbacks): the Standard Webhooks schedule with ±20 %
// jitter, a floor after a 429 or a timeout (the receiver asked us, or showed us, to slow down: 60 s, a
// setting of its own, so a short schedule does not lower it), and a `Retry-After` honoured within [1×, 2×]
// the scheduled delay so a receiver cannot stall a callback forever.

/** One entry per attempt, in seconds: 0 for the immediate first, then the delay before each retry. */
export const STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000,
];

/** The least wait after a 429 or a timeout, in seconds (docs/architecture.md, Callbacks). */
export const SLOW_DOWN_FLOOR_SECONDS = 60;
const JITTER = 0.2;

export interface RetryDelayInput {
  /**
   * One entry per attempt, in seconds: the first (0) is the immediate first attempt, which is never
   * scheduled here; entry n is the delay before attempt n + 1. Its length is the number of attempts.
   */
  readonly schedule: readonly number[];
  /** Attempts made so far, counting the one that just failed. */
  readonly attemptsMade: number;
  /** The attempt failed with a 429 or timed out. */
  readonly slowDown: boolean;
  /** The least delay after a slow-down, in seconds; `SLOW_DOWN_FLOOR_SECONDS` by default. */
  readonly slowDownFloorSeconds?: number;
  /** A `Retry-After` the receiver sent, in seconds. */
  readonly retryAfterSeconds?: number | undefined;
  /** A number in [0, 1); `Math.random` by default. */
  readonly random?: () => number;
}

/** Milliseconds to wait before the next attempt, or `undefined` when the schedule is exhausted. */
export function retryDelayMs(input: RetryDelayInput): number | undefined {
  const scheduled = input.schedule[input.attemptsMade];
  if (scheduled === undefined) return undefined;
  const random = input.random ?? Math.random;
  let delaySeconds = scheduled * (1 - JITTER + 2 * JITTER * random());
  if (input.slowDown) {
    delaySeconds = Math.max(delaySeconds, input.slowDownFloorSeconds ?? SLOW_DOWN_FLOOR_SECONDS);
  }
  if (input.retryAfterSeconds !== undefined) {
    delaySeconds = Math.min(Math.max(input.retryAfterSeconds, delaySeconds), 2 * delaySeconds);
  }
  return Math.round(delaySeconds * 1000);
}
