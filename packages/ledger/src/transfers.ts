// Transfers: each moves an amount from one ledger account's debits to another's credits, so every
// movement sums to zero. Two-phase as TigerBeetle does it: a `pending` transfer reserves, and exactly
// one `post` (commit) or `void` (release) later resolves it in full.

import {
  type BalanceDelta,
  type LedgerAccountState,
  availableOf,
  balanceUpdateStatement,
  lockLedgerAccounts,
  zeroDelta,
} from './ledger-accounts.js';
import { columnsOf } from './columns-of.js';
import { runWithWrites, type SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';

export type TransferKind = 'single' | 'pending' | 'post' | 'void';

/**
 * Why money moved, so that `verify` can check each transaction's resolution; a statement shows it as each
 * posting's `purpose`.
 *
 * @example
 * ```ts
 * import type { Posting, TransferPurpose } from '@topup/ledger';
 *
 * const fromOutside: TransferPurpose = 'funding';
 * const isFunding = (posting: Posting) => posting.purpose === fromOutside;
 * ```
 */
export type TransferPurpose =
  'funding' | 'float' | 'airtime_collection' | 'airtime_payout' | 'airtime_commission' | 'airtime_refund';

export interface TransferInput {
  debitAccountId: bigint;
  creditAccountId: bigint;
  amount: bigint;
  kind: TransferKind;
  purpose: TransferPurpose;
  /** The pending transfer a `post` or `void` resolves. */
  pendingId?: bigint;
  /** The transaction the movement belongs to. */
  reference?: string;
}

/** Thrown when a transfer would overdraw an account that must not go negative. */
export class OverdraftError extends Error {
  override readonly name = 'OverdraftError';
}

function addTo(deltas: Map<bigint, BalanceDelta>, id: bigint, change: Partial<BalanceDelta>): void {
  const delta = deltas.get(id) ?? zeroDelta();
  delta.debitsPosted += change.debitsPosted ?? 0n;
  delta.creditsPosted += change.creditsPosted ?? 0n;
  delta.debitsPending += change.debitsPending ?? 0n;
  delta.creditsPending += change.creditsPending ?? 0n;
  deltas.set(id, delta);
}

/** The change each transfer makes to the balance columns of its two accounts, summed per account. */
export function balanceDeltas(transfers: readonly TransferInput[]): Map<bigint, BalanceDelta> {
  const deltas = new Map<bigint, BalanceDelta>();
  for (const { debitAccountId: debit, creditAccountId: credit, amount, kind } of transfers) {
    switch (kind) {
      case 'single':
        addTo(deltas, debit, { debitsPosted: amount });
        addTo(deltas, credit, { creditsPosted: amount });
        break;
      case 'pending':
        addTo(deltas, debit, { debitsPending: amount });
        addTo(deltas, credit, { creditsPending: amount });
        break;
      case 'post':
        addTo(deltas, debit, { debitsPending: -amount, debitsPosted: amount });
        addTo(deltas, credit, { creditsPending: -amount, creditsPosted: amount });
        break;
      case 'void':
        addTo(deltas, debit, { debitsPending: -amount });
        addTo(deltas, credit, { creditsPending: -amount });
        break;
    }
  }
  return deltas;
}

/** An account's state after a delta. */
export function applyDelta(account: LedgerAccountState, delta: BalanceDelta): LedgerAccountState {
  return {
    ...account,
    debitsPosted: account.debitsPosted + delta.debitsPosted,
    creditsPosted: account.creditsPosted + delta.creditsPosted,
    debitsPending: account.debitsPending + delta.debitsPending,
    creditsPending: account.creditsPending + delta.creditsPending,
  };
}

/** The INSERT's first seven columns in its order, each picked from a transfer. */
const transferColumns: readonly ((transfer: TransferInput) => unknown)[] = [
  (t) => t.debitAccountId.toString(),
  (t) => t.creditAccountId.toString(),
  (t) => t.amount.toString(),
  (t) => t.kind,
  (t) => t.purpose,
  (t) => t.pendingId?.toString() ?? null,
  (t) => t.reference ?? null,
];

/** One multi-row INSERT of the transfers, whatever their number; none for no transfers. */
export function transferInsertStatement(
  transfers: readonly TransferInput[],
  createdAt: Date,
): SqlStatement | undefined {
  if (transfers.length === 0) return undefined;
  return {
    text: `INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, purpose, pending_id, reference, created_at)
     SELECT d, c, a, k, p, pid, r, $8::timestamptz
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::text[])
       AS t (d, c, a, k, p, pid, r)`,
    values: [...columnsOf(transfers, transferColumns), createdAt.toISOString()],
  };
}

/**
 * Applies transfers inside `tx`: locks their accounts in ascending id order, refuses any that would
 * overdraw a flagged account, inserts the transfers and updates each account once. Returns the
 * accounts' new states.
 */
export async function applyTransfers(
  tx: Queryable,
  transfers: readonly TransferInput[],
  createdAt: Date,
): Promise<Map<bigint, LedgerAccountState>> {
  for (const transfer of transfers) {
    if (transfer.amount <= 0n) {
      throw new RangeError(`Expected a positive transfer amount, received ${transfer.amount.toString()}.`);
    }
  }
  const ids = [...new Set(transfers.flatMap((t) => [t.debitAccountId, t.creditAccountId]))];
  const accounts = await lockLedgerAccounts(tx, ids);
  const deltas = balanceDeltas(transfers);
  const updated = new Map<bigint, LedgerAccountState>();
  for (const [id, delta] of deltas) {
    const account = accounts.get(id);
    if (account === undefined)
      throw new Error(`Expected ledger account ${id.toString()} to exist, found none.`);
    const next = applyDelta(account, delta);
    if (next.mustNotGoNegative && availableOf(next) < 0n) {
      throw new OverdraftError(
        `Expected ${account.code} to stay at or above zero, but the transfers would leave ${availableOf(next).toString()} cents available.`,
      );
    }
    updated.set(id, next);
  }
  await runWithWrites(tx, undefined, [
    transferInsertStatement(transfers, createdAt),
    balanceUpdateStatement(deltas),
  ]);
  return updated;
}
