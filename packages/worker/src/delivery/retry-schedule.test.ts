import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS } from './retry-schedule.js';

const schedule = STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS;
const middle = () => 0.5;

describe('retryDelayMs', () => {
  it('follows the Standard Webhooks schedule without jitter at the middle of the range', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attemptsMade) =>
      retryDelayMs({ schedule, attemptsMade, slowDown: false, random: middle }),
    );
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('gives up after the last scheduled attempt', () => {
    expect(retryDelayMs({ schedule, attemptsMade: 8, slowDown: false })).toBeUndefined();
    expect(retryDelayMs({ schedule: [0, 1], attemptsMade: 2, slowDown: false })).toBeUndefined();
  });

  it('keeps the jitter within ±20 % of the scheduled delay', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attemptsMade, r) => {
          const scheduled = schedule[attemptsMade]! * 1000;
          const delay = retryDelayMs({ schedule, attemptsMade, slowDown: false, random: () => r })!;
          expect(delay).toBeGreaterThanOrEqual(Math.floor(scheduled * 0.8));
          expect(delay).toBeLessThanOrEqual(Math.ceil(scheduled * 1.2));
        },
      ),
    );
  });

  it('spreads retries across the jitter range', () => {
    const low = retryDelayMs({ schedule, attemptsMade: 1, slowDown: false, random: () => 0 });
    const high = retryDelayMs({ schedule, attemptsMade: 1, slowDown: false, random: () => 0.999999 });
    expect(low).toBe(4_000);
    expect(high).toBe(6_000);
  });

  it('waits at least 60 s after a 429 or a timeout with the default schedule', () => {
    expect(retryDelayMs({ schedule, attemptsMade: 1, slowDown: true, random: middle })).toBe(60_000);
    expect(retryDelayMs({ schedule, attemptsMade: 2, slowDown: true, random: middle })).toBe(300_000);
  });

  it('keeps the 60 s slow-down floor with a short schedule, unless a lower floor is set', () => {
    const short = [0, 1, 2, 3];
    expect(retryDelayMs({ schedule: short, attemptsMade: 1, slowDown: true, random: middle })).toBe(60_000);
    expect(
      retryDelayMs({
        schedule: short,
        attemptsMade: 1,
        slowDown: true,
        slowDownFloorSeconds: 0.5,
        random: middle,
      }),
    ).toBe(1_000);
    expect(
      retryDelayMs({
        schedule: short,
        attemptsMade: 1,
        slowDown: true,
        slowDownFloorSeconds: 2,
        random: middle,
      }),
    ).toBe(2_000);
  });

  it('honours Retry-After within one to two times the scheduled delay', () => {
    const at = (retryAfterSeconds: number) =>
      retryDelayMs({ schedule, attemptsMade: 2, slowDown: false, retryAfterSeconds, random: middle });
    expect(at(400)).toBe(400_000);
    expect(at(10)).toBe(300_000);
    expect(at(100_000)).toBe(600_000);
  });

  it('applies Retry-After on top of the slow-down floor', () => {
    expect(
      retryDelayMs({ schedule, attemptsMade: 1, slowDown: true, retryAfterSeconds: 90, random: middle }),
    ).toBe(90_000);
    expect(
      retryDelayMs({ schedule, attemptsMade: 1, slowDown: true, retryAfterSeconds: 500, random: middle }),
    ).toBe(120_000);
  });
});
