// Ledger accounts (TigerBeetle-style): each keeps debits/credits, posted and pending, as bigint cents.
// Callers have two credit-normal channels flagged "debits must not exceed credits"; system accounts
// (funding, networks, carriers, payer collections, commission) may go negative. Ids 1–10 are the
// system accounts seeded by the first migration.

import type { Carrier, MoneyNetwork } from '@topup/envelope';
import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';

/**
 * One of a caller's two channels: `float` (Agent Float) and `airtime`.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * (await ledger.fund(id, 'airtime', 10_000n)).channel; // 'airtime'
 * ```
 */
export type ChannelName = 'float' | 'airtime';

/**
 * A caller channel's balance. `available` = credits posted − debits posted − debits pending.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(id, 'float', 150_000n);
 * await ledger.balance(id, 'float'); // { channel: 'float', currency: 'KES', postedMinor: 150000n, pendingMinor: 0n, availableMinor: 150000n }
 * ```
 */
export interface ChannelBalance {
  channel: ChannelName;
  currency: 'KES';
  /** Credits posted − debits posted. */
  postedMinor: bigint;
  /** Debits pending: amounts reserved by requested transactions. */
  pendingMinor: bigint;
  availableMinor: bigint;
}

export const systemAccountIds = {
  funding: 1n,
  network: { MoneyNetA: 2n, MoneyNetB: 3n, MoneyNetC: 4n, MoneyNetD: 5n } satisfies Record<
    MoneyNetwork,
    bigint
  >,
  carrier: { CarrierA: 6n, CarrierB: 7n, CarrierC: 8n } satisfies Record<Carrier, bigint>,
  payerCollections: 9n,
  commission: 10n,
} as const;

export interface LedgerAccountState {
  id: bigint;
  code: string;
  accountId: string | undefined;
  channel: ChannelName | undefined;
  mustNotGoNegative: boolean;
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

export interface LedgerAccountRow {
  id: string;
  code: string;
  account_id: string | null;
  channel: ChannelName | null;
  debits_must_not_exceed_credits: boolean;
  debits_posted: string;
  credits_posted: string;
  debits_pending: string;
  credits_pending: string;
}

export const ledgerAccountColumns = `id, code, account_id, channel, debits_must_not_exceed_credits,
  debits_posted, credits_posted, debits_pending, credits_pending`;

/** Maps a `ledger_accounts` row. */
export function ledgerAccountOf(row: LedgerAccountRow): LedgerAccountState {
  return {
    id: BigInt(row.id),
    code: row.code,
    accountId: row.account_id ?? undefined,
    channel: row.channel ?? undefined,
    mustNotGoNegative: row.debits_must_not_exceed_credits,
    debitsPosted: BigInt(row.debits_posted),
    creditsPosted: BigInt(row.credits_posted),
    debitsPending: BigInt(row.debits_pending),
    creditsPending: BigInt(row.credits_pending),
  };
}

/** What a flagged account could still be debited. */
export function availableOf(account: LedgerAccountState): bigint {
  return account.creditsPosted - account.debitsPosted - account.debitsPending;
}

/** The balance of a caller channel account. */
export function channelBalanceOf(channel: ChannelName, account: LedgerAccountState): ChannelBalance {
  return {
    channel,
    currency: 'KES',
    postedMinor: account.creditsPosted - account.debitsPosted,
    pendingMinor: account.debitsPending,
    availableMinor: availableOf(account),
  };
}

/** Creates the `float` and `airtime` channels of a new caller account. */
export async function createChannelAccounts(tx: Queryable, accountId: string): Promise<void> {
  await tx.query(
    `INSERT INTO ledger_accounts (code, account_id, channel, debits_must_not_exceed_credits)
     VALUES ('caller:' || $1 || ':float', $1, 'float', true), ('caller:' || $1 || ':airtime', $1, 'airtime', true)`,
    [accountId],
  );
}

/** The ledger account of a caller's channel (unlocked), or undefined for an unknown caller. */
export async function findChannelAccount(
  db: Queryable,
  accountId: string,
  channel: ChannelName,
): Promise<LedgerAccountState | undefined> {
  const { rows } = await db.query<LedgerAccountRow>(
    `SELECT ${ledgerAccountColumns} FROM ledger_accounts WHERE account_id = $1 AND channel = $2`,
    [accountId, channel],
  );
  return rows[0] === undefined ? undefined : ledgerAccountOf(rows[0]);
}

/**
 * Locks the given ledger accounts, plus every channel of the given callers, with `SELECT … FOR UPDATE`
 * in ascending id order: every writer locks in that order, so writers never deadlock on these rows.
 */
export async function lockLedgerAccounts(
  tx: Queryable,
  ids: readonly bigint[],
  callerAccountIds: readonly string[] = [],
): Promise<Map<bigint, LedgerAccountState>> {
  const { rows } = await tx.query<LedgerAccountRow>(
    `SELECT ${ledgerAccountColumns} FROM ledger_accounts
     WHERE id = ANY($1::bigint[]) OR account_id = ANY($2::text[])
     ORDER BY id FOR UPDATE`,
    [ids.map(String), callerAccountIds],
  );
  return new Map(rows.map((row) => [BigInt(row.id), ledgerAccountOf(row)]));
}

/** Per-account change of the four balance columns. */
export interface BalanceDelta {
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

export function zeroDelta(): BalanceDelta {
  return { debitsPosted: 0n, creditsPosted: 0n, debitsPending: 0n, creditsPending: 0n };
}

/** Every account's delta as one UPDATE, so each account row is written once; none for no deltas. */
export function balanceUpdateStatement(deltas: ReadonlyMap<bigint, BalanceDelta>): SqlStatement | undefined {
  if (deltas.size === 0) return undefined;
  const ids: string[] = [];
  const debitsPosted: string[] = [];
  const creditsPosted: string[] = [];
  const debitsPending: string[] = [];
  const creditsPending: string[] = [];
  for (const [id, delta] of deltas) {
    ids.push(id.toString());
    debitsPosted.push(delta.debitsPosted.toString());
    creditsPosted.push(delta.creditsPosted.toString());
    debitsPending.push(delta.debitsPending.toString());
    creditsPending.push(delta.creditsPending.toString());
  }
  return {
    text: `UPDATE ledger_accounts AS a SET
       debits_posted = a.debits_posted + d.debits_posted,
       credits_posted = a.credits_posted + d.credits_posted,
       debits_pending = a.debits_pending + d.debits_pending,
       credits_pending = a.credits_pending + d.credits_pending
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
       AS d (id, debits_posted, credits_posted, debits_pending, credits_pending)
     WHERE a.id = d.id`,
    values: [ids, debitsPosted, creditsPosted, debitsPending, creditsPending],
  };
}

/** The balance of a caller's channel; undefined for an unknown caller. */
export async function readChannelBalance(
  db: Queryable,
  accountId: string,
  channel: ChannelName,
): Promise<ChannelBalance | undefined> {
  const account = await findChannelAccount(db, accountId, channel);
  return account === undefined ? undefined : channelBalanceOf(channel, account);
}
