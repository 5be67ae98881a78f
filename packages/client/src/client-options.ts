// What a caller configures, once per client and per call, and the checked settings the client runs on.
// Mistakes in configuration are thrown at once as a `TypeError`, never discovered on the first payment.

import { randomUUID } from 'node:crypto';
import type { WireFormat } from '@topup/envelope';
import type { RetryPolicy } from './backoff.js';

/**
 * Retry settings; every field is optional and falls back to the default.
 *
 * @example
 * ```ts
 * import { createClient, type RetryOptions } from '@topup/client';
 *
 * const retries: RetryOptions = { attempts: 5, baseDelayMs: 200, maxDelayMs: 2_000 };
 * const topup = createClient({
 *   baseUrl: 'https://topup.example.com',
 *   token: process.env.TOPUP_TOKEN!,
 *   retries,
 * });
 * ```
 */
export interface RetryOptions {
  /** Most attempts per call, the first one included; 1 turns retries off. Default 3. */
  readonly attempts?: number | undefined;
  /** Bound of the first retry's jittered wait; doubled for each further retry. Default 500 ms. */
  readonly baseDelayMs?: number | undefined;
  /** Longest wait between attempts; a `Retry-After` asking for more ends the call. Default 10 000 ms. */
  readonly maxDelayMs?: number | undefined;
}

/**
 * Settings of `createClient`: where the service is, the token, and how calls are sent.
 *
 * @example
 * ```ts
 * import { type ClientOptions, createClient } from '@topup/client';
 *
 * const options: ClientOptions = {
 *   baseUrl: 'https://topup.example.com',
 *   token: process.env.TOPUP_TOKEN!,
 *   format: 'xml',
 *   timeoutMs: 10_000,
 *   retries: { attempts: 4, baseDelayMs: 250, maxDelayMs: 5_000 },
 * };
 * const topup = createClient(options);
 * ```
 */
export interface ClientOptions {
  /** Where the service runs, e.g. `https://topup.example.com`; `/api/<function>` is appended. */
  readonly baseUrl: string | URL;
  /** The API token (`tk_test_…` or `tk_live_…`), sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Wire format of requests and answers. Default `json`. */
  readonly format?: WireFormat | undefined;
  /** Time limit of each attempt, answer body included. Default 30 000 ms. */
  readonly timeoutMs?: number | undefined;
  /** Number of retries after the first attempt (0 turns them off), or retry settings. Default 2 retries. */
  readonly retries?: number | RetryOptions | undefined;
  /** The `fetch` to use; default the global one. */
  readonly fetch?: typeof fetch | undefined;
}

/**
 * Options of one call.
 *
 * @example
 * ```ts
 * import { type CallOptions, createClient } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const options: CallOptions = { signal: AbortSignal.timeout(5_000), timeoutMs: 2_000 };
 * const balance = await topup.getBalance({}, options);
 * ```
 */
export interface CallOptions {
  /** Aborts the call, retries and waits included; the call rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Time limit of each attempt of this call, instead of the client's. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Options of one operation call: `sendAgentFloat`, `buyAirtime` or `sendAirtime`.
 *
 * @example
 * ```ts
 * import { createClient, type OperationOptions } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * // One key per order: repeating the call after a crash replays the first answer instead of paying twice.
 * const options: OperationOptions = { idempotencyKey: 'order-1042', timeoutMs: 15_000 };
 * const purchase = await topup.buyAirtime(
 *   { mobile: '254712345678', amount: 100, payment_network: 'MoneyNetA', payment_mobile: '254722000111' },
 *   options,
 * );
 * purchase.idempotencyKey; // 'order-1042'
 * ```
 */
export interface OperationOptions extends CallOptions {
  /**
   * The `Idempotency-Key` (1 to 255 visible ASCII characters). Default a new random UUID per call.
   * Pass your own, derived from your order id, to make a repeat after a crash safe as well.
   */
  readonly idempotencyKey?: string | undefined;
}

/** The checked settings a client runs on. */
export interface ClientSettings {
  /** `<baseUrl>/api/`, ready for a function name. */
  readonly apiUrl: string;
  readonly authorization: string;
  readonly format: WireFormat;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly fetch: typeof fetch;
}

export const defaultTimeoutMs = 30_000;
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
});

// AbortSignal.timeout and setTimeout take at most a signed 32-bit number of milliseconds.
const longestDelayMs = 2_147_483_647;
const visibleAscii = /^[\x21-\x7e]+$/;
const idempotencyKeyForm = /^[\x21-\x7e]{1,255}$/;

