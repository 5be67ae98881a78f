// The callbacks the service sends, as the OpenAPI document's `webhooks`: one per kind of body (a float's,
// an airtime transaction's, the test callback), each in the endpoint's format, JSON or XML, with the six
// signature headers of @topup/signing, and the answer the spec asks of the receiver.

import { failureMessage, statusCodes, successMessages } from '@topup/envelope';
import type { JsonSchema } from './openapi-xml.js';

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function status(type: 'SUCCESS' | 'FAIL', code: string, messages: readonly string[]): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'code', 'message'],
    properties: {
      type: { type: 'string', const: type },
      code: { type: 'string', const: code },
      message: { type: 'string', enum: [...new Set(messages)] },
    },
    additionalProperties: false,
  };
}

const completedOrCancelled = (completed: string, cancelled: readonly string[]): JsonSchema => ({
  oneOf: [status('SUCCESS', '0000', [completed]), status('FAIL', '8000', cancelled)],
});

function callbackBody(description: string, callbackStatus: JsonSchema, data: string): JsonSchema {
  return {
    description,
    type: 'object',
    required: ['status', 'data'],
    properties: { status: callbackStatus, data: schema(data) },
    additionalProperties: false,
  };
}

/** The bodies of the callbacks and of the receiver's answer, by the name the document gives them. */
export const callbackSchemas: Readonly<Record<string, JsonSchema>> = {
  AgentFloatCallback: callbackBody(
    'A float completed (`SUCCESS`/`0000`) or cancelled (`FAIL`/`8000`, the reason in `data.errors`), with the full transaction data.',
    completedOrCancelled(successMessages.agentFloatDeposited, [failureMessage('8000', 'send_agent_float')]),
    'AgentFloatCallbackData',
  ),
  AirtimeCallback: callbackBody(
    'Airtime delivered (`SUCCESS`/`0000`) or cancelled (`FAIL`/`8000`, the reason in `data.errors`), from `buy_airtime` or `send_airtime`, with the full transaction data but no `payment`.',
    completedOrCancelled(successMessages.airtimeDelivered, [
      failureMessage('8000', 'buy_airtime'),
      failureMessage('8000', 'send_airtime'),
    ]),
    'AirtimeCallbackData',
  ),
  TestCallback: callbackBody(
    'The test callback `send_test_callback` sends: no transaction, nothing to act on.',
    status('SUCCESS', '0000', [successMessages.testCallback]),
    'TestCallbackData',
  ),
  CallbackAnswer: {
    description: "The receiver's answer the spec asks for: `SUCCESS`/`0000`/`Callback processed`, no data.",
    type: 'object',
    required: ['status'],
    properties: { status: status('SUCCESS', '0000', [successMessages.callbackProcessed]) },
    additionalProperties: false,
  },
};

/** The headers every callback carries, as reusable parameters. */
export const signatureParameters: Readonly<Record<string, JsonSchema>> = {
  'Signature-Algorithm': {
    name: 'Signature-Algorithm',
    in: 'header',
    required: true,
    description: 'The algorithm of `Signature-Hash`.',
    schema: { type: 'string', const: 'HMAC-SHA256' },
  },
  'Signature-Timestamp': {
    name: 'Signature-Timestamp',
    in: 'header',
    required: true,
    description: 'When the attempt was signed, in Unix seconds. Refuse one more than 300 s from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'Signature-Hash': {
    name: 'Signature-Hash',
    in: 'header',
    required: true,
    description:
      "Base64 of HMAC-SHA256 over `<Signature-Timestamp>.<raw body>`, keyed with the decoded bytes of the endpoint secret (`whsec_<base64>`). During a secret rotation's grace two hashes, space-separated: accept the callback when either matches. Compare in constant time, over the raw bytes received.",
    schema: { type: 'string', pattern: '^[A-Za-z0-9+/]+={0,2}( [A-Za-z0-9+/]+={0,2})*$' },
  },
  'webhook-id': {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: the delivery id, the same on every retry of a callback; deduplicate by it. A test callback has its own (`test_…`).',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]+$' },
  },
  'webhook-timestamp': {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the same Unix seconds as `Signature-Timestamp`.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'webhook-signature': {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of <webhook-id>.<webhook-timestamp>.<raw body>>`, one per secret, space-separated. Any Standard Webhooks library verifies it with the endpoint secret.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
};

const signatureHeaders = Object.keys(signatureParameters).map((name) => ({
  $ref: `#/components/parameters/${name}`,
}));

const format =
  "In the endpoint's format: JSON as `application/json`, XML as `text/xml`, with `Accept: application/json`.";
const delivery = `Sent to every enabled endpoint of the account. ${format} Delivered at least once: any 2xx answer delivers it; anything else, a timeout (15 s) or a redirect (never followed) is retried on the Standard Webhooks schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, with jitter), and \`410 Gone\` disables the endpoint.`;

function callback(operationId: string, summary: string, description: string, body: string) {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ['Callbacks'],
      // The callback is authenticated by its signature headers, not by a token.
      security: [],
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: schema(body) },
          'text/xml': { schema: schema(body) },
        },
      },
      responses: {
        '200': {
          description: `Any 2xx delivers the callback. The spec's answer is \`${successMessages.callbackProcessed}\`; its body is recorded (the first 20 KB) but not required.`,
          content: { 'application/json': { schema: schema('CallbackAnswer') } },
        },
        '410': {
          description: 'Gone: the endpoint is disabled and receives no more callbacks.',
        },
      },
    },
  };
}

/** The document's `webhooks`. */
export const webhooks = {
  agent_float_callback: callback(
    'agent_float_callback',
    'Agent float completed or cancelled',
    `A float reached its end: \`${successMessages.agentFloatDeposited}\`, or \`${statusCodes['8000'].message}\` with the reason. ${delivery}`,
    'AgentFloatCallback',
  ),
  airtime_callback: callback(
    'airtime_callback',
    'Airtime delivered or cancelled',
    `An airtime transaction reached its end: \`${successMessages.airtimeDelivered}\`, or \`${failureMessage('8000', 'buy_airtime')}\` with the reason (a purchase cancelled after payment was refunded). ${delivery}`,
    'AirtimeCallback',
  ),
  test_callback: callback(
    'test_callback',
    'Test callback',
    `What \`send_test_callback\` sends to one endpoint, at once, signed like any callback, so a receiver can be checked end to end. ${format} Sent once: never queued or retried, and a 410 disables nothing.`,
    'TestCallback',
  ),
};
