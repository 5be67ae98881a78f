// Which items of a batch a multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING` took. A row comes back
// once per key, so of the items sharing a key only the first asked, the one inserted, is answered as taken.

/** Asked for each item's key in batch order: whether a row came back for it that no earlier item took. */
export function takenInOrder(
  returnedKeys: Iterable<readonly (string | null)[]>,
): (key: readonly (string | null)[]) => boolean {
  const untaken = new Set([...returnedKeys].map((key) => JSON.stringify(key)));
  return (key) => untaken.delete(JSON.stringify(key));
}
