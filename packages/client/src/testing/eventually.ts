// Waiting in tests for something another process part does later (a callback arriving).

import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `find` until it returns a value, or fails after `timeoutMs` naming what was awaited. */
export async function eventually<T>(what: string, find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Expected ${what} within ${timeoutMs} ms, received nothing.`);
    await sleep(20);
  }
}
