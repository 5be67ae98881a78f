// Koa middleware that verifies callbacks before any body parser, without depending on Koa: the context
// type is the small structural part of Koa's context it touches.
import { CallbackBodyTooLargeError } from './read-body.js';
import type { NodeRequestLike } from './read-body.js';
import { verifyNodeRequest } from './node-request.js';
import type { CallbackReceiverOptions } from './receiver-options.js';
import { maxBodyBytesOf } from './receiver-options.js';
import { decodeSecrets } from './secret.js';

/**
 * What the middleware leaves in `ctx.state.callback` for the next middleware.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { koaCallbackVerifier, type VerifiedCallback } from '@topup/signing';
 *
 * const app = new Koa<{ callback: VerifiedCallback }>();
 * app.use(koaCallbackVerifier({ secrets: [process.env.TOPUP_CALLBACK_SECRET!] }));
 * app.use((ctx) => {
 *   const { id, rawBody } = ctx.state.callback;
 *   console.log('callback', id, JSON.parse(rawBody.toString('utf8')));
 *   ctx.body = { status: { type: 'SUCCESS', code: '0000', message: 'Callback processed' } };
 * });
 * ```
 */
export interface VerifiedCallback {
  /** The `webhook-id`, when the Standard Webhooks headers were used. */
  readonly id?: string;
  readonly timestamp: number;
  /** Drop a callback whose key was already handled: retries and replays share it (see `verifyCallback`). */
  readonly key: string;
  /** The exact body received; parse it yourself (JSON or XML per its Content-Type). */
  readonly rawBody: Buffer;
}

/**
 * The part of a Koa context the middleware uses; a Koa `ParameterizedContext` satisfies it.
 *
 * @example
 * ```ts
 * import { Readable } from 'node:stream';
 * import { koaCallbackVerifier, type KoaCallbackContext } from '@topup/signing';
 *
 * // Without Koa, e.g. in a test: a readable request and a state object are enough.
 * const ctx: KoaCallbackContext = {
 *   req: Object.assign(Readable.from([Buffer.from('{}')]), { headers: {} }),
 *   state: {},
 *   status: 404,
 *   body: undefined,
 * };
 * await koaCallbackVerifier({ secrets: ['whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8='] })(
 *   ctx,
 *   async () => {},
 * );
 * ctx.status; // 401
 * ```
 */
export interface KoaCallbackContext {
  readonly req: NodeRequestLike;
  state: { callback?: VerifiedCallback };
  status: number;
  body: unknown;
}

/**
 * The middleware `koaCallbackVerifier` returns: Koa's `(ctx, next)` over the part of the context it uses.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { koaCallbackVerifier, type KoaCallbackMiddleware } from '@topup/signing';
 *
 * const verifyCallbacks: KoaCallbackMiddleware = koaCallbackVerifier({
 *   secrets: [process.env.TOPUP_CALLBACK_SECRET!],
 * });
 * new Koa().use(verifyCallbacks);
 * ```
 */
export type KoaCallbackMiddleware = (ctx: KoaCallbackContext, next: () => Promise<unknown>) => Promise<void>;

/**
 * Koa middleware that reads the raw body from `ctx.req` (bounded by `maxBodyBytes`, default 1 MiB),
 * verifies it, sets `ctx.state.callback = { id, timestamp, rawBody }` and calls `next`. An unverified
 * callback is answered 401 and an oversized one 413, each with a short JSON error. Mount it before any
 * body parser.
 * @throws Error at creation when the secrets are malformed or empty, or `maxBodyBytes` is invalid.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { koaCallbackVerifier, type VerifiedCallback } from '@topup/signing';
 *
 * const app = new Koa<{ callback: VerifiedCallback }>();
 * // before any body parser: the signature covers the raw bytes
 * app.use(koaCallbackVerifier({ secrets: [process.env.TOPUP_CALLBACK_SECRET!] }));
 * app.use((ctx) => {
 *   const { id, timestamp, rawBody } = ctx.state.callback;
 *   console.log('callback', id, timestamp, JSON.parse(rawBody.toString('utf8')));
 *   ctx.body = { status: { type: 'SUCCESS', code: '0000', message: 'Callback processed' } };
 * });
 * app.listen(8081);
 * ```
 */
export function koaCallbackVerifier(options: CallbackReceiverOptions): KoaCallbackMiddleware {
  decodeSecrets(options.secrets);
  maxBodyBytesOf(options);
  return async (ctx, next) => {
    let verified: Awaited<ReturnType<typeof verifyNodeRequest>>;
    try {
      verified = await verifyNodeRequest(ctx.req, options);
    } catch (error) {
      if (error instanceof CallbackBodyTooLargeError) {
        ctx.status = 413;
        ctx.body = { error: 'body_too_large', message: error.message };
        return;
      }
      throw error;
    }
    const { result, rawBody } = verified;
    if (!result.ok) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_signature', reason: result.reason, message: result.message };
      return;
    }
    ctx.state.callback =
      result.id === undefined
        ? { timestamp: result.timestamp, key: result.key, rawBody }
        : { id: result.id, timestamp: result.timestamp, key: result.key, rawBody };
    await next();
  };
}
