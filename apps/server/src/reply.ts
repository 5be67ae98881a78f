// Writes an envelope to a Koa response in the negotiated format, with the HTTP status and headers.

import { contentTypeOf, encodeJson, encodeXml } from '@topup/envelope';
import type { Envelope, WireFormat } from '@topup/envelope';
import type { Context } from 'koa';

export interface EncodedReply {
  readonly httpStatus: number;
  readonly contentType: string;
  readonly body: string;
}

export function encodeReply(envelope: Envelope, format: WireFormat, httpStatus: number): EncodedReply {
  return {
    httpStatus,
    contentType: contentTypeOf(format),
    body: format === 'xml' ? encodeXml(envelope) : encodeJson(envelope),
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
