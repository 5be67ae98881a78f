// The operator's check of every ledger invariant, read in one consistent snapshot: balances sum to
// zero; each account's balance columns equal the sum of its transfers; no caller channel is negative;
// every post/void matches its pending transfer; every transaction has exactly the transfers its state
// calls for (one resolution per terminal transaction, none while requested).

import type { Store } from './store.js';

/**
 * The result of `ledger.verify()`: whether every invariant holds, and each breach found.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const report = await ledger.verify();
 * report.ok; // true
 * report.breaches; // []
 * ```
 */
export interface VerifyReport {
  ok: boolean;
  /** One sentence per breach found (each kind capped at 100, with a count of the rest). */
  breaches: string[];
  checked: { ledgerAccounts: number; transfers: number; transactions: number };
}

const reportLimit = 100;

function more(total: number, shown: number, what: string): string[] {
  return total > shown ? [`… and ${total - shown} more ${what}`] : [];
}

const movementsSql = `
  WITH movements AS (
    SELECT debit_account_id AS account_id,
      CASE WHEN kind IN ('single', 'post') THEN amount ELSE 0 END AS debits_posted,
      0::bigint AS credits_posted,
      CASE kind WHEN 'pending' THEN amount WHEN 'single' THEN 0 ELSE -amount END AS debits_pending,
      0::bigint AS credits_pending
    FROM transfers
    UNION ALL
    SELECT credit_account_id, 0, CASE WHEN kind IN ('single', 'post') THEN amount ELSE 0 END,
      0, CASE kind WHEN 'pending' THEN amount WHEN 'single' THEN 0 ELSE -amount END
    FROM transfers
  ), sums AS (
    SELECT account_id, sum(debits_posted) AS dp, sum(credits_posted) AS cp, sum(debits_pending) AS dq,
      sum(credits_pending) AS cq
    FROM movements GROUP BY account_id
  )
  SELECT a.code, a.debits_posted, a.credits_posted, a.debits_pending, a.credits_pending,
    COALESCE(s.dp, 0) AS dp, COALESCE(s.cp, 0) AS cp, COALESCE(s.dq, 0) AS dq, COALESCE(s.cq, 0) AS cq,
    count(*) OVER () AS total
  FROM ledger_accounts a LEFT JOIN sums s ON s.account_id = a.id
  WHERE a.debits_posted <> COALESCE(s.dp, 0) OR a.credits_posted <> COALESCE(s.cp, 0)
    OR a.debits_pending <> COALESCE(s.dq, 0) OR a.credits_pending <> COALESCE(s.cq, 0)
  ORDER BY a.id LIMIT ${reportLimit}`;

// Each transaction's transfers counted by role, then judged against what its type and state require.
const resolutionSql = `
  SELECT *, count(*) OVER () AS total FROM (
    SELECT t.reference, CASE WHEN t.type = 'Airtime' AND t.payment_network IS NULL THEN 'Sent Airtime'
        ELSE t.type END AS type, t.state,
      count(x.id) AS transfers,
      count(x.id) FILTER (WHERE x.kind = 'pending') AS reserves,
      count(x.id) FILTER (WHERE x.kind = 'post') AS posts,
      count(x.id) FILTER (WHERE x.kind = 'void') AS voids,
      count(x.id) FILTER (WHERE x.purpose = 'airtime_collection') AS collections,
      count(x.id) FILTER (WHERE x.purpose = 'airtime_payout') AS payouts,
      count(x.id) FILTER (WHERE x.purpose = 'airtime_refund') AS refunds,
      count(x.id) FILTER (WHERE x.purpose = 'airtime_commission') AS commissions,
      count(x.id) FILTER (WHERE x.purpose <> 'airtime_commission' AND x.amount <> t.amount_minor) AS wrong_amounts
    FROM transactions t LEFT JOIN transfers x ON x.reference = t.reference
    GROUP BY t.reference, t.type, t.payment_network IS NULL, t.state
  ) g
  WHERE wrong_amounts > 0 OR NOT CASE
    WHEN type = 'Agent Float' THEN reserves = 1 AND CASE state
      WHEN 'requested' THEN transfers = 1
      WHEN 'completed' THEN posts = 1 AND transfers = 2
      ELSE voids = 1 AND transfers = 2 END
    WHEN type = 'Sent Airtime' THEN reserves = 1 AND collections = 0 AND CASE state
      WHEN 'requested' THEN transfers = 1
      WHEN 'completed' THEN posts = 1 AND commissions <= 1 AND transfers = 2 + commissions
      ELSE voids = 1 AND transfers = 2 END
    ELSE CASE state
      WHEN 'requested' THEN transfers = 0
      WHEN 'completed' THEN collections = 1 AND payouts = 1 AND commissions <= 1 AND transfers = 2 + commissions
      ELSE transfers = 0 OR (collections = 1 AND refunds = 1 AND transfers = 2) END
  END
  ORDER BY reference LIMIT ${reportLimit}`;

interface ResolutionRow {
  reference: string;
  type: string;
  state: string;
  transfers: string;
  reserves: string;
  posts: string;
  voids: string;
  collections: string;
  payouts: string;
  refunds: string;
  commissions: string;
  wrong_amounts: string;
  total: string;
}

