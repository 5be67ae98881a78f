// Reading a request's raw body as bytes, bounded in size, from a node stream or a Fetch `Request`.
// Verification needs the exact bytes sent, so nothing here decodes or parses.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { readHeader } from './header-lookup.js';

/**
 * Default bound on a callback body: 1 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BODY_BYTES } from '@topup/signing';
 *
 * DEFAULT_MAX_BODY_BYTES; // 1048576
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * What the node readers need of a request: a readable stream with node's header object.
 *
 * @example
 * ```ts
 * import { Readable } from 'node:stream';
 * import type { NodeRequestLike } from '@topup/signing';
 *
 * // An IncomingMessage is one; so is any readable stream given node's header object.
 * const request: NodeRequestLike = Object.assign(Readable.from([Buffer.from('{}')]), {
 *   headers: { 'content-type': 'application/json' },
 * });
 * ```
 */
export type NodeRequestLike = Readable & { readonly headers: IncomingHttpHeaders };

/**
 * Thrown when a body is larger than the configured bound; receivers answer it with 413.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { CallbackBodyTooLargeError, verifyNodeRequest } from '@topup/signing';
 *
 * createServer(async (req, res) => {
 *   try {
 *     const { result } = await verifyNodeRequest(req, {
 *       secrets: [process.env.TOPUP_CALLBACK_SECRET!],
 *       maxBodyBytes: 65_536,
 *     });
 *     res.writeHead(result.ok ? 200 : 401).end();
 *   } catch (error) {
 *     if (!(error instanceof CallbackBodyTooLargeError)) throw error;
 *     res.writeHead(413).end(`over ${error.limitBytes} bytes`);
 *   }
 * }).listen(8081);
 * ```
 */
export class CallbackBodyTooLargeError extends Error {
  override readonly name = 'CallbackBodyTooLargeError';
  readonly limitBytes: number;

  constructor(limitBytes: number, declaredBytes?: number) {
    super(
      `Expected a callback body of at most ${limitBytes} bytes, received ${
        declaredBytes === undefined ? 'more' : `a Content-Length of ${declaredBytes}`
      }.`,
    );
    this.limitBytes = limitBytes;
  }
}

const ALREADY_CONSUMED =
  'Expected an unread request body, received one already consumed: verify callbacks before any body parser runs.';

/**
 * Reads a node request's body into one buffer, at most `maxBytes` long. Past the bound it stops reading
 * without dropping the connection, so the receiver can still answer 413.
 * @throws CallbackBodyTooLargeError when the declared or actual size exceeds `maxBytes`; Error when the
 *   body was already consumed or the connection closed before its end.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { CallbackBodyTooLargeError, DEFAULT_MAX_BODY_BYTES, readNodeBody } from '@topup/signing';
 *
 * createServer(async (req, res) => {
 *   try {
 *     const body = await readNodeBody(req, DEFAULT_MAX_BODY_BYTES);
 *     res.writeHead(200).end(`${body.length} bytes`);
 *   } catch (error) {
 *     if (!(error instanceof CallbackBodyTooLargeError)) throw error;
 *     res.writeHead(413, { Connection: 'close' }).end();
 *   }
 * }).listen(8081);
 * ```
 */
export function readNodeBody(request: NodeRequestLike, maxBytes: number): Promise<Buffer> {
  if (request.readableEnded) {
    return Promise.reject(new Error(ALREADY_CONSUMED));
  }
  const declared = declaredLength(readHeader(request.headers, 'content-length'));
  if (declared !== undefined && declared > maxBytes) {
    return Promise.reject(new CallbackBodyTooLargeError(maxBytes, declared));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        stop();
        // Stop pulling without destroying the socket, so the receiver can still answer 413.
        request.unpipe();
        request.pause();
        reject(new CallbackBodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const onClose = (): void => {
      stop();
      reject(new Error('Expected a complete request body, received a connection closed before its end.'));
    };
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

/**
 * Reads a Fetch `Request`'s body into one byte array, at most `maxBytes` long.
 * @throws CallbackBodyTooLargeError when the declared or actual size exceeds `maxBytes`; Error when the
 *   body was already consumed.
 */
export async function readFetchBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (request.bodyUsed) {
    throw new Error(ALREADY_CONSUMED);
  }
  const declared = declaredLength(readHeader(request.headers, 'content-length'));
  if (declared !== undefined && declared > maxBytes) {
    await request.body?.cancel();
    throw new CallbackBodyTooLargeError(maxBytes, declared);
  }
  if (request.body === null) {
    return new Uint8Array(0);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // Fetch types its body stream's chunks as any; check rather than trust them.
    const { done, value } = (await reader.read()) as { done: boolean; value: unknown };
    if (done) {
      break;
    }
    if (!(value instanceof Uint8Array)) {
      await reader.cancel();
      throw new Error(`Expected the request body stream to yield bytes, received a ${typeof value} chunk.`);
    }
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new CallbackBodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function declaredLength(header: string | undefined): number | undefined {
  return header !== undefined && /^[0-9]+$/.test(header) ? Number(header) : undefined;
}
