// The names and shape of the headers a signed callback carries: the spec's three `Signature-*` headers and
// the three Standard Webhooks headers.

/**
 * The only algorithm the spec's `Signature-Algorithm` header names.
 *
 * @example
 * ```ts
 * import { SIGNATURE_ALGORITHM } from '@topup/signing';
 *
 * SIGNATURE_ALGORITHM; // 'HMAC-SHA256'
 * ```
 */
export const SIGNATURE_ALGORITHM = 'HMAC-SHA256';

/**
 * Header names exactly as sent; receivers look them up case-insensitively.
 *
 * @example
 * ```ts
 * import { signatureHeaderNames } from '@topup/signing';
 *
 * // node lower-cases incoming header names
 * const received = { 'signature-hash': 'base64…', 'webhook-id': 'cb_01JD8Z6Q4M' };
 * received[signatureHeaderNames.webhookId]; // 'cb_01JD8Z6Q4M'
 * signatureHeaderNames.hash; // 'Signature-Hash'
 * ```
 */
export const signatureHeaderNames = {
  algorithm: 'Signature-Algorithm',
  timestamp: 'Signature-Timestamp',
  hash: 'Signature-Hash',
  webhookId: 'webhook-id',
  webhookTimestamp: 'webhook-timestamp',
  webhookSignature: 'webhook-signature',
} as const;

/**
 * Every signature header of one callback. With several secrets (rotation) `Signature-Hash` and
 * `webhook-signature` hold one value per secret, space-separated, in the order of the secrets.
 *
 * @example
 * ```ts
 * import { signCallback, type CallbackSignatureHeaders } from '@topup/signing';
 *
 * const headers: CallbackSignatureHeaders = signCallback({
 *   secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
 *   id: 'cb_01JD8Z6Q4M',
 *   timestamp: 1763740800,
 *   body: '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}',
 * });
 * headers['Signature-Timestamp']; // '1763740800'
 * headers['webhook-signature'].startsWith('v1,'); // true
 * ```
 */
// A type alias rather than an interface, so the headers can be passed where a Record<string, string> is expected.
export type CallbackSignatureHeaders = {
  readonly 'Signature-Algorithm': typeof SIGNATURE_ALGORITHM;
  readonly 'Signature-Timestamp': string;
  readonly 'Signature-Hash': string;
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};
