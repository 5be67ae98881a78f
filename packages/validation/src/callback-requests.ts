// Requests of the callback functions (docs/architecture.md, Callbacks): managing endpoints, resending a
// callback or every failed one, sending a test callback and listing deliveries, a page at a time. URL
// policy that depends on the mode (https only in live mode, no private addresses) belongs to the server;
// here a URL only has to be absolute http(s).

import { z } from 'zod';
import {
  boundedText,
  callbackUrl,
  dateBoundText,
  maxDescriptionLength,
  pageLimit,
  serviceIdentifier,
} from './field-schemas.js';
import { decodeDeliveryCursor, maxCursorLength } from './listing-cursors.js';
import {
  defineRequest,
  fieldsAsRequest,
  parseRequest,
  requestSchema,
  type ParseOptions,
  type ValidationResult,
} from './request-parser.js';

/** Body formats an endpoint can receive; the first is the default. */
export const callbackFormats = ['json', 'xml'] as const;
/** States of a callback delivery. */
export const callbackDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;

/**
 * Body format of an endpoint's callbacks: JSON or XML.
 *
 * @example
 * ```ts
 * import { callbackFormats, type CallbackFormat } from '@topup/validation';
 *
 * const format: CallbackFormat = 'xml';
 * callbackFormats.includes(format); // true
 * ```
 */
export type CallbackFormat = (typeof callbackFormats)[number];
/**
 * State of a callback delivery: waiting for (another) attempt, delivered, or given up.
 *
 * @example
 * ```ts
 * import { parseListCallbackDeliveries, type CallbackDeliveryStatus } from '@topup/validation';
 *
 * const status: CallbackDeliveryStatus = 'failed';
 * parseListCallbackDeliveries({ status }); // { ok: true, value: { status: 'failed', limit: 50 } }
 * ```
 */
export type CallbackDeliveryStatus = (typeof callbackDeliveryStatuses)[number];

const endpointId = serviceIdentifier.meta({ description: 'Id of a callback endpoint' });

const addCallbackEndpointDefinition = defineRequest(
  z.object({
    url: callbackUrl.meta({ description: 'Absolute http(s) URL that receives callbacks' }),
    format: z.enum(callbackFormats).default('json').meta({ description: 'Body format of the callbacks' }),
    description: boundedText(maxDescriptionLength)
      .optional()
      .meta({ description: 'Free text for the caller' }),
  }),
  fieldsAsRequest,
);

const listCallbackEndpointsDefinition = defineRequest(z.object({}), fieldsAsRequest);

const removeCallbackEndpointDefinition = defineRequest(
  z.object({ endpoint_id: endpointId }),
  fieldsAsRequest,
);

const rotateCallbackSecretDefinition = defineRequest(z.object({ endpoint_id: endpointId }), fieldsAsRequest);

const resendCallbackDefinition = defineRequest(
  z.object({
    reference: serviceIdentifier.meta({
      description: 'Reference of the transaction whose callback to resend',
    }),
    endpoint_id: endpointId.optional(),
  }),
  fieldsAsRequest,
);

const listCallbackDeliveriesDefinition = defineRequest(
  z.object({
    reference: serviceIdentifier.optional().meta({ description: 'Only deliveries of this transaction' }),
    status: z
      .enum(callbackDeliveryStatuses)
      .optional()
      .meta({ description: 'Only deliveries in this state' }),
    endpoint_id: endpointId.optional().meta({ description: 'Only deliveries to this endpoint' }),
    from: dateBoundText.optional().meta({
      description: 'Only deliveries created at or after this ISO 8601 date or date-time',
    }),
    to: dateBoundText
      .optional()
      .meta({ description: 'Only deliveries created before this ISO 8601 date or date-time' }),
    limit: pageLimit.meta({ description: 'Most deliveries in the page, 1 to 100 (default 50)' }),
    cursor: z
      .string()
      .trim()
      .max(maxCursorLength)
      .refine((text) => decodeDeliveryCursor(text) !== undefined)
      .optional()
      .meta({ description: "The previous page's next_cursor, to read the page after it" }),
  }),
  fieldsAsRequest,
);

