// A caller's transactions, newest first (created_at, then reference, both descending), a page at a time by
// keyset on the transactions_account_created index, read backwards: a page costs the rows it reads from
// where the cursor points, never an OFFSET or a count. Filters by reference or Idempotency-Key are point
// lookups; the other filters narrow that walk. A mobile is the recipient's or the payer's: each side is a
// walk of its own index, and the page is the newest of both. Every query is keyed by the account, so no
// filter reaches another caller's.

import type { TransactionState, TransactionType } from '@topup/envelope';
import { decodeTransactionCursor, encodeTransactionCursor } from '@topup/validation';
import { idempotencyWindowMs } from './idempotency.js';
import { LedgerError } from './ledger-error.js';
import { dateRangeConditions, pageLimitOf, Parameters } from './listing-pages.js';
import type { Queryable } from './store.js';
import {
  transactionColumns,
  transactionRecordOf,
  type TransactionRecord,
  type TransactionRow,
} from './transaction-record.js';

/**
 * Which of a caller's transactions `listTransactions` shows: every field narrows the list, and `cursor`
 * (a page's `nextCursor`) goes on after that page. `from` and `to` are ISO 8601 dates or date-times
 * (`created_at >= from`, `< to`), in the ledger's time zone when they carry no offset. `idempotencyKey`
 * finds what the request sent with that `Idempotency-Key` made (every transaction of a send): keys are
 * kept for 24 hours, so an older one finds nothing. `mobile`, in the canonical form, is the recipient's
 * or the payer's. `limit` is 1 to 100, 50 by default.
 *
 * @example
 * ```ts
 * import type { TransactionFilter } from '@topup/ledger';
 *
 * const filter: TransactionFilter = {
 *   type: 'Airtime',
 *   state: 'cancelled',
 *   from: '2025-11-01',
 *   to: '2025-12-01T00:00:00+03:00',
 *   limit: 100,
 * };
 * ```
 */
export interface TransactionFilter {
  type?: TransactionType | undefined;
  state?: TransactionState | undefined;
  from?: string | undefined;
  to?: string | undefined;
  reference?: string | undefined;
  idempotencyKey?: string | undefined;
  mobile?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * One page of `listTransactions`: the transactions, newest first, and the cursor of the next page (empty
 * when this is the last one).
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type TransactionPage } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * let page: TransactionPage = await ledger.listTransactions(account.id, { limit: 100 });
 * while (page.nextCursor !== '') {
 *   page = await ledger.listTransactions(account.id, { limit: 100, cursor: page.nextCursor });
 * }
 * ```
 */
export interface TransactionPage {
  transactions: TransactionRecord[];
  nextCursor: string;
}

/** The transactions of one caller the filter admits, newest first, one page of them. */
export async function listTransactions(
  db: Queryable,
  accountId: string,
  filter: TransactionFilter,
  context: { timeZone: string; now: Date },
): Promise<TransactionPage> {
  const limit = pageLimitOf(filter.limit);
  const parameters = new Parameters();
  const account = parameters.add(accountId);
  const conditions = [`account_id = ${account}`];
  if (filter.type !== undefined) conditions.push(`type = ${parameters.add(filter.type)}`);
  if (filter.state !== undefined) conditions.push(`state = ${parameters.add(filter.state)}`);
  conditions.push(...dateRangeConditions('created_at', filter, parameters, context.timeZone));
  if (filter.reference !== undefined) conditions.push(`reference = ${parameters.add(filter.reference)}`);
  if (filter.idempotencyKey !== undefined) {
    // The key names the transaction its request made; a send's key names its first, which every
    // transaction of the send names as its send_reference. Both lookups are by index.
    const keyed = `(SELECT k.reference FROM idempotency_keys k
      WHERE k.account_id = ${account} AND k.key = ${parameters.add(filter.idempotencyKey)}
        AND k.created_at > ${parameters.add(new Date(context.now.getTime() - idempotencyWindowMs).toISOString())}::timestamptz)`;
    conditions.push(`(reference = ${keyed} OR send_reference = ${keyed})`);
  }
  if (filter.cursor !== undefined) {
    const position = decodeTransactionCursor(filter.cursor);
    if (position === undefined) {
      throw new LedgerError(
        'invalid_input',
        `Expected a cursor of list_transactions, received ${filter.cursor}.`,
      );
    }
    // Microseconds, as the row keeps them; a row comparison the index answers as one range.
    const createdAt = `('epoch'::timestamptz + ${parameters.add(position.createdMicros)}::bigint * interval '1 microsecond')`;
    conditions.push(`(created_at, reference) < (${createdAt}, ${parameters.add(position.reference)})`);
  }
  const rowsWanted = parameters.add(limit + 1);
  const pageOf = (where: readonly string[]) =>
    `SELECT ${transactionColumns}, (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_micros
     FROM transactions WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, reference DESC LIMIT ${rowsWanted}`;
  const mobile = filter.mobile === undefined ? undefined : parameters.add(filter.mobile);
  // By mobile, two ordered walks rather than an OR, which the planner answers by sorting every match; the
  // payer's side leaves out what the recipient's found, so no transaction comes twice.
  const sql =
    mobile === undefined
      ? pageOf(conditions)
      : `SELECT * FROM ((${pageOf([...conditions, `recipient_mobile = ${mobile}`])})
          UNION ALL (${pageOf([...conditions, `payment_mobile = ${mobile}`, `recipient_mobile <> ${mobile}`])})) AS page
        ORDER BY created_at DESC, reference DESC LIMIT ${rowsWanted}`;
  const { rows } = await db.query<TransactionRow & { created_micros: string }>(sql, parameters.values);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    transactions: shown.map((row) => transactionRecordOf(row, context.timeZone)),
    nextCursor:
      rows.length > limit && last !== undefined
        ? encodeTransactionCursor({ createdMicros: last.created_micros, reference: last.reference })
        : '',
  };
}
