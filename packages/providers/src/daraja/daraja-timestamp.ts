// Daraja's clock and its STK password, and the credentials STK calls carry. Daraja reads `Timestamp` as East Africa Time (UTC+3, no daylight
// saving), whatever the caller's time zone, and the password is only valid with that same timestamp.

const eastAfricaOffsetMs = 3 * 60 * 60 * 1000;

/**
 * `YYYYMMDDHHmmss` in East Africa Time, as STK Push and STK Query take it.
 *
 * @example
 * ```ts
 * import { darajaTimestamp } from '@topup/providers';
 *
 * darajaTimestamp(new Date('2026-11-24T21:05:09Z')); // '20261125000509'
 * ```
 */
export function darajaTimestamp(at: Date): string {
  const local = new Date(at.getTime() + eastAfricaOffsetMs).toISOString();
  return local.slice(0, 19).replace(/[-T:]/g, '');
}

/**
 * The STK password: base64 of the business short code, the passkey and the timestamp, run together.
 *
 * @example
 * ```ts
 * import { stkPassword } from '@topup/providers';
 *
 * stkPassword('174379', 'passkey', '20261125000509'); // 'MTc0Mzc5cGFzc2tleTIwMjYxMTI1MDAwNTA5'
 * ```
 */
export function stkPassword(shortCode: string, passkey: string, timestamp: string): string {
  return Buffer.from(`${shortCode}${passkey}${timestamp}`, 'utf8').toString('base64');
}

/**
 * The three fields that authenticate an STK Push or STK Query: the short code, and the password of a
 * timestamp taken now.
 *
 * @example
 * ```ts
 * import { stkCredentials } from '@topup/providers';
 *
 * stkCredentials('174379', 'passkey', new Date('2026-11-24T21:05:09Z'));
 * // { BusinessShortCode: '174379', Password: 'MTc0Mzc5cGFzc2tleTIwMjYxMTI1MDAwNTA5', Timestamp: '20261125000509' }
 * ```
 */
export function stkCredentials(
  shortCode: string,
  passkey: string,
  at: Date,
): { BusinessShortCode: string; Password: string; Timestamp: string } {
  const timestamp = darajaTimestamp(at);
  return {
    BusinessShortCode: shortCode,
    Password: stkPassword(shortCode, passkey, timestamp),
    Timestamp: timestamp,
  };
}
