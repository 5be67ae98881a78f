// koaCallbackVerifier inside a real Koa application over loopback HTTP: proves that Koa's own context
// satisfies the structural type, that the raw body is read from a real socket, and that Koa sends the
// 401/413 bodies the middleware sets.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { koaCallbackVerifier, type VerifiedCallback } from './koa.js';
import { signCallback } from './sign.js';

const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const timestamp = 1763740800;
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const app = new Koa<{ callback: VerifiedCallback }>();
  app.use(koaCallbackVerifier({ secrets: [secret], clock: () => timestamp, maxBodyBytes: 1024 }));
  app.use((ctx) => {
    const { id, timestamp: signedAt, rawBody } = ctx.state.callback;
    ctx.body = { id: id ?? null, timestamp: signedAt, received: rawBody.toString('utf8') };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => {
    server.close((error) => {
      if (error) reject(error);
      else resolve();
    });
  });
});

function post(payload: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${baseUrl}/callbacks/topup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: payload,
  });
}

describe('koaCallbackVerifier in a real Koa app', () => {
  it('hands the verified id, timestamp and exact body to the next middleware', async () => {
    const response = await post(body, signCallback({ secrets: [secret], id: 'cb_http', timestamp, body }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'cb_http', timestamp, received: body });
  });

  it('answers 401 with the reason, without reaching the next middleware, for a tampered body', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_http', timestamp, body });
    const response = await post(body.replace('0000', '9000'), headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_signature', reason: 'no_match' });
  });

  it('answers 401 missing_header for an unsigned request', async () => {
    const response = await post(body, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_signature', reason: 'missing_header' });
  });

  it('answers 413 for a body whose Content-Length is over the bound', async () => {
    const large = JSON.stringify({ padding: 'x'.repeat(2048) });
    const headers = signCallback({ secrets: [secret], id: 'cb_http', timestamp, body: large });
    const response = await post(large, headers);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'body_too_large',
      message: `Expected a callback body of at most 1024 bytes, received a Content-Length of ${large.length}.`,
    });
  });

  it('answers 413 for a chunked body that grows over the bound', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(600));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const headers = signCallback({ secrets: [secret], id: 'cb_http', timestamp, body });
    const response = await fetch(`${baseUrl}/callbacks/topup`, {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'body_too_large',
      message: 'Expected a callback body of at most 1024 bytes, received more.',
    });
  });
});
