// A channel's statement: the postings that moved its posted balance (posted transfers, `single` or `post`,
// that debit or credit the channel's ledger account), newest first by id, with the posted balance before
// and after each. Ids are the order postings were applied in: every writer locks the channel's ledger
// account before it inserts a transfer on it, and holds the lock until it commits.
//
// A page is read by keyset on the partial indexes of migration 0010, one per side of a posting, and its
// newest posting's balance after is the current posted balance less the postings newer than it, summed
// within those indexes; each older posting's balance then follows from the one before. Everything is read
// in one REPEATABLE READ snapshot, so the balance and the postings agree even while others post.

import { decodeStatementCursor, encodeStatementCursor } from '@topup/validation';
import {
  channelBalanceOf,
  findChannelAccount,
  type ChannelBalance,
  type ChannelName,
} from './ledger-accounts.js';
import { LedgerError } from './ledger-error.js';
import { dateRangeConditions, pageLimitOf, Parameters } from './listing-pages.js';
import type { Queryable, Store } from './store.js';
import { formatTransactionDate } from './transaction-date.js';
import type { TransferPurpose } from './transfers.js';

/**
 * Which postings `listStatement` shows: `from` and `to` are ISO 8601 dates or date-times (a posting made
 * at or after `from` and before `to`), in the ledger's time zone when they carry no offset; `cursor` (a
 * page's `nextCursor`) goes on after that page; `limit` is 1 to 100, 50 by default.
 *
 * @example
 * ```ts
 * import type { StatementFilter } from '@topup/ledger';
 *
 * const november: StatementFilter = { from: '2025-11-01', to: '2025-12-01', limit: 100 };
 * ```
 */
export interface StatementFilter {
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * One posting of a channel: what moved its posted balance, signed from the channel's side (negative for
 * money out of it), with the posted balance just before and just after it. `reference` is the transaction
 * it belongs to, empty for funding.
 *
 * @example
 * ```ts
 * import { formatMinor, type Posting } from '@topup/ledger';
 *
 * function line(posting: Posting): string {
 *   return `${posting.id} ${posting.purpose} ${formatMinor(posting.amountMinor)} → ${formatMinor(posting.balanceAfterMinor)}`;
 * }
 * ```
 */
export interface Posting {
  /** The transfer's id, a digit string. */
  id: string;
  createdAt: Date;
  /** `createdAt` as `YYYY-MM-DD HH:MM:SS` in the ledger's time zone, as `transaction.date` is written. */
  date: string;
  reference: string;
  purpose: TransferPurpose;
  amountMinor: bigint;
  balanceBeforeMinor: bigint;
  balanceAfterMinor: bigint;
}

/**
 * One page of `listStatement`: the channel's balance now, its postings newest first, and the cursor of
 * the next page (empty when this is the last one).
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 150_000n);
 * const page = await ledger.listStatement(account.id, 'float');
 * page.postings[0]?.balanceAfterMinor === page.channel.postedMinor; // true
 * ```
 */
export interface StatementPage {
  channel: ChannelBalance;
  postings: Posting[];
  nextCursor: string;
}

interface PostingRow {
  id: string;
  signed_amount: string;
  created_at: Date;
  reference: string | null;
  purpose: TransferPurpose;
}

// Ledger account ids below this are the system's (migration 0001); the statement indexes hold only callers'.
const firstCallerLedgerAccount = 1000;

/** The posted transfers on one side of the channel (`debit` or `credit`) whose conditions are `where`. */
function side(
  column: 'debit_account_id' | 'credit_account_id',
  ledgerAccount: string,
  where: string[],
): string {
  return [
    `${column} = ${ledgerAccount}`,
    `${column} >= ${firstCallerLedgerAccount}`,
    `kind IN ('single', 'post')`,
    ...where,
  ].join(' AND ');
}

/** One page of a channel's statement. */
export async function listStatement(
  store: Store,
  accountId: string,
  channel: ChannelName,
  filter: StatementFilter,
  timeZone: string,
): Promise<StatementPage> {
  const limit = pageLimitOf(filter.limit);
  const parameters = new Parameters();
  const conditions = dateRangeConditions('created_at', filter, parameters, timeZone);
  if (filter.cursor !== undefined) {
    const position = decodeStatementCursor(filter.cursor);
    if (position === undefined) {
      throw new LedgerError(
        'invalid_input',
        `Expected a cursor of list_statement, received ${filter.cursor}.`,
      );
    }
    conditions.push(`id < ${parameters.add(position.postingId)}::bigint`);
  }
  return store.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const account = await findChannelAccount(tx, accountId, channel);
    if (account === undefined) {
      throw new LedgerError('account_not_found', `No ${channel} channel for ${accountId}.`);
    }
    const ledgerAccount = parameters.add(account.id.toString());
    const size = parameters.add(limit + 1);
    // Each side's newest `limit + 1` within its index, then the newest of both: a posting is on one side.
    const { rows } = await tx.query<PostingRow>(
      `SELECT page.id::text AS id, page.signed_amount::text AS signed_amount, t.created_at, t.reference, t.purpose
       FROM (
         (SELECT id, -amount AS signed_amount FROM transfers
          WHERE ${side('debit_account_id', ledgerAccount, conditions)} ORDER BY id DESC LIMIT ${size})
         UNION ALL
         (SELECT id, amount FROM transfers
          WHERE ${side('credit_account_id', ledgerAccount, conditions)} ORDER BY id DESC LIMIT ${size})
         ORDER BY id DESC LIMIT ${size}
       ) AS page
       JOIN transfers t ON t.id = page.id
       ORDER BY page.id DESC`,
      parameters.values,
    );
    const balance = channelBalanceOf(channel, account);
    const shown = rows.slice(0, limit);
    const postings = await withBalances(tx, account.id, balance.postedMinor, shown, timeZone);
    const last = shown.at(-1);
    return {
      channel: balance,
      postings,
      nextCursor:
        rows.length > limit && last !== undefined ? encodeStatementCursor({ postingId: last.id }) : '',
    };
  });
}

/** The rows as postings, each with its balances: the newest's after is `postedMinor` less what came later. */
async function withBalances(
  tx: Queryable,
  ledgerAccountId: bigint,
  postedMinor: bigint,
  rows: readonly PostingRow[],
  timeZone: string,
): Promise<Posting[]> {
  const newest = rows[0];
  if (newest === undefined) return [];
  const later = [`id > $2::bigint`];
  const { rows: sums } = await tx.query<{ later: string }>(
    `SELECT ((SELECT coalesce(sum(amount), 0) FROM transfers WHERE ${side('credit_account_id', '$1', later)})
           - (SELECT coalesce(sum(amount), 0) FROM transfers WHERE ${side('debit_account_id', '$1', later)}))::text
           AS later`,
    [ledgerAccountId.toString(), newest.id],
  );
  let after = postedMinor - BigInt(sums[0]?.later ?? '0');
  return rows.map((row) => {
    const amountMinor = BigInt(row.signed_amount);
    const posting: Posting = {
      id: row.id,
      createdAt: row.created_at,
      date: formatTransactionDate(row.created_at, timeZone),
      reference: row.reference ?? '',
      purpose: row.purpose,
      amountMinor,
      balanceBeforeMinor: after - amountMinor,
      balanceAfterMinor: after,
    };
    after -= amountMinor;
    return posting;
  });
}
