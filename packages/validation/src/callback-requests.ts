// Requests of the callback functions (docs/architecture.md, Callbacks): managing endpoints, resending a
// callback and listing deliveries. URL policy that depends on the mode (https only in live mode, no
// private addresses) belongs to the server; here a URL only has to be absolute http(s).

import { z } from 'zod';
import { boundedText, callbackUrl, maxDescriptionLength, serviceIdentifier } from './field-schemas.js';
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
 * parseListCallbackDeliveries({ status }); // { ok: true, value: { status: 'failed' } }
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
  }),
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
 * A valid `list_callback_deliveries` request: optional `reference` and `status` filters.
 *
 * @example
 * ```ts
 * import { parseListCallbackDeliveries, type ListCallbackDeliveriesRequest } from '@topup/validation';
 *
 * const result = parseListCallbackDeliveries({ reference: 'TX7Q2M9K4D', status: 'failed' });
 * const request: ListCallbackDeliveriesRequest | undefined = result.ok ? result.value : undefined;
 * request; // { reference: 'TX7Q2M9K4D', status: 'failed' }
 * ```
 */
export type ListCallbackDeliveriesRequest = z.output<typeof listCallbackDeliveriesSchema>;
/**
 * What a caller may send to `list_callback_deliveries`.
 *
 * @example
 * ```ts
 * import type { ListCallbackDeliveriesInput } from '@topup/validation';
 *
 * const body: ListCallbackDeliveriesInput = { reference: 'TX7Q2M9K4D', status: 'failed' };
 * ```
 */
export type ListCallbackDeliveriesInput = z.input<typeof listCallbackDeliveriesSchema>;

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
 * Validates a decoded `list_callback_deliveries` body (`reference` and `status` optional filters).
 *
 * @example
 * ```ts
 * import { parseListCallbackDeliveries } from '@topup/validation';
 *
 * parseListCallbackDeliveries({ status: 'failed' }); // { ok: true, value: { status: 'failed' } }
 * parseListCallbackDeliveries({ status: 'lost' }); // { ok: false, errors: ["'status is invalid'"] }
 * ```
 */
export function parseListCallbackDeliveries(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ListCallbackDeliveriesRequest> {
  return parseRequest(listCallbackDeliveriesDefinition, input, options);
}
