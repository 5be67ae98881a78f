// Size and shape limits for decoding bodies we did not write. A request is small and flat (root plus one
// level of fields), so its limits are tight; a response may list many channels, endpoints or delivery
// attempts, so the client reads responses with roomier ones. Both bound the work any input can cause.

/**
 * Bounds on a body the decoders read, checked before any parsing work.
 *
 * @example
 * ```ts
 * import { requestLimits, type DecodingLimits } from '@topup/envelope';
 *
 * const limits: DecodingLimits = requestLimits;
 * limits; // { maxBytes: 1048576, maxDepth: 32, maxNodes: 10000 }
 * ```
 */
export interface DecodingLimits {
  /** Largest body, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Deepest nesting: XML elements (the root is depth 1) or JSON objects and arrays (the top is depth 1). */
  readonly maxDepth: number;
  /** Most XML elements, or JSON values, in one body. */
  readonly maxNodes: number;
}

/**
 * Limits for request bodies sent to the service.
 *
 * @example
 * ```ts
 * import { requestLimits } from '@topup/envelope';
 *
 * requestLimits.maxBytes; // 1048576
 * ```
 */
export const requestLimits: DecodingLimits = Object.freeze({
  maxBytes: 1_048_576,
  maxDepth: 32,
  maxNodes: 10_000,
});

/**
 * Limits for envelopes the client reads from the service or a callback.
 *
 * @example
 * ```ts
 * import { responseLimits } from '@topup/envelope';
 *
 * responseLimits.maxBytes; // 16777216
 * ```
 */
export const responseLimits: DecodingLimits = Object.freeze({
  maxBytes: 16_777_216,
  maxDepth: 32,
  maxNodes: 1_000_000,
});
