// Waiting for a transaction to end, for callers who cannot receive callbacks: `get_transaction` (the
// catalog's read of one transaction) is asked until `transaction.state` is final, with waits that double
// from `intervalMs` up to `maxIntervalMs`, jittered so many waiting clients do not ask in step. One
// deadline and the caller's signal bound everything, the looks included.

import { setTimeout as sleep } from 'node:timers/promises';
import type { FoundTransactionData } from '@topup/envelope';
import { checkTimeout } from './client-options.js';
import type { CallOptions } from './client-options.js';
import type { TopupResult } from './results.js';
import { TransactionWaitError } from './transaction-wait-error.js';

/**
 * Options of `waitForTransaction`.
 *
 * @example
 * ```ts
 * import { createClient, type WaitOptions } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const options: WaitOptions = { timeoutMs: 120_000, signal: AbortSignal.timeout(300_000), intervalMs: 1_000 };
 * const { transaction } = await topup.waitForTransaction('TXC1CMBJJ5QEXB', options);
 * ```
 */
export interface WaitOptions {
  /** Longest wait in all, looks included. Default 600 000 ms, the service's default transaction timeout. */
  readonly timeoutMs?: number | undefined;
  /** Aborts the wait. */
  readonly signal?: AbortSignal | undefined;
  /** About how long to wait after the first look; doubled after each further look. Default 500 ms. */
  readonly intervalMs?: number | undefined;
  /** Longest wait between two looks. Default 10 000 ms. */
  readonly maxIntervalMs?: number | undefined;
}

export const defaultWait = { timeoutMs: 600_000, intervalMs: 500, maxIntervalMs: 10_000 } as const;

/** The wait after look number `look` (0 for the first): half the doubled bound, plus up to as much again. */
export function lookDelayMs(
  look: number,
  intervalMs: number,
  maxIntervalMs: number,
  random: () => number,
): number {
  const bound = Math.min(maxIntervalMs, intervalMs * 2 ** look);
  return Math.floor(bound / 2 + (random() * bound) / 2);
}

/**
 * Asks `getTransaction` until the transaction is `completed` or `cancelled`, and resolves with that
 * answer. Rejects with a `TransactionWaitError` when the time runs out or the signal aborts, and with
 * the error of a look that failed (after the client's own retries) otherwise.
 */
export async function waitForFinalState(
  reference: string,
  getTransaction: (options: CallOptions) => Promise<TopupResult<FoundTransactionData>>,
  options: WaitOptions,
  random: () => number = Math.random,
): Promise<TopupResult<FoundTransactionData>> {
  const timeoutMs = checkTimeout('timeoutMs', options.timeoutMs ?? defaultWait.timeoutMs);
  const intervalMs = checkTimeout('intervalMs', options.intervalMs ?? defaultWait.intervalMs);
  const maxIntervalMs = checkTimeout('maxIntervalMs', options.maxIntervalMs ?? defaultWait.maxIntervalMs);
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  let last: TopupResult<FoundTransactionData> | undefined;
  try {
    for (let look = 0; ; look += 1) {
      last = await getTransaction({ signal });
      if (last.transaction.state !== 'requested') return last;
      await sleep(lookDelayMs(look, intervalMs, maxIntervalMs, random), undefined, { signal });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    if (options.signal?.aborted === true) {
      throw new TransactionWaitError(reference, 'aborted', last, { timeoutMs, cause: options.signal.reason });
    }
    throw new TransactionWaitError(reference, 'timeout', last, { timeoutMs });
  }
}
