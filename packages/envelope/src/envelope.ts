// The response envelope: its types and the only builders that make one. Every body the service or a
// caller's callback endpoint writes goes through these, so the shape rules of the contract live here:
// success carries an empty `errors` list before its data, failure carries nothing but `errors`, and the
// answer to a callback carries no `data` at all.

import {
  failureMessage,
  successMessages,
  type CancellableOperation,
  type FailureCode,
  type FixedMessageCode,
  type StatusCode,
  type StatusType,
} from './status-codes.js';
import type { TestCallbackData } from './data.js';

/**
 * The status block every message starts with: `SUCCESS`/`0000` or `FAIL` with its failure code.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type Status } from '@topup/envelope';
 *
 * const status: Status = decodeJsonEnvelope(
 *   '{"status":{"type":"FAIL","code":"7000","message":"Insufficient Balance"},"data":{"errors":[]}}',
 * ).status;
 * status.code; // '7000'
 * ```
 */
export interface Status {
  type: StatusType;
  code: StatusCode;
  message: string;
}

/**
 * The status block of a success.
 *
 * @example
 * ```ts
 * import { success, type SuccessStatus } from '@topup/envelope';
 *
 * const status: SuccessStatus = success('Balance found', { channels: [] }).status;
 * status; // { type: 'SUCCESS', code: '0000', message: 'Balance found' }
 * ```
 */
export interface SuccessStatus {
  type: 'SUCCESS';
  code: '0000';
  message: string;
}

/**
 * The status block of a failure.
 *
 * @example
 * ```ts
 * import { failure, type FailureStatus } from '@topup/envelope';
 *
 * const status: FailureStatus = failure('7000').status;
 * status; // { type: 'FAIL', code: '7000', message: 'Insufficient Balance' }
 * ```
 */
export interface FailureStatus {
  type: 'FAIL';
  code: FailureCode;
  message: string;
}

/**
 * A `SUCCESS`/`0000` envelope with data of type `D`.
 *
 * @example
 * ```ts
 * import { success, type BalanceData, type SuccessEnvelope } from '@topup/envelope';
 *
 * const answer: SuccessEnvelope<BalanceData> = success('Balance found', { channels: [] });
 * answer.data; // { errors: [], channels: [] }
 * ```
 */
export interface SuccessEnvelope<D extends object> {
  status: SuccessStatus;
  /** `errors` comes first and is always empty, then the data fields in the order given. */
  data: { errors: [] } & D;
}

/**
 * A `FAIL` envelope: its status and the list of errors, nothing else.
 *
 * @example
 * ```ts
 * import { failure, type FailureEnvelope } from '@topup/envelope';
 *
 * const answer: FailureEnvelope = failure('3000', ["'amount is invalid'"]);
 * answer.data; // { errors: ["'amount is invalid'"] }
 * ```
 */
export interface FailureEnvelope {
  status: FailureStatus;
  /** On failure `data` holds only `errors` (spec, Response envelope). */
  data: { errors: string[] };
}

/**
 * Any answer of the API: a success with data of type `D`, or a failure. Narrow on `status.type`.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type Envelope } from '@topup/envelope';
 *
 * const envelope: Envelope = decodeJsonEnvelope(
 *   '{"status":{"type":"FAIL","code":"4000","message":"Invalid API Token"},"data":{"errors":["Invalid API Token"]}}',
 * );
 * if (envelope.status.type === 'FAIL') {
 *   envelope.status.code; // '4000'
 * }
 * ```
 */
export type Envelope<D extends object = object> = SuccessEnvelope<D> | FailureEnvelope;

/**
 * A cancellation callback: `FAIL`/`8000` like a synchronous failure, but unlike one it carries the full
 * transaction data so the caller can correlate by `transaction.reference` (docs/architecture.md, Codes and HTTP statuses).
 * Structurally it is a `FailureEnvelope`, so the codecs accept it as one.
 *
 * @example
 * ```ts
 * import { cancellationCallback, encodeJson, type CancellationCallback } from '@topup/envelope';
 *
 * const callback: CancellationCallback<{ note: string }> = cancellationCallback(
 *   'buy_airtime',
 *   ['payer declined'],
 *   { note: 'order 1042' },
 * );
 * encodeJson(callback); // '{"status":{"type":"FAIL","code":"8000","message":"Purchase Cancelled"},"data":{"errors":["payer declined"],"note":"order 1042"}}'
 * ```
 */
export interface CancellationCallback<D extends object> {
  status: { type: 'FAIL'; code: '8000'; message: string };
  data: { errors: string[] } & D;
}

/**
 * The caller's answer to a callback: a status block and no `data` object (spec, Callback response).
 *
 * @example
 * ```ts
 * import { callbackResponse, encodeJson, type CallbackResponse } from '@topup/envelope';
 *
 * const answer: CallbackResponse = callbackResponse();
 * encodeJson(answer); // '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}'
 * ```
 */
export interface CallbackResponse {
  status: { type: 'SUCCESS'; code: '0000'; message: string };
}

/**
 * Anything the codecs write: an envelope or the answer to a callback.
 *
 * @example
 * ```ts
 * import { callbackResponse, encodeJson, encodeXml, failure, type WireMessage } from '@topup/envelope';
 *
 * function write(message: WireMessage, format: 'json' | 'xml'): string {
 *   return format === 'json' ? encodeJson(message) : encodeXml(message);
 * }
 * write(callbackResponse(), 'json');
 * write(failure('9000'), 'xml');
 * ```
 */
export type WireMessage = Envelope | CallbackResponse;

