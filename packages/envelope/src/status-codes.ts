// The status-code table of the contract: code, type, message and the default HTTP status of each.
// HTTP statuses are ours (docs/architecture.md, Codes and HTTP statuses); the spec leaves them open.

/**
 * A status code of the contract: `0000` for success, the others for failures.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type StatusCode } from '@topup/envelope';
 *
 * const code: StatusCode = decodeJsonEnvelope(
 *   '{"status":{"type":"SUCCESS","code":"0000","message":"Balance found"},"data":{"errors":[]}}',
 * ).status.code;
 * code; // '0000'
 * ```
 */
export type StatusCode =
  '0000' | '1000' | '2000' | '3000' | '4000' | '5000' | '6000' | '7000' | '8000' | '9000';
/**
 * A status code of a failure: every code but `0000`.
 *
 * @example
 * ```ts
 * import { failure, statusCodes, type FailureCode } from '@topup/envelope';
 *
 * const code: FailureCode = '7000';
 * statusCodes[code].httpStatus; // 402
 * failure(code).status.message; // 'Insufficient Balance'
 * ```
 */
export type FailureCode = Exclude<StatusCode, '0000'>;
/**
 * The `status.type` of a message.
 *
 * @example
 * ```ts
 * import type { Envelope, StatusType } from '@topup/envelope';
 *
 * function succeeded(envelope: Envelope): boolean {
 *   const type: StatusType = envelope.status.type;
 *   return type === 'SUCCESS';
 * }
 * ```
 */
export type StatusType = 'SUCCESS' | 'FAIL';

/**
 * The API operations whose `8000` message differs.
 *
 * @example
 * ```ts
 * import { failureMessage, type CancellableOperation } from '@topup/envelope';
 *
 * const operation: CancellableOperation = 'buy_airtime';
 * failureMessage('8000', operation); // 'Purchase Cancelled'
 * ```
 */
export type CancellableOperation = 'send_agent_float' | 'buy_airtime' | 'send_airtime';

/**
 * One row of the status-code table: the code, its type and message, and the HTTP status it is sent with.
 *
 * @example
 * ```ts
 * import { statusCodes, type StatusCodeEntry } from '@topup/envelope';
 *
 * const entry: StatusCodeEntry = statusCodes['4000'];
 * entry; // { code: '4000', type: 'FAIL', message: 'Invalid API Token', httpStatus: 401 }
 * ```
 */
export interface StatusCodeEntry {
  readonly code: StatusCode;
  readonly type: StatusType;
  readonly message: string;
  /** Default HTTP status; a few triggers use another one (see `alternateHttpStatus`). */
  readonly httpStatus: number;
}

/**
 * `0000` texts. The spec names their meaning only; the wording is ours and fixed here.
 *
 * @example
 * ```ts
 * import { success, successMessages } from '@topup/envelope';
 *
 * success(successMessages.balanceFound, { channels: [] }).status.message; // 'Balance found'
 * ```
 */
export const successMessages = {
  agentFloatRequested: 'Agent float requested',
  airtimeRequested: 'Airtime purchase requested',
  airtimeSendRequested: 'Airtime send requested',
  balanceFound: 'Balance found',
  transactionFound: 'Transaction found',
  agentFloatDeposited: 'Agent float deposited',
  airtimeDelivered: 'Airtime delivered',
  callbackProcessed: 'Callback processed',
  callbackEndpointAdded: 'Callback endpoint added',
  callbackEndpointsFound: 'Callback endpoints found',
  callbackEndpointRemoved: 'Callback endpoint removed',
  callbackSecretRotated: 'Callback secret rotated',
  callbackResent: 'Callback resent',
  callbackDeliveriesFound: 'Callback deliveries found',
  failedCallbacksResent: 'Failed callbacks resent',
  testCallbackSent: 'Test callback sent',
  testCallback: 'Test callback',
  transactionsFound: 'Transactions found',
  statementFound: 'Statement found',
} as const;

