// The one catalog of API operations: for each name in `/api/<function_name>`, its parser and schema,
// whether it moves money (and so is keyed and bounded by its channel), its success message and the
// client's method name. The server's routes and idempotency rules, the OpenAPI document and the client's
// method table are read from it, so an operation is added in one place.

import { successMessages } from '@topup/envelope';
import { z } from 'zod';
import {
  getBalanceSchema,
  getTransactionSchema,
  parseGetBalance,
  parseGetTransaction,
} from './account-requests.js';
import { buyAirtimeSchema, parseBuyAirtime } from './buy-airtime.js';
import {
  addCallbackEndpointSchema,
  listCallbackDeliveriesSchema,
  listCallbackEndpointsSchema,
  parseAddCallbackEndpoint,
  parseListCallbackDeliveries,
  parseListCallbackEndpoints,
  parseRemoveCallbackEndpoint,
  parseResendCallback,
  parseResendFailedCallbacks,
  parseRotateCallbackSecret,
  parseSendTestCallback,
  removeCallbackEndpointSchema,
  resendCallbackSchema,
  resendFailedCallbacksSchema,
  rotateCallbackSecretSchema,
  sendTestCallbackSchema,
} from './callback-requests.js';
import {
  listStatementSchema,
  listTransactionsSchema,
  parseListStatement,
  parseListTransactions,
} from './listing-requests.js';
import type { ParseOptions, ValidationResult } from './request-parser.js';
import { parseSendAgentFloat, sendAgentFloatSchema } from './send-agent-float.js';
import { parseSendAirtime, sendAirtimeSchema } from './send-airtime.js';

/**
 * What an operation does, which decides how it may be repeated:
 * - `money`: moves money; honours an `Idempotency-Key`, so a repeat is answered from the first answer, and
 *   takes its amount bounds from its channel's configuration;
 * - `read`: changes nothing;
 * - `change`: changes state without a key (a second `rotate_callback_secret` replaces the secret the first
 *   returned), so it is never repeated once it may have arrived.
 *
 * @example
 * ```ts
 * import { operationCatalog, type OperationKind } from '@topup/validation';
 *
 * const kind: OperationKind = operationCatalog.buy_airtime.kind; // 'money'
 * ```
 */
export type OperationKind = 'money' | 'read' | 'change';

/**
 * One API operation as every part of the service knows it: the server's route, validation and
 * idempotency rules, the OpenAPI document and the client's method table are all read from here.
 *
 * @example
 * ```ts
 * import { operationCatalog, type OperationEntry } from '@topup/validation';
 *
 * const entry: OperationEntry = operationCatalog.send_agent_float;
 * entry.channel; // 'float': its amount bounds are FLOAT_MIN_AMOUNT and FLOAT_MAX_AMOUNT
 * ```
 */
export interface OperationEntry {
  /** Validates a request body; money operations take the configured amount bounds. */
  readonly parse: (input: unknown, options?: ParseOptions) => ValidationResult<unknown>;
  /** The request body's schema, for documentation. */
  readonly schema: z.ZodType;
  readonly kind: OperationKind;
  /** The channel of a money operation, whose amount bounds apply. */
  readonly channel?: 'float' | 'airtime';
  /** A money operation paid from the caller's own channel balance, so it can answer `7000`. */
  readonly paidFromBalance?: boolean;
  /** The `status.message` of its success. */
  readonly successMessage: string;
  /** The client SDK's method for it. */
  readonly clientMethod: string;
}

/**
 * Every API function, by the name in `POST /api/<function_name>`. Adding an operation starts here.
 *
 * @example
 * ```ts
 * import { operationCatalog } from '@topup/validation';
 *
 * const keyed = Object.entries(operationCatalog)
 *   .filter(([, entry]) => entry.kind === 'money')
 *   .map(([name]) => name); // ['send_agent_float', 'buy_airtime', 'send_airtime']
 * ```
 */