const resendFailedCallbacksDefinition = defineRequest(
  z.object({
    since: dateBoundText.meta({
      description: 'Resend the failed deliveries created at or after this ISO 8601 date or date-time',
    }),
    endpoint_id: endpointId.optional().meta({ description: 'Only the failed deliveries to this endpoint' }),
  }),
  fieldsAsRequest,
);

const sendTestCallbackDefinition = defineRequest(
  z.object({ endpoint_id: endpointId.meta({ description: 'The endpoint to send a test callback to' }) }),
  fieldsAsRequest,
);

/** Schema of an `add_callback_endpoint` request body. */
export const addCallbackEndpointSchema = requestSchema(addCallbackEndpointDefinition);
/** Schema of a `list_callback_endpoints` request body (no fields). */
export const listCallbackEndpointsSchema = requestSchema(listCallbackEndpointsDefinition);
/** Schema of a `remove_callback_endpoint` request body. */
export const removeCallbackEndpointSchema = requestSchema(removeCallbackEndpointDefinition);
/** Schema of a `rotate_callback_secret` request body. */
export const rotateCallbackSecretSchema = requestSchema(rotateCallbackSecretDefinition);
/** Schema of a `resend_callback` request body. */
export const resendCallbackSchema = requestSchema(resendCallbackDefinition);
/** Schema of a `list_callback_deliveries` request body. */
export const listCallbackDeliveriesSchema = requestSchema(listCallbackDeliveriesDefinition);
/** Schema of a `resend_failed_callbacks` request body. */
export const resendFailedCallbacksSchema = requestSchema(resendFailedCallbacksDefinition);
/** Schema of a `send_test_callback` request body. */
export const sendTestCallbackSchema = requestSchema(sendTestCallbackDefinition);

/**
 * A valid `add_callback_endpoint` request; `format` is always set (`json` by default).
 *
 * @example
 * ```ts
 * import { parseAddCallbackEndpoint, type AddCallbackEndpointRequest } from '@topup/validation';
 *
 * const result = parseAddCallbackEndpoint({ url: 'https://caller.example/callbacks' });
 * const request: AddCallbackEndpointRequest | undefined = result.ok ? result.value : undefined;
 * request; // { url: 'https://caller.example/callbacks', format: 'json' }
 * ```
 */
export type AddCallbackEndpointRequest = z.output<typeof addCallbackEndpointSchema>;
/**
 * What a caller may send to `add_callback_endpoint`.
 *
 * @example
 * ```ts
 * import type { AddCallbackEndpointInput } from '@topup/validation';
 *
 * const body: AddCallbackEndpointInput = { url: 'https://caller.example/callbacks' };
 * ```
 */
export type AddCallbackEndpointInput = z.input<typeof addCallbackEndpointSchema>;
/**
 * A valid `list_callback_endpoints` request: it has no fields.
 *
 * @example
 * ```ts
 * import { parseListCallbackEndpoints, type ListCallbackEndpointsRequest } from '@topup/validation';
 *
 * const result = parseListCallbackEndpoints({});
 * const request: ListCallbackEndpointsRequest | undefined = result.ok ? result.value : undefined;
 * request; // {}
 * ```
 */
export type ListCallbackEndpointsRequest = z.output<typeof listCallbackEndpointsSchema>;
/**
 * What a caller may send to `list_callback_endpoints`: no fields.
 *
 * @example
 * ```ts
 * import type { ListCallbackEndpointsInput } from '@topup/validation';
 *
 * const body: ListCallbackEndpointsInput = {};
 * ```
 */
