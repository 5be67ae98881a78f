// The client callers hold: one method per API function, typed from the request schemas on the way in
// and from the envelope's data model on the way out, sharing one set of checked settings.

import type {
  AddedCallbackEndpointData,
  AgentFloatData,
  AirtimeData,
  BalanceData,
  CallbackDeliveriesData,
  CallbackEndpointsData,
  RemovedCallbackEndpointData,
  RequestFields,
  ResentCallbackData,
  ResentFailedCallbacksData,
  RotatedCallbackSecretData,
  SentTestCallbackData,
  FoundTransactionData,
  ListedTransaction,
  SendAirtimeData,
  StatementData,
  StatementPosting,
  TransactionsData,
} from '@topup/envelope';
import type {
  AddCallbackEndpointInput,
  BuyAirtimeInput,
  GetBalanceInput,
  GetTransactionInput,
  ListCallbackDeliveriesInput,
  ListCallbackEndpointsInput,
  ListStatementInput,
  ListTransactionsInput,
  RemoveCallbackEndpointInput,
  ResendCallbackInput,
  ResendFailedCallbacksInput,
  RotateCallbackSecretInput,
  SendAgentFloatInput,
  SendAirtimeInput,
  SendTestCallbackInput,
} from '@topup/validation';
import { apiFunctions } from './api-functions.js';
import type { ApiFunction } from './api-functions.js';
import { callApi } from './call-api.js';
import { callTimeoutMs, idempotencyKeyOf, resolveClientSettings } from './client-options.js';
import type { CallOptions, ClientOptions, OperationOptions } from './client-options.js';
import { allEntries } from './list-all.js';
import type { OperationResult, TopupResult } from './results.js';
import { waitForFinalState } from './wait-for-transaction.js';
import type { WaitOptions } from './wait-for-transaction.js';

/**
 * A Topup API client. Every method resolves with the success data and rejects with a `TopupApiError`
 * subclass for a failure envelope or a `TopupTransportError` when no envelope came back.
 *
 * @example
 * ```ts
 * import { createClient, type TopupClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * async function floatBalance(client: TopupClient): Promise<string | undefined> {
 *   const { channels } = await client.getBalance();
 *   return channels.find((channel) => channel.type === 'Agent Float')?.balance;
 * }
 * console.log(await floatBalance(topup)); // e.g. '1500.00'
 * ```
 */
