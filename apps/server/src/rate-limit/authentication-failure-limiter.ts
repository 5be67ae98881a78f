// Failed authentications per client (rate-limit/failure-count-key): after `failures` of them within a
// window of `windowSeconds` the client is locked until the window ends, and its failed authentications
// are answered 5000 with HTTP 429 instead of 4000. Counted in process memory here; in Redis (shared by
// every server process) when REDIS_URL is set.
//
// A request takes a failure slot before its token is looked up and gives it back when the token is valid,
// so the count can never be outrun: however many guesses arrive at once, at most `failures` of them are
// looked up while the client is still unlocked.

import type { RateDecision } from './rate-limiter.js';

export interface AuthenticationFailureLimiter {
  /**
   * Takes one failure slot for `key` if it has one left (allowed; the slot is then counted as a failure
   * until `release` gives it back); when it has none, the client is locked and nothing is counted.
   */
  reserve(key: string): Promise<RateDecision>;
  /** Gives back a slot `reserve` took, once the authentication it was taken for has succeeded. */
  release(key: string): Promise<void>;
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

/** The in-process failure counter: a fixed window per client, started when a slot is taken with none held. */
export function createMemoryAuthenticationFailureLimiter(
  settings: FailureLimitSettings,
  now: () => number = Date.now,
): AuthenticationFailureLimiter {
  const windows = new Map<string, FailureWindow>();
  const windowMs = settings.windowSeconds * 1000;
  let lastSweepMs = now();

  // Every client that ever failed would otherwise stay in memory.
  function sweep(nowMs: number): void {
    if (nowMs - lastSweepMs < windowMs) return;
    for (const [key, window] of windows) if (window.endsMs <= nowMs) windows.delete(key);
    lastSweepMs = nowMs;
  }

  function current(key: string, nowMs: number): FailureWindow | undefined {
    const window = windows.get(key);
    return window === undefined || window.endsMs <= nowMs ? undefined : window;
  }

  return {
    reserve(key) {
      const nowMs = now();
      sweep(nowMs);
      const window = current(key, nowMs);
      if (window === undefined || window.count === 0) {
        windows.set(key, { count: 1, endsMs: nowMs + windowMs });
        return Promise.resolve({ allowed: true, retryAfterSeconds: 0 });
      }
      if (window.count < settings.failures) {
        window.count += 1;
        return Promise.resolve({ allowed: true, retryAfterSeconds: 0 });
      }
      return Promise.resolve({
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.endsMs - nowMs) / 1000)),
      });
    },
    release(key) {
      // A window that ended meanwhile took its slots with it.
      const window = current(key, now());
      if (window !== undefined && window.count > 0) window.count -= 1;
      return Promise.resolve();
    },
    ping: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}
