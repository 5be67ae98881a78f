// The shared failure counter: one Redis key per client, counting failure slots and expiring with its
// window, so every server process refuses a client that failed too often on any of them. Taking and giving
// back a slot are each one script, so processes racing on one client can never count past the limit.

import { openRedisConnection } from './redis-connection.js';
import type { AuthenticationFailureLimiter, FailureLimitSettings } from './authentication-failure-limiter.js';

// KEYS[1] the client's counter; ARGV[1] the limit, ARGV[2] the window in ms. A window starts when a slot
// is taken with none held. Answers {1, 0} with a slot taken, or {0, ms left in the window} when the client is locked.
const reserveScript = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, 0}
`;

// KEYS[1] the client's counter. A counter whose window ended meanwhile took its slots with it, so a
// release never brings one back, and never counts below zero.
const releaseScript = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return count
`;

/** The failure counter in Redis at `url`. */
export function createRedisAuthenticationFailureLimiter(
  url: string,
  settings: FailureLimitSettings,
  prefix = 'topup:auth-failures:',
): AuthenticationFailureLimiter {
  const connection = openRedisConnection(url);
  const windowMs = settings.windowSeconds * 1000;
  return {
    async reserve(key) {
      const [allowed, ttlMs] = (await connection.run((redis) =>
        redis.eval(reserveScript, 1, `${prefix}${key}`, settings.failures, windowMs),
      )) as [number, number];
      if (allowed === 1) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
    async release(key) {
      await connection.run((redis) => redis.eval(releaseScript, 1, `${prefix}${key}`));
    },
    ping: () => connection.ping(),
    close: () => connection.close(),
  };
}
