// Daraja's clock and its STK password. Daraja reads `Timestamp` as East Africa Time (UTC+3, no daylight
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
