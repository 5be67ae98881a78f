// The error `parseCallback` throws for a callback that must not be trusted or cannot be read. Answer it
// with a 4xx and do not act on it.

import type { VerificationFailureReason } from '@topup/signing';

/**
 * Why a callback was refused: a signature reason from `@topup/signing` (`missing_header`, `bad_format`,
 * `too_old`, `too_new`, `no_match`), or `malformed_body` when the signature holds but the body is not a
 * completion or cancellation callback.
 *
 * @example
 * ```ts
 * import { type CallbackRefusalReason, CallbackVerificationError } from '@topup/client';
 *
 * function httpStatusFor(error: CallbackVerificationError): number {
 *   const reason: CallbackRefusalReason = error.reason;
 *   return reason === 'malformed_body' ? 400 : 401;
 * }
 * ```
 */
export type CallbackRefusalReason = VerificationFailureReason | 'malformed_body';

/**
 * A received callback failed verification or is not a callback.
 *
 * @example
 * ```ts
 * import { CallbackVerificationError, parseCallback } from '@topup/client';
 *
 * try {
 *   parseCallback('{}', {}, 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=');
 * } catch (error) {
 *   if (!(error instanceof CallbackVerificationError)) throw error;
 *   error.reason; // 'missing_header'
 * }
 * ```
 */
export class CallbackVerificationError extends Error {
  override readonly name = 'CallbackVerificationError';

  constructor(
    readonly reason: CallbackRefusalReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
