// How the fake Daraja reads a SecurityCredential, as Safaricom does: RSA-decrypt it with the private key
// of the certificate the adapter was given, and take the password out of its PKCS#1 v1.5 padding. Node
// refuses PKCS#1 v1.5 private decryption (the Marvin timing attack), so the fake decrypts without padding
// and checks the padding itself; a fake's key guards nothing, so the timing does not matter here.

import { constants, privateDecrypt } from 'node:crypto';

/** The password inside a credential, or undefined when it was not made with this key's certificate. */
export function passwordInCredential(credential: string, privateKeyPem: string): string | undefined {
  let block: Buffer;
  try {
    block = privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_NO_PADDING },
      Buffer.from(credential, 'base64'),
    );
  } catch {
    return undefined;
  }
  // 0x00 0x02, at least eight non-zero padding bytes, 0x00, then the message.
  if (block[0] !== 0x00 || block[1] !== 0x02) return undefined;
  const end = block.indexOf(0x00, 2);
  if (end < 10) return undefined;
  return block.subarray(end + 1).toString('utf8');
}
