// The `data` of each function's success answer, and of each callback, as zod schemas: the OpenAPI
// document is generated from them, and the tests check real answers and callbacks against them (strictly:
// a field missing from either side fails), so the document cannot drift from the wire. They mirror the
// types of @topup/envelope, and each one the document names is registered in `componentSchemas` under
// the envelope's name for it, so the document refers to it instead of repeating it.

import type { ApiFunctionName } from '@topup/validation';
import { z } from 'zod';

/** The schemas the OpenAPI document names (`#/components/schemas/<id>`), each written once. */
export const componentSchemas = z.registry<{ id: string }>();

const digits = z.string().regex(/^\d*$/);
const moneyNetwork = z
  .enum(['MoneyNetA', 'MoneyNetB', 'MoneyNetC', 'MoneyNetD'])
  .describe('A mobile-money network.')
  .register(componentSchemas, { id: 'MoneyNetwork' });
const carrier = z
  .enum(['CarrierA', 'CarrierB', 'CarrierC'])
  .describe('An airtime carrier.')
  .register(componentSchemas, { id: 'Carrier' });

const party = z
  .strictObject({ name: z.string(), mobile: digits, email: z.string() })
  .describe('A contact: the sender or the recipient.')
  .register(componentSchemas, { id: 'Party' });
const agentParty = party
  .extend({ agent_name: z.string(), agent_number: digits, store_number: digits })
  .describe('A mobile-money agent.')
  .register(componentSchemas, { id: 'AgentParty' });
const payment = z
  .strictObject({
    network: moneyNetwork,
    name: z.string(),
    mobile: digits,
    email: z.string(),
  })
  .describe('The payer a purchase prompted.')
  .register(componentSchemas, { id: 'Payment' });
const messaging = z
  .strictObject({ sender: z.string(), recipient: z.string(), message: z.string() })
  .describe('The text message sent; usually blank.')
  .register(componentSchemas, { id: 'Messaging' });
// JSON carries the balance as a number with two decimals (1500.00); XML as the same text.
const channel = z
  .strictObject({
    type: z.enum(['Agent Float', 'Airtime']),
    currency: z.string(),
    balance: z.union([z.number(), z.string().regex(/^-?\d+\.\d{2}$/)]),
  })
  .describe('A channel of the account and its available balance, with two decimals.')
  .register(componentSchemas, { id: 'Channel' });

const status = z
  .enum(['Requested', 'Cancelled'])
  .describe("The spec's status.")
  .register(componentSchemas, { id: 'TransactionStatus' });
const state = z
  .enum(['requested', 'completed', 'cancelled'])
  .describe('Where the transaction is in its lifecycle.')
  .register(componentSchemas, { id: 'TransactionState' });

const transaction = z
  .strictObject({
    type: z.enum(['Agent Float', 'Airtime']),
    reference: z.string().min(1),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    status,
    state,
    currency: z.string(),
    amount: digits,
    note: z.string(),
    code: z.string(),
    source: z.literal('API'),
    country: z.string(),
    network: z.union([moneyNetwork, carrier]),
  })
  .describe(
    "A transaction: its reference correlates callbacks; `network` is the agent's money network for float and the recipient's carrier for airtime.",
  )
  .register(componentSchemas, { id: 'Transaction' });

const errors = z.array(z.string()).max(0);

export const agentFloatData = z
  .strictObject({
    errors,
    sender: agentParty,
    recipient: agentParty,
    transaction,
    messaging,
    channel,
  })
  .describe(
    'A float transaction: the sending agent (the caller), the receiving agent, and the Agent Float channel.',
  )
  .register(componentSchemas, { id: 'AgentFloatData' });

export const airtimeData = z
  .strictObject({
    errors,
    sender: party,
    recipient: party,
    payment,
    transaction,
    messaging,
    channel,
  })
  .describe('An airtime purchase: the recipient, the payer prompted to pay, and the Airtime channel.')
  .register(componentSchemas, { id: 'AirtimeData' });

/** An airtime transaction `send_airtime` made, as `get_transaction` shows it: no payer, no `payment`. */
const sentAirtimeData = airtimeData.omit({ payment: true });

