// Which outcomes are worth another attempt. Two questions decide: can repeating the request do harm (a
// `change` that may have arrived must not be repeated), and can a repeat get a different answer (a
// validation failure, a bad token or an insufficient balance will not change by asking again).

import type { RetrySafety } from './api-functions.js';
import type { AttemptOutcome } from './send-attempt.js';

/**
 * Whether an outcome may be retried:
 * - no connection was made: always, nothing was sent;
 * - the request may have arrived but no envelope came back (network failure, timeout, unreadable
 *   answer): unless the function is a `change`;
 * - HTTP 429 (`5000`, rate limited): always, the service refused before doing anything;
 * - HTTP 409 with `Retry-After` (`5000`, the same key still in progress): keyed operations, whose
 *   repeat waits for and replays the first answer;
 * - `9000` (HTTP 502, or 503 while the service's store is unreachable): unless the function is a `change`;
 * - a replayed answer never: the service will give the same one again;
 * - any other failure (`1000` to `8000`) never.
 */
export function isRetryable(outcome: AttemptOutcome, safety: RetrySafety): boolean {
  if (outcome.kind === 'transport') return !outcome.mayHaveReachedServer || safety !== 'change';
  if (outcome.kind === 'success' || outcome.replayed) return false;
  if (outcome.code === '5000') {
    if (outcome.httpStatus === 429) return true;
    return outcome.httpStatus === 409 && outcome.retryAfterSeconds !== undefined && safety === 'keyed';
  }
  if (outcome.code === '9000') return safety !== 'change';
  return false;
}
