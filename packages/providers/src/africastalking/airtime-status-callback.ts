// The status callback Africa's Talking sends when the carrier has answered for an airtime send: the
// requestId the send's answer gave, and `Success` or `Failed`. Sent as JSON or form-encoded (the
// documentation is not clear, so both are read), and unsigned: the route's secret path and source
// allow-list guard it.

import { objectOf, parsedJson, textOf } from '../tolerant-json.js';

/**
 * One recipient's final airtime status.
 *
 * @example
 * ```ts
 * import { parseAirtimeStatusCallback } from '@topup/providers';
 *
 * parseAirtimeStatusCallback('application/json', '{"requestId":"ATQid_1","status":"Success","phoneNumber":"+254712345678"}');
 * // { ok: true, status: { requestId: 'ATQid_1', delivered: true, phoneNumber: '+254712345678', description: '', value: '', discount: '' } }
 * ```
 */
export interface AirtimeStatus {
  readonly requestId: string;
  /** `Success`: the carrier credited it; `Failed`: it did not. */
  readonly delivered: boolean;
  readonly phoneNumber: string;
  readonly description: string;
  /** The value sent, as AT writes it (`KES 100.0000`); blank when the callback does not say it. */
  readonly value: string;
  /** AT's discount on it, as AT writes it (`KES 4.0000`); blank when the callback does not say it. */
  readonly discount: string;
}

/**
 * Reads a status callback body, JSON or form-encoded whatever its content type says; never throws.
 *
 * @example
 * ```ts
 * import { parseAirtimeStatusCallback } from '@topup/providers';
 *
 * const read = parseAirtimeStatusCallback('application/x-www-form-urlencoded', 'requestId=ATQid_1&status=Failed');
 * if (read.ok) read.status.delivered; // false
 * ```
 */
export function parseAirtimeStatusCallback(
  contentType: string,
  body: string,
): { ok: true; status: AirtimeStatus } | { ok: false; problem: string } {
  const json = objectOf(parsedJson(body));
  const field = (name: string): string | undefined =>
    json === undefined ? (new URLSearchParams(body).get(name) ?? undefined) : textOf(json[name]);
  const requestId = field('requestId');
  const status = field('status');
  if (requestId === undefined || requestId === '') {
    return { ok: false, problem: `expected a requestId in the ${contentType || 'untyped'} body, found none` };
  }
  if (status !== 'Success' && status !== 'Failed') {
    return {
      ok: false,
      problem: `expected status Success or Failed for ${requestId}, received ${JSON.stringify(status ?? null)}`,
    };
  }
  return {
    ok: true,
    status: {
      requestId,
      delivered: status === 'Success',
      phoneNumber: field('phoneNumber') ?? '',
      description: field('description') ?? '',
      value: field('value') ?? field('amount') ?? '',
      discount: field('discount') ?? '',
    },
  };
}