const sentAirtimeEntry = z
  .strictObject({
    reference: z.string().min(1),
    recipient: party,
    currency: z.string(),
    amount: digits,
    country: z.string(),
    network: carrier,
    status,
    state,
    code: z.string(),
    errors: z.array(z.string()).describe('Why the recipient was cancelled at once; empty otherwise.'),
  })
  .describe('One recipient of `send_airtime`.')
  .register(componentSchemas, { id: 'SentAirtimeEntry' });

const sendAirtimeData = z
  .strictObject({
    errors,
    sender: party,
    transactions: z
      .array(sentAirtimeEntry)
      .min(1)
      .describe("One transaction per recipient, in the request's order."),
    messaging,
    channel,
  })
  .register(componentSchemas, { id: 'SendAirtimeData' });

export const balanceData = z
  .strictObject({ errors, channels: z.array(channel) })
  .register(componentSchemas, { id: 'BalanceData' });

const isoTime = z.iso.datetime();
const secret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

const endpoint = z
  .strictObject({
    id: z.string().min(1),
    url: z.string(),
    format: z.enum(['json', 'xml']),
    description: z.string(),
    enabled: z.enum(['true', 'false']),
    disabled_reason: z.string().describe('Why the endpoint was disabled; empty while it is enabled.'),
    created: isoTime,
  })
  .describe('A callback endpoint of the account.')
  .register(componentSchemas, { id: 'CallbackEndpoint' });

const attempt = z
  .strictObject({
    attempted: isoTime,
    http_status: digits,
    duration_ms: digits,
    outcome: z.enum(['delivered', 'retry', 'failed', 'endpoint_gone']),
    response_excerpt: z.string(),
    error: z.string(),
  })
  .describe('One attempt to deliver a callback.')
  .register(componentSchemas, { id: 'CallbackAttempt' });

const delivery = z
  .strictObject({
    id: z.string().min(1),
    endpoint_id: z.string().min(1),
    reference: z.string().min(1),
    status: z.enum(['pending', 'delivered', 'failed']),
    created: isoTime,
    next_attempt: z.union([isoTime, z.literal('')]),
    delivered: z.union([isoTime, z.literal('')]),
    last_error: z.string(),
    attempts: z.array(attempt),
  })
  .describe("A transaction's callback to one endpoint, with every attempt.")
  .register(componentSchemas, { id: 'CallbackDelivery' });

export const addedEndpointData = z
  .strictObject({
    errors,
    endpoint: endpoint.extend({ secret }),
  })
  .register(componentSchemas, { id: 'AddedCallbackEndpointData' });
export const endpointsData = z
  .strictObject({ errors, endpoints: z.array(endpoint) })
  .register(componentSchemas, { id: 'CallbackEndpointsData' });
export const removedEndpointData = z
  .strictObject({ errors, endpoint: z.strictObject({ id: z.string() }) })
  .register(componentSchemas, { id: 'RemovedCallbackEndpointData' });
export const rotatedSecretData = z
  .strictObject({
    errors,
    endpoint: z.strictObject({ id: z.string(), secret, previous_secret_valid_for: digits }),
  })
  .register(componentSchemas, { id: 'RotatedCallbackSecretData' });
export const resentData = z
  .strictObject({
    errors,
    resend: z.strictObject({ reference: z.string(), queued: digits }),
  })
  .register(componentSchemas, { id: 'ResentCallbackData' });
export const deliveriesData = z
  .strictObject({
    errors,
    deliveries: z.array(delivery).describe('Newest first, each with every attempt.'),
    next_cursor: z.string().describe("The next page's cursor; empty on the last page."),
  })
  .register(componentSchemas, { id: 'CallbackDeliveriesData' });
export const resentFailedData = z
  .strictObject({
    errors,
    resend: z.strictObject({
      since: isoTime,
      endpoint_id: z.string().describe('Empty when every endpoint was meant.'),
      queued: digits,
      more: z.enum(['true', 'false']).describe('Whether failed deliveries past the 10,000 queued were left.'),
    }),
  })
  .register(componentSchemas, { id: 'ResentFailedCallbacksData' });
export const testCallbackSentData = z
  .strictObject({
    errors,
    test: z.strictObject({
      endpoint_id: z.string().min(1),
      http_status: digits.describe('Empty when no answer came.'),
      duration_ms: digits,
      outcome: z.enum(['delivered', 'failed']),
      response_excerpt: z.string(),
      error: z.string(),
    }),
  })
  .register(componentSchemas, { id: 'SentTestCallbackData' });
