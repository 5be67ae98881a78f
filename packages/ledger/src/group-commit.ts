// Group commit: requests are queued and flushed together. A flush starts when the oldest queued item
// has waited `maxWaitMs`, or at once when `maxSize` items, or items of `maxWeight`, are queued. One flush
// runs at a time; what
// arrives meanwhile becomes the next batch, which starts as soon as the running one finishes, so the
// batch size follows the load on its own. An item whose caller gives up (its signal aborts) while it is
// still queued is withdrawn and never applied; once its batch has started, its outcome is the batch's.

import { LedgerError } from './ledger-error.js';
import { isStoreUnavailable } from './store-unavailable.js';
import type { WithdrawalSignal } from './withdrawal-signal.js';

/**
 * One item's result from a flush: its own value, or its own error.
 *
 * @example
 * ```ts
 * import type { ItemResult } from '@topup/ledger';
 *
 * const stored: ItemResult<boolean> = { ok: true, value: true };
 * ```
 */
export type ItemResult<O> = { ok: true; value: O } | { ok: false; error: unknown };

/**
 * How a group commit gathers its items and applies a batch.
 *
 * @example
 * ```ts
 * import type { GroupCommitOptions } from '@topup/ledger';
 *
 * const options: GroupCommitOptions<string, number> = {
 *   maxWaitMs: 0,
 *   maxSize: 100,
 *   flush: async (items) => items.map((item) => ({ ok: true, value: item.length })),
 * };
 * ```
 */
export interface GroupCommitOptions<I, O> {
  maxWaitMs: number;
  maxSize: number;
  /**
   * How heavy an item is (default 1), and how heavy a batch may be (default unbounded): a batch is cut
   * before the item that would take it past `maxWeight`, and an item heavier than that is a batch alone.
   */
  weight?: (item: I) => number;
  maxWeight?: number;
  /** Applies a batch; returns one result per item, in order. A throw fails every item with it. */
  flush: (items: readonly I[]) => Promise<ItemResult<O>[]>;
}

/**
 * A group-commit queue: `submit` answers each item with its own result, once its batch is applied.
 *
 * @example
 * ```ts
 * import type { GroupCommit } from '@topup/ledger';
 *
 * const lengthOf = (queue: GroupCommit<string, number>) => queue.submit('TXVQYSN6XMFZTY');
 * ```
 */
export interface GroupCommit<I, O> {
  /** Queues `item`; an abort of `signal` before its batch starts withdraws it with the signal's reason. */
  submit(item: I, signal?: WithdrawalSignal): Promise<O>;
  /** Flushes everything queued, waits for it, and refuses later submissions. */
  close(): Promise<void>;
}

