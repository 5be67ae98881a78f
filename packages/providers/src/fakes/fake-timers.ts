// The delayed work of a fake (a callback later, a result after a prompt), held so that closing the fake
// cancels what is still to come and no callback reaches a receiver a test has already stopped.

/** Work scheduled for later, all of it cancelled by `clear`. */
export interface FakeTimers {
  readonly later: (ms: number, action: () => Promise<void>) => void;
  readonly clear: () => void;
}

export function createFakeTimers(): FakeTimers {
  const timers = new Set<NodeJS.Timeout>();
  return {
    later: (ms, action) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        void action();
      }, ms);
      timers.add(timer);
    },
    clear: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
