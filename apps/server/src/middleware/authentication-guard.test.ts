import { randomBytes } from 'node:crypto';
import type { AuthenticatedToken } from '@topup/ledger';
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../api-failure.js';
import { createMemoryAuthenticationFailureLimiter } from '../rate-limit/authentication-failure-limiter.js';
import { createRedisAuthenticationFailureLimiter } from '../rate-limit/redis-authentication-failure-limiter.js';
import { createAuthenticationGuard } from './authentication-guard.js';

const validToken = `tk_test_${'V'.repeat(32)}`;
const session = { tokenId: 'tok_1', mode: 'test' } as unknown as AuthenticatedToken;

/** A ledger that knows one token, counts its lookups and how many run at once, and answers after a tick. */
function fakeLedger() {
  const stats = { lookups: 0, running: 0, mostAtOnce: 0 };
  return {
    stats,
    async authenticate(token: string): Promise<AuthenticatedToken | undefined> {
      stats.lookups += 1;
      stats.running += 1;
      stats.mostAtOnce = Math.max(stats.mostAtOnce, stats.running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      stats.running -= 1;
      return token === validToken ? session : undefined;
    },
  };
}

function guardWith(failures: number) {
  const ledger = fakeLedger();
  const limiter = createMemoryAuthenticationFailureLimiter({ failures, windowSeconds: 60 });
  return { ledger, limiter, guard: createAuthenticationGuard(ledger, limiter) };
}

/** `200 0000` for a session, else the failure's HTTP status and code. */
async function answerOf(attempt: Promise<AuthenticatedToken>): Promise<string> {
  try {
    await attempt;
    return '200 0000';
  } catch (error) {
    if (error instanceof ApiFailure) return `${error.httpStatus} ${error.code}`;
    throw error;
  }
}

function guess(index: number): string {
  return `tk_test_${String(index).padStart(32, 'x')}`;
}

function tally(answers: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) counts[answer] = (counts[answer] ?? 0) + 1;
  return counts;
}

describe('authentication inside the failure limit', () => {
  it('answers exactly the limit of 200 simultaneous guesses from one client with 4000, the rest with 429', async () => {
    const { guard } = guardWith(20);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => answerOf(guard.authenticate(guess(index), '192.0.2.1'))),
    );
    expect(tally(answers)).toEqual({ '401 4000': 20, '429 5000': 180 });
  });

  it('serves a valid token from a locked client, and answers its failures 5000 with Retry-After', async () => {
    const { guard } = guardWith(3);
    for (let index = 0; index < 3; index += 1) {
      expect(await answerOf(guard.authenticate(guess(index), '192.0.2.1'))).toBe('401 4000');
    }
    const refused = await guard.authenticate(guess(3), '192.0.2.1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiFailure);
    expect((refused as ApiFailure).headers['Retry-After']).toMatch(/^\d+$/);
    expect(await guard.authenticate(validToken, '192.0.2.1')).toBe(session);
    expect(await answerOf(guard.authenticate(guess(4), '192.0.2.2'))).toBe('401 4000');
  });

  it('serves 200 simultaneous requests of a valid token new to it from one client, leaving no failure behind', async () => {
    const { guard, limiter } = guardWith(20);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => answerOf(guard.authenticate(validToken, '192.0.2.1'))),
    );
    expect(tally(answers)).toEqual({ '200 0000': 200 });
    for (let slot = 0; slot < 20; slot += 1) expect((await limiter.reserve('192.0.2.1')).allowed).toBe(true);
  });

  it('refuses a token it found invalid without looking it up again, counting each failure', async () => {
    const { guard, ledger } = guardWith(3);
    const wrong = guess(1);
    const answers: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      answers.push(await answerOf(guard.authenticate(wrong, '192.0.2.1')));
    }
    expect(answers).toEqual(['401 4000', '401 4000', '401 4000', '429 5000', '429 5000']);
    expect(ledger.stats.lookups).toBe(1);
  });

  it('looks a locked client’s new tokens up one at a time, however many arrive at once', async () => {
    const { guard, ledger } = guardWith(1);
    await answerOf(guard.authenticate(guess(0), '192.0.2.1'));
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, (_, index) =>
        answerOf(guard.authenticate(guess(index + 1), '192.0.2.1')),
      ),
      answerOf(guard.authenticate(validToken, '192.0.2.1')),
    ]);
    expect(tally(answers)).toEqual({ '429 5000': 50, '200 0000': 1 });
    expect(ledger.stats.mostAtOnce).toBe(1);
  });

  it('counts a request without a usable token as a failure', async () => {
    const { guard } = guardWith(2);
    const problem = 'the Authorization header is missing';
    expect(await answerOf(guard.refuse(problem, '192.0.2.1'))).toBe('401 4000');
    expect(await answerOf(guard.refuse(problem, '192.0.2.1'))).toBe('401 4000');
    expect(await answerOf(guard.refuse(problem, '192.0.2.1'))).toBe('429 5000');
    expect(await guard.authenticate(validToken, '192.0.2.1')).toBe(session);
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const { guard } = guardWith(2);
    expect(await answerOf(guard.authenticate(guess(1), '2001:db8:1:2::a'))).toBe('401 4000');
    expect(await answerOf(guard.authenticate(guess(2), '2001:db8:1:2::b'))).toBe('401 4000');
    expect(await answerOf(guard.authenticate(guess(3), '2001:db8:1:2:ffff::1'))).toBe('429 5000');
    expect(await answerOf(guard.authenticate(guess(4), '2001:db8:1:3::a'))).toBe('401 4000');
  });

  it('gives the slot back when the store fails during the lookup, answering with the store’s error', async () => {
    const limiter = createMemoryAuthenticationFailureLimiter({ failures: 1, windowSeconds: 60 });
    const guard = createAuthenticationGuard(
      { authenticate: () => Promise.reject(new Error('store unavailable')) },
      limiter,
    );
    await expect(guard.authenticate(validToken, '192.0.2.1')).rejects.toThrow('store unavailable');
    await expect(guard.authenticate(validToken, '192.0.2.1')).rejects.toThrow('store unavailable');
    expect((await limiter.reserve('192.0.2.1')).allowed).toBe(true);
  });
});

const redisUrl = process.env.REDIS_URL_FOR_TESTS;

describe.runIf(redisUrl !== undefined && redisUrl !== '')(
  'authentication inside a shared failure limit',
  () => {
    it('answers exactly the limit of 200 simultaneous guesses on two server processes with 4000', async () => {
      const prefix = `topup:test:${randomBytes(6).toString('hex')}:`;
      const limiters = [0, 1].map(() =>
        createRedisAuthenticationFailureLimiter(redisUrl ?? '', { failures: 20, windowSeconds: 60 }, prefix),
      );
      try {
        const guards = limiters.map((limiter) => createAuthenticationGuard(fakeLedger(), limiter));
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, index) =>
            answerOf(guards[index % 2]!.authenticate(guess(index), '192.0.2.1')),
          ),
        );
        expect(tally(answers)).toEqual({ '401 4000': 20, '429 5000': 180 });
        expect(await guards[0]!.authenticate(validToken, '192.0.2.1')).toBe(session);
      } finally {
        await Promise.all(limiters.map((limiter) => limiter.close()));
      }
    });
  },
);
