// What a successful call returns: the `data` of the success envelope, flat, with the answer's details
// beside it, so `result.transaction.reference` and `result.requestId` read alike. None of the data's
// fields is called `message`, `requestId`, `replayed` or `idempotencyKey`, so nothing is shadowed.

import type { CallbackDeliveryView, CallbackEndpointView } from '@topup/envelope';

/**
 * Details of the answer that every result carries next to its data.
 *
 * @example
 * ```ts
 * import { createClient, type ResponseDetails } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const { message, requestId, replayed }: ResponseDetails = await topup.getBalance();
 * console.log(message, requestId, replayed); // 'Balance found' 'req_…' false
 * ```
 */
export interface ResponseDetails {
  /** `status.message`, e.g. `Airtime purchase requested`. */
  readonly message: string;
  /** `X-Request-Id` of the answer; quote it when asking about a call. */
  readonly requestId: string | undefined;
  /** True when the service replayed its first answer to this `Idempotency-Key`. */
  readonly replayed: boolean;
}

/**
 * A successful call: the success `data` without its (empty) `errors`, plus the answer's details.
 *
 * @example
 * ```ts
 * import { createClient, type TopupResult } from '@topup/client';
 * import type { BalanceData } from '@topup/envelope';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const balance: TopupResult<BalanceData> = await topup.getBalance();
 * for (const channel of balance.channels) console.log(channel.type, channel.balance);
 * ```
 */
export type TopupResult<D> = D & ResponseDetails;

/**
 * A successful `sendAgentFloat` or `buyAirtime`, with the `Idempotency-Key` it was sent with.
 *
 * @example
 * ```ts
 * import { createClient, type OperationResult } from '@topup/client';
 * import type { AgentFloatData } from '@topup/envelope';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const float: OperationResult<AgentFloatData> = await topup.sendAgentFloat({
 *   mobile: '254712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * console.log(float.transaction.reference, float.channel.balance, float.idempotencyKey);
 * ```
 */
export type OperationResult<D> = TopupResult<D> & { readonly idempotencyKey: string };

/**
 * `add_callback_endpoint`: the new endpoint and its signing secret, shown only in this answer.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { endpoint } = await topup.addCallbackEndpoint({
 *   url: 'https://caller.example/callbacks',
 *   format: 'json',
 * });
 * console.log(endpoint.id, endpoint.secret); // store the secret now: no other answer shows it
 * ```
 */
export interface AddedCallbackEndpointData {
  endpoint: CallbackEndpointView & { secret: string };
}

/**
 * `list_callback_endpoints`: the account's endpoints, without secrets.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { endpoints } = await topup.listCallbackEndpoints();
 * for (const endpoint of endpoints) console.log(endpoint.id, endpoint.url, endpoint.enabled);
 * ```
 */
export interface CallbackEndpointsData {
  endpoints: CallbackEndpointView[];
}

/**
 * `remove_callback_endpoint`: the id of the endpoint removed.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { endpoint } = await topup.removeCallbackEndpoint({ endpoint_id: 'ep_5TP4ddD6QHAveJh8' });
 * endpoint.id; // 'ep_5TP4ddD6QHAveJh8'
 * ```
 */
export interface RemovedCallbackEndpointData {
  endpoint: { id: string };
}

/**
 * `rotate_callback_secret`: the new secret; the previous one stays valid for the seconds given.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { endpoint } = await topup.rotateCallbackSecret({ endpoint_id: 'ep_5TP4ddD6QHAveJh8' });
 * console.log(
 *   `new secret ${endpoint.secret}; the old one works for ${endpoint.previous_secret_valid_for} s`,
 * );
 * ```
 */
export interface RotatedCallbackSecretData {
  endpoint: { id: string; secret: string; previous_secret_valid_for: string };
}

/**
 * `resend_callback`: the transaction and how many deliveries were queued (a digit string).
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { resend } = await topup.resendCallback({ reference: 'TXVQYSN6XMFZTY' });
 * console.log(`${resend.queued} deliveries queued for ${resend.reference}`);
 * ```
 */
export interface ResentCallbackData {
  resend: { reference: string; queued: string };
}

/**
 * `list_callback_deliveries`: deliveries with every attempt.
 *
 * @example
 * ```ts
 * import { createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 * const { deliveries } = await topup.listCallbackDeliveries({ status: 'failed' });
 * for (const delivery of deliveries) console.log(delivery.reference, delivery.attempts.at(-1)?.http_status);
 * ```
 */
export interface CallbackDeliveriesData {
  deliveries: CallbackDeliveryView[];
}
