import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
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
 * A Koa app that takes callbacks at `POST /topup/callbacks`: it verifies each one against the endpoint's
 * secrets, hands the event to `onEvent`, and answers only once that succeeded. In your own app, mount
 * this middleware before any body parser, which would consume the raw body.
 */
export function koaCallbackApp(
  secrets: readonly string[],
  onEvent: (event: CallbackEvent) => Promise<void>,
): Koa {
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/topup/callbacks') {
      await next();
      return;
    }
    const body = await readBody(ctx.req);
    if (body === undefined) {
      ctx.status = 413;
      // Closing the connection afterwards spares reading the rest of an oversized body.
      ctx.set('Connection', 'close');
      return;
    }
    let event: CallbackEvent;
    try {
      // The raw bytes, exactly as received: the signature covers them, not a re-serialised object.
      event = parseCallback(body, ctx.headers, secrets);
    } catch (error) {
      if (!(error instanceof CallbackVerificationError)) throw error;
      ctx.status = 400;
      return;
    }
    // If this throws, Koa answers 500 and the service delivers the callback again later.
    await onEvent(event);
    const answer = callbackAnswer(ctx.get('Accept'));
    ctx.status = answer.status;
    ctx.type = answer.contentType;
    ctx.body = answer.body;
  });
  return app;
}