export interface TopupClient {
  /** `send_agent_float`: loads float into an agent's account. Sent with an `Idempotency-Key`. */
  sendAgentFloat(
    input: SendAgentFloatInput,
    options?: OperationOptions,
  ): Promise<OperationResult<AgentFloatData>>;
  /** `buy_airtime`: prompts the payer and sends airtime to the recipient. Sent with an `Idempotency-Key`. */
  buyAirtime(input: BuyAirtimeInput, options?: OperationOptions): Promise<OperationResult<AirtimeData>>;
  /**
   * `send_airtime`: airtime to 1 to 1,000 recipients, paid from the account's Airtime channel. The result
   * lists one transaction per recipient, in the order given; a recipient its carrier refused at once is
   * `Cancelled` with the reason in its `errors`, and the others go on. Sent with an `Idempotency-Key`.
   */
  sendAirtime(input: SendAirtimeInput, options?: OperationOptions): Promise<OperationResult<SendAirtimeData>>;
  /** `get_balance`: both channels of the account. */
  getBalance(input?: GetBalanceInput, options?: CallOptions): Promise<TopupResult<BalanceData>>;
  /** `get_transaction`: one of the account's transactions by reference, in its current state. */
  getTransaction(
    input: GetTransactionInput,
    options?: CallOptions,
  ): Promise<TopupResult<FoundTransactionData>>;
  /** `add_callback_endpoint`: registers a URL; the answer holds its secret, shown only here. */
  addCallbackEndpoint(
    input: AddCallbackEndpointInput,
    options?: CallOptions,
  ): Promise<TopupResult<AddedCallbackEndpointData>>;
  /** `list_callback_endpoints`: the account's endpoints. */
  listCallbackEndpoints(
    input?: ListCallbackEndpointsInput,
    options?: CallOptions,
  ): Promise<TopupResult<CallbackEndpointsData>>;
  /** `remove_callback_endpoint`. */
  removeCallbackEndpoint(
    input: RemoveCallbackEndpointInput,
    options?: CallOptions,
  ): Promise<TopupResult<RemovedCallbackEndpointData>>;
  /** `rotate_callback_secret`: a new secret; the old one stays valid for a grace period. */
  rotateCallbackSecret(
    input: RotateCallbackSecretInput,
    options?: CallOptions,
  ): Promise<TopupResult<RotatedCallbackSecretData>>;
  /** `resend_callback`: queues a transaction's callback again (to one endpoint, or to all). */
  resendCallback(input: ResendCallbackInput, options?: CallOptions): Promise<TopupResult<ResentCallbackData>>;
  /**
   * `list_callback_deliveries`: a page of deliveries and their attempts, newest first, optionally
   * filtered; pass the result's `next_cursor` as `cursor` for the next page (it is empty on the last one).
   */
  listCallbackDeliveries(
    input?: ListCallbackDeliveriesInput,
    options?: CallOptions,
  ): Promise<TopupResult<CallbackDeliveriesData>>;
  /**
   * `resend_failed_callbacks`: queues every failed delivery since a time again (to one endpoint, or to
   * all), each with a fresh retry schedule; at most 10,000 per call, `resend.more` saying whether more are left.
   */
  resendFailedCallbacks(
    input: ResendFailedCallbacksInput,
    options?: CallOptions,
  ): Promise<TopupResult<ResentFailedCallbacksData>>;
  /**
   * `send_test_callback`: the service signs a test callback and POSTs it to the endpoint at once; the
   * result says what the endpoint answered. Nothing is queued or retried.
   */
  sendTestCallback(
    input: SendTestCallbackInput,
    options?: CallOptions,
  ): Promise<TopupResult<SentTestCallbackData>>;
  /**
   * `list_transactions`: a page of the account's transactions, newest first, optionally filtered; pass
   * the result's `next_cursor` as `cursor` for the next page (it is empty on the last one).
   */
  listTransactions(
    input?: ListTransactionsInput,
    options?: CallOptions,
  ): Promise<TopupResult<TransactionsData>>;
  /**
   * `list_statement`: a page of one channel's postings, newest first, each with the balance before and
   * after it; pass the result's `next_cursor` as `cursor` for the next page.
   */
  listStatement(input: ListStatementInput, options?: CallOptions): Promise<TopupResult<StatementData>>;
  /**
   * Every transaction `listTransactions` finds with these filters, newest first, across all pages: each
   * page's `next_cursor` is followed until it is empty. Pages are fetched as you read, `limit` at a time;
   * stop early and no more are fetched. A failed page rejects the iteration with its error.
   */
  listAllTransactions(
    filter?: ListTransactionsInput,
    options?: CallOptions,
  ): AsyncIterable<ListedTransaction>;
  /**
   * Every posting of a channel's statement, newest first, across all pages, as `listAllTransactions`
   * reads transactions.
   */
  listAllStatement(filter: ListStatementInput, options?: CallOptions): AsyncIterable<StatementPosting>;
  /**
   * Waits until the transaction is `completed` or `cancelled`, asking `get_transaction` with waits that
   * grow from `intervalMs` (500 ms) to `maxIntervalMs` (10 s), and resolves with that answer: for callers
   * who cannot receive callbacks. Rejects with a `TransactionWaitError` when `timeoutMs` (10 minutes)
   * runs out or `signal` aborts, and with the error of a look that failed otherwise (an unknown reference
   * is an `InvalidParametersError`).
   */
  waitForTransaction(reference: string, options?: WaitOptions): Promise<TopupResult<FoundTransactionData>>;
}

