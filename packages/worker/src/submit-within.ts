// Submitting a transaction to a provider with a bound on the wait, as the server does within a request and
// the worker does for an interrupted submission: a provider that stays silent or throws is `unavailable`,
// never an error of ours. What a provider threw (driver or database text, addresses) is never a reason a
// caller reads: the reason is a fixed text, and the detail is handed back for the operator's log.
// A provider that cannot deduplicate submissions and did not say it took nothing may be moving the money:
// its answer is `unknown`, which neither caller may cancel, and `holdUnknownSubmission` records it.

import type { Ledger, TransactionRecord } from '@topup/ledger';
import { answerWithin, late } from './answer-within.js';
import type { LegOrder, Provider, SubmitResult } from '@topup/providers';

/** The reason a caller reads when a provider failed in a way of its own (the log has the detail). */
export const PROVIDER_FAILED = 'the provider failed to take the transaction';
/** The reason a caller reads when a provider did not answer within the provider timeout. */
export const PROVIDER_SILENT = 'the provider did not answer in time';

/**
 * A provider's answer, with what it threw for the log, never for the caller; `unknown` when it may have
 * taken a submission it cannot be sent again.
 */
export type SubmitAnswer =
  | (SubmitResult & { readonly detail?: string })
  | { readonly kind: 'unknown'; readonly reason: string; readonly detail?: string };

function judged(provider: Pick<Provider, 'idempotentSubmissions'>, answer: SubmitAnswer): SubmitAnswer {
  if (answer.kind !== 'unavailable' || answer.taken === false || provider.idempotentSubmissions)
    return answer;
  return { ...answer, kind: 'unknown' };
}

async function answerOf(
  provider: Pick<Provider, 'idempotentSubmissions'>,
  submission: () => Promise<SubmitResult>,
  timeoutMs: number,
): Promise<SubmitAnswer> {
  try {
    const answer = await answerWithin(submission(), timeoutMs);
    return judged(provider, answer === late ? { kind: 'unavailable', reason: PROVIDER_SILENT } : answer);
  } catch (error) {
    return judged(provider, {
      kind: 'unavailable',
      reason: PROVIDER_FAILED,
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

export function submitWithin(
  provider: Provider,
  transaction: TransactionRecord,
  timeoutMs: number,
): Promise<SubmitAnswer> {
  return answerOf(provider, () => provider.submit(transaction), timeoutMs);
}

/** `submitWithin` for a leg after the first; a provider that carries no such leg fails it. */
export function submitLegWithin(
  provider: Provider,
  order: LegOrder,
  timeoutMs: number,
): Promise<SubmitAnswer> {
  return answerOf(
    provider,
    () =>
      provider.submitLeg === undefined
        ? Promise.reject(
            new Error(`Expected ${provider.name} to carry ${order.kind} legs, but it carries none.`),
          )
        : provider.submitLeg(order),
    timeoutMs,
  );
}

/**
 * Keeps a submission whose outcome is `unknown` requested: marked submitted, so it is not submitted again,
 * with its leg noted unknown, to be asked about at `nextQueryAt` and then left to an operator.
 */
export async function holdUnknownSubmission(
  ledger: Pick<Ledger, 'markSubmitted' | 'noteUnsettledLeg'>,
  reference: string,
  provider: string,
  nextQueryAt: Date,
): Promise<void> {
  await ledger.markSubmitted(reference);
  await ledger.noteUnsettledLeg(reference, { state: 'unknown', provider, nextQueryAt, review: false });
}
