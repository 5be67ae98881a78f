// The shape every worker loop shares: run a round, go again at once while a round finds a full batch,
// otherwise sleep until the poll interval passes or something wakes the loop. A failing round is logged
// and retried after the interval; stopping waits for the round in progress.

import type { Logger } from 'pino';

/** What a round reports: `more` when it may have left work behind (a full batch). */
export interface RoundResult {
  readonly more: boolean;
}

export interface PollLoopOptions {
  readonly name: string;
  readonly intervalMs: number;
  readonly logger: Logger;
  readonly round: () => Promise<RoundResult>;
}

export interface PollLoop {
  /** Starts a round soon, instead of waiting for the interval. */
  wake(): void;
  /** Stops after the round in progress; resolves when it has finished. */
  stop(): Promise<void>;
}

/** Starts a loop that runs `round` until stopped. */
export function startPollLoop(options: PollLoopOptions): PollLoop {
  let stopped = false;
  let woken = false;
  let wakeSleeper: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });

  // Read through a function: the flags change in other callbacks while a round is awaited.
  const idle = () => !stopped && !woken;

  const run = async () => {
    while (!stopped) {
      woken = false;
      let more = false;
      try {
        more = (await options.round()).more;
      } catch (error) {
        options.logger.error({ err: error, loop: options.name }, `${options.name}: round failed; retrying`);
      }
      // A wake-up that came during the round may announce work the round did not see.
      if (!more && idle()) await sleep(options.intervalMs);
    }
  };
  const running = run();

  return {
    wake() {
      woken = true;
      wakeSleeper?.();
    },
    async stop() {
      stopped = true;
      wakeSleeper?.();
      await running;
    },
  };
}
