// The node:http receiver helper: read a request's raw body and verify its signature headers.
import type { IncomingMessage } from 'node:http';
import { readNodeBody } from './read-body.js';
import type { NodeRequestLike } from './read-body.js';
import { maxBodyBytesOf, verificationInput } from './receiver-options.js';
import type { CallbackReceiverOptions } from './receiver-options.js';
import { verifyCallback } from './verify.js';
import type { CallbackVerification } from './verify.js';

/**
 * Reads the raw body of a `node:http` request (bounded by `maxBodyBytes`) and verifies it. Call it before
 * anything else reads the body; parse `rawBody` yourself once `result.ok` is true.
 * @throws CallbackBodyTooLargeError when the body is over the bound (answer 413); Error for malformed
 *   secrets or a body that was already consumed or cut short.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { verifyNodeRequest } from '@topup/signing';
 *
 * createServer(async (req, res) => {
 *   const { result, rawBody } = await verifyNodeRequest(req, {
 *     secrets: [process.env.TOPUP_CALLBACK_SECRET!],
 *   });
 *   if (!result.ok) return void res.writeHead(401).end(result.message);
 *   const callback: unknown = JSON.parse(rawBody.toString('utf8'));
 *   console.log('callback', result.id, callback);
 *   res.writeHead(200, { 'content-type': 'application/json' });
 *   res.end('{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}');
 * }).listen(8081);
 * ```
 */
export async function verifyNodeRequest(
  request: IncomingMessage | NodeRequestLike,
  options: CallbackReceiverOptions,
): Promise<{ result: CallbackVerification; rawBody: Buffer }> {
  const rawBody = await readNodeBody(request, maxBodyBytesOf(options));
  return { result: verifyCallback(verificationInput(options, request.headers, rawBody)), rawBody };
}
