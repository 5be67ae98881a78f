import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';
import { takeFromBucket } from './rate-limiter.js';
import { createRedisRateLimiter } from './redis-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

describe('the token bucket', () => {
  it('allows a burst, then refuses until tokens refill', () => {
    const bucket = { tokens: 2, updatedMs: 0 };
    const settings = { perSecond: 1, burst: 2 };
    expect(takeFromBucket(bucket, 0, settings).allowed).toBe(true);
    expect(takeFromBucket(bucket, 0, settings).allowed).toBe(true);
    expect(takeFromBucket(bucket, 0, settings)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(takeFromBucket(bucket, 1_000, settings).allowed).toBe(true);
  });

  it('never refills beyond the burst', () => {
    const bucket = { tokens: 0, updatedMs: 0 };
    const settings = { perSecond: 10, burst: 3 };
    takeFromBucket(bucket, 60_000, settings);
    expect(bucket.tokens).toBe(2);
  });

  it('tells how many whole seconds until the next token', () => {
    const bucket = { tokens: 0, updatedMs: 0 };
    expect(takeFromBucket(bucket, 0, { perSecond: 0.25, burst: 1 }).retryAfterSeconds).toBe(4);
  });
});

describe('the in-memory rate limiter', () => {
  it('keeps one bucket per key', async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter({ perSecond: 1, burst: 1 }, () => now);
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
    now = 1_000;
    expect((await limiter.take('a')).allowed).toBe(true);
  });
});

const redisUrl = process.env.REDIS_URL_FOR_TESTS;

describe.runIf(redisUrl !== undefined && redisUrl !== '')('the Redis rate limiter', () => {
  const limiters: RateLimiter[] = [];
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
  });

  it('enforces one limit across two server processes’ limiters', async () => {
    const prefix = `topup:test:${randomBytes(6).toString('hex')}:`;
    const settings = { perSecond: 0.5, burst: 3 };
    const first = createRedisRateLimiter(redisUrl ?? '', settings, prefix);
    const second = createRedisRateLimiter(redisUrl ?? '', settings, prefix);
    limiters.push(first, second);
    const decisions = [
      await first.take('token'),
      await second.take('token'),
      await first.take('token'),
      await second.take('token'),
    ];
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await first.take('another token')).allowed).toBe(true);
  });
});
