// A SQL statement with its parameters, and the folding of several writes into one statement. A batch
// holds its accounts' row locks from the moment it locks them until COMMIT, and on a busy process each
// round trip in between costs a turn of the event loop, so the writes a batch makes under those locks go
// to the database together, as data-modifying CTEs of one statement: one round trip instead of one each.

import type { Queryable } from './store.js';

export interface SqlStatement {
  /** Parameters are numbered from `$1` within each statement. */
  readonly text: string;
  readonly values: readonly unknown[];
}

const placeholder = /\$(\d+)/g;

// A loop, not a replace callback: a batch's statements make no closures (see columns-of.ts).
function renumbered(statement: SqlStatement, offset: number): string {
  const { text } = statement;
  let renumberedText = '';
  let copied = 0;
  for (const match of text.matchAll(placeholder)) {
    renumberedText += `${text.slice(copied, match.index)}$${Number(match[1]) + offset}`;
    copied = match.index + match[0].length;
  }
  return renumberedText + text.slice(copied);
}

/**
 * Runs every write in one statement and returns the rows of `main` (the last to be numbered, so it may
 * use RETURNING). PostgreSQL runs each data-modifying CTE exactly once, all on one snapshot: the writes
 * must touch different rows or tables, and none may need to see another's effect. Deferred checks such
 * as foreign keys run at the end of the whole statement.
 */
export async function runWithWrites<R>(
  tx: Queryable,
  main: SqlStatement | undefined,
  writes: readonly (SqlStatement | undefined)[],
): Promise<R[]> {
  const present: SqlStatement[] = [];
  for (const write of writes) if (write !== undefined) present.push(write);
  if (main === undefined && present.length === 0) return [];
  if (present.length === 0 && main !== undefined) {
    return (await tx.query<R>(main.text, main.values)).rows;
  }
  const values: unknown[] = [];
  const clauses: string[] = [];
  for (const [index, write] of present.entries()) {
    clauses.push(`write_${index} AS (${renumbered(write, values.length)})`);
    values.push(...write.values);
  }
  const last = main === undefined ? 'SELECT 1 WHERE false' : renumbered(main, values.length);
  if (main !== undefined) values.push(...main.values);
  return (await tx.query<R>(`WITH ${clauses.join(',\n')}\n${last}`, values)).rows;
}
