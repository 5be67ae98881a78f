// Handling each callback once. The service delivers at least once (a lost answer means a retry), and a
// captured callback can be replayed while its timestamp is within the receiver's tolerance. Both repeat the
// event's `key`. A key counts as handled only once its handler succeeded: a handler that fails leaves the
// key free, so the service's retry is handled again rather than answered as done and lost. A repeat that
// arrives while the first is being handled waits for it, and runs only if it failed. Kept in memory, per
// process, for `rememberSeconds`: a repeat after that (a retry 30 minutes or more later, when an answer was
// lost twice) is handled again, so a handler should also be idempotent by `transaction.reference`, or a
// receiver keep its keys in a durable store shared by its processes.

import { DEFAULT_TOLERANCE_SECONDS } from '@topup/signing';

/**
 * Runs `handle` for an event unless its key was already handled; resolves true when it ran and succeeded,
 * false for a repeat. Rejects with the handler's error when it failed, leaving the key free.
 *
 * @example
 * ```ts
 * import { createCallbackDeduplicator, parseCallback } from '@topup/client';
 *
 * const once = createCallbackDeduplicator();
 * declare const rawBody: Buffer, headers: Record<string, string>;
 * const event = parseCallback(rawBody, headers, process.env.TOPUP_CALLBACK_SECRET!);
 * const handled = await once(event, async () => {
 *   console.log('handle', event.kind === 'test' ? 'a test' : event.transaction.reference);
 * });
 * if (!handled) console.log('a retry or replay of a callback already handled');
 * ```
 */
export type CallbackDeduplicator = (
  event: { readonly key: string },
  handle: () => Promise<void> | void,
) => Promise<boolean>;

/**
 * Options of `createCallbackDeduplicator`.
 *
 * @example
 * ```ts
 * import { createCallbackDeduplicator, type CallbackDeduplicatorOptions } from '@topup/client';
 *
 * const options: CallbackDeduplicatorOptions = { rememberSeconds: 3_600 };
 * const once = createCallbackDeduplicator(options);
 * ```
 */
export interface CallbackDeduplicatorOptions {
  /**
   * How long a handled key is remembered, in seconds; default twice the signature tolerance (600 s), so a
   * replay whose timestamp still verifies is always recognised.
   */
  readonly rememberSeconds?: number;
  /** The clock, in milliseconds; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A de-duplicator that handles each key once: call it only once the callback is verified, and answer the
 * callback only after it resolved (a rejection should be answered with an error status, so the service
 * retries).
 *
 * @example
 * ```ts
 * import { createCallbackDeduplicator } from '@topup/client';
 *
 * const once = createCallbackDeduplicator();
 * await once({ key: 'sha256:9f86d0…' }, () => undefined); // true: handled
 * await once({ key: 'sha256:9f86d0…' }, () => undefined); // false: a retry or a replay
 * ```
 */
export function createCallbackDeduplicator(options: CallbackDeduplicatorOptions = {}): CallbackDeduplicator {
  const rememberMs = (options.rememberSeconds ?? 2 * DEFAULT_TOLERANCE_SECONDS) * 1000;
  if (!Number.isFinite(rememberMs) || rememberMs <= 0) {
    throw new Error(
      `Expected rememberSeconds to be a positive number, received ${String(options.rememberSeconds)}.`,
    );
  }
  const now = options.now ?? Date.now;
  // Insertion order is expiry order, since every key is remembered for the same time.
  const handled = new Map<string, number>();
  const inProgress = new Map<string, Promise<boolean>>();
  const forgetExpired = (at: number) => {
    for (const [key, expires] of handled) {
      if (expires > at) break;
      handled.delete(key);
    }
  };
  const once: CallbackDeduplicator = async (event, handle) => {
    forgetExpired(now());
    if (handled.has(event.key)) return false;
    const running = inProgress.get(event.key);
    if (running !== undefined) {
      // The first delivery decides: a success makes this a repeat, a failure leaves the key to this one.
      const firstSucceeded = await running.then(
        () => true,
        () => false,
      );
      return firstSucceeded ? false : once(event, handle);
    }
    const attempt = (async () => {
      await handle();
      handled.set(event.key, now() + rememberMs);
      return true;
    })();
    inProgress.set(event.key, attempt);
    try {
      return await attempt;
    } finally {
      inProgress.delete(event.key);
    }
  };
  return once;
}