export type ListCallbackEndpointsInput = z.input<typeof listCallbackEndpointsSchema>;
/**
 * A valid `remove_callback_endpoint` request: the `endpoint_id` to remove.
 *
 * @example
 * ```ts
 * import { parseRemoveCallbackEndpoint, type RemoveCallbackEndpointRequest } from '@topup/validation';
 *
 * const result = parseRemoveCallbackEndpoint({ endpoint_id: 'ep_4KX2' });
 * const request: RemoveCallbackEndpointRequest | undefined = result.ok ? result.value : undefined;
 * request; // { endpoint_id: 'ep_4KX2' }
 * ```
 */
export type RemoveCallbackEndpointRequest = z.output<typeof removeCallbackEndpointSchema>;
/**
 * What a caller may send to `remove_callback_endpoint`.
 *
 * @example
 * ```ts
 * import type { RemoveCallbackEndpointInput } from '@topup/validation';
 *
 * const body: RemoveCallbackEndpointInput = { endpoint_id: 'ep_4KX2' };
 * ```
 */
export type RemoveCallbackEndpointInput = z.input<typeof removeCallbackEndpointSchema>;
/**
 * A valid `rotate_callback_secret` request: the `endpoint_id` whose secret to rotate.
 *
 * @example
 * ```ts
 * import { parseRotateCallbackSecret, type RotateCallbackSecretRequest } from '@topup/validation';
 *
 * const result = parseRotateCallbackSecret({ endpoint_id: 'ep_4KX2' });
 * const request: RotateCallbackSecretRequest | undefined = result.ok ? result.value : undefined;
 * request; // { endpoint_id: 'ep_4KX2' }
 * ```
 */
export type RotateCallbackSecretRequest = z.output<typeof rotateCallbackSecretSchema>;
/**
 * What a caller may send to `rotate_callback_secret`.
 *
 * @example
 * ```ts
 * import type { RotateCallbackSecretInput } from '@topup/validation';
 *
 * const body: RotateCallbackSecretInput = { endpoint_id: 'ep_4KX2' };
 * ```
 */
export type RotateCallbackSecretInput = z.input<typeof rotateCallbackSecretSchema>;
/**
 * A valid `resend_callback` request: the transaction `reference`, and optionally one `endpoint_id`.
 *
 * @example
 * ```ts
 * import { parseResendCallback, type ResendCallbackRequest } from '@topup/validation';
 *
 * const result = parseResendCallback({ reference: 'TX7Q2M9K4D', endpoint_id: 'ep_4KX2' });
 * const request: ResendCallbackRequest | undefined = result.ok ? result.value : undefined;
 * request; // { reference: 'TX7Q2M9K4D', endpoint_id: 'ep_4KX2' }
 * ```
 */
export type ResendCallbackRequest = z.output<typeof resendCallbackSchema>;
/**
 * What a caller may send to `resend_callback`.
 *
 * @example
 * ```ts
 * import type { ResendCallbackInput } from '@topup/validation';
 *
 * const body: ResendCallbackInput = { reference: 'TX7Q2M9K4D', endpoint_id: 'ep_4KX2' };
 * ```
 */
export type ResendCallbackInput = z.input<typeof resendCallbackSchema>;
/**
 * A valid `list_callback_deliveries` request: its optional filters (`reference`, `status`, `endpoint_id`,
 * the `from` and `to` bounds of the creation time as sent), the `cursor` of the previous page, and
 * `limit` always set (50 by default).
 *
 * @example
 * ```ts
 * import { parseListCallbackDeliveries, type ListCallbackDeliveriesRequest } from '@topup/validation';
 *
 * const result = parseListCallbackDeliveries({ reference: 'TX7Q2M9K4D', status: 'failed' });
 * const request: ListCallbackDeliveriesRequest | undefined = result.ok ? result.value : undefined;
 * request; // { reference: 'TX7Q2M9K4D', status: 'failed', limit: 50 }
 * ```
 */
