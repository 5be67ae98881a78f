// The one error type the ledger throws for a refused operation, with a machine-readable code so the
// server and CLI can map it to an answer without parsing messages.

/**
 * What a refused ledger operation ran into.
 *
 * @example
 * ```ts
 * import { LedgerError, type LedgerErrorCode } from '@topup/ledger';
 *
 * function httpStatusOf(error: LedgerError): number {
 *   const code: LedgerErrorCode = error.code;
 *   return code === 'account_not_found' || code === 'token_not_found' ? 404 : 409;
 * }
 * ```
 */
export type LedgerErrorCode =
  | 'account_not_found'
  | 'account_closed'
  | 'token_not_found'
  | 'invalid_input'
  | 'ledger_closed'
  | 'endpoint_limit_reached'
  | 'leg_not_found';

/**
 * The error of an operation the ledger refuses (an unknown or closed account, invalid input, a closed
 * ledger); `code` says which.
 *
 * @example
 * ```ts
 * import { createLedger, LedgerError, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * try {
 *   await ledger.fund('acct_unknown', 'float', 100n);
 * } catch (error) {
 *   if (!(error instanceof LedgerError)) throw error;
 *   error.code; // 'account_not_found'
 * }
 * ```
 */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';

  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
