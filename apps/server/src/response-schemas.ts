// The `data` of each function's success answer as zod schemas: the OpenAPI document is generated from
// them, and the tests check real answers against them (strictly: a field missing from either side fails),
// so the document cannot drift from the wire. They mirror the types of @topup/envelope.

import type { ApiFunctionName } from '@topup/validation';
import { z } from 'zod';

const digits = z.string().regex(/^\d*$/);
const moneyNetwork = z.enum(['MoneyNetA', 'MoneyNetB', 'MoneyNetC', 'MoneyNetD']);
const carrier = z.enum(['CarrierA', 'CarrierB', 'CarrierC']);

const party = z.strictObject({ name: z.string(), mobile: digits, email: z.string() });
const agentParty = party.extend({ agent_name: z.string(), agent_number: digits, store_number: digits });
const payment = z.strictObject({
  network: moneyNetwork,
  name: z.string(),
  mobile: digits,
  email: z.string(),
});
const messaging = z.strictObject({ sender: z.string(), recipient: z.string(), message: z.string() });
// JSON carries the balance as a number with two decimals (1500.00); XML as the same text.
const channel = z.strictObject({
  type: z.enum(['Agent Float', 'Airtime']),
  currency: z.string(),
  balance: z.union([z.number(), z.string().regex(/^-?\d+\.\d{2}$/)]),
});

const status = z.enum(['Requested', 'Cancelled']);
const state = z.enum(['requested', 'completed', 'cancelled']);

function transaction<T extends 'Agent Float' | 'Airtime', N extends z.ZodType<string>>(type: T, network: N) {
  return z.strictObject({
    type: z.literal(type),
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
    network,
  });
}

const errors = z.array(z.string()).max(0);

export const agentFloatData = z.strictObject({
  errors,
  sender: agentParty,
  recipient: agentParty,
  transaction: transaction('Agent Float', moneyNetwork),
  messaging,
  channel,
});

export const airtimeData = z.strictObject({
  errors,
  sender: party,
  recipient: party,
  payment,
  transaction: transaction('Airtime', carrier),
  messaging,
  channel,
});

/** An airtime transaction `send_airtime` made, as `get_transaction` shows it: no payer, no `payment`. */
const sentAirtimeData = airtimeData.omit({ payment: true });

const sentAirtimeEntry = z.strictObject({
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
});

const sendAirtimeData = z.strictObject({
  errors,
  sender: party,
  transactions: z
    .array(sentAirtimeEntry)
    .min(1)
    .describe("One transaction per recipient, in the request's order."),
  messaging,
  channel,
});

export const balanceData = z.strictObject({ errors, channels: z.array(channel) });

const isoTime = z.iso.datetime();
const secret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/);

const endpoint = z.strictObject({
  id: z.string().min(1),
  url: z.string(),
  format: z.enum(['json', 'xml']),
  description: z.string(),
  enabled: z.enum(['true', 'false']),
  disabled_reason: z.string().describe('Why the endpoint was disabled; empty while it is enabled.'),
  created: isoTime,
});

const attempt = z.strictObject({
  attempted: isoTime,
  http_status: digits,
  duration_ms: digits,
  outcome: z.enum(['delivered', 'retry', 'failed', 'endpoint_gone']),
  response_excerpt: z.string(),
  error: z.string(),
});

const delivery = z.strictObject({
  id: z.string().min(1),
  endpoint_id: z.string().min(1),
  reference: z.string().min(1),
  status: z.enum(['pending', 'delivered', 'failed']),
  created: isoTime,
  next_attempt: z.union([isoTime, z.literal('')]),
  delivered: z.union([isoTime, z.literal('')]),
  last_error: z.string(),
  attempts: z.array(attempt),
});

export const addedEndpointData = z.strictObject({
  errors,
  endpoint: endpoint.extend({ secret }),
});
export const endpointsData = z.strictObject({ errors, endpoints: z.array(endpoint) });
export const removedEndpointData = z.strictObject({ errors, endpoint: z.strictObject({ id: z.string() }) });
export const rotatedSecretData = z.strictObject({
  errors,
  endpoint: z.strictObject({ id: z.string(), secret, previous_secret_valid_for: digits }),
});
export const resentData = z.strictObject({
  errors,
  resend: z.strictObject({ reference: z.string(), queued: digits }),
});
export const deliveriesData = z.strictObject({
  errors,
  deliveries: z.array(delivery).describe('Newest first, each with every attempt.'),
  next_cursor: z.string().describe("The next page's cursor; empty on the last page."),
});
export const resentFailedData = z.strictObject({
  errors,
  resend: z.strictObject({
    since: isoTime,
    endpoint_id: z.string().describe('Empty when every endpoint was meant.'),
    queued: digits,
    more: z.enum(['true', 'false']).describe('Whether failed deliveries past the 10,000 queued were left.'),
  }),
});
export const testCallbackSentData = z.strictObject({
  errors,
  test: z.strictObject({
    endpoint_id: z.string().min(1),
    http_status: digits.describe('Empty when no answer came.'),
    duration_ms: digits,
    outcome: z.enum(['delivered', 'failed']),
    response_excerpt: z.string(),
    error: z.string(),
  }),
});
const legs = z.array(
  z.strictObject({
    id: z.string(),
    kind: z.enum(['disbursement', 'payment', 'delivery', 'refund']),
    provider: z.string(),
    state: z.enum(['submitted', 'pending', 'succeeded', 'failed', 'unknown']),
    provider_reference: z.string(),
    updated: isoTime,
  }),
);

const listedTransaction = z.union([
  z.strictObject({ transaction: transaction('Agent Float', moneyNetwork), recipient: agentParty }),
  z.strictObject({ transaction: transaction('Airtime', carrier), recipient: party, payment }),
  z.strictObject({ transaction: transaction('Airtime', carrier), recipient: party }),
]);
const nextCursor = z.string().describe("The next page's cursor; empty on the last page.");
export const transactionsData = z.strictObject({
  errors,
  transactions: z
    .array(listedTransaction)
    .describe("Newest first; a purchase's payer is its payment, airtime sent from the balance has none."),
  next_cursor: nextCursor,
});
const signedAmount = z.string().regex(/^-?\d+\.\d{2}$/);
const posting = z.strictObject({
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
});
export const statementData = z.strictObject({
  errors,
  channel,
  postings: z.array(posting).describe('Newest first, each with the posted balance before and after it.'),
  next_cursor: nextCursor,
});

/** The success `data` of each function. */
export const successDataSchemas: Readonly<Record<ApiFunctionName, z.ZodType>> = {
  send_agent_float: agentFloatData,
  buy_airtime: airtimeData,
  send_airtime: sendAirtimeData,
  get_balance: balanceData,
  get_transaction: z.union([
    agentFloatData.extend({ legs }),
    airtimeData.extend({ legs }),
    sentAirtimeData.extend({ legs }),
  ]),
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
