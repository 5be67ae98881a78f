// Runs tasks one at a time per key, each after the tasks queued before it under that key have settled;
// tasks under different keys run side by side. Used to bound what one locked client can cost: however
// many of its requests arrive together, they reach the database one after another.

export type OneAtATime = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function oneAtATimePerKey(): OneAtATime {
  const tails = new Map<string, Promise<void>>();
  return (key, task) => {
    const result = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    // The last task of a key forgets it, so keys seen once do not pile up.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}
