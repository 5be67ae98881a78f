// Bounded waiting: retries a check until it passes or its time is up, then fails with the last reason;
// and a limit on how long one piece of work (a cleanup, say) may take.
// Nothing in the suite waits without a limit.

export interface EventuallyOptions {
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** What was awaited, for the failure message. */
  readonly what: string;
}

/** Resolves with the first value `check` returns without throwing; rejects after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T>,
  { timeoutMs = 30_000, intervalMs = 250, what }: EventuallyOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
    }
    if (Date.now() + intervalMs > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}: ${reason}`);
}

/** Resolves or rejects as `work` does, or rejects once `timeoutMs` has passed; the timer never lingers. */
export async function withinLimit<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} took more than ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
