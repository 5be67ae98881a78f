// Many small writes as one: items that arrive while a write is running (or in the same turn of the event
// loop) are written together by the next call, so the number of round trips follows the load, not the
// number of items. Each caller's promise settles when the write holding its item has finished.

export interface BatchedWrites<I> {
  /** Queues `item`; resolves once it has been written, rejects with the write's error. */
  write(item: I): Promise<void>;
}

interface Pending<I> {
  readonly item: I;
  resolve(): void;
  reject(error: unknown): void;
}

/** Batches calls to `writeAll`, at most `maxSize` items per call, one call at a time. */
export function createBatchedWrites<I>(
  writeAll: (items: readonly I[]) => Promise<void>,
  maxSize = 256,
): BatchedWrites<I> {
  let queue: Pending<I>[] = [];
  let busy = false;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxSize);
      queue = queue.slice(batch.length);
      try {
        await writeAll(batch.map((pending) => pending.item));
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    busy = false;
  }

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (busy) return;
        busy = true;
        // Waiting for the rest of this turn lets the requests that arrived together share the first write.
        setImmediate(() => void drain());
      });
    },
  };
}
