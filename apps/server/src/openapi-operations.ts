// What the OpenAPI document says about each function beyond its schemas: its summary, a description a
// generated client can carry as its doc comment, and the resource it belongs to (its tag). One entry per
// catalog function, which the compiler insists on.

import type { ApiFunctionName } from '@topup/validation';

/** The resources the functions are grouped by, with what each covers. */
export const resourceTags = [
  {
    name: 'Transactions',
    description:
      'Money operations (agent float, airtime bought by a payer, airtime sent from the balance) and reading what they made.',
  },
  {
    name: 'Channels',
    description: "The account's two channels, Agent Float and Airtime: balances and statements.",
  },
  {
    name: 'Callback endpoints',
    description:
      'Where the service sends signed callbacks: registering, listing, removing and testing endpoints.',
  },
  {
    name: 'Callback deliveries',
    description: "The callbacks sent to the account's endpoints: every attempt, and sending them again.",
  },
  {
    name: 'Callbacks',
    description:
      'The callbacks the service sends to your endpoints (webhooks), signed with the endpoint secret: the spec headers `Signature-*` and the Standard Webhooks headers `webhook-*`.',
  },
] as const;

export type ResourceTag = (typeof resourceTags)[number]['name'];

export interface OperationText {
  readonly summary: string;
  readonly description: string;
  readonly tag: ResourceTag;
}

export const operationTexts: Readonly<Record<ApiFunctionName, OperationText>> = {
  send_agent_float: {
    summary: 'Send agent float',
    description:
      "Loads float into a mobile-money agent's account, reserved from the Agent Float channel until the network completes it. The answer says `Requested`; a callback announces completion or cancellation. Send an `Idempotency-Key` so a retry can never send twice.",
    tag: 'Transactions',
  },
  buy_airtime: {
    summary: 'Buy airtime',
    description:
      "Prompts the payer on their mobile-money network to pay, then sends the airtime to the recipient's carrier. A failure after payment refunds the payer. A callback announces completion or cancellation. Send an `Idempotency-Key` so a retry can never buy twice.",
    tag: 'Transactions',
  },
  send_airtime: {
    summary: 'Send airtime to many recipients',
    description:
      "Sends airtime to 1 to 1,000 recipients, paid from the Airtime channel (all or nothing). The answer lists one transaction per recipient in the request's order, each with its own reference and callback; a recipient refused at once is `Cancelled` with its reason, and the others go on.",
    tag: 'Transactions',
  },
  get_balance: {
    summary: 'Get the balances',
    description: 'Both channels of the account, Agent Float and Airtime, with their available balances.',
    tag: 'Channels',
  },
  get_transaction: {
    summary: 'Get a transaction',
    description:
      "One of the account's transactions by reference, as its operation answered it, in its current state (`transaction.state`), with its legs at the providers. For callers who cannot receive callbacks, poll this until `state` is `completed` or `cancelled`.",
    tag: 'Transactions',
  },
  add_callback_endpoint: {
    summary: 'Add a callback endpoint',
    description:
      'Registers a URL to receive signed callbacks, in JSON or XML. The answer holds the endpoint secret, shown only here.',
    tag: 'Callback endpoints',
  },
  list_callback_endpoints: {
    summary: 'List callback endpoints',
    description: "The account's endpoints, without their secrets, and why a disabled one was disabled.",
    tag: 'Callback endpoints',
  },
  remove_callback_endpoint: {
    summary: 'Remove a callback endpoint',
    description: 'Removes an endpoint; deliveries still pending to it fail.',
    tag: 'Callback endpoints',
  },
  rotate_callback_secret: {
    summary: 'Rotate a callback secret',
    description:
      'Gives the endpoint a new secret. During the grace period callbacks carry both signatures, so receivers can switch without losing any.',
    tag: 'Callback endpoints',
  },
  resend_callback: {
    summary: "Resend a transaction's callback",
    description:
      "Queues a terminal transaction's callback again, to one endpoint or to all, with the same `webhook-id` and a fresh retry schedule.",
    tag: 'Callback deliveries',
  },
  list_callback_deliveries: {
    summary: 'List callback deliveries',
    description:
      'A page of callback deliveries, newest first, each with every attempt. Pass `next_cursor` back as `cursor`, with the same filters, for the next page; it is empty on the last one.',
    tag: 'Callback deliveries',
  },
  resend_failed_callbacks: {
    summary: 'Resend failed callbacks',
    description:
      'Queues every delivery that failed since a time again, oldest first, at most 10,000 a call; `resend.more` says whether to call again.',
    tag: 'Callback deliveries',
  },
  send_test_callback: {
    summary: 'Send a test callback',
    description:
      'Signs a test callback (no transaction) and POSTs it to the endpoint at once, and answers what the endpoint answered. Nothing is queued or retried.',
    tag: 'Callback endpoints',
  },
  list_transactions: {
    summary: 'List transactions',
    description:
      "A page of the account's transactions, newest first, optionally filtered. Pass `next_cursor` back as `cursor`, with the same filters, for the next page; it is empty on the last one.",
    tag: 'Transactions',
  },
  list_statement: {
    summary: "List a channel's statement",
    description:
      "A page of one channel's posted transfers, newest first, each with the posted balance before and after it. Pass `next_cursor` back as `cursor` for the next page.",
    tag: 'Channels',
  },
};