export type ListCallbackDeliveriesRequest = z.output<typeof listCallbackDeliveriesSchema>;
/**
 * What a caller may send to `list_callback_deliveries`: every field is optional.
 *
 * @example
 * ```ts
 * import type { ListCallbackDeliveriesInput } from '@topup/validation';
 *
 * const body: ListCallbackDeliveriesInput = { status: 'failed', from: '2025-11-01T00:00:00Z', limit: 100 };
 * ```
 */
export type ListCallbackDeliveriesInput = z.input<typeof listCallbackDeliveriesSchema>;
/**
 * A valid `resend_failed_callbacks` request: `since` as sent, and optionally one `endpoint_id`.
 *
 * @example
 * ```ts
 * import { parseResendFailedCallbacks, type ResendFailedCallbacksRequest } from '@topup/validation';
 *
 * const result = parseResendFailedCallbacks({ since: '2025-11-21T00:00:00Z', endpoint_id: 'ep_4KX2' });
 * const request: ResendFailedCallbacksRequest | undefined = result.ok ? result.value : undefined;
 * request; // { since: '2025-11-21T00:00:00Z', endpoint_id: 'ep_4KX2' }
 * ```
 */
export type ResendFailedCallbacksRequest = z.output<typeof resendFailedCallbacksSchema>;
/**
 * What a caller may send to `resend_failed_callbacks`.
 *
 * @example
 * ```ts
 * import type { ResendFailedCallbacksInput } from '@topup/validation';
 *
 * const body: ResendFailedCallbacksInput = { since: '2025-11-21' };
 * ```
 */
export type ResendFailedCallbacksInput = z.input<typeof resendFailedCallbacksSchema>;
/**
 * A valid `send_test_callback` request: the `endpoint_id` to send a test callback to.
 *
 * @example
 * ```ts
 * import { parseSendTestCallback, type SendTestCallbackRequest } from '@topup/validation';
 *
 * const result = parseSendTestCallback({ endpoint_id: 'ep_4KX2' });
 * const request: SendTestCallbackRequest | undefined = result.ok ? result.value : undefined;
 * request; // { endpoint_id: 'ep_4KX2' }
 * ```
 */
export type SendTestCallbackRequest = z.output<typeof sendTestCallbackSchema>;
/**
 * What a caller may send to `send_test_callback`.
 *
 * @example
 * ```ts
 * import type { SendTestCallbackInput } from '@topup/validation';
 *
 * const body: SendTestCallbackInput = { endpoint_id: 'ep_4KX2' };
 * ```
 */
export type SendTestCallbackInput = z.input<typeof sendTestCallbackSchema>;

/**
 * Validates a decoded `add_callback_endpoint` body; `format` defaults to `json`.
 *
 * @example
 * ```ts
 * import { parseAddCallbackEndpoint } from '@topup/validation';
 *
 * parseAddCallbackEndpoint({ url: 'https://caller.example/callbacks' }); // { ok: true, value: { url: 'https://caller.example/callbacks', format: 'json' } }
 * parseAddCallbackEndpoint({ url: 'ftp://caller.example', format: 'yaml' }); // { ok: false, errors: ["'url is invalid'", "'format is invalid'"] }
 * ```
 */
