// Turning a received callback into a typed event: verify the signature over the raw bytes first (via
// @topup/signing), only then read the body, JSON or XML by its first non-blank character. The service
// sends a callback for each terminal state: completion (`SUCCESS`/`0000`) and cancellation
// (`FAIL`/`8000`), both with the full transaction data; and, when asked (`send_test_callback`), a test
// callback, `SUCCESS`/`0000` with a `test` object in place of a transaction, which announces nothing.

import { EnvelopeDecodeError } from '@topup/envelope';
import type { AgentFloatData, AirtimeCallbackData, Envelope, Payment, Transaction } from '@topup/envelope';
import { verifyCallback } from '@topup/signing';
import type { HeaderSource } from '@topup/signing';
import { CallbackVerificationError } from './callback-verification-error.js';
import { decodeEnvelopeBody } from './envelope-body.js';

/**
 * The transaction data a callback carries; an airtime callback may leave out `payment` (spec, Events).
 *
 * @example
 * ```ts
 * import type { CallbackData } from '@topup/client';
 *
 * function recipientMobile(data: CallbackData): string {
 *   return data.recipient.mobile;
 * }
 * ```
 */
export type CallbackData = AgentFloatData | (AirtimeCallbackData & { payment?: Payment });

interface SignedFields {
  /** The `webhook-id`, when the Standard Webhooks headers carried it. Not for de-duplication: see `key`. */
  readonly id: string | undefined;
  /**
   * The de-duplication key, always present: every retry of one callback, and any replay of it (even one
   * with the `webhook-*` headers stripped), has the same key. Handle a key once (`createCallbackDeduplicator`
   * runs a handler per key until it succeeds).
   */
  readonly key: string;
  /** Unix seconds of the signature (this delivery attempt). */
  readonly timestamp: number;
  /** `status.message`, e.g. `Airtime delivered`, `Purchase Cancelled` or `Test callback`. */
  readonly message: string;
}

interface CallbackEventFields extends SignedFields {
  /** `data.transaction`; correlate by its `reference`. */
  readonly transaction: Transaction;
  /** The transaction data (`sender`, `recipient`, `transaction`, `messaging`, `channel`, …). */
  readonly data: CallbackData;
  /** `data.errors`: empty on completion, the reason on cancellation. */
  readonly errors: readonly string[];
}

/**
 * The transaction completed: float deposited or airtime delivered.
 *
 * @example
 * ```ts
 * import type { CompletedCallbackEvent } from '@topup/client';
 *
 * function onCompleted(event: CompletedCallbackEvent): void {
 *   console.log(`${event.transaction.reference}: ${event.message}`); // e.g. 'TX…: Airtime delivered'
 * }
 * ```
 */
export interface CompletedCallbackEvent extends CallbackEventFields {
  readonly kind: 'completed';
}

/**
 * The transaction was cancelled; nothing was moved, or it was refunded.
 *
 * @example
 * ```ts
 * import type { CancelledCallbackEvent } from '@topup/client';
 *
 * function onCancelled(event: CancelledCallbackEvent): void {
 *   console.log(`${event.transaction.reference} cancelled: ${event.errors.join('; ')}`);
 * }
 * ```
 */
export interface CancelledCallbackEvent extends CallbackEventFields {
  readonly kind: 'cancelled';
}

/**
 * A test callback, which `send_test_callback` has the service send to check that the endpoint receives
 * and verifies callbacks. It carries no transaction and announces nothing: answer it, act on nothing.
 *
 * @example
 * ```ts
 * import type { TestCallbackEvent } from '@topup/client';
 *
 * function onTest(event: TestCallbackEvent): void {
 *   console.log(`test callback to ${event.endpointId} verified`);
 * }
 * ```
 */
export interface TestCallbackEvent extends SignedFields {
  readonly kind: 'test';
  /** The endpoint it was sent to (`data.test.endpoint_id`). */
  readonly endpointId: string;
}

/**
 * A verified callback: `kind` says whether the transaction completed or was cancelled, or that it is a
 * test, which carries no transaction.
 *
 * @example
 * ```ts
 * import type { CallbackEvent } from '@topup/client';
 *
 * const seen = new Set<string>();
 * function handle(event: CallbackEvent): void {
 *   if (event.kind === 'test') return; // from send_test_callback: nothing to act on
 *   if (seen.has(event.key)) return; // a retry, or a replay, of a callback already handled
 *   seen.add(event.key);
 *   if (event.kind === 'completed') console.log('done', event.transaction.reference);
 *   else console.log('cancelled', event.transaction.reference, event.errors);
 * }
 * ```
 */
export type CallbackEvent = CompletedCallbackEvent | CancelledCallbackEvent | TestCallbackEvent;

