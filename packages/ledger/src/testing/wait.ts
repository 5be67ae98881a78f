// Test helper: waiting for something asynchronous to become true.

/** Resolves once `condition` holds, polling every few milliseconds; rejects after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`Expected a condition to hold within ${timeoutMs} ms; it did not.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