function describeResolution(row: ResolutionRow): string {
  const reserved = row.type === 'Agent Float' || row.type === 'Sent Airtime';
  const counts = reserved
    ? `${row.reserves} pending, ${row.posts} post, ${row.voids} void` +
      (row.type === 'Agent Float' ? '' : `, ${row.commissions} commission`)
    : `${row.collections} collection, ${row.payouts} payout, ${row.refunds} refund, ${row.commissions} commission`;
  const expected = reserved
    ? {
        requested: 'one pending transfer only',
        completed:
          row.type === 'Agent Float'
            ? 'one pending and one post'
            : 'one pending and one post (and at most one commission)',
        cancelled: 'one pending and one void',
      }
    : {
        requested: 'no transfer',
        completed: 'one collection and one payout (and at most one commission)',
        cancelled: 'no transfer, or one collection and one refund',
      };
  const amounts =
    row.wrong_amounts === '0' ? '' : `; ${row.wrong_amounts} transfer(s) differ from its amount`;
  return `transaction ${row.reference} (${row.type}, ${row.state}): expected ${
    expected[row.state as keyof typeof expected]
  }, found ${row.transfers} transfer(s): ${counts}${amounts}`;
}

/** Checks every invariant and reports each breach. Reads a single snapshot, so concurrent writes don't matter. */
export async function verifyLedger(store: Store): Promise<VerifyReport> {
  return store.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const breaches: string[] = [];

    const { rows: totals } = await tx.query<{ posted: string; pending: string; accounts: string }>(
      `SELECT COALESCE(sum(credits_posted - debits_posted), 0) AS posted,
              COALESCE(sum(credits_pending - debits_pending), 0) AS pending, count(*) AS accounts
       FROM ledger_accounts`,
    );
    const total = totals[0] ?? { posted: '0', pending: '0', accounts: '0' };
    if (BigInt(total.posted) !== 0n)
      breaches.push(`posted balances of all accounts sum to ${total.posted} cents, expected 0`);
    if (BigInt(total.pending) !== 0n)
      breaches.push(`pending balances of all accounts sum to ${total.pending} cents, expected 0`);

    const { rows: drifted } =
      await tx.query<
        Record<
          | 'code'
          | 'debits_posted'
          | 'credits_posted'
          | 'debits_pending'
          | 'credits_pending'
          | 'dp'
          | 'cp'
          | 'dq'
          | 'cq'
          | 'total',
          string
        >
      >(movementsSql);
    for (const row of drifted) {
      breaches.push(
        `${row.code}: balance columns (debits posted ${row.debits_posted}, credits posted ${row.credits_posted}, ` +
          `debits pending ${row.debits_pending}, credits pending ${row.credits_pending}) differ from its transfers ` +
          `(${row.dp}, ${row.cp}, ${row.dq}, ${row.cq})`,
      );
    }
    breaches.push(
      ...more(
        Number(drifted[0]?.total ?? 0),
        drifted.length,
        'accounts whose balances differ from their transfers',
      ),
    );

    const { rows: negative } = await tx.query<{ code: string; available: string; total: string }>(
      `SELECT code, credits_posted - debits_posted - debits_pending AS available, count(*) OVER () AS total
       FROM ledger_accounts
       WHERE debits_must_not_exceed_credits AND credits_posted - debits_posted - debits_pending < 0
       ORDER BY id LIMIT ${reportLimit}`,
    );
    for (const row of negative)
      breaches.push(`${row.code}: available balance is ${row.available} cents, below zero`);
    breaches.push(...more(Number(negative[0]?.total ?? 0), negative.length, 'negative channels'));

    const { rows: mismatched } = await tx.query<{ id: string; pending_id: string; total: string }>(
      `SELECT r.id, r.pending_id, count(*) OVER () AS total
       FROM transfers r JOIN transfers p ON p.id = r.pending_id
       WHERE p.kind <> 'pending' OR r.amount <> p.amount OR r.debit_account_id <> p.debit_account_id
         OR r.credit_account_id <> p.credit_account_id OR r.reference IS DISTINCT FROM p.reference
       ORDER BY r.id LIMIT ${reportLimit}`,
    );
    for (const row of mismatched) {
      breaches.push(
        `transfer ${row.id} resolves transfer ${row.pending_id} but does not match it (kind, amount, accounts or reference)`,
      );
    }
    breaches.push(...more(Number(mismatched[0]?.total ?? 0), mismatched.length, 'mismatched resolutions'));

    const { rows: unowned } = await tx.query<{ count: string }>(
      `SELECT count(*) AS count FROM transfers WHERE (reference IS NULL) <> (purpose = 'funding')`,
    );
    const unownedCount = Number(unowned[0]?.count ?? 0);
    if (unownedCount > 0) {
      breaches.push(
        `${unownedCount} transfer(s) are funding with a transaction reference, or a movement without one`,
      );
    }

    const { rows: unresolved } = await tx.query<ResolutionRow>(resolutionSql);
    breaches.push(...unresolved.map(describeResolution));
    breaches.push(
      ...more(Number(unresolved[0]?.total ?? 0), unresolved.length, 'transactions with a wrong resolution'),
    );

    const { rows: counts } = await tx.query<{ transfers: string; transactions: string }>(
      'SELECT (SELECT count(*) FROM transfers) AS transfers, (SELECT count(*) FROM transactions) AS transactions',
    );
    return {
      ok: breaches.length === 0,
      breaches,
      checked: {
        ledgerAccounts: Number(total.accounts),
        transfers: Number(counts[0]?.transfers ?? 0),
        transactions: Number(counts[0]?.transactions ?? 0),
      },
    };
  });
}