/**
 * Clock settings of `parseCallback`, for tests and for receivers with a known clock skew.
 *
 * @example
 * ```ts
 * import { parseCallback, type ParseCallbackOptions } from '@topup/client';
 *
 * const options: ParseCallbackOptions = { toleranceSeconds: 600 };
 * declare const rawBody: Buffer, headers: Record<string, string>;
 * const event = parseCallback(rawBody, headers, process.env.TOPUP_CALLBACK_SECRET!, options);
 * ```
 */
export interface ParseCallbackOptions {
  /** The receiver's clock in Unix seconds; default now. */
  readonly now?: number | undefined;
  /** Allowed difference between the signature's timestamp and the clock, both ways; default 300 s. */
  readonly toleranceSeconds?: number | undefined;
}

/**
 * Verifies a callback and returns its event. `rawBody` must be the bytes exactly as received (never
 * re-serialised JSON); `headers` may be node's `req.headers`, a Fetch `Headers` or a plain object;
 * `secrets` is the endpoint's secret, or during a rotation both.
 * @throws CallbackVerificationError when the signature does not hold (`reason` says why) or the body
 *   is not a completion, cancellation or test callback (`malformed_body`).
 * @throws Error when a secret is not a `whsec_…` secret: a configuration error, not the request's fault.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { callbackAnswer, CallbackVerificationError, parseCallback } from '@topup/client';
 *
 * createServer((req, res) => {
 *   const chunks: Buffer[] = [];
 *   req.on('data', (chunk: Buffer) => chunks.push(chunk));
 *   req.on('end', () => {
 *     try {
 *       const event = parseCallback(Buffer.concat(chunks), req.headers, process.env.TOPUP_CALLBACK_SECRET!);
 *       console.log(event.kind, event.kind === 'test' ? event.endpointId : event.transaction.reference);
 *     } catch (error) {
 *       if (!(error instanceof CallbackVerificationError)) throw error;
 *       return void res.writeHead(400).end(error.reason);
 *     }
 *     const answer = callbackAnswer(req.headers.accept);
 *     res.writeHead(answer.status, { 'content-type': answer.contentType }).end(answer.body);
 *   });
 * }).listen(8081);
 * ```
 */
export function parseCallback(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secrets: string | readonly string[],
  options: ParseCallbackOptions = {},
): CallbackEvent {
  const verification = verifyCallback({
    secrets: typeof secrets === 'string' ? [secrets] : secrets,
    headers,
    body: rawBody,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.toleranceSeconds === undefined ? {} : { toleranceSeconds: options.toleranceSeconds }),
  });
  if (!verification.ok) throw new CallbackVerificationError(verification.reason, verification.message);

  const envelope = envelopeOf(rawBody);
  const { status } = envelope;
  const kind = status.type === 'SUCCESS' ? 'completed' : status.code === '8000' ? 'cancelled' : undefined;
  if (kind === undefined) {
    throw malformed(
      `Expected a completion (SUCCESS 0000) or a cancellation (FAIL 8000) callback, received ${status.type} ${status.code}.`,
    );
  }
  const { errors, ...data } = envelope.data as { errors: string[] } & Record<string, unknown>;
  const signed = {
    id: verification.id,
    key: verification.key,
    timestamp: verification.timestamp,
    message: status.message,
  };
  if (kind === 'completed' && isTest(data.test)) {
    return { kind: 'test', ...signed, endpointId: data.test.endpoint_id };
  }
  const transaction = data.transaction;
  if (!isTransaction(transaction)) {
    throw malformed('Expected data.transaction with a reference in the callback, received none.');
  }
  return {
    kind,
    ...signed,
    transaction,
    data: data as unknown as CallbackData,
    errors,
  };
}

function envelopeOf(rawBody: string | Uint8Array): Envelope {
  try {
    const text =
      typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    return decodeEnvelopeBody(text);
  } catch (error) {
    if (error instanceof EnvelopeDecodeError) throw malformed(error.message, error);
    if (error instanceof TypeError)
      throw malformed('Expected a UTF-8 body, received bytes that are not.', error);
    throw error;
  }
}

function isTest(value: unknown): value is { endpoint_id: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'endpoint_id' in value &&
    typeof value.endpoint_id === 'string'
  );
}

function isTransaction(value: unknown): value is Transaction {
  return (
    typeof value === 'object' && value !== null && 'reference' in value && typeof value.reference === 'string'
  );
}

function malformed(message: string, cause?: unknown): CallbackVerificationError {
  return new CallbackVerificationError(
    'malformed_body',
    message,
    cause === undefined ? undefined : { cause },
  );
}
