// The bytes and headers of one callback attempt. The body is the stored envelope encoded in the endpoint's
// format; the encoders are deterministic, so every retry sends identical bytes, and only the signature
// timestamp (and so the signatures) change per attempt while `webhook-id` stays the delivery's id.

import { contentTypeOf, encodeJson, encodeXml } from '@topup/envelope';
import type { CallbackFormat, WireMessage } from '@topup/envelope';
import { signCallback } from '@topup/signing';

export interface CallbackRequestInput {
  /** The callback envelope as stored in the outbox (JSON text of the built envelope object). */
  readonly payload: string;
  readonly format: CallbackFormat;
  /** The endpoint's secrets: current first, then the previous one during a rotation. */
  readonly secrets: readonly string[];
  /** The delivery id, sent as the stable `webhook-id`. */
  readonly deliveryId: string;
  /** Unix seconds of this attempt. */
  readonly timestamp: number;
}

export interface CallbackRequest {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** The wire body of a stored callback envelope in the endpoint's format. */
export function encodeCallbackBody(payload: string, format: CallbackFormat): Buffer {
  const message = JSON.parse(payload) as WireMessage;
  return Buffer.from(format === 'xml' ? encodeXml(message) : encodeJson(message), 'utf8');
}

/** The body and every header of one signed callback attempt. */
export function buildCallbackRequest(input: CallbackRequestInput): CallbackRequest {
  const body = encodeCallbackBody(input.payload, input.format);
  const signature = signCallback({
    secrets: input.secrets,
    id: input.deliveryId,
    timestamp: input.timestamp,
    body,
  });
  return {
    body,
    headers: {
      Accept: 'application/json',
      'Content-Type': contentTypeOf(input.format),
      'Content-Length': String(body.byteLength),
      'User-Agent': 'Topup-Callbacks/1',
      ...signature,
    },
  };
}
