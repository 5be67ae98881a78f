// The shared token-bucket store: one Lua script in Redis, so every server process draws from the same
// bucket atomically. Redis time is used, not each process's clock.

import { openRedisConnection } from './redis-connection.js';
import type { BucketSettings, RateLimiter } from './rate-limiter.js';

// KEYS[1] bucket key; ARGV: perSecond, burst. Returns { allowed (0|1), retryAfterSeconds }.
const takeScript = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local perSecond = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(state[1]) or burst
local updated = tonumber(state[2]) or nowMs
tokens = math.min(burst, tokens + math.max(0, nowMs - updated) / 1000 * perSecond)
local allowed = 0
local retryAfter = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retryAfter = math.max(1, math.ceil((1 - tokens) / perSecond))
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(nowMs))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / perSecond * 1000) + 1000)
return { allowed, retryAfter }
`;

export function createRedisRateLimiter(
  url: string,
  settings: BucketSettings,
  prefix = 'topup:rate:',
): RateLimiter {
  const connection = openRedisConnection(url);
  return {
    async take(key) {
      const [allowed, retryAfter] = (await connection.run((redis) =>
        redis.eval(takeScript, 1, `${prefix}${key}`, settings.perSecond, settings.burst),
      )) as [number, number];
      return { allowed: allowed === 1, retryAfterSeconds: retryAfter };
    },
    ping: () => connection.ping(),
    close: () => connection.close(),
  };
}
