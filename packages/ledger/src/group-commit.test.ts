import { describe, expect, it } from 'vitest';
import { createGroupCommit, type ItemResult } from './group-commit.js';
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

  it('rejects a batch size below one', () => {
    expect(() => createGroupCommit({ maxWaitMs: 1, maxSize: 0, flush: recorder().flush })).toThrow(
      /maxSize of at least 1/,
    );
  });
});
