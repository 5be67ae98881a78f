// The errors a failure envelope becomes: one class per status code, all extending `TopupApiError`, so
// callers can `catch` broadly or narrow with `instanceof` (or on the literal `code`).

import type { FailureCode } from '@topup/envelope';

/**
 * What every API error carries besides its code.
 *
 * @example
 * ```ts
 * import { type ApiErrorDetails, createClient, TopupApiError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getTransaction({ reference: 'TXUNKNOWN' });
 * } catch (error) {
 *   if (!(error instanceof TopupApiError)) throw error;
 *   const details: ApiErrorDetails = error;
 *   console.error(details.message, details.errors, `request ${details.requestId ?? 'unknown'}`);
 * }
 * ```
 */
export interface ApiErrorDetails {
  /** `status.message` of the answer, e.g. `Missing or Invalid Parameters`. */
  readonly message: string;
  /** `data.errors` of the answer, e.g. `["'mobile is required.'"]`. */
  readonly errors: readonly string[];
  readonly httpStatus: number;
  /** `X-Request-Id` of the answer; quote it when asking about a call. */
  readonly requestId: string | undefined;
  /** Whole seconds from `Retry-After`, when the service sent one. */
  readonly retryAfterSeconds: number | undefined;
  /** True when the answer was the service replaying the first answer to this `Idempotency-Key`. */
  readonly replayed: boolean;
  /** The key the call was sent with (operations only); retry with it to learn the outcome safely. */
  readonly idempotencyKey: string | undefined;
}

/**
 * A `FAIL` envelope from the service. `message` is the envelope's `status.message`.
 *
 * @example
 * ```ts
 * import { createClient, TopupApiError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof TopupApiError)) throw error;
 *   console.error(
 *     `${error.code} ${error.message} (HTTP ${error.httpStatus}, request ${error.requestId ?? '?'})`,
 *   );
 * }
 * ```
 */
export abstract class TopupApiError extends Error implements ApiErrorDetails {
  abstract readonly code: FailureCode;
  readonly errors: readonly string[];
  readonly httpStatus: number;
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly replayed: boolean;
  readonly idempotencyKey: string | undefined;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.errors = Object.freeze([...details.errors]);
    this.httpStatus = details.httpStatus;
    this.requestId = details.requestId;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.replayed = details.replayed;
    this.idempotencyKey = details.idempotencyKey;
  }
}

/**
 * `1000`: the request could not be read (unknown function, unparsable body, unsupported media type).
 *
 * @example
 * ```ts
 * import { createClient, InvalidApiRequestError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof InvalidApiRequestError)) throw error;
 *   console.error('the service could not read the request:', error.errors);
 * }
 * ```
 */
export class InvalidApiRequestError extends TopupApiError {
  readonly code = '1000';
  override readonly name = 'InvalidApiRequestError';
}

/**
 * `2000`: a method other than POST.
 *
 * @example
 * ```ts
 * import { createClient, InvalidRequestMethodError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof InvalidRequestMethodError)) throw error;
 *   console.error('a proxy changed the method?', error.httpStatus); // 405
 * }
 * ```
 */
export class InvalidRequestMethodError extends TopupApiError {
  readonly code = '2000';
  override readonly name = 'InvalidRequestMethodError';
}

/**
 * `3000`: missing or invalid fields; `errors` names each, e.g. `'amount is invalid'`.
 *
 * @example
 * ```ts
 * import { createClient, InvalidParametersError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.sendAgentFloat({ mobile: '07123', amount: 0 });
 * } catch (error) {
 *   if (!(error instanceof InvalidParametersError)) throw error;
 *   error.errors; // e.g. ["'mobile is invalid'", "'amount is invalid'"]
 * }
 * ```
 */
export class InvalidParametersError extends TopupApiError {
  readonly code = '3000';
  override readonly name = 'InvalidParametersError';
}

