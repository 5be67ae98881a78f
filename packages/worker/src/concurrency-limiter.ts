// Bounded concurrency: at most `limit` tasks run at once, the rest wait in arrival order. The keyed form
// gives each key (a callback endpoint) its own bound, so one slow receiver cannot take every slot.

function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`Expected a concurrency limit of at least 1, received ${limit}.`);
  }
}

/** Runs tasks with at most `limit` in flight at once. */
export class ConcurrencyLimiter {
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    assertLimit(limit);
  }

  /** Tasks running now. */
  get active(): number {
    return this.#active;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Slots free now (0 when tasks are waiting). */
  get free(): number {
    return Math.max(0, this.limit - this.#active - this.#waiting.length);
  }

  /** Runs `task` once a slot is free; the slot is released however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so the active count stays the same.
      if (next === undefined) this.#active -= 1;
      else next();
    }
  }
}

/** One `ConcurrencyLimiter` per key, created on demand and dropped when idle. */
export class KeyedConcurrencyLimiter {
  readonly #limiters = new Map<string, ConcurrencyLimiter>();

  constructor(readonly limitPerKey: number) {
    assertLimit(limitPerKey);
  }

  /** Runs `task` once the key has a free slot. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let limiter = this.#limiters.get(key);
    if (limiter === undefined) {
      limiter = new ConcurrencyLimiter(this.limitPerKey);
      this.#limiters.set(key, limiter);
    }
    try {
      return await limiter.run(task);
    } finally {
      if (limiter.active === 0 && limiter.waiting === 0) this.#limiters.delete(key);
    }
  }

  /** Keys with tasks running or waiting. */
  get keys(): number {
    return this.#limiters.size;
  }
}