/** Checks client options and fills in the defaults; throws a `TypeError` saying what is wrong. */
export function resolveClientSettings(options: ClientOptions): ClientSettings {
  const format = formatOf(options.format);
  if (typeof options.token !== 'string' || !visibleAscii.test(options.token)) {
    throw new TypeError(
      `Expected token to be an API token of visible ASCII characters, received ${describeSecret(options.token)}.`,
    );
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') {
    throw new TypeError(`Expected fetch to be a function, received ${describe(fetchFunction)}.`);
  }
  return {
    apiUrl: `${baseUrlOf(options.baseUrl)}/api/`,
    authorization: `Bearer ${options.token}`,
    format,
    timeoutMs: checkTimeout('timeoutMs', options.timeoutMs ?? defaultTimeoutMs),
    retry: retryPolicyOf(options.retries),
    fetch: fetchFunction,
  };
}

/** The time limit of a call: its own or the client's. */
export function callTimeoutMs(settings: ClientSettings, options: CallOptions): number {
  return options.timeoutMs === undefined ? settings.timeoutMs : checkTimeout('timeoutMs', options.timeoutMs);
}

/** The `Idempotency-Key` of an operation call: the caller's, checked, or a new random UUID. */
export function idempotencyKeyOf(options: OperationOptions): string {
  const key = options.idempotencyKey;
  if (key === undefined) return randomUUID();
  if (typeof key !== 'string' || !idempotencyKeyForm.test(key)) {
    throw new TypeError(
      `Expected idempotencyKey to be 1 to 255 visible ASCII characters, received ${describe(key)}.`,
    );
  }
  return key;
}

// Options may come from plain JavaScript or configuration files, so the types alone prove nothing.
function formatOf(value: unknown): WireFormat {
  if (value === undefined) return 'json';
  if (value === 'json' || value === 'xml') return value;
  throw new TypeError(`Expected format to be "json" or "xml", received ${describe(value)}.`);
}

function baseUrlOf(baseUrl: string | URL): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new TypeError(`Expected baseUrl to be an absolute URL, received ${describe(baseUrl)}.`, {
      cause: error,
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`Expected baseUrl to use https or http, received ${url.protocol.slice(0, -1)}.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError(`Expected baseUrl without a query or fragment, received ${describe(url.href)}.`);
  }
  return url.href.replace(/\/+$/, '');
}

function retryPolicyOf(retries: number | RetryOptions | undefined): RetryPolicy {
  if (retries === undefined) return defaultRetryPolicy;
  if (typeof retries === 'number') {
    return { ...defaultRetryPolicy, attempts: 1 + checkWhole('retries', retries, 0) };
  }
  const policy: RetryPolicy = {
    attempts: checkWhole('retries.attempts', retries.attempts ?? defaultRetryPolicy.attempts, 1),
    baseDelayMs: checkDelay('retries.baseDelayMs', retries.baseDelayMs ?? defaultRetryPolicy.baseDelayMs),
    maxDelayMs: checkDelay('retries.maxDelayMs', retries.maxDelayMs ?? defaultRetryPolicy.maxDelayMs),
  };
  if (policy.maxDelayMs < policy.baseDelayMs) {
    throw new TypeError(
      `Expected retries.maxDelayMs to be at least retries.baseDelayMs (${policy.baseDelayMs}), received ${policy.maxDelayMs}.`,
    );
  }
  return policy;
}

function checkWhole(name: string, value: unknown, minimum: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new TypeError(
      `Expected ${name} to be a whole number of at least ${minimum}, received ${describe(value)}.`,
    );
  }
  return value;
}

function checkDelay(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > longestDelayMs) {
    throw new TypeError(
      `Expected ${name} to be a number of milliseconds from 0 to ${longestDelayMs}, received ${describe(value)}.`,
    );
  }
  return value;
}

export function checkTimeout(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > longestDelayMs) {
    throw new TypeError(
      `Expected ${name} to be a number of milliseconds above 0 and at most ${longestDelayMs}, received ${describe(value)}.`,
    );
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return `a ${typeof value}`;
}

// A token is a credential: say what shape was received without echoing it.
function describeSecret(value: unknown): string {
  if (typeof value !== 'string') return describe(value);
  if (value === '') return 'an empty string';
  return `a ${value.length}-character string with a character that is not visible ASCII`;
}
