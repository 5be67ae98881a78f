// When a failed callback is tried again (DESIGN.md section 6): the Standard Webhooks schedule with ±20 %
// jitter, a floor after a 429 or a timeout (the receiver asked us, or showed us, to slow down), and a
// `Retry-After` honoured within [1×, 2×] the scheduled delay so a receiver cannot stall a callback forever.

/** Delays before each attempt, in seconds: the first attempt is immediate (Standard Webhooks). */
export const STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000,
];

/** The floor after a 429 or a timeout with the default schedule. */
const SLOW_DOWN_FLOOR_SECONDS = 60;
const JITTER = 0.2;

export interface RetryDelayInput {
  /** Delay before each attempt in seconds; its length is the number of attempts. */
  readonly schedule: readonly number[];
  /** Attempts made so far, counting the one that just failed. */
  readonly attemptsMade: number;
  /** The attempt failed with a 429 or timed out. */
  readonly slowDown: boolean;
  /** A `Retry-After` the receiver sent, in seconds. */
  readonly retryAfterSeconds?: number | undefined;
  /** A number in [0, 1); `Math.random` by default. */
  readonly random?: () => number;
}

/**
 * The floor after a 429 or a timeout: 60 s, scaled down to the longest configured delay when the schedule
 * is shorter than that, so a test schedule of a few seconds is not stretched to minutes.
 */
export function slowDownFloorSeconds(schedule: readonly number[]): number {
  return Math.min(SLOW_DOWN_FLOOR_SECONDS, Math.max(0, ...schedule));
}

/** Milliseconds to wait before the next attempt, or `undefined` when the schedule is exhausted. */
export function retryDelayMs(input: RetryDelayInput): number | undefined {
  const scheduled = input.schedule[input.attemptsMade];
  if (scheduled === undefined) return undefined;
  const random = input.random ?? Math.random;
  let delaySeconds = scheduled * (1 - JITTER + 2 * JITTER * random());
  if (input.slowDown) delaySeconds = Math.max(delaySeconds, slowDownFloorSeconds(input.schedule));
  if (input.retryAfterSeconds !== undefined) {
    delaySeconds = Math.min(Math.max(input.retryAfterSeconds, delaySeconds), 2 * delaySeconds);
  }
  return Math.round(delaySeconds * 1000);
}