interface Waiting<I, O> {
  item: I;
  weight: number;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/** Why a withdrawn item is rejected: its signal's reason, an Error unless the caller chose otherwise. */
function withdrawalError(signal: WithdrawalSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error(`Expected the item to wait for its batch, received an abort (${String(reason)}).`);
}

/**
 * A group-commit queue in front of `flush`: what is submitted while a batch is applied becomes the next
 * batch, so one statement serves every caller that arrived meanwhile.
 *
 * @example
 * ```ts
 * import { createGroupCommit } from '@topup/ledger';
 *
 * const lengths = createGroupCommit<string, number>({
 *   maxWaitMs: 0,
 *   maxSize: 100,
 *   flush: async (items) => items.map((item) => ({ ok: true, value: item.length })),
 * });
 * await Promise.all([lengths.submit('a'), lengths.submit('bb')]); // [1, 2], from one flush
 * ```
 */
export function createGroupCommit<I, O>(options: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const { maxWaitMs, maxSize, flush } = options;
  const weight = options.weight ?? (() => 1);
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  if (!Number.isInteger(maxSize) || maxSize < 1) {
    throw new RangeError(`Expected a batch maxSize of at least 1, received ${String(maxSize)}.`);
  }
  if (Number.isNaN(maxWeight) || maxWeight < 1) {
    throw new RangeError(`Expected a batch maxWeight of at least 1, received ${String(maxWeight)}.`);
  }
  if (!Number.isFinite(maxWaitMs) || maxWaitMs < 0) {
    throw new RangeError(`Expected a batch maxWaitMs of 0 or more, received ${String(maxWaitMs)}.`);
  }
  let queue: Waiting<I, O>[] = [];
  let queuedWeight = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  async function runBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const results = await flush(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`Expected ${batch.length} results from a batch flush, received ${results.length}.`);
      }
      batch.forEach((waiting, index) => {
        const result = results[index] as ItemResult<O>;
        if (result.ok) waiting.resolve(result.value);
        else waiting.reject(result.error);
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }

  function start(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    // Everything queued may have been withdrawn since the timer was set.
    if (queue.length === 0) return;
    let size = 0;
    let taken = 0;
    while (
      taken < queue.length &&
      (taken === 0 || (taken < maxSize && size + (queue[taken] as Waiting<I, O>).weight <= maxWeight))
    ) {
      size += (queue[taken] as Waiting<I, O>).weight;
      taken += 1;
    }
    const batch = queue.slice(0, taken);
    queue = queue.slice(taken);
    queuedWeight -= size;
    running = runBatch(batch).finally(() => {
      running = undefined;
      if (queue.length > 0) start();
    });
  }

  function schedule(): void {
    if (running !== undefined) return;
    if (queue.length >= maxSize || queuedWeight >= maxWeight) start();
    else timer ??= setTimeout(start, maxWaitMs);
  }

  return {
    submit(item, signal) {
      if (closed)
        return Promise.reject(
          new LedgerError('ledger_closed', 'The ledger is closed; no request is accepted.'),
        );
      if (signal?.aborted === true) return Promise.reject(withdrawalError(signal));
      return new Promise<O>((resolve, reject) => {
        // Once the item leaves the queue, whichever way, the signal no longer concerns it.
        const settling =
          <A>(settle: (argument: A) => void) =>
          (argument: A) => {
            signal?.removeEventListener('abort', withdraw);
            settle(argument);
          };
        const waiting: Waiting<I, O> = {
          item,
          weight: weight(item),
          resolve: settling(resolve),
          reject: settling(reject),
        };
        function withdraw() {
          const index = queue.indexOf(waiting);
          if (index === -1) return;
          queue.splice(index, 1);
          queuedWeight -= waiting.weight;
          if (signal !== undefined) waiting.reject(withdrawalError(signal));
        }
        signal?.addEventListener('abort', withdraw, { once: true });
        queue.push(waiting);
        queuedWeight += waiting.weight;
        schedule();
      });
    },
    async close() {
      closed = true;
      while (running !== undefined || queue.length > 0) {
        if (running === undefined) start();
        await running;
      }
    },
  };
}

/**
 * A flush that, when a whole batch fails, applies its items again one at a time, so one item that cannot
 * be applied fails alone instead of holding back every item batched with it. A batch that failed because
 * the store could not be reached fails whole: its items would only fail again one by one.
 *
 * @example
 * ```ts
 * import { createGroupCommit, isolatingFailures } from '@topup/ledger';
 *
 * const checked = createGroupCommit<number, number>({
 *   maxWaitMs: 0,
 *   maxSize: 100,
 *   flush: isolatingFailures(async (items) => {
 *     if (items.some((item) => item < 0)) throw new RangeError('negative');
 *     return items.map((item) => ({ ok: true, value: item }));
 *   }),
 * });
 * await checked.submit(1); // 1, even when batched with a -1, which alone fails
 * ```
 */
export function isolatingFailures<I, O>(
  flush: (items: readonly I[]) => Promise<ItemResult<O>[]>,
): (items: readonly I[]) => Promise<ItemResult<O>[]> {
  return async (items) => {
    try {
      return await flush(items);
    } catch (error) {
      if (items.length === 1 || isStoreUnavailable(error)) return items.map(() => ({ ok: false, error }));
      const results: ItemResult<O>[] = [];
      // Once the store is found unreachable, the items left fail with that error at once instead of each
      // waiting out its own connection timeout.
      let unreachable: unknown;
      for (const item of items) {
        if (unreachable !== undefined) {
          results.push({ ok: false, error: unreachable });
          continue;
        }
        try {
          results.push(...(await flush([item])));
        } catch (single) {
          results.push({ ok: false, error: single });
          if (isStoreUnavailable(single)) unreachable = single;
        }
      }
      return results;
    }
  };
}
