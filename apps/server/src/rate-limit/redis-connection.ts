// The Redis connection both shared limiters use, and what its failure means. Redis being down must not
// look like a bug: every command failure becomes a RateLimitStoreUnavailable, which the envelope error
// handler answers 9000 with HTTP 503 and `Retry-After` (as for the database), and which fails /readyz.
// Commands fail fast rather than queue: a request waits at most `commandTimeoutMs` on the limiter.

import { Redis } from 'ioredis';

/** The rate-limit store (Redis) could not answer; the request was not evaluated. */
export class RateLimitStoreUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      `the rate-limit store (Redis) is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'RateLimitStoreUnavailable';
  }
}

export interface RedisConnection {
  /** Runs commands; any failure is rethrown as RateLimitStoreUnavailable. */
  run<T>(commands: (redis: Redis) => Promise<T>): Promise<T>;
  /** Resolves when Redis answers a PING; RateLimitStoreUnavailable otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const commandTimeoutMs = 2_000;

export function openRedisConnection(url: string): RedisConnection {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: commandTimeoutMs,
    commandTimeout: commandTimeoutMs,
  });
  // Connection errors are reported through the commands that fail; without a listener ioredis would
  // also print each reconnection attempt's error to the console.
  redis.on('error', () => undefined);
  const run = async <T>(commands: (client: Redis) => Promise<T>): Promise<T> => {
    try {
      return await commands(redis);
    } catch (error) {
      throw new RateLimitStoreUnavailable(error);
    }
  };
  return {
    run,
    async ping() {
      await run((client) => client.ping());
    },
    async close() {
      // `quit` waits for a reply that a Redis that is down never sends.
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}
