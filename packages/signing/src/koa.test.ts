import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { koaCallbackVerifier } from './koa.js';
import type { KoaCallbackContext } from './koa.js';
import { signCallback } from './sign.js';

const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const timestamp = 1763740800;
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';

/** A fake Koa context whose `req` is a real readable stream delivering the body in chunks. */
function fakeContext(payload: string, headers: Record<string, string>): KoaCallbackContext {
  const bytes = Buffer.from(payload, 'utf8');
  const chunks = [bytes.subarray(0, 5), bytes.subarray(5)];
  const req = Object.assign(Readable.from(chunks, { objectMode: false }), {
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
  });
  return { req, state: {}, status: 404, body: undefined };
}

/** Runs the middleware the way Koa would and records whether the next middleware ran. */
async function run(
  middleware: ReturnType<typeof koaCallbackVerifier>,
  ctx: KoaCallbackContext,
): Promise<boolean> {
  let nextCalled = false;
  await middleware(ctx, () => {
    nextCalled = true;
    return Promise.resolve();
  });
  return nextCalled;
}

describe('koaCallbackVerifier', () => {
  const middleware = koaCallbackVerifier({ secrets: [secret], clock: () => timestamp });

  it('puts the verified id, timestamp and raw body in ctx.state.callback and calls next', async () => {
    const ctx = fakeContext(body, signCallback({ secrets: [secret], id: 'cb_koa', timestamp, body }));
    expect(await run(middleware, ctx)).toBe(true);
    expect(ctx.state.callback).toEqual({
      id: 'cb_koa',
      timestamp,
      key: `sha256:${createHash('sha256').update(body).digest('hex')}`,
      rawBody: Buffer.from(body, 'utf8'),
    });
    expect(ctx.status).toBe(404);
  });

  it('leaves the id out when only the spec headers were sent', async () => {
    const signed = signCallback({ secrets: [secret], id: 'cb_koa', timestamp, body });
    const ctx = fakeContext(body, {
      'Signature-Algorithm': signed['Signature-Algorithm'],
      'Signature-Timestamp': signed['Signature-Timestamp'],
      'Signature-Hash': signed['Signature-Hash'],
    });
    expect(await run(middleware, ctx)).toBe(true);
    expect(ctx.state.callback).toEqual({
      timestamp,
      key: `sha256:${createHash('sha256').update(body).digest('hex')}`,
      rawBody: Buffer.from(body, 'utf8'),
    });
  });

  it('answers 401 with a short JSON error and does not call next for a bad signature', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_koa', timestamp, body });
    const ctx = fakeContext(body.replace('0000', '9000'), headers);
    expect(await run(middleware, ctx)).toBe(false);
    expect(ctx.status).toBe(401);
    expect(ctx.body).toEqual({
      error: 'invalid_signature',
      reason: 'no_match',
      message: expect.stringContaining('received no match') as unknown,
    });
    expect(ctx.state.callback).toBeUndefined();
  });

  it('answers 401 for a stale callback', async () => {
    const headers = signCallback({ secrets: [secret], id: 'cb_koa', timestamp: timestamp - 301, body });
    const ctx = fakeContext(body, headers);
    expect(await run(middleware, ctx)).toBe(false);
    expect(ctx.body).toMatchObject({ error: 'invalid_signature', reason: 'too_old' });
  });

  it('answers 413 for a body over the bound', async () => {
    const small = koaCallbackVerifier({ secrets: [secret], clock: () => timestamp, maxBodyBytes: 16 });
    const ctx = fakeContext(body, signCallback({ secrets: [secret], id: 'cb_koa', timestamp, body }));
    expect(await run(small, ctx)).toBe(false);
    expect(ctx.status).toBe(413);
    expect(ctx.body).toEqual({
      error: 'body_too_large',
      message: 'Expected a callback body of at most 16 bytes, received more.',
    });
  });

  it('fails at creation for a malformed secret, not on the first callback', () => {
    expect(() => koaCallbackVerifier({ secrets: ['whsec_???'] })).toThrow(/not valid base64/);
    expect(() => koaCallbackVerifier({ secrets: [] })).toThrow(/at least one secret/);
  });
});
