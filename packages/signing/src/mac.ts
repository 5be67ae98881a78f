// The two HMAC-SHA256 computations over a callback's exact bytes: the spec's `Signature-Hash` input
// `<timestamp>.<raw body>` and the Standard Webhooks input `<id>.<timestamp>.<raw body>`.
import { createHmac } from 'node:crypto';

/**
 * A callback body as sent on the wire: text (signed as UTF-8) or the exact bytes.
 *
 * @example
 * ```ts
 * import type { CallbackBody } from '@topup/signing';
 *
 * const text: CallbackBody = '{"status":{"type":"SUCCESS"}}'; // signed as its UTF-8 bytes
 * const bytes: CallbackBody = new TextEncoder().encode(text); // signed as given
 * ```
 */
export type CallbackBody = string | Uint8Array;

/** The bytes that are signed: a string as UTF-8, bytes as given (no copy). */
export function bodyBytes(body: CallbackBody): Buffer {
  return typeof body === 'string'
    ? Buffer.from(body, 'utf8')
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** HMAC-SHA256 of `<timestamp>.<raw body>`, the spec's `Signature-Hash` before base64. */
export function signatureHashMac(key: Buffer, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/** HMAC-SHA256 of `<id>.<timestamp>.<raw body>`, the Standard Webhooks `v1` signature before base64. */
export function webhookSignatureMac(key: Buffer, id: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
}
