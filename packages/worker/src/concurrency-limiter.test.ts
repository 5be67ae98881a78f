import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter, KeyedConcurrencyLimiter } from './concurrency-limiter.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('ConcurrencyLimiter', () => {
  it('never runs more tasks at once than its limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
        async (limit, delays) => {
          const limiter = new ConcurrencyLimiter(limit);
          let running = 0;
          let peak = 0;
          const results = await Promise.all(
            delays.map((delay, index) =>
              limiter.run(async () => {
                running += 1;
                peak = Math.max(peak, running);
                await sleep(delay);
                running -= 1;
                return index;
              }),
            ),
          );
          expect(results).toEqual(delays.map((_, index) => index));
          expect(peak).toBeLessThanOrEqual(limit);
          expect(limiter.active).toBe(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('starts waiting tasks in arrival order as slots free up', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const gate = deferred();
    const started: string[] = [];
    const first = limiter.run(async () => {
      started.push('first');
      await gate.promise;
    });
    const second = limiter.run(() => {
      started.push('second');
      return Promise.resolve();
    });
    const third = limiter.run(() => {
      started.push('third');
      return Promise.resolve();
    });
    await sleep(1);
    expect(started).toEqual(['first']);
    expect(limiter.waiting).toBe(2);
    expect(limiter.free).toBe(0);
    gate.resolve();
    await Promise.all([first, second, third]);
    expect(started).toEqual(['first', 'second', 'third']);
    expect(limiter.free).toBe(1);
  });

  it('releases the slot when a task fails', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('after'))).resolves.toBe('after');
    expect(limiter.active).toBe(0);
  });

  it('refuses a limit below one', () => {
    expect(() => new ConcurrencyLimiter(0)).toThrow(
      'Expected a concurrency limit of at least 1, received 0.',
    );
  });
});

describe('KeyedConcurrencyLimiter', () => {
  it('bounds each key separately', async () => {
    const limiter = new KeyedConcurrencyLimiter(1);
    const gate = deferred();
    const started: string[] = [];
    const task = (name: string) => async () => {
      started.push(name);
      await gate.promise;
    };
    const all = Promise.all([
      limiter.run('a', task('a1')),
      limiter.run('a', task('a2')),
      limiter.run('b', task('b1')),
    ]);
    await sleep(1);
    expect(started).toEqual(['a1', 'b1']);
    gate.resolve();
    await all;
    expect(started).toEqual(['a1', 'b1', 'a2']);
  });

  it('forgets keys that have nothing running or waiting', async () => {
    const limiter = new KeyedConcurrencyLimiter(2);
    await Promise.all(['a', 'b', 'c'].map((key) => limiter.run(key, () => sleep(1))));
    expect(limiter.keys).toBe(0);
  });
});
