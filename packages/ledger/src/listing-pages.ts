// What the ledger's listings share: the size of a page, the instants their date bounds name, and the
// parameters of a query whose conditions are written only for the filters given, so that each one the
// index can answer is a plain condition the planner sees.

import { defaultPageLimit, maxPageLimit, readDateBound } from '@topup/validation';
import { LedgerError } from './ledger-error.js';
import { instantOf } from './transaction-date.js';

/** The page size a filter asks for; `invalid_input` outside 1 to `maxPageLimit`. */
export function pageLimitOf(limit: number | undefined): number {
  const size = limit ?? defaultPageLimit;
  if (!Number.isInteger(size) || size < 1 || size > maxPageLimit) {
    throw new LedgerError(
      'invalid_input',
      `Expected a page limit from 1 to ${maxPageLimit}, received ${String(limit)}.`,
    );
  }
  return size;
}

/** The instant of a `from` or `to` bound; `invalid_input` when it is no ISO 8601 date or date-time. */
function boundInstant(name: 'from' | 'to', text: string, timeZone: string): Date {
  const bound = readDateBound(text);
  if (bound === undefined) {
    throw new LedgerError(
      'invalid_input',
      `Expected ${name} as an ISO 8601 date or date-time, received ${JSON.stringify(text)}.`,
    );
  }
  return instantOf(bound, timeZone);
}

/** A query's parameters, each added where its condition is written. */
export class Parameters {
  readonly values: unknown[] = [];

  /** `$n` for `value`, as the next parameter. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The conditions `from` (inclusive) and `to` (exclusive) put on the time `column`. */
export function dateRangeConditions(
  column: string,
  bounds: { from?: string | undefined; to?: string | undefined },
  parameters: Parameters,
  timeZone: string,
): string[] {
  const conditions: string[] = [];
  if (bounds.from !== undefined) {
    const from = boundInstant('from', bounds.from, timeZone).toISOString();
    conditions.push(`${column} >= ${parameters.add(from)}::timestamptz`);
  }
  if (bounds.to !== undefined) {
    const to = boundInstant('to', bounds.to, timeZone).toISOString();
    conditions.push(`${column} < ${parameters.add(to)}::timestamptz`);
  }
  return conditions;
}
