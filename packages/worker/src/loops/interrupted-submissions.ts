// Finishing submissions a crash interrupted: a transaction the server recorded but never marked submitted
// (the process died between the ledger and the provider, or before recording the provider's answer) is
// submitted again once the server's own provider timeout has surely passed. Providers are keyed by
// reference, so this reaches the provider at most once; its answer is then recorded like the server would.

import type { Ledger, TransactionRecord } from '@topup/ledger';
import type { Logger } from 'pino';
import type { Provider } from '@topup/providers';
import { submitWithin } from '../submit-within.js';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';

export interface InterruptedSubmissionsDependencies {
  readonly ledger: Pick<Ledger, 'listUnsubmitted' | 'markSubmitted' | 'cancel'>;
  readonly provider: Provider;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  /** A submission still unrecorded this long after its request counts as interrupted. */
  readonly interruptedAfterMs: number;
  readonly providerTimeoutMs: number;
  readonly batchSize: number;
  readonly now: () => Date;
}

async function resume(
  deps: InterruptedSubmissionsDependencies,
  transaction: TransactionRecord,
): Promise<void> {
  const { ledger, logger, metrics } = deps;
  const { reference } = transaction;
  const answer = await submitWithin(deps.provider, transaction, deps.providerTimeoutMs);
  metrics.submissionsResumed.inc({ result: answer.kind });
  if (answer.kind === 'accepted') {
    await ledger.markSubmitted(reference);
    logger.info({ reference }, 'interrupted submission sent to the provider');
  } else if (answer.kind === 'refused') {
    await ledger.cancel(reference, { reason: answer.reason, providerCode: answer.providerCode });
    logger.info(
      { reference, reason: answer.reason },
      'interrupted submission refused by the provider; cancelled',
    );
  } else {
    await ledger.cancel(reference, { reason: answer.reason });
    logger.warn(
      {
        reference,
        reason: answer.reason,
        ...(answer.detail === undefined ? {} : { providerError: answer.detail }),
      },
      'interrupted submission: provider unavailable; cancelled',
    );
  }
}

/** One round: submits a batch of interrupted submissions again and records the provider's answers. */
export async function resumeInterruptedSubmissions(
  deps: InterruptedSubmissionsDependencies,
): Promise<RoundResult> {
  const olderThan = new Date(deps.now().getTime() - deps.interruptedAfterMs);
  const stuck = await deps.ledger.listUnsubmitted(olderThan, deps.batchSize);
  const settled = await Promise.allSettled(stuck.map((transaction) => resume(deps, transaction)));
  let failures = 0;
  settled.forEach((answer, index) => {
    if (answer.status === 'rejected') {
      failures += 1;
      deps.logger.error(
        { reference: stuck[index]?.reference, err: answer.reason },
        'resuming a submission failed; will retry',
      );
    }
  });
  return { more: stuck.length === deps.batchSize && failures === 0 };
}
