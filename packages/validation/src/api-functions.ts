// The registry of API functions: the name in `/api/<function_name>` mapped to its parser and to its
// request schema, so the server can route, validate and document every function from one place.

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
  parseRotateCallbackSecret,
  removeCallbackEndpointSchema,
  resendCallbackSchema,
  rotateCallbackSecretSchema,
} from './callback-requests.js';
import { parseSendAgentFloat, sendAgentFloatSchema } from './send-agent-float.js';

/** The parser of every API function, by function name. */
export const apiFunctions = {
  send_agent_float: parseSendAgentFloat,
  buy_airtime: parseBuyAirtime,
  get_balance: parseGetBalance,
  get_transaction: parseGetTransaction,
  add_callback_endpoint: parseAddCallbackEndpoint,
  list_callback_endpoints: parseListCallbackEndpoints,
  remove_callback_endpoint: parseRemoveCallbackEndpoint,
  rotate_callback_secret: parseRotateCallbackSecret,
  resend_callback: parseResendCallback,
  list_callback_deliveries: parseListCallbackDeliveries,
} as const;

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
export type ApiFunctionName = keyof typeof apiFunctions;

/** The request schema of every API function, by function name. */
export const requestSchemas = {
  send_agent_float: sendAgentFloatSchema,
  buy_airtime: buyAirtimeSchema,
  get_balance: getBalanceSchema,
  get_transaction: getTransactionSchema,
  add_callback_endpoint: addCallbackEndpointSchema,
  list_callback_endpoints: listCallbackEndpointsSchema,
  remove_callback_endpoint: removeCallbackEndpointSchema,
  rotate_callback_secret: rotateCallbackSecretSchema,
  resend_callback: resendCallbackSchema,
  list_callback_deliveries: listCallbackDeliveriesSchema,
} as const satisfies Record<ApiFunctionName, z.ZodType>;

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
