// The data model of success responses and callbacks: one type per object the contract shows.
// Every scalar is a string, as the wire carries it: identifiers that the spec types as integers
// (mobile, agent_number, store_number, amount) are digit strings, blank values are empty strings.
// The one exception is `channel.balance`, a decimal string with exactly two places
// ("1500.00") that the JSON codec writes as a JSON number token.

/**
 * A money network, in the contract's names: where agent float is sent and airtime buyers pay from.
 *
 * @example
 * ```ts
 * import type { MoneyNetwork, Payment } from '@topup/envelope';
 *
 * const network: MoneyNetwork = 'MoneyNetA';
 * const payment: Payment = { network, name: 'Achieng', mobile: '254722000002', email: '' };
 * ```
 */
export type MoneyNetwork = 'MoneyNetA' | 'MoneyNetB' | 'MoneyNetC' | 'MoneyNetD';
/**
 * An airtime carrier, in the contract's names.
 *
 * @example
 * ```ts
 * import type { Carrier, Transaction } from '@topup/envelope';
 *
 * const carrier: Carrier = 'CarrierB';
 * const network: Transaction['network'] = carrier; // an airtime transaction's network is its carrier
 * ```
 */
export type Carrier = 'CarrierA' | 'CarrierB' | 'CarrierC';
/**
 * The kind of a transaction: agent float (`send_agent_float`) or airtime (`buy_airtime`).
 *
 * @example
 * ```ts
 * import type { Transaction, TransactionType } from '@topup/envelope';
 *
 * function describe(transaction: Transaction): string {
 *   const type: TransactionType = transaction.type;
 *   return type === 'Agent Float' ? `float ${transaction.amount}` : `airtime ${transaction.amount}`;
 * }
 * ```
 */
export type TransactionType = 'Agent Float' | 'Airtime';
/**
 * The two channels of a caller's account.
 *
 * @example
 * ```ts
 * import type { BalanceData, ChannelType } from '@topup/envelope';
 *
 * function balanceOf(data: BalanceData, type: ChannelType): string | undefined {
 *   return data.channels.find((channel) => channel.type === type)?.balance;
 * }
 * ```
 */
export type ChannelType = 'Agent Float' | 'Airtime';
/**
 * Wire value of `transaction.status` (the spec's two values).
 *
 * @example
 * ```ts
 * import type { Transaction, TransactionStatus } from '@topup/envelope';
 *
 * function isCancelled(transaction: Transaction): boolean {
 *   const status: TransactionStatus = transaction.status;
 *   return status === 'Cancelled';
 * }
 * ```
 */
export type TransactionStatus = 'Requested' | 'Cancelled';
/**
 * Precise lifecycle, an additive field (docs/architecture.md, Codes and HTTP statuses).
 *
 * @example
 * ```ts
 * import type { Transaction, TransactionState } from '@topup/envelope';
 *
 * // `status` stays `Requested` until a transaction is cancelled; `state` also tells when it completed.
 * function isSettled(transaction: Transaction): boolean {
 *   const state: TransactionState = transaction.state;
 *   return state !== 'requested';
 * }
 * ```
 */
export type TransactionState = 'requested' | 'completed' | 'cancelled';

/**
 * A person in a transaction: the sender or recipient of airtime. Empty strings stand for values not given.
 *
 * @example
 * ```ts
 * import type { Party } from '@topup/envelope';
 *
 * const recipient: Party = { name: 'Achieng', mobile: '254712345678', email: '' };
 * ```
 */
export interface Party {
  name: string;
  mobile: string;
  email: string;
}

/**
 * A mobile-money agent in an agent-float transaction: a party with the numbers its network issued.
 *
 * @example
 * ```ts
 * import type { AgentParty } from '@topup/envelope';
 *
 * const recipient: AgentParty = {
 *   name: 'Wanjiku Agency',
 *   mobile: '254712345678',
 *   email: '',
 *   agent_name: 'Wanjiku Agency',
 *   agent_number: '234567',
 *   store_number: '765432',
 * };
 * ```
 */
export interface AgentParty extends Party {
  agent_name: string;
  agent_number: string;
  store_number: string;
}

/**
 * Who pays for airtime, and from which money network.
 *
 * @example
 * ```ts
 * import type { Payment } from '@topup/envelope';
 *
 * const payment: Payment = { network: 'MoneyNetB', name: 'Otieno', mobile: '254733000000', email: '' };
 * ```
 */
