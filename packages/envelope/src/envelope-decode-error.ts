// The one error the envelope decoders throw: the text was not an envelope, and the message says why.

/**
 * Thrown by `decodeJsonEnvelope` and `decodeXmlEnvelope` when a body is not a well-formed envelope.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, EnvelopeDecodeError } from '@topup/envelope';
 *
 * try {
 *   decodeJsonEnvelope('{"status":1}');
 * } catch (error) {
 *   if (!(error instanceof EnvelopeDecodeError)) throw error;
 *   error.message; // 'Expected a status object at status, received the number 1.'
 * }
 * ```
 */
export class EnvelopeDecodeError extends Error {
  override name = 'EnvelopeDecodeError';
}
