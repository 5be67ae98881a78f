// Every API function the server answers: its handler, and how its body is validated.

import { apiFunctions, operationCatalog } from '@topup/validation';
import type { ApiFunctionName, OperationEntry } from '@topup/validation';
import type { Config } from '@topup/service';
import type { RequestParser } from '../middleware/request-validation.js';
import type { ApiHandler } from './api-function.js';
import { buyAirtime } from './buy-airtime.js';
import { listCallbackDeliveries, resendCallback, resendFailedCallbacks } from './callback-deliveries.js';
import {
  addCallbackEndpoint,
  listCallbackEndpoints,
  removeCallbackEndpoint,
  rotateCallbackSecret,
} from './callback-endpoints.js';
import { getBalance } from './get-balance.js';
import { getTransaction } from './get-transaction.js';
import { listStatement } from './list-statement.js';
import { listTransactions } from './list-transactions.js';
import { sendAgentFloat } from './send-agent-float.js';
import { sendAirtime } from './send-airtime.js';
import { sendTestCallback } from './test-callback.js';

// Each handler is typed by its own validated input; the registry stores them by name.
type AnyHandler = ApiHandler<never>;

export const handlers: Readonly<Record<ApiFunctionName, AnyHandler>> = {
  send_agent_float: sendAgentFloat,
  buy_airtime: buyAirtime,
  send_airtime: sendAirtime,
  get_balance: getBalance,
  get_transaction: getTransaction,
  add_callback_endpoint: addCallbackEndpoint,
  list_callback_endpoints: listCallbackEndpoints,
  remove_callback_endpoint: removeCallbackEndpoint,
  rotate_callback_secret: rotateCallbackSecret,
  resend_callback: resendCallback,
  list_callback_deliveries: listCallbackDeliveries,
  resend_failed_callbacks: resendFailedCallbacks,
  send_test_callback: sendTestCallback,
  list_transactions: listTransactions,
  list_statement: listStatement,
};

export const functionNames: ReadonlySet<string> = new Set(Object.keys(handlers));

/** The validator of a function, with the configured amount bounds of its channel for a money operation. */
export function parserFor(config: Config): (name: string) => RequestParser {
  const parsers = new Map<string, RequestParser>();
  for (const name of Object.keys(apiFunctions) as ApiFunctionName[]) {
    const entry: OperationEntry = operationCatalog[name];
    const amount = entry.channel === undefined ? undefined : config.amounts[entry.channel];
    const parse = apiFunctions[name] as (input: unknown, options?: object) => ReturnType<RequestParser>;
    parsers.set(name, (body) => parse(body, amount === undefined ? undefined : { amount }));
  }
  return (name) => {
    const parser = parsers.get(name);
    if (parser === undefined) throw new Error(`no validator for API function ${name}`);
    return parser;
  };
}
