// Identifiers the ledger hands out: transaction references, account, token, endpoint and delivery ids,
// API tokens and callback secrets. All come from the operating system's CSPRNG, so none is guessable.
// Random bytes are drawn a few kilobytes at a time: one call into the CSPRNG per many identifiers instead
// of one per identifier, which matters at thousands of transactions per second.

import { randomBytes, randomFillSync } from 'node:crypto';

const entropy = Buffer.allocUnsafe(4096);
let entropyUsed = entropy.length;

/** The next unused random byte; each byte is handed out once. */
function randomByte(): number {
  if (entropyUsed === entropy.length) {
    randomFillSync(entropy);
    entropyUsed = 0;
  }
  const byte = entropy[entropyUsed] as number;
  entropyUsed += 1;
  return byte;
}

/** Crockford base32: no I, L, O or U, so references read back unambiguously over the phone. */
const base32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from `alphabet` (at most 256 symbols), from the operating system's
 * CSPRNG a few kilobytes at a time, so a hot path that needs a random code costs no call into it.
 *
 * @example
 * ```ts
 * import { randomString } from '@topup/ledger';
 *
 * const code: string = randomString('0123456789ABCDEF', 10); // e.g. '3F09A1C2D4'
 * ```
 */
export function randomString(alphabet: string, length: number): string {
  // Bytes at or above the largest multiple of the alphabet size are discarded, so no symbol is favoured.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet.charAt(byte % alphabet.length);
  }
  return out;
}

/** A transaction reference: `TX` + 12 base32 characters (60 random bits). */
export function newReference(): string {
  return `TX${randomString(base32, 12)}`;
}

/** A caller account id: `acct_` + 16 base62 characters. */
export function newAccountId(): string {
  return `acct_${randomString(base62, 16)}`;
}

/** An API token id (safe to show and log): `tok_` + 16 base62 characters. */
export function newTokenId(): string {
  return `tok_${randomString(base62, 16)}`;
}

/** An API token secret: `tk_test_` / `tk_live_` + 32 base62 characters (about 190 random bits). */
export function newApiToken(mode: 'test' | 'live'): string {
  return `tk_${mode}_${randomString(base62, 32)}`;
}

/** A callback endpoint id: `ep_` + 16 base62 characters. */
export function newEndpointId(): string {
  return `ep_${randomString(base62, 16)}`;
}

/** A callback delivery id, the stable `webhook-id`: `cb_` + 20 base62 characters. */
export function newDeliveryId(): string {
  return `cb_${randomString(base62, 20)}`;
}

/** A callback signing secret: `whsec_` + base64 of 32 random bytes (docs/architecture.md, Callbacks). */
export function newCallbackSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
