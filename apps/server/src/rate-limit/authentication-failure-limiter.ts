// Failed authentications per client address: after `failures` of them within a window of `windowSeconds`,
// the address is refused (5000 with HTTP 429) until the window ends, whatever token it presents next, so
// tokens cannot be found by guessing. Counted in process memory here; in Redis (shared by every server
// process) when REDIS_URL is set.

import type { RateDecision } from './rate-limiter.js';

export interface AuthenticationFailureLimiter {
  /** Whether the address may try to authenticate now; when not, whole seconds until it may. */
  check(address: string): Promise<RateDecision>;
  /** Counts one failed authentication from the address. */
  recordFailure(address: string): Promise<void>;
  /** Resolves when the limiter's store can answer (always, in memory); for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface FailureLimitSettings {
  readonly failures: number;
  readonly windowSeconds: number;
}

interface FailureWindow {
  count: number;
  endsMs: number;
}

/** The in-process failure counter: a fixed window per address, forgotten once it ends. */
export function createMemoryAuthenticationFailureLimiter(
  settings: FailureLimitSettings,
  now: () => number = Date.now,
): AuthenticationFailureLimiter {
  const windows = new Map<string, FailureWindow>();
  const windowMs = settings.windowSeconds * 1000;
  let lastSweepMs = now();

  // Every address that ever failed would otherwise stay in memory.
  function sweep(nowMs: number): void {
    if (nowMs - lastSweepMs < windowMs) return;
    for (const [address, window] of windows) if (window.endsMs <= nowMs) windows.delete(address);
    lastSweepMs = nowMs;
  }

  function current(address: string, nowMs: number): FailureWindow | undefined {
    const window = windows.get(address);
    return window === undefined || window.endsMs <= nowMs ? undefined : window;
  }

  return {
    check(address) {
      const nowMs = now();
      sweep(nowMs);
      const window = current(address, nowMs);
      if (window === undefined || window.count < settings.failures) {
        return Promise.resolve({ allowed: true, retryAfterSeconds: 0 });
      }
      return Promise.resolve({
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.endsMs - nowMs) / 1000)),
      });
    },
    recordFailure(address) {
      const nowMs = now();
      const window = current(address, nowMs);
      if (window === undefined) windows.set(address, { count: 1, endsMs: nowMs + windowMs });
      else window.count += 1;
      return Promise.resolve();
    },
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
