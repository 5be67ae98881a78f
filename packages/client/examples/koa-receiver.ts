import Koa from 'koa';
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
    let body: Buffer;
    try {
      // At most 1 MiB: a callback is a few kilobytes.
      body = await readNodeBody(ctx.req, DEFAULT_MAX_BODY_BYTES);
    } catch (error) {
      if (!(error instanceof CallbackBodyTooLargeError)) throw error;
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
