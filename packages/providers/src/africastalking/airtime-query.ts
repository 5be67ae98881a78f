// Asking Africa's Talking what became of one airtime send, by the requestId its answer gave: the pull path
// that recovers a status callback that was lost or never came, with the number and value it names as
// evidence. `GET /query/transaction/find` with the apiKey header; the answer's shape is known from the SDKs
// rather than the documentation, so it is read tolerantly, and anything unclear is `unknown`, never a
// failure.

import type { ResultEvidence } from '../provider.js';
import { objectOf, parsedJson, textOf } from '../tolerant-json.js';
import { airtimeEvidence } from './airtime-evidence.js';

/**
 * The request that asks about one send: a path with its query, and the headers.
 *
 * @example
 * ```ts
 * import { airtimeQueryRequest } from '@topup/providers';
 *
 * const request = airtimeQueryRequest({ username: 'sandbox', apiKey: 'key', requestId: 'ATQid_1' });
 * request.path; // '/query/transaction/find?username=sandbox&transactionId=ATQid_1'
 * ```
 */
export function airtimeQueryRequest(input: {
  readonly username: string;
  readonly apiKey: string;
  readonly requestId: string;
}): { path: string; headers: Record<string, string> } {
  const query = new URLSearchParams({ username: input.username, transactionId: input.requestId });
  return {
    path: `/query/transaction/find?${query.toString()}`,
    headers: { apiKey: input.apiKey, Accept: 'application/json' },
  };
}

/**
 * What Africa's Talking knows of one send: delivered, failed, still with the carrier, not known to it, or
 * an answer that could not be read.
 *
 * @example
 * ```ts
 * import type { AirtimeQueryStatus } from '@topup/providers';
 *
 * const settled = (status: AirtimeQueryStatus) => status.kind === 'delivered' || status.kind === 'failed';
 * ```
 */
export type AirtimeQueryStatus =
  | { readonly kind: 'delivered'; readonly requestId: string; readonly evidence?: ResultEvidence }
  | {
      readonly kind: 'failed';
      readonly requestId: string;
      readonly description: string;
      readonly evidence?: ResultEvidence;
    }
  | { readonly kind: 'sent'; readonly requestId: string }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'unknown'; readonly problem: string };

/**
 * Reads a query's answer (its HTTP status and body); never throws.
 *
 * @example
 * ```ts
 * import { readAirtimeQueryAnswer } from '@topup/providers';
 *
 * readAirtimeQueryAnswer(200, '{"status":"Success","data":{"requestId":"ATQid_1","status":"Success","value":"KES 100.0000"}}');
 * // { kind: 'delivered', requestId: 'ATQid_1', evidence: { amountMinor: 10_000n } }
 * ```
 */
export function readAirtimeQueryAnswer(status: number, text: string): AirtimeQueryStatus {
  const body = objectOf(parsedJson(text));
  if (status !== 200 || body === undefined) {
    const shown = text.trim().slice(0, 80).replace(/\s+/g, ' ');
    return { kind: 'unknown', problem: `HTTP ${String(status)}: ${JSON.stringify(shown)}` };
  }
  if (textOf(body['status']) === 'Failure') {
    const message = textOf(body['errorMessage']) ?? '';
    return /not found/i.test(message)
      ? { kind: 'not_found' }
      : { kind: 'unknown', problem: `the query failed: ${message || 'no errorMessage'}` };
  }
  const data = objectOf(body['data']);
  const requestId = textOf(data?.['requestId']) ?? '';
  const sendStatus = textOf(data?.['status']) ?? '';
  if (requestId === '') return { kind: 'unknown', problem: 'expected data.requestId, found none' };
  const found = airtimeEvidence(textOf(data?.['phoneNumber']), textOf(data?.['value'] ?? data?.['amount']));
  const evidence = found === undefined ? {} : { evidence: found };
  if (sendStatus === 'Success') return { kind: 'delivered', requestId, ...evidence };
  if (sendStatus === 'Failed') {
    return { kind: 'failed', requestId, description: textOf(data?.['description']) ?? '', ...evidence };
  }
  if (sendStatus === 'Sent' || sendStatus === 'Queued') return { kind: 'sent', requestId };
  return {
    kind: 'unknown',
    problem: `expected a status of Success, Failed or Sent, received ${JSON.stringify(sendStatus)}`,
  };
}
