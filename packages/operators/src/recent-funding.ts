// How much a channel has been funded lately: the approval threshold applies to the day's total, so a
// large funding split into many small ones still waits for a second operator. The total is read and the
// credit made under one lock per account and channel, held by the credit's database transaction, so
// fundings racing from any number of processes are counted one after another, each seeing the last.

import type { ChannelName, Queryable } from '@topup/ledger';

/** The window the threshold counts over. */
export const fundingWindowMs = 24 * 3_600_000;

/** Cents credited to the channel from outside funding since `since`, approved requests included. */
export async function fundedWithin(
  db: Queryable,
  accountId: string,
  channel: ChannelName,
  since: Date,
): Promise<bigint> {
  const { rows } = await db.query<{ total: string | null }>(
    `SELECT sum(t.amount)::text AS total FROM transfers t
     JOIN ledger_accounts a ON a.id = t.credit_account_id
     WHERE a.account_id = $1 AND a.channel = $2 AND t.purpose = 'funding' AND t.created_at >= $3`,
    [accountId, channel, since],
  );
  return BigInt(rows[0]?.total ?? '0');
}

/**
 * Waits for, then holds until `tx` ends, the lock of the account's channel under which its day of funding
 * is counted and added to. An advisory lock, not a row lock: the credit locks the ledger's rows in its own
 * fixed order, which a row locked first here could cross.
 */
export async function lockChannelFunding(
  tx: Queryable,
  accountId: string,
  channel: ChannelName,
): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text', [
    `topup:funding:${accountId}:${channel}`,
  ]);
}