/**
 * The status-code table of the contract: every code with its type, message and HTTP status. `0000`
 * carries the text the spec's table lists for it, the balance-found one; each success answer has its
 * own text (`successMessages`).
 *
 * @example
 * ```ts
 * import { statusCodes } from '@topup/envelope';
 *
 * statusCodes['0000']; // { code: '0000', type: 'SUCCESS', message: 'Balance found', httpStatus: 200 }
 * statusCodes['3000'].message; // 'Missing or Invalid Parameters'
 * statusCodes['3000'].httpStatus; // 422
 * ```
 */
export const statusCodes: Readonly<Record<StatusCode, StatusCodeEntry>> = {
  '0000': { code: '0000', type: 'SUCCESS', message: successMessages.balanceFound, httpStatus: 200 },
  '1000': { code: '1000', type: 'FAIL', message: 'Invalid API Request', httpStatus: 400 },
  '2000': { code: '2000', type: 'FAIL', message: 'Invalid Request Method', httpStatus: 405 },
  '3000': { code: '3000', type: 'FAIL', message: 'Missing or Invalid Parameters', httpStatus: 422 },
  '4000': { code: '4000', type: 'FAIL', message: 'Invalid API Token', httpStatus: 401 },
  '5000': { code: '5000', type: 'FAIL', message: 'Request Not Allowed', httpStatus: 403 },
  '6000': { code: '6000', type: 'FAIL', message: 'Invalid Account', httpStatus: 403 },
  '7000': { code: '7000', type: 'FAIL', message: 'Insufficient Balance', httpStatus: 402 },
  // The float wording; `failureMessage('8000', operation)` gives each operation's own.
  '8000': { code: '8000', type: 'FAIL', message: 'Agent Float Cancelled', httpStatus: 409 },
  '9000': { code: '9000', type: 'FAIL', message: 'Gateway Error', httpStatus: 502 },
};

/**
 * HTTP statuses used instead of the default for particular triggers of a code.
 *
 * @example
 * ```ts
 * import { alternateHttpStatus, statusCodes } from '@topup/envelope';
 *
 * // An unknown /api/<function_name> is a `1000` failure answered 404 rather than 400.
 * const httpStatus = alternateHttpStatus.unknownFunction;
 * statusCodes['1000'].httpStatus; // 400
 * httpStatus; // 404
 * ```
 */
export const alternateHttpStatus = {
  unknownFunction: 404,
  rateLimited: 429,
  idempotencyConflict: 409,
  storeUnavailable: 503,
} as const;

const cancelledMessages: Readonly<Record<CancellableOperation, string>> = {
  send_agent_float: 'Agent Float Cancelled',
  buy_airtime: 'Purchase Cancelled',
  send_airtime: 'Airtime Cancelled',
};

/**
 * A failure code whose message is the same for every operation: every code but `8000`.
 *
 * @example
 * ```ts
 * import { failureMessage, type FixedMessageCode } from '@topup/envelope';
 *
 * const code: FixedMessageCode = '9000';
 * failureMessage(code); // 'Gateway Error'
 * ```
 */
export type FixedMessageCode = Exclude<FailureCode, '8000'>;

/**
 * The message of a failure code. `8000` has one message per operation, so it needs the operation: the
 * types demand it for a literal `'8000'`, and a code only known at run time throws without one.
 *
 * @example
 * ```ts
 * import { failureMessage } from '@topup/envelope';
 *
 * failureMessage('7000'); // 'Insufficient Balance'
 * failureMessage('8000', 'send_agent_float'); // 'Agent Float Cancelled'
 * failureMessage('8000', 'buy_airtime'); // 'Purchase Cancelled'
 * ```
 */
export function failureMessage(code: '8000', operation: CancellableOperation): string;
export function failureMessage(code: FixedMessageCode, operation?: CancellableOperation): string;
/** A code known only at run time: pass the operation, or `undefined` when it is not `8000`. */
export function failureMessage(code: FailureCode, operation: CancellableOperation | undefined): string;
export function failureMessage(code: FailureCode, operation?: CancellableOperation): string {
  if (code !== '8000') return statusCodes[code].message;
  if (operation === undefined) {
    throw new TypeError(
      'Expected an operation (send_agent_float, buy_airtime or send_airtime) with status code 8000, whose message ' +
        'depends on it; received none.',
    );
  }
  return cancelledMessages[operation];
}
