import { describe, expect, it } from 'vitest';
import { createGroupCommit, isolatingFailures, type ItemResult } from './group-commit.js';
import { LedgerError } from './ledger-error.js';

function recorder(fail?: (items: readonly number[]) => Error | undefined) {
  const batches: number[][] = [];
  return {
    batches,
    flush: (items: readonly number[]): Promise<ItemResult<number>[]> => {
      batches.push([...items]);
      const error = fail?.(items);
      if (error !== undefined) return Promise.reject(error);
      return Promise.resolve(
        items.map((item) =>
          item < 0 ? { ok: false, error: new Error(`negative ${item}`) } : { ok: true, value: item * 10 },
        ),
      );
    },
  };
}

describe('createGroupCommit', () => {
  it('gathers requests made together into one batch and answers each with its own result', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 5, maxSize: 100, flush });
    const answers = await Promise.all([1, 2, 3].map((item) => queue.submit(item)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('flushes at maxSize without waiting and keeps arrival order across batches', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 10_000, maxSize: 2, flush });
    const answers = await Promise.all([1, 2, 3, 4].map((item) => queue.submit(item)));
    expect(answers).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('rejects only the item whose own result is an error', async () => {
    const { flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 1, maxSize: 10, flush });
    const settled = await Promise.allSettled([1, -2, 3].map((item) => queue.submit(item)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('rejects every item of a batch whose flush throws, with that error', async () => {
    const boom = new Error('disk on fire');
    const { flush } = recorder(() => boom);
    const queue = createGroupCommit({ maxWaitMs: 1, maxSize: 10, flush });
    const settled = await Promise.allSettled([1, 2, 3].map((item) => queue.submit(item)));
    expect(settled).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: boom })));
  });

  it('runs one flush at a time and sends what arrived meanwhile as the next batch', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const batches: number[][] = [];
    const queue = createGroupCommit<number, number>({
      maxWaitMs: 0,
      maxSize: 100,
      async flush(items) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        batches.push([...items]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        return items.map((item) => ({ ok: true as const, value: item }));
      },
    });
    const first = queue.submit(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = [2, 3, 4].map((item) => queue.submit(item));
    await Promise.all([first, ...later]);
    expect(maxInFlight).toBe(1);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('flushes what is queued on close and refuses requests afterwards', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 10_000, maxSize: 100, flush });
    const pending = queue.submit(7);
    await queue.close();
    await expect(pending).resolves.toBe(70);
    expect(batches).toEqual([[7]]);
    await expect(queue.submit(8)).rejects.toBeInstanceOf(LedgerError);
  });

  it('withdraws an item whose signal aborts while it is still queued, and applies the rest', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 20, maxSize: 100, flush });
    const gaveUp = new AbortController();
    const kept = queue.submit(1);
    const withdrawn = queue.submit(2, gaveUp.signal);
    gaveUp.abort(new Error('the caller stopped waiting'));
    await expect(withdrawn).rejects.toThrow('the caller stopped waiting');
    await expect(kept).resolves.toBe(10);
    expect(batches).toEqual([[1]]);
  });

  it('runs no empty batch when every queued item was withdrawn', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 5, maxSize: 100, flush });
    const gaveUp = new AbortController();
    const withdrawn = queue.submit(1, gaveUp.signal);
    gaveUp.abort(new Error('gone'));
    await expect(withdrawn).rejects.toThrow('gone');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([]);
  });

  it('refuses an item whose signal has already aborted, without queueing it', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({ maxWaitMs: 1, maxSize: 100, flush });
    await expect(queue.submit(1, AbortSignal.abort(new Error('too late')))).rejects.toThrow('too late');
    await queue.close();
    expect(batches).toEqual([]);
  });

  it('keeps an item whose signal aborts once its batch has started: its outcome is the batch’s', async () => {
    let flushStarted: () => void = () => undefined;
    const flushing = new Promise<void>((resolve) => (flushStarted = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const queue = createGroupCommit<number, number>({
      maxWaitMs: 0,
      maxSize: 100,
      async flush(items) {
        flushStarted();
        await released;
        return items.map((item) => ({ ok: true as const, value: item }));
      },
    });
    const gaveUp = new AbortController();
    const inBatch = queue.submit(5, gaveUp.signal);
    await flushing;
    gaveUp.abort(new Error('too late to withdraw'));
    release();
    await expect(inBatch).resolves.toBe(5);
  });

  describe('with weighted items', () => {
    // Each item weighs its own value here, as a send weighs its number of transactions.
    const byValue = (item: number) => item;

    it('cuts a batch before the item that would take it past maxWeight, keeping arrival order', async () => {
      const { batches, flush } = recorder();
      const queue = createGroupCommit({
        maxWaitMs: 10_000,
        maxSize: 100,
        weight: byValue,
        maxWeight: 5,
        flush,
      });
      const answers = await Promise.all([2, 2, 3, 1].map((item) => queue.submit(item)));
      expect(answers).toEqual([20, 20, 30, 10]);
      // By count alone, all four would have made one batch.
      expect(batches).toEqual([
        [2, 2],
        [3, 1],
      ]);
    });

    it('starts a batch at once when the queued weight reaches maxWeight, whatever the count', () => {
      const { batches, flush } = recorder();
      const queue = createGroupCommit({
        maxWaitMs: 10_000,
        maxSize: 100,
        weight: byValue,
        maxWeight: 5,
        flush,
      });
      void queue.submit(4);
      expect(batches).toEqual([]);
      void queue.submit(1);
      expect(batches).toEqual([[4, 1]]);
    });

    it('sends an item heavier than maxWeight as a batch alone, neither joined nor held back', async () => {
      const { batches, flush } = recorder();
      const queue = createGroupCommit({
        maxWaitMs: 10_000,
        maxSize: 100,
        weight: byValue,
        maxWeight: 5,
        flush,
      });
      const answers = await Promise.all([1, 9, 1, 7].map((item) => queue.submit(item)));
      expect(answers).toEqual([10, 90, 10, 70]);
      expect(batches).toEqual([[1], [9], [1], [7]]);
    });

    it('gives a withdrawn item’s weight back, so it neither starts a batch early nor cuts one short', async () => {
      const { batches, flush } = recorder();
      const queue = createGroupCommit({
        maxWaitMs: 10_000,
        maxSize: 100,
        weight: byValue,
        maxWeight: 5,
        flush,
      });
      const gaveUp = new AbortController();
      const withdrawn = queue.submit(3, gaveUp.signal);
      gaveUp.abort(new Error('gone'));
      await expect(withdrawn).rejects.toThrow('gone');
      const three = queue.submit(3);
      // Were the withdrawn 3 still counted, 6 of 5 would have started a batch of the new 3 alone.
      expect(batches).toEqual([]);
      const two = queue.submit(2);
      expect(batches).toEqual([[3, 2]]);
      await expect(Promise.all([three, two])).resolves.toEqual([30, 20]);
    });
  });

  it('cuts a batch of light items at maxSize, whatever their weight', async () => {
    const { batches, flush } = recorder();
    const queue = createGroupCommit({
      maxWaitMs: 10_000,
      maxSize: 2,
      weight: (item: number) => item,
      maxWeight: 100,
      flush,
    });
    await Promise.all([1, 1, 1].map((item) => queue.submit(item)));
    expect(batches).toEqual([[1, 1], [1]]);
  });

  it('rejects a batch weight below one', () => {
    expect(() =>
      createGroupCommit({ maxWaitMs: 1, maxSize: 10, maxWeight: 0, flush: recorder().flush }),
    ).toThrow(/maxWeight of at least 1/);
    expect(() =>
      createGroupCommit({ maxWaitMs: 1, maxSize: 10, maxWeight: Number.NaN, flush: recorder().flush }),
    ).toThrow(/maxWeight of at least 1/);
  });

  it('rejects a batch size below one', () => {
    expect(() => createGroupCommit({ maxWaitMs: 1, maxSize: 0, flush: recorder().flush })).toThrow(
      /maxSize of at least 1/,
    );
  });
});

