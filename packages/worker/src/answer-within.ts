// Waiting on something that may never answer (a provider, the host resolver, the database): its answer,
// or `late` once `timeoutMs` have passed. What is waited on is not cancelled, only no longer waited for;
// the timer is cleared either way, so nothing lingers after an answer.

/** What `answerWithin` gives when the answer did not come in time. */
export const late = Symbol('late');

export async function answerWithin<T>(work: Promise<T>, timeoutMs: number): Promise<T | typeof late> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof late>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, late);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
