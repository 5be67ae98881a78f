// Finishing submissions a crash interrupted: a transaction the server recorded but never marked submitted
// (the process died between the ledger and the provider, or before recording the provider's answer) is
// submitted again once the server's own provider timeout has surely passed, and its answer recorded like
// the server would. A provider that deduplicates submissions by reference takes it at most once; one that
// cannot is asked first whether it already has it, and is never sent it again blindly: a transaction it
// cannot be asked about, or whose network no provider serves any more, is noted on its leg on the same
// schedule as the timeout's reconciliation, so it waits for an operator once the window is over whichever
// loop asked last.

import type { Ledger, TransactionRecord } from '@topup/ledger';
import type { Logger } from 'pino';
import { firstLegNetwork } from '@topup/providers';
import type { Provider, ProviderRoutes, ProviderStatus } from '@topup/providers';
import { answerWithin, late } from '../answer-within.js';
import { holdUnknownSubmission, submitWithin } from '../submit-within.js';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult } from './result-application.js';
import { noteFirstLegOnSchedule, type QuerySchedule } from './query-backoff.js';

export interface InterruptedSubmissionsDependencies extends QuerySchedule {
  readonly ledger: Pick<
    Ledger,
    | 'listUnsubmitted'
    | 'markSubmitted'
    | 'cancel'
    | 'complete'
    | 'noteUnsettledLeg'
    | 'applyLegEvent'
    | 'legs'
  >;
  /** The provider of each transaction's network is the one it is submitted to. */
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  readonly logger: Logger;
  readonly metrics: WorkerMetrics;
  /** A submission still unrecorded this long after its request counts as interrupted. */
  readonly interruptedAfterMs: number;
  readonly providerTimeoutMs: number;
  readonly batchSize: number;
  readonly now: () => Date;
}

/**
 * For a provider that cannot deduplicate a submission: whether it already has the transaction. `submit`
 * when it says it never took it; `settled` when its answer was recorded here; `unknown` when it could not
 * be asked, in which case nothing is sent.
 */
async function lookedUp(
  deps: InterruptedSubmissionsDependencies,
  transaction: TransactionRecord,
  provider: Provider,
): Promise<'submit' | 'settled' | 'unknown'> {
  const { ledger } = deps;
  const { reference } = transaction;
  const status: ProviderStatus | typeof late = await answerWithin(
    provider.query(reference),
    deps.providerTimeoutMs,
  ).catch(() => late);
  if (status === late) {
    await noteFirstLegOnSchedule(
      ledger,
      deps,
      transaction,
      { state: 'unknown', provider: provider.name },
      deps.now(),
    );
    return 'unknown';
  }
  if (status.kind === 'not_found') return 'submit';
  if (status.kind === 'pending') await ledger.markSubmitted(reference);
  else {
    await applyProviderResult(deps, status.result, provider.name, 'query');
    await provider.acknowledge([status.result.id]);
  }
  return 'settled';
}

async function resume(
  deps: InterruptedSubmissionsDependencies,
  transaction: TransactionRecord,
): Promise<void> {
  const { ledger, logger, metrics } = deps;
  const { reference } = transaction;
  const network = firstLegNetwork(transaction);
  const provider = deps.providers.forNetwork(network);
  if (provider === undefined) {
    // PROVIDERS changed since it was made: it is never sent elsewhere. Noting its leg keeps it out of the
    // next rounds, so it is logged once per wait and left for the timeout's reconciliation.
    await noteFirstLegOnSchedule(
      deps.ledger,
      deps,
      transaction,
      { state: 'unknown', provider: '' },
      deps.now(),
    );
    logger.warn({ reference, network }, 'no provider serves the network of an interrupted submission');
    return;
  }
  if (!provider.idempotentSubmissions) {
    const found = await lookedUp(deps, transaction, provider);
    if (found !== 'submit') {
      logger.info(
        { reference, provider: found },
        'interrupted submission looked up at its provider, not resent',
      );
      return;
    }
  }
  // Claimed first, under the transaction's row lock: of two workers resuming it, only one sends it.
  const seenCalls = (await ledger.legs(reference))[0]?.calls ?? 0;
  const claim = await ledger.applyLegEvent(reference, 'first', {
    kind: 'call',
    provider: provider.name,
    seenCalls,
    // Resumed again then, by whoever finds it, if this worker dies before it records the answer.
    nextQueryAt: new Date(deps.now().getTime() + deps.interruptedAfterMs),
  });
  if (claim?.action !== 'claim') {
    logger.info({ reference }, 'interrupted submission claimed by another worker, or settled meanwhile');
    return;
  }
  const answer = await submitWithin(provider, transaction, deps.providerTimeoutMs);
  metrics.submissionsResumed.inc({ result: answer.kind });
  if (answer.kind === 'accepted') {
    await ledger.markSubmitted(reference);
    logger.info({ reference }, 'interrupted submission sent to the provider');
  } else if (answer.kind === 'refused') {
    await ledger.cancel(reference, {
      reason: answer.reason,
      providerCode: answer.providerCode,
      provider: provider.name,
    });
    logger.info(
      { reference, reason: answer.reason },
      'interrupted submission refused by the provider; cancelled',
    );
  } else if (answer.kind === 'unknown') {
    // Asked first and not found, then silent: it may have taken it now, and cannot be sent it again.
    await holdUnknownSubmission(
      ledger,
      reference,
      provider.name,
      new Date(deps.now().getTime() + deps.interruptedAfterMs),
    );
    logger.warn(
      { reference, ...(answer.detail === undefined ? {} : { providerError: answer.detail }) },
      'interrupted submission: its outcome is unknown; left requested for reconciliation',
    );
  } else if (answer.taken !== false) {
    // A provider that deduplicates and went silent may have taken it: it is sent again, under the same
    // key, next round, and the transaction timeout asks about it in the end. Cancelling could refund
    // money the provider is moving.
    logger.warn(
      { reference, ...(answer.detail === undefined ? {} : { providerError: answer.detail }) },
      'interrupted submission: the provider did not answer; sent again next round',
    );
  } else {
    await ledger.cancel(reference, { reason: answer.reason, provider: provider.name });
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
