// Signing an outgoing callback: every signature header for one or several secrets (rotation).
import { bodyBytes, signatureHashMac, webhookSignatureMac } from './mac.js';
import type { CallbackBody } from './mac.js';
import { decodeSecrets } from './secret.js';
import { SIGNATURE_ALGORITHM } from './signature-headers.js';
import type { CallbackSignatureHeaders } from './signature-headers.js';

/**
 * What `signCallback` signs: the exact body, with the callback's stable id and this attempt's timestamp.
 *
 * @example
 * ```ts
 * import { signCallback, type SignCallbackInput } from '@topup/signing';
 *
 * const input: SignCallbackInput = {
 *   secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='],
 *   id: 'cb_01JD8Z6Q4M',
 *   timestamp: Math.floor(Date.now() / 1000),
 *   body: '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}',
 * };
 * const headers = signCallback(input);
 * ```
 */
export interface SignCallbackInput {
  /** One secret, or during a rotation the new secret first and the old one second. */
  readonly secrets: readonly string[];
  /** The `webhook-id`: stable across retries of the same callback. */
  readonly id: string;
  /** Unix seconds of this delivery attempt. */
  readonly timestamp: number;
  /** The exact body sent: a string is signed as UTF-8, bytes as given. */
  readonly body: CallbackBody;
}

// Header values must survive any HTTP stack, so the id is limited to visible ASCII.
const WEBHOOK_ID = /^[\x21-\x7e]+$/;

/**
 * Signs a callback and returns all six signature headers. With several secrets each signature header
 * holds one value per secret, space-separated, in the order of the secrets.
 * @throws Error for a malformed secret, an empty secret list, an id that is not visible ASCII, or a
 *   timestamp that is not a non-negative integer.
 *
 * @example
 * ```ts
 * import { generateSecret, signCallback } from '@topup/signing';
 *
 * const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';
 * const headers = signCallback({
 *   secrets: [generateSecret()],
 *   id: 'cb_01JD8Z6Q4M',
 *   timestamp: 1763740800,
 *   body,
 * });
 * await fetch('https://caller.example/callbacks', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', ...headers },
 *   body,
 * });
 * ```
 */
export function signCallback(input: SignCallbackInput): CallbackSignatureHeaders {
  const keys = decodeSecrets(input.secrets);
  if (!WEBHOOK_ID.test(input.id)) {
    throw new Error(
      `Expected a callback id of visible ASCII characters (no spaces), received ${JSON.stringify(input.id)}.`,
    );
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw new Error(`Expected a timestamp in whole Unix seconds, received ${input.timestamp}.`);
  }
  const timestamp = String(input.timestamp);
  const body = bodyBytes(input.body);
  return {
    'Signature-Algorithm': SIGNATURE_ALGORITHM,
    'Signature-Timestamp': timestamp,
    'Signature-Hash': keys.map((key) => signatureHashMac(key, timestamp, body).toString('base64')).join(' '),
    'webhook-id': input.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys
      .map((key) => `v1,${webhookSignatureMac(key, input.id, timestamp, body).toString('base64')}`)
      .join(' '),
  };
}
