import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  CallbackBodyTooLargeError,
  CallbackVerificationError,
  DEFAULT_MAX_BODY_BYTES,
  callbackAnswer,
  parseCallback,
  readNodeBody,
} from '@topup/client';
import type { CallbackEvent } from '@topup/client';

/**
 * An HTTP server that verifies each callback against the endpoint's secrets (both of them during a
 * rotation), hands the event to `onEvent`, and answers only once that succeeded.
 */
export function callbackReceiver(
  secrets: readonly string[],
  onEvent: (event: CallbackEvent) => Promise<void>,
): Server {
  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: Buffer;
    try {
      // At most 1 MiB: a callback is a few kilobytes.
      body = await readNodeBody(request, DEFAULT_MAX_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof CallbackBodyTooLargeError)) throw error;
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
