// Reads the raw body within the size limit and decodes it by `Content-Type` (JSON or XML) into a plain
// object. Anything unreadable is 1000: unsupported media type, invalid UTF-8, bad syntax, too large.

import { decodeJsonRequest, decodeXmlRequest, requestFormat } from '@topup/envelope';
import type { Middleware } from 'koa';
import type { IncomingMessage } from 'node:http';
import { ApiFailure } from '../api-failure.js';
import type { ApiState } from '../api-state.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(limit: number): ApiFailure {
  return new ApiFailure('1000', [`the body is larger than the limit of ${limit} bytes`]);
}

/**
 * The body, up to `limit` bytes. Past the limit the rest is read and dropped rather than left unread:
 * stopping (or destroying the stream, as leaving a `for await` early does) would break the kept-alive
 * connection under the answer. A body that never finishes is cut off by the request timeout.
 */
export function readRawBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.resume();
      reject(tooLarge(limit));
    };
    request.on('data', onData);
    request.once('end', () => {
      resolve(Buffer.concat(chunks, Math.min(size, limit)));
    });
    // The client hung up or was cut off for being too slow: its request is incomplete, not our failure.
    request.once('close', () => {
      if (!request.complete) reject(new ApiFailure('1000', ['the body did not arrive completely']));
    });
    request.once('error', () => {
      reject(new ApiFailure('1000', ['the body did not arrive completely']));
    });
  });
}

export function bodyDecoding(limitBytes: number): Middleware<ApiState> {
  return async (ctx, next) => {
    const contentType = ctx.get('content-type') || undefined;
    const format = requestFormat(contentType);
    if (format === undefined) {
      throw new ApiFailure('1000', [
        `unsupported Content-Type ${JSON.stringify(contentType)}; expected application/json or text/xml`,
      ]);
    }
    const raw = await readRawBody(ctx.req, limitBytes);
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw new ApiFailure('1000', ['the body is not valid UTF-8']);
    }
    const decoded = format === 'xml' ? decodeXmlRequest(text) : decodeJsonRequest(text);
    if (!decoded.ok) throw new ApiFailure('1000', [decoded.problem]);
    ctx.state.body = decoded.value;
    await next();
  };
}
