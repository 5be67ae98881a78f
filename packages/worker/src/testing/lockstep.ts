// Test helper: two workers taking turns, one call at a time. Each worker's calls to the ledger and to the
// providers go through `step`, and the two alternate strictly (the first, then the second, then the first
// again), so both read the store before either writes, and each acts on what it read while the other has
// moved on: the race two real workers run, made deterministic, so a model explorer may replay it. A worker
// whose round ended gives its turn up for good.

/** One of the two workers. */
export type Turn = 0 | 1;

export interface Lockstep {
  /** Runs `call` on `worker`'s turn, then hands the turn to the other. */
  step<T>(worker: Turn, call: () => Promise<T>): Promise<T>;
  /** `worker` has no more calls to make: the other goes on alone. */
  finish(worker: Turn): void;
}

/** Two workers alternating strictly, the first one first. */
export function lockstep(): Lockstep {
  let turn: Turn = 0;
  const finished = [false, false];
  let waiting: (() => void)[] = [];
  const other = (worker: Turn): Turn => (worker === 0 ? 1 : 0);
  const wake = () => {
    const woken = waiting;
    waiting = [];
    for (const resume of woken) resume();
  };
  return {
    async step(worker, call) {
      while (turn !== worker && finished[other(worker)] !== true) {
        await new Promise<void>((resume) => waiting.push(resume));
      }
      try {
        return await call();
      } finally {
        if (finished[other(worker)] !== true) turn = other(worker);
        wake();
      }
    },
    finish(worker) {
      finished[worker] = true;
      turn = other(worker);
      wake();
    },
  };
}
