// The error of a wait for a transaction that did not end: the time allowed ran out, or the caller
// aborted. It names the transaction and keeps the last state seen, so the caller can decide what next.

import type { FoundTransactionData } from '@topup/envelope';
import type { TopupResult } from './results.js';

/**
 * Why `waitForTransaction` gave up: `timeout` when `timeoutMs` ran out with the transaction still
 * `requested`, `aborted` when the caller's signal aborted.
 *
 * @example
 * ```ts
 * import type { TransactionWaitReason } from '@topup/client';
 *
 * const reason: TransactionWaitReason = 'timeout';
 * ```
 */
export type TransactionWaitReason = 'timeout' | 'aborted';

/**
 * `waitForTransaction` gave up before the transaction ended. `transaction` is the last answer seen
 * (undefined when none came); for an abort, `cause` is the signal's reason.
 *
 * @example
 * ```ts
 * import { createClient, TransactionWaitError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   const { transaction } = await topup.waitForTransaction('TXC1CMBJJ5QEXB', { timeoutMs: 60_000 });
 *   console.log(transaction.state); // 'completed' or 'cancelled'
 * } catch (error) {
 *   if (!(error instanceof TransactionWaitError)) throw error;
 *   console.log(error.reason, error.reference, error.transaction?.transaction.state); // 'timeout' 'TXC1CMBJJ5QEXB' 'requested'
 * }
 * ```
 */
export class TransactionWaitError extends Error {
  override readonly name = 'TransactionWaitError';
  readonly reason: TransactionWaitReason;
  readonly reference: string;
  readonly transaction: TopupResult<FoundTransactionData> | undefined;

  constructor(
    reference: string,
    reason: TransactionWaitReason,
    transaction: TopupResult<FoundTransactionData> | undefined,
    details: { readonly timeoutMs: number; readonly cause?: unknown },
  ) {
    super(
      reason === 'timeout'
        ? `Expected transaction ${reference} to end within ${details.timeoutMs} ms; it was still ${transaction?.transaction.state ?? 'unread'}.`
        : `Stopped waiting for transaction ${reference}: the signal aborted.`,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.reason = reason;
    this.reference = reference;
    this.transaction = transaction;
  }
}