/**
 * Creates a client for one service and token. Throws a `TypeError` at once when an option is invalid.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { transaction } = await topup.buyAirtime({
 *   mobile: '254712345678',
 *   amount: 100,
 *   payment_network: 'MoneyNetA',
 *   payment_mobile: '254712345678',
 * });
 * console.log(transaction.reference); // e.g. 'TXC1CMBJJ5QEXB'
 * ```
 */
export function createClient(options: ClientOptions): TopupClient {
  const settings = resolveClientSettings(options);

  // The data's type is the service's contract; the envelope decoder has checked its shape.
  async function request<D>(
    fn: ApiFunction,
    fields: RequestFields,
    callOptions: CallOptions,
    idempotencyKey?: string,
  ): Promise<TopupResult<D>> {
    const answer = await callApi(settings, {
      fn,
      fields,
      timeoutMs: callTimeoutMs(settings, callOptions),
      signal: callOptions.signal,
      idempotencyKey,
    });
    return {
      ...(answer.data as D),
      message: answer.message,
      requestId: answer.requestId,
      replayed: answer.replayed,
    };
  }

  async function operation<D>(
    fn: ApiFunction,
    fields: RequestFields,
    operationOptions: OperationOptions,
  ): Promise<OperationResult<D>> {
    const idempotencyKey = idempotencyKeyOf(operationOptions);
    const result = await request<D>(fn, fields, operationOptions, idempotencyKey);
    return { ...result, idempotencyKey };
  }

  return {
    sendAgentFloat: (input, callOptions = {}) => operation(apiFunctions.sendAgentFloat, input, callOptions),
    buyAirtime: (input, callOptions = {}) => operation(apiFunctions.buyAirtime, input, callOptions),
    sendAirtime: (input, callOptions = {}) => operation(apiFunctions.sendAirtime, input, callOptions),
    getBalance: (input = {}, callOptions = {}) => request(apiFunctions.getBalance, input, callOptions),
    getTransaction: (input, callOptions = {}) => request(apiFunctions.getTransaction, input, callOptions),
    addCallbackEndpoint: (input, callOptions = {}) =>
      request(apiFunctions.addCallbackEndpoint, input, callOptions),
    listCallbackEndpoints: (input = {}, callOptions = {}) =>
      request(apiFunctions.listCallbackEndpoints, input, callOptions),
    removeCallbackEndpoint: (input, callOptions = {}) =>
      request(apiFunctions.removeCallbackEndpoint, input, callOptions),
    rotateCallbackSecret: (input, callOptions = {}) =>
      request(apiFunctions.rotateCallbackSecret, input, callOptions),
    resendCallback: (input, callOptions = {}) => request(apiFunctions.resendCallback, input, callOptions),
    listCallbackDeliveries: (input = {}, callOptions = {}) =>
      request(apiFunctions.listCallbackDeliveries, input, callOptions),
    resendFailedCallbacks: (input, callOptions = {}) =>
      request(apiFunctions.resendFailedCallbacks, input, callOptions),
    sendTestCallback: (input, callOptions = {}) => request(apiFunctions.sendTestCallback, input, callOptions),
    listTransactions: (input = {}, callOptions = {}) =>
      request(apiFunctions.listTransactions, input, callOptions),
    listStatement: (input, callOptions = {}) => request(apiFunctions.listStatement, input, callOptions),
    listAllTransactions: (filter = {}, callOptions = {}) =>
      allEntries(
        filter,
        (page) => request<TransactionsData>(apiFunctions.listTransactions, page, callOptions),
        (page) => page.transactions,
      ),
    listAllStatement: (filter, callOptions = {}) =>
      allEntries(
        filter,
        (page) => request<StatementData>(apiFunctions.listStatement, page, callOptions),
        (page) => page.postings,
      ),
    waitForTransaction: (reference, waitOptions = {}) =>
      waitForFinalState(
        reference,
        (callOptions) =>
          request<FoundTransactionData>(apiFunctions.getTransaction, { reference }, callOptions),
        waitOptions,
      ),
  };
}
