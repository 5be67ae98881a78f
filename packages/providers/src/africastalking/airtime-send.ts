// Africa's Talking airtime send: one form-encoded POST whose `recipients` field is JSON text, keyed by an
// Idempotency-Key (our delivery leg's id, so a repeat sends nothing twice), answered 201 with a status per
// recipient. "Sent" means handed to the carrier, not delivered: the final word comes later, by callback or
// by query. Any other per-recipient status is a refusal of that recipient.

import { listOf, objectOf, parsedJson, textOf } from '../tolerant-json.js';

/**
 * One airtime send: the form body and headers to POST to `/version1/airtime/send`.
 *
 * @example
 * ```ts
 * import { airtimeSendRequest } from '@topup/providers';
 *
 * const request = airtimeSendRequest({ username: 'sandbox', apiKey: 'key', idempotencyKey: 'TX1-delivery',
 *   mobile: '254712345678', amountMinor: 10_050n, currency: 'KES' });
 * request.body; // 'username=sandbox&recipients=%5B%7B%22phoneNumber%22%3A%22%2B254712345678%22%2C%22amount%22%3A%22KES+100.50%22%7D%5D'
 * ```
 */
export function airtimeSendRequest(input: {
  readonly username: string;
  readonly apiKey: string;
  readonly idempotencyKey: string;
  /** International form without the plus: 2547…. */
  readonly mobile: string;
  readonly amountMinor: bigint;
  readonly currency: string;
}): { headers: Record<string, string>; body: string } {
  const whole = input.amountMinor / 100n;
  const cents = input.amountMinor % 100n;
  const amount = `${input.currency} ${String(whole)}${cents === 0n ? '' : `.${String(cents).padStart(2, '0')}`}`;
  const recipients = JSON.stringify([{ phoneNumber: `+${input.mobile}`, amount }]);
  return {
    headers: {
      apiKey: input.apiKey,
      Accept: 'application/json',
      'Content-Type': 'application/x-www-form-urlencoded',
      'Idempotency-Key': input.idempotencyKey,
    },
    body: new URLSearchParams({ username: input.username, recipients }).toString(),
  };
}

/**
 * What Africa's Talking said of one recipient of a send.
 *
 * @example
 * ```ts
 * import type { AirtimeRecipientStatus } from '@topup/providers';
 *
 * const sent: AirtimeRecipientStatus = { kind: 'sent', requestId: 'ATQid_1', phoneNumber: '+254712345678' };
 * ```
 */
export type AirtimeRecipientStatus =
  | { readonly kind: 'sent'; readonly requestId: string; readonly phoneNumber: string }
  | { readonly kind: 'refused'; readonly reason: string; readonly phoneNumber: string };

/**
 * A send's answer that names no recipient: what was wrong, and whether Africa's Talking refused the
 * request as a whole (a 4xx, such as the plain-text 401 of a wrong apiKey or username), so that nothing
 * was sent, or answered something else (a gateway's error page, a 5xx), after which it is unknown.
 *
 * @example
 * ```ts
 * import type { AirtimeSendProblem } from '@topup/providers';
 *
 * const refused: AirtimeSendProblem = { ok: false, problem: 'HTTP 401: The supplied authentication is invalid', nothingSent: true };
 * ```
 */
export interface AirtimeSendProblem {
  readonly ok: false;
  readonly problem: string;
  readonly nothingSent: boolean;
}

/**
 * Reads a send's answer (its HTTP status and body): each recipient's status, or what was wrong with it.
 * Never throws; an HTML page or a body without recipients is a problem, not a refusal.
 *
 * @example
 * ```ts
 * import { readAirtimeSendAnswer } from '@topup/providers';
 *
 * readAirtimeSendAnswer(201, '{"errorMessage":"None","responses":[{"phoneNumber":"+254712345678","status":"Sent","requestId":"ATQid_1","errorMessage":"None"}]}');
 * // { ok: true, recipients: [{ kind: 'sent', requestId: 'ATQid_1', phoneNumber: '+254712345678' }] }
 * ```
 */
export function readAirtimeSendAnswer(
  status: number,
  text: string,
): { ok: true; recipients: AirtimeRecipientStatus[] } | AirtimeSendProblem {
  const nothingSent = status >= 400 && status < 500;
  const body = objectOf(parsedJson(text));
  if (body === undefined) {
    const shown = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    // Africa's Talking answers its own refusals (a wrong apiKey or username) in plain text.
    return {
      ok: false,
      problem: nothingSent
        ? `HTTP ${String(status)}: ${shown}`
        : `HTTP ${String(status)} with a body that is not JSON: ${JSON.stringify(shown)}`,
      nothingSent,
    };
  }
  const responses = listOf(body['responses']);
  if (status !== 201 || responses.length === 0) {
    const message = textOf(body['errorMessage']) ?? '';
    return {
      ok: false,
      problem: `HTTP ${String(status)}: ${message === '' ? 'no recipients in the answer' : message}`,
      nothingSent: nothingSent || status === 201,
    };
  }
  const recipients = responses.map((response): AirtimeRecipientStatus => {
    const fields = objectOf(response) ?? {};
    const phoneNumber = textOf(fields['phoneNumber']) ?? '';
    const requestId = textOf(fields['requestId']) ?? '';
    if (textOf(fields['status']) === 'Sent' && requestId !== '')
      return { kind: 'sent', requestId, phoneNumber };
    const reason = textOf(fields['errorMessage']) ?? '';
    return {
      kind: 'refused',
      reason: reason === '' || reason === 'None' ? `status ${textOf(fields['status']) ?? 'missing'}` : reason,
      phoneNumber,
    };
  });
  return { ok: true, recipients };
}
