// The Fetch receiver helper: read a `Request`'s raw body and verify its signature headers.
import { readFetchBody } from './read-body.js';
import { maxBodyBytesOf, verificationInput } from './receiver-options.js';
import type { CallbackReceiverOptions } from './receiver-options.js';
import { verifyCallback } from './verify.js';
import type { CallbackVerification } from './verify.js';

/**
 * Reads the raw body of a Fetch `Request` (bounded by `maxBodyBytes`) and verifies it. The body is
 * consumed; parse `rawBody` yourself once `result.ok` is true.
 * @throws CallbackBodyTooLargeError when the body is over the bound (answer 413); Error for malformed
 *   secrets or a body that was already consumed.
 *
 * @example
 * ```ts
 * import { verifyFetchRequest } from '@topup/signing';
 *
 * // A Fetch handler (Deno, Bun, Workers, Next.js route handlers)
 * export async function POST(request: Request): Promise<Response> {
 *   const { result, rawBody } = await verifyFetchRequest(request, {
 *     secrets: [process.env.TOPUP_CALLBACK_SECRET!],
 *   });
 *   if (!result.ok) return new Response(result.message, { status: 401 });
 *   const callback: unknown = JSON.parse(new TextDecoder().decode(rawBody));
 *   console.log('callback', result.id, callback);
 *   return Response.json({ status: { type: 'SUCCESS', code: '0000', message: 'Callback processed' } });
 * }
 * ```
 */
export async function verifyFetchRequest(
  request: Request,
  options: CallbackReceiverOptions,
): Promise<{ result: CallbackVerification; rawBody: Uint8Array }> {
  const rawBody = await readFetchBody(request, maxBodyBytesOf(options));
  return { result: verifyCallback(verificationInput(options, request.headers, rawBody)), rawBody };
}