export const operationCatalog = {
  send_agent_float: {
    parse: parseSendAgentFloat,
    schema: sendAgentFloatSchema,
    kind: 'money',
    channel: 'float',
    paidFromBalance: true,
    successMessage: successMessages.agentFloatRequested,
    clientMethod: 'sendAgentFloat',
  },
  buy_airtime: {
    parse: parseBuyAirtime,
    schema: buyAirtimeSchema,
    kind: 'money',
    channel: 'airtime',
    successMessage: successMessages.airtimeRequested,
    clientMethod: 'buyAirtime',
  },
  send_airtime: {
    parse: parseSendAirtime,
    schema: sendAirtimeSchema,
    kind: 'money',
    channel: 'airtime',
    paidFromBalance: true,
    successMessage: successMessages.airtimeSendRequested,
    clientMethod: 'sendAirtime',
  },
  get_balance: {
    parse: parseGetBalance,
    schema: getBalanceSchema,
    kind: 'read',
    successMessage: successMessages.balanceFound,
    clientMethod: 'getBalance',
  },
  get_transaction: {
    parse: parseGetTransaction,
    schema: getTransactionSchema,
    kind: 'read',
    successMessage: successMessages.transactionFound,
    clientMethod: 'getTransaction',
  },
  add_callback_endpoint: {
    parse: parseAddCallbackEndpoint,
    schema: addCallbackEndpointSchema,
    kind: 'change',
    successMessage: successMessages.callbackEndpointAdded,
    clientMethod: 'addCallbackEndpoint',
  },
  list_callback_endpoints: {
    parse: parseListCallbackEndpoints,
    schema: listCallbackEndpointsSchema,
    kind: 'read',
    successMessage: successMessages.callbackEndpointsFound,
    clientMethod: 'listCallbackEndpoints',
  },
  remove_callback_endpoint: {
    parse: parseRemoveCallbackEndpoint,
    schema: removeCallbackEndpointSchema,
    kind: 'change',
    successMessage: successMessages.callbackEndpointRemoved,
    clientMethod: 'removeCallbackEndpoint',
  },
  rotate_callback_secret: {
    parse: parseRotateCallbackSecret,
    schema: rotateCallbackSecretSchema,
    kind: 'change',
    successMessage: successMessages.callbackSecretRotated,
    clientMethod: 'rotateCallbackSecret',
  },
  resend_callback: {
    parse: parseResendCallback,
    schema: resendCallbackSchema,
    kind: 'change',
    successMessage: successMessages.callbackResent,
    clientMethod: 'resendCallback',
  },
  list_callback_deliveries: {
    parse: parseListCallbackDeliveries,
    schema: listCallbackDeliveriesSchema,
    kind: 'read',
    successMessage: successMessages.callbackDeliveriesFound,
    clientMethod: 'listCallbackDeliveries',
  },
  resend_failed_callbacks: {
    parse: parseResendFailedCallbacks,
    schema: resendFailedCallbacksSchema,
    kind: 'change',
    successMessage: successMessages.failedCallbacksResent,
    clientMethod: 'resendFailedCallbacks',
  },
  send_test_callback: {
    parse: parseSendTestCallback,
    schema: sendTestCallbackSchema,
    kind: 'change',
    successMessage: successMessages.testCallbackSent,
    clientMethod: 'sendTestCallback',
  },
  list_transactions: {
    parse: parseListTransactions,
    schema: listTransactionsSchema,
    kind: 'read',
    successMessage: successMessages.transactionsFound,
    clientMethod: 'listTransactions',
  },
  list_statement: {
    parse: parseListStatement,
    schema: listStatementSchema,
    kind: 'read',
    successMessage: successMessages.statementFound,
    clientMethod: 'listStatement',
  },
} as const satisfies Record<string, OperationEntry>;

/**
 * The name of an API function, as in `POST /api/<function_name>`.
 *
 * @example
 * ```ts
 * import { apiFunctions, isApiFunctionName, type ApiFunctionName } from '@topup/validation';
 *
 * const name: ApiFunctionName = 'get_balance';
 * apiFunctions[name]({}).ok; // true
 * isApiFunctionName('toString'); // false
 * ```
 */
export type ApiFunctionName = keyof typeof operationCatalog;

type Catalog = typeof operationCatalog;

function eachOperation<V>(pick: (entry: Catalog[ApiFunctionName]) => V): Record<ApiFunctionName, V> {
  return Object.fromEntries(
    Object.entries(operationCatalog).map(([name, entry]) => [name, pick(entry)]),
  ) as Record<ApiFunctionName, V>;
}

/** The parser of every API function, by function name (the catalog's `parse`). */
export const apiFunctions = eachOperation((entry) => entry.parse) as {
  readonly [K in ApiFunctionName]: Catalog[K]['parse'];
};

/** The request schema of every API function, by function name (the catalog's `schema`). */
export const requestSchemas = eachOperation((entry) => entry.schema) as {
  readonly [K in ApiFunctionName]: Catalog[K]['schema'];
};

/**
 * The operations that move money and honour an `Idempotency-Key`, in catalog order.
 *
 * @example
 * ```ts
 * import { keyedOperations } from '@topup/validation';
 *
 * keyedOperations; // ['send_agent_float', 'buy_airtime', 'send_airtime']
 * ```
 */
export const keyedOperations: readonly ApiFunctionName[] = (
  Object.keys(operationCatalog) as ApiFunctionName[]
).filter((name) => operationCatalog[name].kind === 'money');

/**
 * Whether `name` is an API function (own key only, so `constructor` or `__proto__` are not).
 *
 * @example
 * ```ts
 * import { apiFunctions, isApiFunctionName } from '@topup/validation';
 *
 * const name = 'buy_airtime' as string; // e.g. from the request path
 * if (isApiFunctionName(name)) {
 *   apiFunctions[name]({}).ok; // false
 * }
 * isApiFunctionName('constructor'); // false
 * ```
 */
export function isApiFunctionName(name: string): name is ApiFunctionName {
  return Object.hasOwn(apiFunctions, name);
}

/**
 * The JSON Schema (draft 2020-12) of a function's request body, as a caller writes it: integers as
 * numbers or digit strings, optional fields not required, unknown fields allowed.
 *
 * @example
 * ```ts
 * import { requestJsonSchema } from '@topup/validation';
 *
 * requestJsonSchema('get_transaction').required; // ['reference']
 * ```
 */
export function requestJsonSchema(name: ApiFunctionName): z.core.JSONSchema.BaseSchema {
  return z.toJSONSchema(requestSchemas[name], { io: 'input' });
}