export interface Payment {
  network: MoneyNetwork;
  name: string;
  mobile: string;
  email: string;
}

/**
 * A transaction as answers and callbacks show it. Correlate callbacks with requests by `reference`.
 *
 * @example
 * ```ts
 * import type { Transaction } from '@topup/envelope';
 *
 * const transaction: Transaction = {
 *   type: 'Agent Float',
 *   reference: 'TXF7K2M9QA',
 *   date: '2025-11-21 14:05:09',
 *   status: 'Requested',
 *   state: 'completed',
 *   currency: 'KES',
 *   amount: '1500',
 *   note: 'INV-2025-0042',
 *   code: 'MNA-REF-0097',
 *   source: 'API',
 *   country: 'KE',
 *   network: 'MoneyNetA',
 * };
 * ```
 */
export interface Transaction {
  type: TransactionType;
  reference: string;
  /** `YYYY-MM-DD HH:MM:SS` in the service's time zone. */
  date: string;
  status: TransactionStatus;
  state: TransactionState;
  currency: string;
  /** Whole units (shillings), digits only. */
  amount: string;
  note: string;
  code: string;
  source: 'API';
  country: string;
  network: MoneyNetwork | Carrier;
}

/**
 * The text messages the networks sent about a transaction; empty strings until they are known.
 *
 * @example
 * ```ts
 * import type { Messaging } from '@topup/envelope';
 *
 * const messaging: Messaging = { sender: '', recipient: '', message: '' };
 * ```
 */
export interface Messaging {
  sender: string;
  recipient: string;
  message: string;
}

/**
 * One channel of a caller's account and its balance.
 *
 * @example
 * ```ts
 * import { encodeJson, success, type Channel } from '@topup/envelope';
 *
 * const channel: Channel = { type: 'Agent Float', currency: 'KES', balance: '1500.00' };
 * encodeJson(success('Balance found', { channels: [channel] })).includes('"balance":1500.00'); // true
 * ```
 */
export interface Channel {
  type: ChannelType;
  currency: string;
  /** Decimal with exactly two places, e.g. "1500.00". */
  balance: string;
}

/**
 * The data of a `send_agent_float` answer and of its callbacks: both agents, the transaction, the
 * messages and the caller's Agent Float channel after it.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type AgentFloatData, type SuccessEnvelope } from '@topup/envelope';
 *
 * declare const body: string; // the answer to POST /api/send_agent_float
 * const envelope = decodeJsonEnvelope(body);
 * if (envelope.status.type === 'SUCCESS') {
 *   const { transaction, channel } = (envelope as SuccessEnvelope<AgentFloatData>).data;
 *   console.log(transaction.reference, transaction.amount, channel.balance);
 * }
 * ```
 */
export interface AgentFloatData {
  sender: AgentParty;
  recipient: AgentParty;
  transaction: Transaction & { type: 'Agent Float'; network: MoneyNetwork };
  messaging: Messaging;
  channel: Channel;
}

/**
 * The data of a `buy_airtime` answer: sender, recipient, payer, the transaction, the messages and the
 * caller's Airtime channel after it.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type AirtimeData, type SuccessEnvelope } from '@topup/envelope';
 *
 * declare const body: string; // the answer to POST /api/buy_airtime
 * const envelope = decodeJsonEnvelope(body);
 * if (envelope.status.type === 'SUCCESS') {
 *   const { recipient, payment, transaction } = (envelope as SuccessEnvelope<AirtimeData>).data;
 *   console.log(transaction.reference, recipient.mobile, payment.network);
 * }
 * ```
 */
export interface AirtimeData {
  sender: Party;
  recipient: Party;
  payment: Payment;
  transaction: Transaction & { type: 'Airtime'; network: Carrier };
  messaging: Messaging;
  channel: Channel;
}

/**
 * An airtime callback carries no `payment` object (spec, Events).
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type AirtimeCallbackData, type SuccessEnvelope } from '@topup/envelope';
 *
 * declare const rawBody: string; // a verified airtime callback
 * const callback = decodeJsonEnvelope(rawBody) as SuccessEnvelope<AirtimeCallbackData>;
 * console.log(callback.data.transaction.reference, callback.data.transaction.state);
 * ```
 */
export type AirtimeCallbackData = Omit<AirtimeData, 'payment'>;