/**
 * Options of `failure`.
 *
 * @example
 * ```ts
 * import { failure, type FailureOptions } from '@topup/envelope';
 *
 * const options: FailureOptions = { operation: 'buy_airtime' };
 * failure('8000', [], options).status.message; // 'Purchase Cancelled'
 * ```
 */
export interface FailureOptions {
  /** Selects the `8000` message: `Agent Float Cancelled` or `Purchase Cancelled`; required for `8000`. */
  operation?: CancellableOperation;
}

/**
 * A `SUCCESS`/`0000` envelope. `data.errors` is written first and empty, then the fields of `data` in
 * their own order. `data` may not carry `errors` itself: a success has none.
 *
 * @example
 * ```ts
 * import { encodeJson, success } from '@topup/envelope';
 *
 * const answer = success('Balance found', {
 *   channels: [{ type: 'Agent Float', currency: 'KES', balance: '1500.00' }],
 * });
 * encodeJson(answer); // '{"status":{"type":"SUCCESS","code":"0000","message":"Balance found"},"data":{"errors":[],"channels":[{"type":"Agent Float","currency":"KES","balance":1500.00}]}}'
 * ```
 */
export function success<D extends object>(message: string, data: D): SuccessEnvelope<D> {
  if (Object.hasOwn(data, 'errors')) {
    throw new TypeError(
      'Expected success data without an "errors" field (a success has no errors), received one.',
    );
  }
  return { status: { type: 'SUCCESS', code: '0000', message }, data: { errors: [], ...data } };
}

/**
 * A `FAIL` envelope with the code's message; `data` holds only a copy of `errors`. `8000` has one
 * message per operation, so it needs `options.operation`: the types demand it for a literal `'8000'`, and
 * a code only known at run time throws without one.
 *
 * @example
 * ```ts
 * import { failure } from '@topup/envelope';
 *
 * failure('3000', ["'mobile is required.'"]); // { status: { type: 'FAIL', code: '3000', message: 'Missing or Invalid Parameters' }, data: { errors: ["'mobile is required.'"] } }
 * failure('8000', [], { operation: 'buy_airtime' }).status.message; // 'Purchase Cancelled'
 * ```
 */
export function failure(
  code: '8000',
  errors: readonly string[],
  options: FailureOptions & { operation: CancellableOperation },
): FailureEnvelope;
export function failure(
  code: FixedMessageCode,
  errors?: readonly string[],
  options?: FailureOptions,
): FailureEnvelope;
/** A code known only at run time: the options are required, with the operation when it may be `8000`. */
export function failure(
  code: FailureCode,
  errors: readonly string[],
  options: FailureOptions,
): FailureEnvelope;
export function failure(
  code: FailureCode,
  errors: readonly string[] = [],
  options: FailureOptions = {},
): FailureEnvelope {
  return {
    status: { type: 'FAIL', code, message: failureMessage(code, options.operation) },
    data: { errors: [...errors] },
  };
}

/**
 * A `FAIL`/`8000` callback for a cancelled transaction, carrying `errors` and then the transaction data.
 *
 * @example
 * ```ts
 * import { cancellationCallback } from '@topup/envelope';
 *
 * const callback = cancellationCallback('send_agent_float', ['provider refused the transfer'], {
 *   note: 'INV-2025-0042',
 * });
 * callback.status; // { type: 'FAIL', code: '8000', message: 'Agent Float Cancelled' }
 * callback.data; // { errors: ['provider refused the transfer'], note: 'INV-2025-0042' }
 * ```
 */
export function cancellationCallback<D extends object>(
  operation: CancellableOperation,
  errors: readonly string[],
  data: D,
): CancellationCallback<D> {
  if (Object.hasOwn(data, 'errors')) {
    throw new TypeError(
      'Expected cancellation data without an "errors" field (pass errors separately), received one.',
    );
  }
  return {
    status: { type: 'FAIL', code: '8000', message: failureMessage('8000', operation) },
    data: { errors: [...errors], ...data },
  };
}

/**
 * The test callback `send_test_callback` sends to an endpoint: `SUCCESS`/`0000`/`Test callback`, with the
 * endpoint's id and the time it was sent (ISO 8601, UTC) in `data.test`, and no transaction.
 *
 * @example
 * ```ts
 * import { encodeJson, testCallback } from '@topup/envelope';
 *
 * encodeJson(testCallback('ep_4KX2', new Date('2025-11-21T11:05:09.120Z'))); // '{"status":{"type":"SUCCESS","code":"0000","message":"Test callback"},"data":{"errors":[],"test":{"endpoint_id":"ep_4KX2","sent":"2025-11-21T11:05:09.120Z"}}}'
 * ```
 */
export function testCallback(endpointId: string, sent: Date): SuccessEnvelope<TestCallbackData> {
  return success(successMessages.testCallback, {
    test: { endpoint_id: endpointId, sent: sent.toISOString() },
  });
}

/**
 * The answer a caller's endpoint gives to a callback: `SUCCESS`/`0000`/`Callback processed`, no data.
 *
 * @example
 * ```ts
 * import { callbackResponse, encodeXml } from '@topup/envelope';
 *
 * encodeXml(callbackResponse()); // '<?xml version="1.0" encoding="utf-8"?><xml><status><type>SUCCESS</type><code>0000</code><message>Callback processed</message></status></xml>'
 * ```
 */
export function callbackResponse(): CallbackResponse {
  return { status: { type: 'SUCCESS', code: '0000', message: successMessages.callbackProcessed } };
}
