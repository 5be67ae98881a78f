import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryDelayMs } from './backoff.js';
import type { RetryPolicy } from './backoff.js';

const policies = fc
  .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 60_000 }))
  .map(([baseDelayMs, extra]): RetryPolicy => ({
    attempts: 10,
    baseDelayMs,
    maxDelayMs: baseDelayMs + extra,
  }));
const randoms = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const retries = fc.integer({ min: 1, max: 60 });

describe('backoffDelayMs', () => {
  it('stays between zero and min(maxDelayMs, baseDelayMs × 2^(retry − 1))', () => {
    fc.assert(
      fc.property(retries, policies, randoms, (retry, policy, random) => {
        const delay = backoffDelayMs(retry, policy, () => random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1)));
      }),
    );
  });

  it('doubles its bound with each retry until the longest wait', () => {
    const policy = { attempts: 10, baseDelayMs: 100, maxDelayMs: 1000 };
    const nearlyOne = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelayMs(retry, policy, nearlyOne))).toStrictEqual([
      99, 199, 399, 799, 999, 999,
    ]);
  });

  it('spreads waits over the whole range (full jitter)', () => {
    const policy = { attempts: 3, baseDelayMs: 1000, maxDelayMs: 1000 };
    expect(backoffDelayMs(1, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(1, policy, () => 0.5)).toBe(500);
  });
});

describe('retryDelayMs', () => {
  it('is the jittered backoff when there is no Retry-After', () => {
    const policy = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5000 };
    expect(retryDelayMs(2, policy, undefined, () => 0.25)).toBe(100);
  });

  it('waits at least Retry-After and never longer than the longest wait', () => {
    fc.assert(
      fc.property(
        retries,
        policies,
        randoms,
        fc.integer({ min: 0, max: 120 }),
        (retry, policy, random, seconds) => {
          const delay = retryDelayMs(retry, policy, seconds, () => random);
          if (seconds * 1000 > policy.maxDelayMs) {
            expect(delay).toBeUndefined();
          } else {
            expect(delay).toBeGreaterThanOrEqual(seconds * 1000);
            expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
          }
        },
      ),
    );
  });
});