/**
 * The data of an airtime transaction sent from the caller's Airtime balance (`send_airtime`), as
 * `get_transaction` and its callback show it: there is no payer, so no `payment` object.
 *
 * @example
 * ```ts
 * import type { SentAirtimeData, TransactionData } from '@topup/envelope';
 *
 * function wasSentFromBalance(data: TransactionData): data is SentAirtimeData {
 *   return data.transaction.type === 'Airtime' && !('payment' in data);
 * }
 * ```
 */
export type SentAirtimeData = AirtimeCallbackData;

/**
 * One recipient's transaction in a `send_airtime` answer, in request order: its own reference, the
 * recipient, the amount and where it stands (`Requested`, or `Cancelled` when the carrier refused it at
 * once, with the reason in `errors`).
 *
 * @example
 * ```ts
 * import type { SentAirtimeEntry } from '@topup/envelope';
 *
 * function refused(entries: readonly SentAirtimeEntry[]): string[] {
 *   return entries.filter((entry) => entry.status === 'Cancelled').map((entry) => entry.recipient.mobile);
 * }
 * ```
 */
export interface SentAirtimeEntry {
  reference: string;
  recipient: Party;
  currency: string;
  amount: string;
  country: string;
  network: Carrier;
  status: TransactionStatus;
  state: TransactionState;
  /** The carrier's code of a refusal; usually blank. */
  code: string;
  /** Why the recipient was cancelled at once; empty otherwise. */
  errors: string[];
}

/**
 * The data of a `send_airtime` answer: one transaction per recipient in request order, the sender, the
 * messages and the caller's Airtime channel after the reservation.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope, type SendAirtimeData, type SuccessEnvelope } from '@topup/envelope';
 *
 * declare const body: string; // the answer to POST /api/send_airtime
 * const envelope = decodeJsonEnvelope(body);
 * if (envelope.status.type === 'SUCCESS') {
 *   const { transactions, channel } = (envelope as SuccessEnvelope<SendAirtimeData>).data;
 *   console.log(transactions.length, channel.balance);
 * }
 * ```
 */
export interface SendAirtimeData {
  sender: Party;
  transactions: SentAirtimeEntry[];
  messaging: Messaging;
  channel: Channel;
}

/**
 * The data of either operation; `transaction.type` tells which.
 *
 * @example
 * ```ts
 * import type { TransactionData } from '@topup/envelope';
 *
 * function recipientOf(data: TransactionData): string {
 *   return data.transaction.type === 'Agent Float' ? data.recipient.name : data.recipient.mobile;
 * }
 * ```
 */
export type TransactionData = AgentFloatData | AirtimeData | SentAirtimeData;

/**
 * One leg of a transaction, as `get_transaction` shows it: float is one `disbursement`; airtime is a
 * `payment`, then a `delivery`, then a `refund` when the delivery failed after payment. `state` is
 * `submitted`, `pending`, `succeeded`, `failed` or `unknown`; `updated` is ISO 8601 in UTC.
 *
 * @example
 * ```ts
 * import type { TransactionLegView } from '@topup/envelope';
 *
 * const leg: TransactionLegView = {
 *   id: 'TXVQYSN6XMFZTY-payment',
 *   kind: 'payment',
 *   provider: 'sandbox',
 *   state: 'succeeded',
 *   provider_reference: 'SIM1A2B3C4D5E',
 *   updated: '2025-11-21T11:05:10.000Z',
 * };
 * ```
 */
export interface TransactionLegView {
  id: string;
  kind: string;
  provider: string;
  state: string;
  provider_reference: string;
  updated: string;
}

/**
 * `get_transaction`: the transaction's data, as its operation answered it, and its legs in the order they
 * happen (none before it is submitted).
 *
 * @example
 * ```ts
 * import type { FoundTransactionData } from '@topup/envelope';
 *
 * function stillWithProvider(data: FoundTransactionData): boolean {
 *   return data.legs.some((leg) => leg.state === 'submitted' || leg.state === 'pending');
 * }
 * ```
 */
export type FoundTransactionData = TransactionData & { legs: TransactionLegView[] };

/**
 * `get_balance`: both channels of the caller.
 *
 * @example
 * ```ts
 * import { success, type BalanceData } from '@topup/envelope';
 *
 * const data: BalanceData = {
 *   channels: [
 *     { type: 'Agent Float', currency: 'KES', balance: '1500.00' },
 *     { type: 'Airtime', currency: 'KES', balance: '0.00' },
 *   ],
 * };
 * const answer = success('Balance found', data);
 * ```
 */
