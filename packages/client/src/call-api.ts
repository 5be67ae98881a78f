// One call of an API function: encode the fields in the client's format, send with the same headers
// (and the same `Idempotency-Key`) on every attempt, retry what the rules allow after a jittered wait,
// and end with the success data or a typed error.

import { setTimeout as sleep } from 'node:timers/promises';
import { contentTypeOf, encodeJsonRequest, encodeXmlRequest } from '@topup/envelope';
import type { RequestFields } from '@topup/envelope';
import { apiErrorFor } from './api-errors.js';
import type { ApiFunction } from './api-functions.js';
import { retryDelayMs } from './backoff.js';
import type { ClientSettings } from './client-options.js';
import { isRetryable } from './retry-rules.js';
import { sendAttempt } from './send-attempt.js';
import type { FailureOutcome, SuccessOutcome, TransportOutcome } from './send-attempt.js';
import { TopupTransportError } from './transport-error.js';

export interface ApiCall {
  readonly fn: ApiFunction;
  readonly fields: RequestFields;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly idempotencyKey: string | undefined;
}

const acceptOf = { json: 'application/json', xml: 'text/xml' } as const;

/** Calls an API function with retries; throws a `TopupApiError` or `TopupTransportError` on failure. */
export async function callApi(settings: ClientSettings, call: ApiCall): Promise<SuccessOutcome> {
  const body = settings.format === 'xml' ? encodeXmlRequest(call.fields) : encodeJsonRequest(call.fields);
  const headers: Record<string, string> = {
    Authorization: settings.authorization,
    Accept: acceptOf[settings.format],
    'Content-Type': contentTypeOf(settings.format),
  };
  if (call.idempotencyKey !== undefined) headers['Idempotency-Key'] = call.idempotencyKey;
  const request = {
    url: settings.apiUrl + call.fn.wireName,
    headers,
    body,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
    fetch: settings.fetch,
  };

  // A transport error must not claim the request never arrived when an earlier attempt may have.
  let earlierMayHaveArrived = false;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await sendAttempt(request);
    if (outcome.kind === 'success') return outcome;
    const delayMs =
      attempt < settings.retry.attempts && isRetryable(outcome, call.fn.safety)
        ? retryDelayMs(
            attempt,
            settings.retry,
            outcome.kind === 'failure' ? outcome.retryAfterSeconds : undefined,
          )
        : undefined;
    if (delayMs === undefined) throw errorOf(outcome, call.idempotencyKey, earlierMayHaveArrived);
    earlierMayHaveArrived ||=
      outcome.kind === 'transport' ? outcome.mayHaveReachedServer : outcome.code === '9000';
    await pause(delayMs, call.signal);
  }
}

async function pause(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(delayMs, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    // Report the caller's own reason, as fetch does, rather than the timer's AbortError.
    if (signal?.aborted === true) throw signal.reason;
    throw error;
  }
}

function errorOf(
  outcome: FailureOutcome | TransportOutcome,
  idempotencyKey: string | undefined,
  earlierMayHaveArrived: boolean,
): Error {
  if (outcome.kind === 'transport') {
    const arrived = !outcome.mayHaveReachedServer && earlierMayHaveArrived;
    return new TopupTransportError(
      arrived ? `${outcome.problem} An earlier attempt may have reached the service.` : outcome.problem,
      {
        mayHaveReachedServer: outcome.mayHaveReachedServer || earlierMayHaveArrived,
        cause: outcome.cause,
        ...(outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus }),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      },
    );
  }
  return apiErrorFor(outcome.code, {
    message: outcome.message,
    errors: outcome.errors,
    httpStatus: outcome.httpStatus,
    requestId: outcome.requestId,
    retryAfterSeconds: outcome.retryAfterSeconds,
    replayed: outcome.replayed,
    idempotencyKey,
  });
}
