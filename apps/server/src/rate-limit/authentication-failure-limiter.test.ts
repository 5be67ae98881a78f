import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAuthenticationFailureLimiter } from './authentication-failure-limiter.js';
import type { AuthenticationFailureLimiter } from './authentication-failure-limiter.js';
import { createRedisAuthenticationFailureLimiter } from './redis-authentication-failure-limiter.js';

async function fail(limiter: AuthenticationFailureLimiter, key: string, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) {
    expect((await limiter.reserve(key)).allowed).toBe(true);
  }
}

/** How many of `count` simultaneous reservations got a slot. */
async function slotsTaken(limiters: readonly AuthenticationFailureLimiter[], key: string, count: number) {
  const decisions = await Promise.all(
    Array.from({ length: count }, (_, index) => limiters[index % limiters.length]!.reserve(key)),
  );
  return decisions.filter((decision) => decision.allowed).length;
}

describe('the in-memory authentication failure limiter', () => {
  it('locks a client once its slots are taken, until the window ends', async () => {
    let now = 0;
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 3, windowSeconds: 60 }, () => now);
    await fail(limiter, '192.0.2.1', 3);
    now = 15_000;
    expect(await limiter.reserve('192.0.2.1')).toEqual({ allowed: false, retryAfterSeconds: 45 });
    now = 60_000;
    expect(await limiter.reserve('192.0.2.1')).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it('gives a slot back on release, so valid authentications never lock a client', async () => {
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 2, windowSeconds: 60 }, () => 0);
    for (let request = 0; request < 10; request += 1) {
      expect((await limiter.reserve('192.0.2.1')).allowed).toBe(true);
      await limiter.release('192.0.2.1');
    }
    await fail(limiter, '192.0.2.1', 2);
    expect((await limiter.reserve('192.0.2.1')).allowed).toBe(false);
  });

  it('hands out no more slots than the limit to 200 simultaneous reservations', async () => {
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 20, windowSeconds: 60 });
    expect(await slotsTaken([limiter], '192.0.2.1', 200)).toBe(20);
  });

  it('counts each client on its own', async () => {
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 1, windowSeconds: 60 }, () => 0);
    await fail(limiter, '192.0.2.1', 1);
    expect((await limiter.reserve('192.0.2.1')).allowed).toBe(false);
    expect((await limiter.reserve('192.0.2.2')).allowed).toBe(true);
  });

  it('starts a new window, with a fresh count, once the old one has ended, and releases nothing into it', async () => {
    let now = 0;
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 2, windowSeconds: 1 }, () => now);
    await fail(limiter, '192.0.2.1', 2);
    now = 1_000;
    await limiter.release('192.0.2.1');
    await fail(limiter, '192.0.2.1', 2);
    expect((await limiter.reserve('192.0.2.1')).allowed).toBe(false);
  });
});

const redisUrl = process.env.REDIS_URL_FOR_TESTS;

describe.runIf(redisUrl !== undefined && redisUrl !== '')('the Redis authentication failure limiter', () => {
  const limiters: AuthenticationFailureLimiter[] = [];
  afterAll(async () => {
    await Promise.all(limiters.map((limiter) => limiter.close()));
  });

  /** Two limiters on one fresh prefix: two server processes sharing Redis. */
  function twoProcesses(failures: number, windowSeconds = 60) {
    const prefix = `topup:test:${randomBytes(6).toString('hex')}:`;
    const settings = { failures, windowSeconds };
    const pair = [
      createRedisAuthenticationFailureLimiter(redisUrl ?? '', settings, prefix),
      createRedisAuthenticationFailureLimiter(redisUrl ?? '', settings, prefix),
    ] as const;
    limiters.push(...pair);
    return pair;
  }

  it('refuses a client on every server process once failures on any of them reach the limit', async () => {
    const [first, second] = twoProcesses(3);
    await fail(first, '192.0.2.1', 2);
    await fail(second, '192.0.2.1', 1);
    const refused = await first.reserve('192.0.2.1');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect((await second.reserve('192.0.2.1')).allowed).toBe(false);
    expect((await first.reserve('192.0.2.2')).allowed).toBe(true);
  });

  it('hands out exactly the limit’s slots to 200 simultaneous reservations on two processes', async () => {
    const [first, second] = twoProcesses(20);
    expect(await slotsTaken([first, second], '192.0.2.1', 200)).toBe(20);
  });

  it('gives a slot back on release on any process, and never counts below zero', async () => {
    const [first, second] = twoProcesses(2);
    await second.release('192.0.2.1');
    for (let request = 0; request < 5; request += 1) {
      expect((await first.reserve('192.0.2.1')).allowed).toBe(true);
      await second.release('192.0.2.1');
    }
    await fail(first, '192.0.2.1', 2);
    expect((await second.reserve('192.0.2.1')).allowed).toBe(false);
  });

  it('lets a client try again once its window has passed', async () => {
    const [first] = twoProcesses(1, 1);
    await fail(first, '192.0.2.1', 1);
    expect((await first.reserve('192.0.2.1')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await first.reserve('192.0.2.1')).allowed).toBe(true);
  });
});
