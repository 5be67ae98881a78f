// Callback endpoint secrets: `whsec_` + base64 of random bytes (Standard Webhooks form, docs/architecture.md, Callbacks).
// The HMAC key is the decoded bytes, never the text, so a secret here signs exactly as in any Standard
// Webhooks library.
import { randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_KEY_BYTES = 32;
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Generates a new endpoint secret: `whsec_` followed by the base64 of 32 random bytes.
 *
 * @example
 * ```ts
 * import { generateSecret } from '@topup/signing';
 *
 * const secret = generateSecret();
 * secret.startsWith('whsec_'); // true
 * secret.length; // 50
 * ```
 */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_KEY_BYTES).toString('base64');
}

/**
 * Decodes a `whsec_<base64>` secret into its HMAC key bytes.
 * @throws Error when the prefix is missing, the base64 is not canonical padded base64, or the key is empty.
 *   The message describes the shape received without echoing the secret.
 *
 * @example
 * ```ts
 * import { decodeSecret } from '@topup/signing';
 *
 * decodeSecret('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=').length; // 32
 * decodeSecret('not-a-secret'); // throws: Expected a secret of the form whsec_<base64>, …
 * ```
 */
export function decodeSecret(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error(
      `Expected a secret of the form ${SECRET_PREFIX}<base64>, received ${describeShape(secret)} without the ${SECRET_PREFIX} prefix.`,
    );
  }
  const encoded = secret.slice(SECRET_PREFIX.length);
  const key = PADDED_BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : undefined;
  // Re-encoding rejects base64 with stray trailing bits, which Buffer would silently accept.
  if (key === undefined || key.toString('base64') !== encoded) {
    throw new Error(
      `Expected ${SECRET_PREFIX} to be followed by padded base64, received ${describeShape(secret)} whose key part is not valid base64.`,
    );
  }
  if (key.length === 0) {
    throw new Error(`Expected a non-empty key after ${SECRET_PREFIX}, received an empty key.`);
  }
  return key;
}

/** Decodes every secret of a rotation list, which must hold at least one. */
export function decodeSecrets(secrets: readonly string[]): Buffer[] {
  if (secrets.length === 0) {
    throw new Error('Expected at least one secret, received an empty list.');
  }
  return secrets.map(decodeSecret);
}

function describeShape(secret: string): string {
  return `a ${secret.length}-character string`;
}
