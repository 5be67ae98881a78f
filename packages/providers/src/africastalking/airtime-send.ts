// Africa's Talking airtime send: one form-encoded POST whose `recipients` field is JSON text, keyed by an
// Idempotency-Key (our delivery leg's id, so a repeat within AT's window sends nothing twice), answered 201
// with a status per recipient. "Sent" means handed to the carrier, not delivered: the final word comes
// later, by callback or by query. Any other per-recipient status is a refusal of that recipient, except a duplicate: AT refuses
// a repeat of an Idempotency-Key within its window, and the same number and amount within five minutes,
// as a duplicate rather than replaying its first answer, so a duplicate means the first send was taken
// and its outcome is unknown.

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
 * Whether AT's text names a duplicate: its refusal of a repeat of an Idempotency-Key within its window,
 * or of the same number and amount within five minutes ("A duplicate request was received within the last
 * 5 minutes"). A duplicate is no refusal: the first send was taken, and its outcome is unknown.
 */
const namesDuplicate = (text: string) => /duplicate/i.test(text);

/** Whether AT's text says the airtime wallet cannot pay for the send ("Insufficient Credit"). */
const namesLowWallet = (text: string) => /insufficient|wallet balance|low balance/i.test(text);

/**
 * What Africa's Talking said of one recipient of a send: sent (with AT's discount on it, as AT writes it),
 * refused (saying whether for the airtime wallet's balance), or refused as a duplicate of an earlier send,
 * which means that send was taken and its outcome is unknown.
 *
 * @example
 * ```ts
 * import type { AirtimeRecipientStatus } from '@topup/providers';
 *
 * const sent: AirtimeRecipientStatus = {
 *   kind: 'sent', requestId: 'ATQid_1', phoneNumber: '+254712345678', discount: 'KES 4.0000',
 * };
 * ```
 */
export type AirtimeRecipientStatus =
  | {
      readonly kind: 'sent';
      readonly requestId: string;
      readonly phoneNumber: string;
      /** AT's discount on the send (`KES 4.0000`); blank when the answer does not say it. */
      readonly discount: string;
    }
  | {
      readonly kind: 'refused';
      readonly reason: string;
      readonly phoneNumber: string;
      /** Refused because the airtime wallet cannot pay for it. */
      readonly walletLow: boolean;
    }
  | { readonly kind: 'duplicate'; readonly reason: string; readonly phoneNumber: string };

/**
 * A send's answer that names no recipient: what was wrong; whether Africa's Talking refused the request
 * as a whole (a 4xx, such as the plain-text 401 of a wrong apiKey or username), so that nothing was sent,
 * or answered something else (a gateway's error page, a 5xx), after which it is unknown; whether it
 * refused it as a duplicate of an earlier send (taken, outcome unknown); and whether for the wallet.
 *
 * @example
 * ```ts
 * import type { AirtimeSendProblem } from '@topup/providers';
 *
 * const refused: AirtimeSendProblem = {
 *   ok: false, problem: 'HTTP 401: The supplied authentication is invalid', nothingSent: true,
 *   duplicate: false, walletLow: false,
 * };
 * ```
 */
export interface AirtimeSendProblem {
  readonly ok: false;
  readonly problem: string;
  readonly nothingSent: boolean;
  readonly duplicate: boolean;
  readonly walletLow: boolean;
}

/**
 * Reads a send's answer (its HTTP status and body): each recipient's status, or what was wrong with it.
 * Never throws; an HTML page or a body without recipients is a problem, not a refusal, and a duplicate
 * (a whole answer's errorMessage or a recipient's) is never a refusal either.
 *
 * @example
 * ```ts
 * import { readAirtimeSendAnswer } from '@topup/providers';
 *
 * readAirtimeSendAnswer(201, '{"errorMessage":"None","responses":[{"phoneNumber":"+254712345678","status":"Sent","requestId":"ATQid_1","errorMessage":"None"}]}');
 * // { ok: true, recipients: [{ kind: 'sent', requestId: 'ATQid_1', phoneNumber: '+254712345678', discount: '' }] }
 * ```
 */
export function readAirtimeSendAnswer(
  status: number,
  text: string,
): { ok: true; recipients: AirtimeRecipientStatus[] } | AirtimeSendProblem {
  const refusedWhole = status >= 400 && status < 500;
  const body = objectOf(parsedJson(text));
  if (body === undefined) {
    const shown = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    // Africa's Talking answers its own refusals (a wrong apiKey or username) in plain text.
    return {
      ok: false,
      problem: refusedWhole
        ? `HTTP ${String(status)}: ${shown}`
        : `HTTP ${String(status)} with a body that is not JSON: ${JSON.stringify(shown)}`,
      nothingSent: refusedWhole,
      duplicate: false,
      walletLow: false,
    };
  }
  const responses = listOf(body['responses']);
  if (status !== 201 || responses.length === 0) {
    const message = textOf(body['errorMessage']) ?? '';
    const duplicate = namesDuplicate(message);
    return {
      ok: false,
      problem: `HTTP ${String(status)}: ${message === '' ? 'no recipients in the answer' : message}`,
      // A duplicate was refused because an earlier send was taken: never "nothing sent".
      nothingSent: !duplicate && (refusedWhole || status === 201),
      duplicate,
      walletLow: namesLowWallet(message),
    };
  }
  const recipients = responses.map((response): AirtimeRecipientStatus => {
    const fields = objectOf(response) ?? {};
    const phoneNumber = textOf(fields['phoneNumber']) ?? '';
    const requestId = textOf(fields['requestId']) ?? '';
    if (textOf(fields['status']) === 'Sent' && requestId !== '' && requestId !== 'None') {
      return { kind: 'sent', requestId, phoneNumber, discount: textOf(fields['discount']) ?? '' };
    }
    const message = textOf(fields['errorMessage']) ?? '';
    const reason =
      message === '' || message === 'None' ? `status ${textOf(fields['status']) ?? 'missing'}` : message;
    if (namesDuplicate(message)) return { kind: 'duplicate', reason, phoneNumber };
    return { kind: 'refused', reason, phoneNumber, walletLow: namesLowWallet(message) };
  });
  return { ok: true, recipients };
}