export function parseAddCallbackEndpoint(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<AddCallbackEndpointRequest> {
  return parseRequest(addCallbackEndpointDefinition, input, options);
}

/**
 * Validates a decoded `list_callback_endpoints` body: it has no fields, so any body is accepted.
 *
 * @example
 * ```ts
 * import { parseListCallbackEndpoints } from '@topup/validation';
 *
 * parseListCallbackEndpoints({}); // { ok: true, value: {} }
 * ```
 */
export function parseListCallbackEndpoints(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ListCallbackEndpointsRequest> {
  return parseRequest(listCallbackEndpointsDefinition, input, options);
}

/**
 * Validates a decoded `remove_callback_endpoint` body (`endpoint_id` required).
 *
 * @example
 * ```ts
 * import { parseRemoveCallbackEndpoint } from '@topup/validation';
 *
 * parseRemoveCallbackEndpoint({ endpoint_id: 'ep_4KX2' }); // { ok: true, value: { endpoint_id: 'ep_4KX2' } }
 * parseRemoveCallbackEndpoint({}); // { ok: false, errors: ["'endpoint_id is required.'"] }
 * ```
 */
export function parseRemoveCallbackEndpoint(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<RemoveCallbackEndpointRequest> {
  return parseRequest(removeCallbackEndpointDefinition, input, options);
}

/**
 * Validates a decoded `rotate_callback_secret` body (`endpoint_id` required).
 *
 * @example
 * ```ts
 * import { parseRotateCallbackSecret } from '@topup/validation';
 *
 * parseRotateCallbackSecret({ endpoint_id: 'ep_4KX2' }); // { ok: true, value: { endpoint_id: 'ep_4KX2' } }
 * parseRotateCallbackSecret({}); // { ok: false, errors: ["'endpoint_id is required.'"] }
 * ```
 */
export function parseRotateCallbackSecret(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<RotateCallbackSecretRequest> {
  return parseRequest(rotateCallbackSecretDefinition, input, options);
}

/**
 * Validates a decoded `resend_callback` body (`reference` required, `endpoint_id` optional).
 *
 * @example
 * ```ts
 * import { parseResendCallback } from '@topup/validation';
 *
 * parseResendCallback({ reference: 'TX7Q2M9K4D' }); // { ok: true, value: { reference: 'TX7Q2M9K4D' } }
 * parseResendCallback({ endpoint_id: 'ep_4KX2' }); // { ok: false, errors: ["'reference is required.'"] }
 * ```
 */
export function parseResendCallback(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ResendCallbackRequest> {
  return parseRequest(resendCallbackDefinition, input, options);
}

/**
 * Validates a decoded `list_callback_deliveries` body: every filter optional, `limit` 1 to 100 (50 when
 * absent), `cursor` a `next_cursor` this service wrote.
 *
 * @example
 * ```ts
 * import { parseListCallbackDeliveries } from '@topup/validation';
 *
 * parseListCallbackDeliveries({ status: 'failed' }); // { ok: true, value: { status: 'failed', limit: 50 } }
 * parseListCallbackDeliveries({ status: 'lost', limit: 500 }); // { ok: false, errors: ["'status is invalid'", "'limit is invalid'"] }
 * ```
 */
export function parseListCallbackDeliveries(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ListCallbackDeliveriesRequest> {
  return parseRequest(listCallbackDeliveriesDefinition, input, options);
}

/**
 * Validates a decoded `resend_failed_callbacks` body (`since` required, `endpoint_id` optional).
 *
 * @example
 * ```ts
 * import { parseResendFailedCallbacks } from '@topup/validation';
 *
 * parseResendFailedCallbacks({ since: '2025-11-21' }); // { ok: true, value: { since: '2025-11-21' } }
 * parseResendFailedCallbacks({ since: 'yesterday' }); // { ok: false, errors: ["'since is invalid'"] }
 * parseResendFailedCallbacks({}); // { ok: false, errors: ["'since is required.'"] }
 * ```
 */
export function parseResendFailedCallbacks(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ResendFailedCallbacksRequest> {
  return parseRequest(resendFailedCallbacksDefinition, input, options);
}

/**
 * Validates a decoded `send_test_callback` body (`endpoint_id` required).
 *
 * @example
 * ```ts
 * import { parseSendTestCallback } from '@topup/validation';
 *
 * parseSendTestCallback({ endpoint_id: 'ep_4KX2' }); // { ok: true, value: { endpoint_id: 'ep_4KX2' } }
 * parseSendTestCallback({}); // { ok: false, errors: ["'endpoint_id is required.'"] }
 * ```
 */
export function parseSendTestCallback(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<SendTestCallbackRequest> {
  return parseRequest(sendTestCallbackDefinition, input, options);
}
