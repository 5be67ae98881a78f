// The shared failure counter: one Redis key per client address, counting failures and expiring with its
// window, so every server process refuses an address that failed too often on any of them.

import { openRedisConnection } from './redis-connection.js';
import type { AuthenticationFailureLimiter, FailureLimitSettings } from './authentication-failure-limiter.js';

// KEYS[1] the address's counter; ARGV[1] the window in ms. The window starts at the first failure.
const recordScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
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
    async check(address) {
      const [count, ttlMs] = await connection.run((redis) =>
        Promise.all([redis.get(`${prefix}${address}`), redis.pttl(`${prefix}${address}`)]),
      );
      if (count === null || Number(count) < settings.failures) return { allowed: true, retryAfterSeconds: 0 };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
    async recordFailure(address) {
      await connection.run((redis) => redis.eval(recordScript, 1, `${prefix}${address}`, windowMs));
    },
    ping: () => connection.ping(),
    close: () => connection.close(),
  };
}