const legs = z.array(
  z
    .strictObject({
      id: z.string(),
      kind: z.enum(['disbursement', 'payment', 'delivery', 'refund']),
      provider: z.string(),
      state: z.enum(['submitted', 'pending', 'succeeded', 'failed', 'unknown']),
      provider_reference: z.string(),
      updated: isoTime,
    })
    .describe('A step of the transaction at its provider.')
    .register(componentSchemas, { id: 'TransactionLeg' }),
);

const foundTransactionData = z
  .union([agentFloatData.extend({ legs }), airtimeData.extend({ legs }), sentAirtimeData.extend({ legs })])
  .describe('The transaction as its operation answered it, in its current state, with its legs.')
  .register(componentSchemas, { id: 'FoundTransactionData' });

const listedTransaction = z
  .union([
    z.strictObject({ transaction, recipient: agentParty }),
    z.strictObject({ transaction, recipient: party, payment }),
    z.strictObject({ transaction, recipient: party }),
  ])
  .describe(
    "A transaction of a listing: a purchase's payer is its payment; airtime sent from the balance has none.",
  )
  .register(componentSchemas, { id: 'ListedTransaction' });
const nextCursor = z.string().describe("The next page's cursor; empty on the last page.");
export const transactionsData = z
  .strictObject({
    errors,
    transactions: z.array(listedTransaction).describe('Newest first.'),
    next_cursor: nextCursor,
  })
  .register(componentSchemas, { id: 'TransactionsData' });
const signedAmount = z.string().regex(/^-?\d+\.\d{2}$/);
const posting = z
  .strictObject({
    id: z.string().regex(/^[1-9]\d*$/),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    reference: z.string().describe('The transaction; empty for funding.'),
    purpose: z.enum([
      'funding',
      'float',
      'airtime_collection',
      'airtime_payout',
      'airtime_commission',
      'airtime_refund',
    ]),
    amount: signedAmount.describe('From the channel: negative for money out of it.'),
    balance_before: signedAmount,
    balance_after: signedAmount,
  })
  .describe('A posted transfer on the channel, with the posted balance before and after it.')
  .register(componentSchemas, { id: 'StatementPosting' });
export const statementData = z
  .strictObject({
    errors,
    channel,
    postings: z.array(posting).describe('Newest first.'),
    next_cursor: nextCursor,
  })
  .register(componentSchemas, { id: 'StatementData' });

/** The success `data` of each function. */
export const successDataSchemas: Readonly<Record<ApiFunctionName, z.ZodType>> = {
  send_agent_float: agentFloatData,
  buy_airtime: airtimeData,
  send_airtime: sendAirtimeData,
  get_balance: balanceData,
  get_transaction: foundTransactionData,
  add_callback_endpoint: addedEndpointData,
  list_callback_endpoints: endpointsData,
  remove_callback_endpoint: removedEndpointData,
  rotate_callback_secret: rotatedSecretData,
  resend_callback: resentData,
  list_callback_deliveries: deliveriesData,
  resend_failed_callbacks: resentFailedData,
  send_test_callback: testCallbackSentData,
  list_transactions: transactionsData,
  list_statement: statementData,
};

// A callback carries the full transaction data; a cancellation's reason is in its `errors`.
const callbackErrors = z
  .array(z.string())
  .describe('Why the transaction was cancelled; empty on completion.');

/** The `data` of a float's callback. */
export const agentFloatCallbackData = agentFloatData
  .extend({ errors: callbackErrors })
  .register(componentSchemas, { id: 'AgentFloatCallbackData' });

/** The `data` of an airtime callback, from `buy_airtime` or `send_airtime`: no `payment` (spec, Events). */
export const airtimeCallbackData = sentAirtimeData
  .extend({ errors: callbackErrors })
  .register(componentSchemas, { id: 'AirtimeCallbackData' });

/** The `data` of the test callback `send_test_callback` sends: no transaction. */
export const testCallbackData = z
  .strictObject({ errors, test: z.strictObject({ endpoint_id: z.string().min(1), sent: isoTime }) })
  .register(componentSchemas, { id: 'TestCallbackData' });
