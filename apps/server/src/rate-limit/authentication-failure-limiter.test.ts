import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAuthenticationFailureLimiter } from './authentication-failure-limiter.js';
import type { AuthenticationFailureLimiter } from './authentication-failure-limiter.js';
import { createRedisAuthenticationFailureLimiter } from './redis-authentication-failure-limiter.js';

async function fail(limiter: AuthenticationFailureLimiter, address: string, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) await limiter.recordFailure(address);
}

describe('the in-memory authentication failure limiter', () => {
  it('refuses an address after its limit of failures until the window ends', async () => {
    let now = 0;
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 3, windowSeconds: 60 }, () => now);
    await fail(limiter, '192.0.2.1', 2);
    expect(await limiter.check('192.0.2.1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
    await fail(limiter, '192.0.2.1', 1);
    now = 15_000;
    expect(await limiter.check('192.0.2.1')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    now = 60_000;
    expect(await limiter.check('192.0.2.1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it('counts each address on its own', async () => {
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 1, windowSeconds: 60 }, () => 0);
    await fail(limiter, '192.0.2.1', 1);
    expect((await limiter.check('192.0.2.1')).allowed).toBe(false);
    expect((await limiter.check('192.0.2.2')).allowed).toBe(true);
  });

  it('starts a new window, with a fresh count, once the old one has ended', async () => {
    let now = 0;
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 2, windowSeconds: 1 }, () => now);
    await fail(limiter, '192.0.2.1', 1);
    now = 1_000;
    await fail(limiter, '192.0.2.1', 1);
    expect((await limiter.check('192.0.2.1')).allowed).toBe(true);
  });
});

const redisUrl = process.env.REDIS_URL_FOR_TESTS;

describe.runIf(redisUrl !== undefined && redisUrl !== '')('the Redis authentication failure limiter', () => {
  const limiters: AuthenticationFailureLimiter[] = [];
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
  });

  it('refuses an address on every server process once failures on any of them reach the limit', async () => {
    const prefix = `topup:test:${randomBytes(6).toString('hex')}:`;
    const settings = { failures: 3, windowSeconds: 60 };
    const first = createRedisAuthenticationFailureLimiter(redisUrl ?? '', settings, prefix);
    const second = createRedisAuthenticationFailureLimiter(redisUrl ?? '', settings, prefix);
    limiters.push(first, second);
    await fail(first, '192.0.2.1', 2);
    expect((await second.check('192.0.2.1')).allowed).toBe(true);
    await fail(second, '192.0.2.1', 1);
    const refused = await first.check('192.0.2.1');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect((await first.check('192.0.2.2')).allowed).toBe(true);
  });
});
