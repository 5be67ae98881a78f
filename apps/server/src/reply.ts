// Writes an envelope to a Koa response in the negotiated format and media type, with the HTTP status
// and headers.

import { encodeJson, encodeXml } from '@topup/envelope';
import type { Envelope, ResponseNegotiation } from '@topup/envelope';
import type { Context } from 'koa';

export interface EncodedReply {
  readonly httpStatus: number;
  readonly contentType: string;
  readonly body: string;
}

export function encodeReply(
  envelope: Envelope,
  negotiated: ResponseNegotiation,
  httpStatus: number,
): EncodedReply {
  return {
    httpStatus,
    contentType: negotiated.contentType,
    body: negotiated.format === 'xml' ? encodeXml(envelope) : encodeJson(envelope),
  };
}

export function sendReply(
  ctx: Context,
  reply: EncodedReply,
  headers: Readonly<Record<string, string>> = {},
): void {
  ctx.status = reply.httpStatus;
  ctx.set(headers);
  ctx.type = reply.contentType;
  ctx.body = reply.body;
}