export interface BalanceData {
  channels: Channel[];
}

/**
 * The body format of an endpoint's callbacks.
 *
 * @example
 * ```ts
 * import { contentTypeOf, type CallbackFormat } from '@topup/envelope';
 *
 * const format: CallbackFormat = 'xml';
 * contentTypeOf(format); // 'text/xml; charset=utf-8'
 * ```
 */
export type CallbackFormat = 'json' | 'xml';

/**
 * A callback endpoint as `add_callback_endpoint` and `list_callback_endpoints` show it. A disabled
 * endpoint (`enabled` "false") says why in `disabled_reason`, e.g. that its receiver answered HTTP 410.
 *
 * @example
 * ```ts
 * import type { CallbackEndpointView } from '@topup/envelope';
 *
 * const endpoint: CallbackEndpointView = {
 *   id: 'ep_4KX2',
 *   url: 'https://caller.example/callbacks',
 *   format: 'json',
 *   description: 'production',
 *   enabled: 'true',
 *   disabled_reason: '',
 *   created: '2025-11-21 14:05:09',
 * };
 * ```
 */
export interface CallbackEndpointView {
  id: string;
  url: string;
  format: CallbackFormat;
  description: string;
  /** "true" or "false". */
  enabled: string;
  /** Why the endpoint was disabled, e.g. "the receiver answered HTTP 410"; empty while it is enabled. */
  disabled_reason: string;
  created: string;
}

/**
 * One attempt to deliver a callback, as `list_callback_deliveries` shows it.
 *
 * @example
 * ```ts
 * import type { CallbackAttemptView } from '@topup/envelope';
 *
 * const attempt: CallbackAttemptView = {
 *   attempted: '2025-11-21T11:05:10.000Z',
 *   http_status: '503',
 *   duration_ms: '84',
 *   outcome: 'retry',
 *   response_excerpt: 'Service Unavailable',
 *   error: '',
 * };
 * ```
 */
export interface CallbackAttemptView {
  attempted: string;
  /** Empty when no answer came (a timeout or a network failure: see `error`). */
  http_status: string;
  duration_ms: string;
  /** `delivered`, `retry`, `failed` or `endpoint_gone`. */
  outcome: string;
  /** The first 20 KB of the receiver's answer; characters XML cannot carry are shown as U+FFFD. */
  response_excerpt: string;
  /** Why no usable answer came (timeout, refused connection, URL refused by policy); empty otherwise. */
  error: string;
}

/**
 * A callback and its delivery attempts to one endpoint, as `list_callback_deliveries` shows it. Times are
 * ISO 8601 in UTC; `next_attempt` is empty unless the delivery is pending, `delivered` unless delivered.
 *
 * @example
 * ```ts
 * import type { CallbackDeliveryView } from '@topup/envelope';
 *
 * function lastAttemptOf(delivery: CallbackDeliveryView): string {
 *   const last = delivery.attempts.at(-1);
 *   return last === undefined
 *     ? `${delivery.reference}: not attempted`
 *     : `${delivery.reference}: ${last.outcome}`;
 * }
 * ```
 */
export interface CallbackDeliveryView {
  id: string;
  endpoint_id: string;
  reference: string;
  status: 'pending' | 'delivered' | 'failed';
  created: string;
  next_attempt: string;
  delivered: string;
  /** The last attempt's error or HTTP status; empty once delivered. */
  last_error: string;
  attempts: CallbackAttemptView[];
}

/**
 * The `data` of a successful `add_callback_endpoint`: the new endpoint with its signing secret, which no
 * other answer shows.
 *
 * @example
 * ```ts
 * import { success, successMessages, type AddedCallbackEndpointData } from '@topup/envelope';
 *
 * const data: AddedCallbackEndpointData = {
 *   endpoint: {
 *     id: 'ep_4KX2',
 *     url: 'https://caller.example/callbacks',
 *     format: 'json',
 *     description: 'production',
 *     enabled: 'true',
 *     disabled_reason: '',
 *     created: '2025-11-21 14:05:09',
 *     secret: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
 *   },
 * };
 * success(successMessages.callbackEndpointAdded, data);
 * ```
 */
