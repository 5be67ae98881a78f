import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CallbackVerificationError, callbackAnswer, parseCallback } from '@topup/client';
import type { CallbackEvent } from '@topup/client';

/** A callback is a few kilobytes: a body over 1 MiB is refused (413) before it is read any further. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The raw body, or undefined as soon as it is known to be over MAX_BODY_BYTES. */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      // Stop reading, without dropping the connection: the 413 still has to be sent.
      request.removeAllListeners('data').pause();
      resolve(undefined);
    });
    request.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

/**
 * An HTTP server that verifies each callback against the endpoint's secrets (both of them during a
 * rotation), hands the event to `onEvent`, and answers only once that succeeded.
 */
export function callbackReceiver(
  secrets: readonly string[],
  onEvent: (event: CallbackEvent) => Promise<void>,
): Server {
  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    if (body === undefined) {
      // Closing the connection afterwards spares reading the rest of an oversized body.
      response.writeHead(413, { Connection: 'close' }).end();
      return;
    }
    let event: CallbackEvent;
    try {
      // The raw bytes, exactly as received: the signature covers them, not a re-serialised object.
      event = parseCallback(body, request.headers, secrets);
    } catch (error) {
      response.writeHead(error instanceof CallbackVerificationError ? 400 : 500).end();
      return;
    }
    try {
      await onEvent(event);
    } catch {
      // Not answering 2xx makes the service deliver the callback again later.
      response.writeHead(500).end();
      return;
    }
    const answer = callbackAnswer(request.headers.accept);
    response.writeHead(answer.status, { 'Content-Type': answer.contentType }).end(answer.body);
  }

  return createServer((request, response) => {
    // A request that breaks off mid-body has nobody left to answer.
    receive(request, response).catch(() => response.destroy());
  });
}
