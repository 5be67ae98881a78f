// Test helper: what a scripted provider of an exhaustive model knows of one call our side made to it, and
// how it answers. Whether it has the call (took it), how many calls our side made, and what it said of the
// call, all told: a later result saying otherwise makes it `both`, as does a result naming another amount.
// An operator's finding, once recorded, is what the provider confirmed.

import type { SubmitResult } from '@topup/providers';

export type Finding = 'succeeded' | 'failed';

/** What a provider said of a call, all told: nothing yet, one thing, or both (or of another amount). */
export type Said = 'nothing' | Finding | 'both';

export interface ProviderSide {
  calls: number;
  has: boolean;
  said: Said;
}

/** How the provider answers a call during an event: as scripted, or as an honest provider at the end. */
export type CallAnswer = 'accept' | 'refuse' | 'unreachable' | 'silent';

export interface Answers {
  readonly calls: CallAnswer;
  readonly honest: boolean;
}

/** The provider says `what` of the call. */
export function tell(side: ProviderSide, what: Finding | 'both'): void {
  side.said = side.said === 'nothing' || side.said === what ? what : 'both';
}

/** Answers a call as `answers` script it; the provider has the call when it took it. */
export function answerCall(answers: Answers, side: ProviderSide): Promise<SubmitResult> {
  switch (answers.honest ? 'accept' : answers.calls) {
    case 'accept':
      side.has = true;
      return Promise.resolve({ kind: 'accepted' });
    case 'refuse':
      return Promise.resolve({ kind: 'refused', reason: 'refused by the provider', providerCode: 'REFUSED' });
    case 'unreachable':
      return Promise.reject(new Error('connect ETIMEDOUT'));
    case 'silent':
      side.has = true;
      return Promise.reject(new Error('socket hang up'));
  }
}

/** Whether questions fail during the event: the provider cannot be reached. */
export function questionsFail(answers: Answers): boolean {
  return !answers.honest && (answers.calls === 'unreachable' || answers.calls === 'silent');
}

/** What an honest provider says the call came to: the operator's finding, what it said, or `unsaid`. */
export function truthOf(side: ProviderSide, finding: Finding | undefined, unsaid: Finding): Finding {
  if (finding !== undefined) return finding;
  return side.said === 'nothing' ? unsaid : side.said === 'both' ? 'failed' : side.said;
}

/** What the call came to, for the checks at the end: unclear when the provider said two things. */
export function settledTruth(
  side: ProviderSide,
  finding: Finding | undefined,
): Finding | 'never taken' | 'unclear' {
  if (finding !== undefined) return finding;
  if (!side.has) return 'never taken';
  return side.said === 'nothing' || side.said === 'both' ? 'unclear' : side.said;
}

/** The abstract state of a provider's side: calls matter only as none or some (a second is checked). */
export function sideView(side: ProviderSide): { called: boolean; has: boolean; said: Said } {
  return { called: side.calls > 0, has: side.has, said: side.said };
}