export interface AddedCallbackEndpointData {
  endpoint: CallbackEndpointView & { secret: string };
}

/**
 * The `data` of a successful `list_callback_endpoints`: the account's endpoints, without secrets.
 *
 * @example
 * ```ts
 * import { success, successMessages, type CallbackEndpointsData } from '@topup/envelope';
 *
 * const data: CallbackEndpointsData = { endpoints: [] };
 * success(successMessages.callbackEndpointsFound, data).data; // { errors: [], endpoints: [] }
 * ```
 */
export interface CallbackEndpointsData {
  endpoints: CallbackEndpointView[];
}

/**
 * The `data` of a successful `remove_callback_endpoint`: the id of the endpoint removed.
 *
 * @example
 * ```ts
 * import { success, successMessages, type RemovedCallbackEndpointData } from '@topup/envelope';
 *
 * const data: RemovedCallbackEndpointData = { endpoint: { id: 'ep_4KX2' } };
 * success(successMessages.callbackEndpointRemoved, data);
 * ```
 */
export interface RemovedCallbackEndpointData {
  endpoint: { id: string };
}

/**
 * The `data` of a successful `rotate_callback_secret`: the new secret, and for how many seconds (a digit
 * string) the previous one stays valid.
 *
 * @example
 * ```ts
 * import { success, successMessages, type RotatedCallbackSecretData } from '@topup/envelope';
 *
 * const data: RotatedCallbackSecretData = {
 *   endpoint: {
 *     id: 'ep_4KX2',
 *     secret: 'whsec_//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eA=',
 *     previous_secret_valid_for: '86400',
 *   },
 * };
 * success(successMessages.callbackSecretRotated, data);
 * ```
 */
export interface RotatedCallbackSecretData {
  endpoint: { id: string; secret: string; previous_secret_valid_for: string };
}

/**
 * The `data` of a successful `resend_callback`: the transaction and how many deliveries were queued (a
 * digit string).
 *
 * @example
 * ```ts
 * import { success, successMessages, type ResentCallbackData } from '@topup/envelope';
 *
 * const data: ResentCallbackData = { resend: { reference: 'TXA3P8L1ZD', queued: '2' } };
 * success(successMessages.callbackResent, data);
 * ```
 */
export interface ResentCallbackData {
  resend: { reference: string; queued: string };
}

/**
 * The `data` of a successful `list_callback_deliveries`: one page of deliveries, newest first, each with
 * every attempt, and the `cursor` of the next page (empty on the last one).
 *
 * @example
 * ```ts
 * import { success, successMessages, type CallbackDeliveriesData } from '@topup/envelope';
 *
 * const data: CallbackDeliveriesData = { deliveries: [], next_cursor: '' };
 * success(successMessages.callbackDeliveriesFound, data).data; // { errors: [], deliveries: [], next_cursor: '' }
 * ```
 */
export interface CallbackDeliveriesData {
  deliveries: CallbackDeliveryView[];
  /** Send it as `cursor` for the page after this one; empty when there is none. */
  next_cursor: string;
}

/**
 * The `data` of a successful `resend_failed_callbacks`: the `since` it was asked for (ISO 8601 in UTC),
 * the endpoint (empty for all), how many failed deliveries were queued again (a digit string), and whether
 * more were left for another call (`"true"` or `"false"`: one call queues at most 10,000).
 *
 * @example
 * ```ts
 * import { success, successMessages, type ResentFailedCallbacksData } from '@topup/envelope';
 *
 * const data: ResentFailedCallbacksData = {
 *   resend: { since: '2025-11-20T21:00:00.000Z', endpoint_id: '', queued: '12', more: 'false' },
 * };
 * success(successMessages.failedCallbacksResent, data);
 * ```
 */
export interface ResentFailedCallbacksData {
  resend: { since: string; endpoint_id: string; queued: string; more: string };
}

/**
 * The `data` of a successful `send_test_callback`: what the endpoint answered a signed test callback.
 * `outcome` is `delivered` for a 2xx answer and `failed` otherwise; `http_status` is empty when no answer
 * came, and `error` then says why. As in `list_callback_deliveries`, a receiver that is not public shows
 * its status only, never what it answered.
 *
 * @example
 * ```ts
 * import { success, successMessages, type SentTestCallbackData } from '@topup/envelope';
 *
 * const data: SentTestCallbackData = {
 *   test: {
 *     endpoint_id: 'ep_4KX2',
 *     http_status: '200',
 *     duration_ms: '84',
 *     outcome: 'delivered',
 *     response_excerpt: '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}',
 *     error: '',
 *   },
 * };
 * success(successMessages.testCallbackSent, data);
 * ```
 */
