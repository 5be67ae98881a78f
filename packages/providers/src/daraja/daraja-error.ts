// What a Daraja call that did not succeed says. Daraja answers failures as JSON `{requestId, errorCode,
// errorMessage}`, but a gateway in front of it may answer an HTML page or nothing; either way the answer
// is read into one shape, and the few codes an adapter acts on are named here.

import { objectOf, parsedJson, textOf } from '../tolerant-json.js';

/**
 * A failed Daraja call: its HTTP status and, when the body said them, Daraja's code and message.
 *
 * @example
 * ```ts
 * import { darajaErrorOf } from '@topup/providers';
 *
 * darajaErrorOf(404, '{"requestId":"1","errorCode":"404.001.03","errorMessage":"Invalid Access Token"}');
 * // { status: 404, requestId: '1', errorCode: '404.001.03', errorMessage: 'Invalid Access Token' }
 * ```
 */
export interface DarajaError {
  readonly status: number;
  readonly requestId: string;
  /** Blank when the body was not Daraja's JSON. */
  readonly errorCode: string;
  readonly errorMessage: string;
}

/**
 * Reads a failed call's answer; never throws.
 *
 * @example
 * ```ts
 * import { darajaErrorOf } from '@topup/providers';
 *
 * darajaErrorOf(502, '<html>Bad Gateway</html>').errorCode; // '' (not Daraja's own answer)
 * ```
 */
export function darajaErrorOf(status: number, text: string): DarajaError {
  const body = objectOf(parsedJson(text));
  const errorCode = textOf(body?.['errorCode']) ?? '';
  const shown = text.trim().slice(0, 80).replace(/\s+/g, ' ');
  return {
    status,
    requestId: textOf(body?.['requestId']) ?? '',
    errorCode,
    errorMessage:
      textOf(body?.['errorMessage']) ??
      (body === undefined
        ? `HTTP ${String(status)} with a body that is not JSON: ${JSON.stringify(shown)}`
        : ''),
  };
}

const tokenRejections: ReadonlySet<string> = new Set(['404.001.03', '400.003.01', '401.002.01']);

/**
 * Daraja refused the access token (expired, or replaced by a newer one): fetch a new one and retry once.
 *
 * @example
 * ```ts
 * import { darajaErrorOf, isTokenRejected } from '@topup/providers';
 *
 * isTokenRejected(darajaErrorOf(404, '{"errorCode":"404.001.03","errorMessage":"Invalid Access Token"}')); // true
 * ```
 */
export function isTokenRejected(error: DarajaError): boolean {
  return tokenRejections.has(error.errorCode) || (error.status === 401 && error.errorCode === '');
}

/**
 * STK Query's answer while the payment prompt is still open: the payment is pending, not failed.
 *
 * @example
 * ```ts
 * import { darajaErrorOf, isStillProcessing } from '@topup/providers';
 *
 * isStillProcessing(
 *   darajaErrorOf(500, '{"errorCode":"500.001.1001","errorMessage":"The transaction is being processed"}'),
 * ); // true
 * ```
 */
export function isStillProcessing(error: DarajaError): boolean {
  return error.errorCode === '500.001.1001' && /being processed/i.test(error.errorMessage);
}
