// Options shared by the receiver helpers (Koa, node:http, Fetch), and their resolution into what
// `verifyCallback` takes.
import { DEFAULT_MAX_BODY_BYTES } from './read-body.js';
import type { CallbackBody } from './mac.js';
import type { HeaderSource } from './header-lookup.js';
import type { VerifyCallbackInput } from './verify.js';

/**
 * Options of the receiver helpers (`verifyNodeRequest`, `verifyFetchRequest`, `koaCallbackVerifier`).
 *
 * @example
 * ```ts
 * import type { CallbackReceiverOptions } from '@topup/signing';
 *
 * const options: CallbackReceiverOptions = {
 *   secrets: [process.env.TOPUP_CALLBACK_SECRET!], // during a rotation: [newSecret, oldSecret]
 *   toleranceSeconds: 300,
 *   maxBodyBytes: 1_048_576,
 * };
 * ```
 */
export interface CallbackReceiverOptions {
  /** The endpoint's secrets; during a rotation both. */
  readonly secrets: readonly string[];
  /** Allowed clock difference in seconds, both ways; defaults to 300. */
  readonly toleranceSeconds?: number;
  /** Largest body accepted, in bytes; defaults to 1 MiB. */
  readonly maxBodyBytes?: number;
  /** The receiver's clock in Unix seconds; defaults to the system clock. */
  readonly clock?: () => number;
}

/** The body bound of the options, checked, so a typo cannot disable it. */
export function maxBodyBytesOf(options: CallbackReceiverOptions): number {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new Error(`Expected maxBodyBytes to be a non-negative integer, received ${maxBytes}.`);
  }
  return maxBytes;
}

/** The `verifyCallback` input for one received request. */
export function verificationInput(
  options: CallbackReceiverOptions,
  headers: HeaderSource,
  body: CallbackBody,
): VerifyCallbackInput {
  return {
    secrets: options.secrets,
    headers,
    body,
    ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
    ...(options.clock === undefined ? {} : { now: options.clock() }),
  };
}
