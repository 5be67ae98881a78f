// What a request writes down once a provider has answered a submission, shared by the single operations
// and by send_airtime's recipients: a submission taken, and one whose fate the provider left unknown.

import type { TransactionRecord } from '@topup/ledger';
import { holdUnknownSubmission } from '@topup/worker';
import type { Logger } from 'pino';
import type { ApiDependencies } from './api-function.js';

/**
 * Notes that the provider took the transaction. The answer does not wait for this note: without it the
 * worker submits the transaction again after the provider timeout, keyed by its reference, which is
 * exactly the recovery from a crash right here.
 */
export function noteAccepted(deps: ApiDependencies, log: Logger, reference: string): void {
  deps.ledger.markSubmitted(reference).catch((error: unknown) => {
    log.warn({ err: error, reference }, 'noting a submission failed');
  });
}

/**
 * Keeps a transaction whose provider may have taken it, and cannot be sent it again, requested: cancelling
 * would refund money the provider may be moving. Its leg is unknown, for the query path and then an
 * operator to settle.
 */
export async function holdUnknown(
  deps: ApiDependencies,
  log: Logger,
  transaction: TransactionRecord,
  provider: string,
  why: string,
): Promise<void> {
  log.error(
    { reference: transaction.reference, provider, providerError: why },
    'a submission’s outcome is unknown; the transaction stays requested for reconciliation',
  );
  await holdUnknownSubmission(
    deps.ledger,
    transaction.reference,
    provider,
    new Date(Date.now() + deps.config.providerQueryAfterSeconds * 1000),
  );
}