describe('isolatingFailures', () => {
  const unreachable = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  it('applies the items of a failed batch again one at a time, so only the one at fault fails', async () => {
    const { batches, flush } = recorder((items) => (items.includes(3) ? new Error('refused 3') : undefined));
    const results = await isolatingFailures(flush)([1, 3, 2]);
    expect(results.map((result) => (result.ok ? result.value : (result.error as Error).message))).toEqual([
      10,
      'refused 3',
      20,
    ]);
    expect(batches).toEqual([[1, 3, 2], [1], [3], [2]]);
  });

  it('fails a batch whose store could not be reached whole, without trying its items one by one', async () => {
    const { batches, flush } = recorder(() => unreachable());
    const results = await isolatingFailures(flush)([1, 2, 3]);
    expect(
      results.every((result) => !result.ok && (result.error as Error).message.includes('ECONNREFUSED')),
    ).toBe(true);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('stops trying items one by one once the store is found unreachable, failing the rest with that error', async () => {
    const { batches, flush } = recorder((items) =>
      items.length > 1 ? new Error('one of them is refused') : items[0] === 2 ? unreachable() : undefined,
    );
    const results = await isolatingFailures(flush)([1, 2, 3, 4]);
    expect(results.map((result) => (result.ok ? result.value : (result.error as Error).message))).toEqual([
      10,
      'connect ECONNREFUSED 127.0.0.1:5432',
      'connect ECONNREFUSED 127.0.0.1:5432',
      'connect ECONNREFUSED 127.0.0.1:5432',
    ]);
    expect(batches).toEqual([[1, 2, 3, 4], [1], [2]]);
  });
});