export interface SentTestCallbackData {
  test: {
    endpoint_id: string;
    /** Empty when no answer came (a timeout or a network failure: see `error`). */
    http_status: string;
    duration_ms: string;
    outcome: 'delivered' | 'failed';
    /** The first 20 KB of a public receiver's answer; characters XML cannot carry are shown as U+FFFD. */
    response_excerpt: string;
    /** Why no usable answer came (timeout, refused connection, URL refused by policy); empty otherwise. */
    error: string;
  };
}

/**
 * The `data` of a test callback, the body `send_test_callback` signs and sends: `SUCCESS`/`0000` with the
 * message `Test callback`, and a `test` object (the endpoint and when it was sent) where a real callback
 * has its transaction. It announces nothing: a receiver answers it like any callback and acts on nothing.
 *
 * @example
 * ```ts
 * import { testCallback, type TestCallbackData } from '@topup/envelope';
 *
 * const data: TestCallbackData = { test: { endpoint_id: 'ep_4KX2', sent: '2025-11-21T11:05:09.120Z' } };
 * testCallback(data.test.endpoint_id, new Date(data.test.sent)).data; // { errors: [], test: { … } }
 * ```
 */
export interface TestCallbackData {
  test: { endpoint_id: string; sent: string };
}

/**
 * One transaction as `list_transactions` shows it: the `transaction`, `recipient` and `payment` objects
 * of its `get_transaction` answer (`payment` only for a purchase, which has a payer).
 *
 * @example
 * ```ts
 * import type { ListedTransaction } from '@topup/envelope';
 *
 * function payerOf(entry: ListedTransaction): string {
 *   return entry.payment?.mobile ?? '';
 * }
 * ```
 */
export interface ListedTransaction {
  transaction: Transaction;
  /** An agent (with its numbers) for agent float, a person for airtime. */
  recipient: AgentParty | Party;
  payment?: Payment;
}

/**
 * The `data` of a successful `list_transactions`: a page of the caller's transactions, newest first, and
 * the `cursor` of the next page, empty when there is none.
 *
 * @example
 * ```ts
 * import { success, successMessages, type TransactionsData } from '@topup/envelope';
 *
 * const data: TransactionsData = { transactions: [], next_cursor: '' };
 * success(successMessages.transactionsFound, data).data; // { errors: [], transactions: [], next_cursor: '' }
 * ```
 */
export interface TransactionsData {
  transactions: ListedTransaction[];
  next_cursor: string;
}

/**
 * One posting of a channel, as `list_statement` shows it: the transfer's `id`, its `date` (as
 * `transaction.date` is written), the transaction's `reference` (empty for funding), its `purpose`
 * (`funding`, `float`, `airtime_payout`, `airtime_commission`, …), and the `amount` from the channel's
 * side with the posted balance before and after it, all with two decimals (`"-1500.00"` left the
 * channel).
 *
 * @example
 * ```ts
 * import type { StatementPosting } from '@topup/envelope';
 *
 * const posting: StatementPosting = {
 *   id: '4096',
 *   date: '2025-11-21 14:05:10',
 *   reference: 'TXF7K2M9QA',
 *   purpose: 'float',
 *   amount: '-1500.00',
 *   balance_before: '100000.00',
 *   balance_after: '98500.00',
 * };
 * ```
 */
export interface StatementPosting {
  id: string;
  date: string;
  reference: string;
  purpose: string;
  amount: string;
  balance_before: string;
  balance_after: string;
}

/**
 * The `data` of a successful `list_statement`: the channel as `get_balance` shows it, a page of its
 * postings, newest first, and the `cursor` of the next page, empty when there is none.
 *
 * @example
 * ```ts
 * import { success, successMessages, type StatementData } from '@topup/envelope';
 *
 * const data: StatementData = {
 *   channel: { type: 'Agent Float', currency: 'KES', balance: '98500.00' },
 *   postings: [],
 *   next_cursor: '',
 * };
 * success(successMessages.statementFound, data);
 * ```
 */
export interface StatementData {
  channel: Channel;
  postings: StatementPosting[];
  next_cursor: string;
}
