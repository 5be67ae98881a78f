import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Koa from 'koa';
import {
  CallbackBodyTooLargeError,
  koaCallbackVerifier,
  verifyFetchRequest,
  verifyNodeRequest,
} from '@topup/signing';
import type { VerifiedCallback } from '@topup/signing';

/** Your handling of a verified callback: parse the raw bytes (JSON or XML), then act on them. */
export type OnCallback = (rawBody: Uint8Array) => Promise<void>;

const processed = '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}';

// Koa: mount the verifier before any body parser; it answers 401 or 413 itself.
export function koaReceiver(
  secrets: readonly string[],
  onCallback: OnCallback,
): Koa<{ callback: VerifiedCallback }> {
  const app = new Koa<{ callback: VerifiedCallback }>();
  app.use(koaCallbackVerifier({ secrets }));
  app.use(async (ctx) => {
    await onCallback(ctx.state.callback.rawBody);
    ctx.type = 'application/json';
    ctx.body = processed;
  });
  return app;
}

// node:http
export function nodeReceiver(secrets: readonly string[], onCallback: OnCallback): Server {
  async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const { result, rawBody } = await verifyNodeRequest(request, { secrets });
      if (!result.ok) {
        response.writeHead(401).end(result.message);
        return;
      }
      await onCallback(rawBody);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(processed);
    } catch (error) {
      // Anything but 2xx makes the service deliver the callback again later.
      response.writeHead(error instanceof CallbackBodyTooLargeError ? 413 : 500).end();
    }
  }
  return createServer((request, response) => {
    void receive(request, response);
  });
}

// Fetch (Deno, Bun, Workers, Next.js route handlers)
export function fetchReceiver(
  secrets: readonly string[],
  onCallback: OnCallback,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const { result, rawBody } = await verifyFetchRequest(request, { secrets });
      if (!result.ok) return new Response(result.message, { status: 401 });
      await onCallback(rawBody);
      return new Response(processed, { headers: { 'Content-Type': 'application/json' } });
    } catch (error) {
      return new Response(null, { status: error instanceof CallbackBodyTooLargeError ? 413 : 500 });
    }
  };
}
