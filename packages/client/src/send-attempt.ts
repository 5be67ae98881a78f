// One HTTP exchange with the service: POST the body with a timeout, read the answer and its headers,
// decode the envelope. Every way it can end becomes an outcome the retry loop can judge; only the
// caller's own abort escapes as an exception, because that is a decision, not a failure.

import { EnvelopeDecodeError } from '@topup/envelope';
import type { Envelope, FailureCode } from '@topup/envelope';
import { describeFetchFailure, neverConnected } from './connection-failure.js';
import { decodeEnvelopeBody } from './envelope-body.js';
import { retryAfterSeconds } from './retry-after.js';

export interface AttemptRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly fetch: typeof fetch;
}

/** The service answered with a success envelope. */
export interface SuccessOutcome {
  readonly kind: 'success';
  /** `data` without its empty `errors`. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly message: string;
  readonly requestId: string | undefined;
  readonly replayed: boolean;
}

/** The service answered with a failure envelope. */
export interface FailureOutcome {
  readonly kind: 'failure';
  readonly code: FailureCode;
  readonly message: string;
  readonly errors: readonly string[];
  readonly httpStatus: number;
  readonly requestId: string | undefined;
  readonly replayed: boolean;
  readonly retryAfterSeconds: number | undefined;
}

/** No envelope came back. */
export interface TransportOutcome {
  readonly kind: 'transport';
  readonly mayHaveReachedServer: boolean;
  /** What went wrong, phrased as expected versus received. */
  readonly problem: string;
  readonly cause: unknown;
  readonly httpStatus?: number;
}

export type AttemptOutcome = SuccessOutcome | FailureOutcome | TransportOutcome;

/** Sends one request and reports how it ended; rethrows the reason when the caller's signal aborts. */
export async function sendAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the attempt ends, and
  // it runs on the global timers, which tests can fake to check the 30 s default without waiting.
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    timeout.abort(new DOMException(`The attempt took longer than ${request.timeoutMs} ms.`, 'TimeoutError'));
  }, request.timeoutMs);
  try {
    return await exchange(request, timeout.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange(request: AttemptRequest, timeout: AbortSignal): Promise<AttemptOutcome> {
  const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout]);
  const failed = (error: unknown, connecting: boolean): TransportOutcome => {
    if (request.signal?.aborted === true) throw request.signal.reason;
    if (timeout.aborted) {
      return {
        kind: 'transport',
        mayHaveReachedServer: true,
        problem: `Expected an answer from ${request.url} within ${request.timeoutMs} ms, received none in time.`,
        cause: error,
      };
    }
    return {
      kind: 'transport',
      mayHaveReachedServer: !connecting || !neverConnected(error),
      problem: `Expected an answer from ${request.url}, received a network failure (${describeFetchFailure(error)}).`,
      cause: error,
    };
  };

  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal,
      // A redirected POST could be re-sent elsewhere, or turned into a GET; report it instead.
      redirect: 'manual',
    });
  } catch (error) {
    return failed(error, true);
  }

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return failed(error, false);
  }

  let envelope: Envelope;
  try {
    envelope = decodeEnvelopeBody(text);
  } catch (error) {
    if (!(error instanceof EnvelopeDecodeError)) throw error;
    return {
      kind: 'transport',
      mayHaveReachedServer: true,
      problem: `Expected a Topup envelope from ${request.url}, received HTTP ${response.status} with a body that is not one. ${error.message}`,
      cause: error,
      httpStatus: response.status,
    };
  }
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const replayed = response.headers.get('idempotency-replayed')?.trim().toLowerCase() === 'true';
  if (envelope.status.type === 'SUCCESS') {
    const { errors: _empty, ...data } = envelope.data;
    return { kind: 'success', data, message: envelope.status.message, requestId, replayed };
  }
  return {
    kind: 'failure',
    code: envelope.status.code,
    message: envelope.status.message,
    errors: envelope.data.errors,
    httpStatus: response.status,
    requestId,
    replayed,
    retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
  };
}
