// Waiting in tests: poll a probe until it yields a value, and fail naming what was awaited.

import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` every `intervalMs` until it returns something other than undefined. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Expected ${what} within ${timeoutMs} ms; it did not happen.`);
    await sleep(intervalMs);
  }
}
