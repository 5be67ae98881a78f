// What one callback attempt means for its delivery (docs/architecture.md, Callbacks): a 2xx delivers it, a 410 Gone
// disables the endpoint, anything else (another status, a redirect, a timeout, a network failure, a URL the
// policy refuses) is retried by the schedule until it is exhausted, and then the delivery is failed.

import type { CallbackPostResult } from './post-callback.js';
import { parseRetryAfter } from './retry-after.js';
import { retryDelayMs } from './retry-schedule.js';

export type AttemptOutcome =
  | { readonly outcome: 'delivered' }
  | { readonly outcome: 'endpoint_gone' }
  | { readonly outcome: 'retry'; readonly nextAttemptAt: Date }
  | { readonly outcome: 'failed' };

export interface AttemptContext {
  /** Attempts made so far, counting this one. */
  readonly attemptsMade: number;
  readonly schedule: readonly number[];
  /** The least delay after a 429 or a timeout, in seconds; 60 by default. */
  readonly slowDownFloorSeconds?: number;
  readonly now: Date;
  readonly random?: () => number;
}

const TOO_MANY_REQUESTS = 429;
const GONE = 410;

/** Decides what happens to a delivery after an attempt. */
export function attemptOutcome(result: CallbackPostResult, context: AttemptContext): AttemptOutcome {
  if (result.kind === 'answered') {
    if (result.status >= 200 && result.status < 300) return { outcome: 'delivered' };
    if (result.status === GONE) return { outcome: 'endpoint_gone' };
  }
  const delayMs = retryDelayMs({
    schedule: context.schedule,
    attemptsMade: context.attemptsMade,
    slowDown:
      result.kind === 'timeout' || (result.kind === 'answered' && result.status === TOO_MANY_REQUESTS),
    retryAfterSeconds:
      result.kind === 'answered' ? parseRetryAfter(result.retryAfter, context.now) : undefined,
    ...(context.slowDownFloorSeconds === undefined
      ? {}
      : { slowDownFloorSeconds: context.slowDownFloorSeconds }),
    ...(context.random === undefined ? {} : { random: context.random }),
  });
  if (delayMs === undefined) return { outcome: 'failed' };
  return { outcome: 'retry', nextAttemptAt: new Date(context.now.getTime() + delayMs) };
}
