// Daraja's SecurityCredential for initiator calls (B2B, Transaction Status, Reversal): the initiator's
// password encrypted with RSA PKCS#1 v1.5 under the public key of Safaricom's X.509 certificate (the
// sandbox and production certificates differ), in base64. Encrypting again gives a different text each
// time; Safaricom decrypts any of them.

import { constants, createPublicKey, publicEncrypt } from 'node:crypto';

/**
 * Encrypts the initiator password with the certificate (a PEM certificate or public key).
 *
 * @throws when the PEM holds no RSA public key, saying what it found.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { securityCredential } from '@topup/providers';
 *
 * const credential = securityCredential('initiator password', readFileSync('ProductionCertificate.cer', 'utf8'));
 * ```
 */
export function securityCredential(initiatorPassword: string, certificatePem: string): string {
  let key;
  try {
    key = createPublicKey(certificatePem);
  } catch (error) {
    throw new Error(
      `Expected a PEM certificate or public key for DARAJA_CERTIFICATE, received one that cannot be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error(
      `Expected an RSA certificate for DARAJA_CERTIFICATE, received a key of type ${String(key.asymmetricKeyType)}.`,
    );
  }
  return publicEncrypt(
    { key, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(initiatorPassword, 'utf8'),
  ).toString('base64');
}