/**
 * `4000`: the token is missing, malformed, unknown or revoked.
 *
 * @example
 * ```ts
 * import { createClient, InvalidTokenError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof InvalidTokenError)) throw error;
 *   console.error('check TOPUP_TOKEN: unknown or revoked token');
 * }
 * ```
 */
export class InvalidTokenError extends TopupApiError {
  readonly code = '4000';
  override readonly name = 'InvalidTokenError';
}

/**
 * `5000`: not allowed: the operation is not enabled, the token's rate limit was hit (HTTP 429, with
 * `retryAfterSeconds`), or the `Idempotency-Key` was used with a different request (HTTP 409).
 *
 * @example
 * ```ts
 * import { createClient, RequestNotAllowedError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof RequestNotAllowedError)) throw error;
 *   if (error.retryAfterSeconds !== undefined)
 *     console.log(`rate limited; retry in ${error.retryAfterSeconds} s`);
 * }
 * ```
 */
export class RequestNotAllowedError extends TopupApiError {
  readonly code = '5000';
  override readonly name = 'RequestNotAllowedError';
}

/**
 * `6000`: the account is suspended or closed.
 *
 * @example
 * ```ts
 * import { createClient, InvalidAccountError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof InvalidAccountError)) throw error;
 *   console.error('the account is suspended or closed');
 * }
 * ```
 */
export class InvalidAccountError extends TopupApiError {
  readonly code = '6000';
  override readonly name = 'InvalidAccountError';
}

/**
 * `7000`: the channel an operation is paid from cannot cover it: the Agent Float channel for
 * `sendAgentFloat`, the Airtime channel for the total of a `sendAirtime`. Nothing was reserved.
 *
 * @example
 * ```ts
 * import { createClient, InsufficientBalanceError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.sendAgentFloat({
 *     mobile: '254712345678',
 *     amount: 1_000_000,
 *     agent_number: '1',
 *     store_number: '2',
 *   });
 * } catch (error) {
 *   if (!(error instanceof InsufficientBalanceError)) throw error;
 *   console.error('top up the Agent Float channel first');
 * }
 * ```
 */
export class InsufficientBalanceError extends TopupApiError {
  readonly code = '7000';
  override readonly name = 'InsufficientBalanceError';
}

/**
 * `8000`: the provider refused at once; the transaction is cancelled and nothing was moved. A
 * `sendAirtime` never throws it: a recipient refused at once is a `Cancelled` entry of its result.
 *
 * @example
 * ```ts
 * import { createClient, TransactionCancelledError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.buyAirtime({
 *     mobile: '254712345678',
 *     amount: 100,
 *     payment_network: 'MoneyNetA',
 *     payment_mobile: '254722000111',
 *   });
 * } catch (error) {
 *   if (!(error instanceof TransactionCancelledError)) throw error;
 *   console.error('cancelled:', error.errors.join('; ')); // nothing was charged
 * }
 * ```
 */
export class TransactionCancelledError extends TopupApiError {
  readonly code = '8000';
  override readonly name = 'TransactionCancelledError';
}

/**
 * `9000`: a provider or the service's store failed.
 *
 * @example
 * ```ts
 * import { createClient, GatewayError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof GatewayError)) throw error;
 *   console.error('provider or store failure; try again later', error.requestId);
 * }
 * ```
 */
export class GatewayError extends TopupApiError {
  readonly code = '9000';
  override readonly name = 'GatewayError';
}

const errorClasses: Readonly<Record<FailureCode, new (details: ApiErrorDetails) => TopupApiError>> = {
  '1000': InvalidApiRequestError,
  '2000': InvalidRequestMethodError,
  '3000': InvalidParametersError,
  '4000': InvalidTokenError,
  '5000': RequestNotAllowedError,
  '6000': InvalidAccountError,
  '7000': InsufficientBalanceError,
  '8000': TransactionCancelledError,
  '9000': GatewayError,
};

/** The typed error for a failure code. */
export function apiErrorFor(code: FailureCode, details: ApiErrorDetails): TopupApiError {
  return new errorClasses[code](details);
}
