// The parameter arrays of an `unnest` INSERT: one array per column, each value picked from its row.
//
// Statements built once per batch take their picks from module-level tables, not from closures made per
// batch: V8 keeps a function's optimised code only while one of its closures is alive, so a closure made
// per batch was compiled again after every full garbage collection, which under load is every few seconds.

/** One array per pick, each holding the pick's value of every row, in row order. */
export function columnsOf<R>(rows: readonly R[], picks: readonly ((row: R) => unknown)[]): unknown[][] {
  const columns: unknown[][] = [];
  for (const pick of picks) {
    const column: unknown[] = [];
    for (const row of rows) column.push(pick(row));
    columns.push(column);
  }
  return columns;
}
