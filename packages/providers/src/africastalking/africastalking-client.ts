// Calls to Africa's Talking, each within a time limit, answered as what reached AT: its answer (any HTTP
// status, for the protocol readers to judge), nothing at all (the connection was never made, so a send
// cannot have been taken), or silence after the request may have left (a send's fate is then unknown).
// The same split as the Daraja client's; nothing here repeats a call. The apiKey travels in a header
// only, and is blotted out of any problem text should a failure ever quote it.

import { exchange, socketErrorOf } from '../http-exchange.js';

/**
 * Where Africa's Talking is and how long to wait for it.
 *
 * @example
 * ```ts
 * import type { AfricasTalkingEndpoint } from '@topup/providers';
 *
 * const sandbox: AfricasTalkingEndpoint = { baseUrl: 'https://api.sandbox.africastalking.com', timeoutMs: 10_000 };
 * ```
 */
export interface AfricasTalkingEndpoint {
  /** `https://api.africastalking.com`, the sandbox, or a fake on loopback; a path prefix is kept. */
  readonly baseUrl: string;
  /** Longest wait for one whole answer. */
  readonly timeoutMs: number;
}

/**
 * One call: the path (with its query) under the base URL, its headers, and a body for a POST.
 *
 * @example
 * ```ts
 * import { airtimeQueryRequest, type AfricasTalkingCall } from '@topup/providers';
 *
 * const { path, headers } = airtimeQueryRequest({ username: 'sandbox', apiKey: 'key', requestId: 'ATQid_1' });
 * const call: AfricasTalkingCall = { method: 'GET', path, headers };
 * ```
 */
export interface AfricasTalkingCall {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * What a call came to: AT's answer as sent, or why there is none. `not_sent`: nothing reached AT;
 * `no_answer`: the request may have reached it, so what it did is unknown.
 *
 * @example
 * ```ts
 * import type { AfricasTalkingAnswer } from '@topup/providers';
 *
 * function surelyNotTaken(answer: AfricasTalkingAnswer): boolean {
 *   return answer.kind === 'not_sent';
 * }
 * ```
 */
export type AfricasTalkingAnswer =
  | { readonly kind: 'answered'; readonly status: number; readonly text: string }
  | { readonly kind: 'not_sent'; readonly problem: string }
  | { readonly kind: 'no_answer'; readonly problem: string };

/**
 * Codes of failures that happen before a connection exists (no listener, no such host, no route), so no
 * byte of the request left. A reset or a timeout may come after the request was sent, and is not here.
 */
const beforeConnecting = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const codeOf = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;

/** The socket error's code (the first attempt's, when several addresses were tried). */
function causeCode(error: unknown): string | undefined {
  const cause = socketErrorOf(error);
  const code = codeOf(cause) ?? (cause instanceof AggregateError ? codeOf(cause.errors[0]) : undefined);
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether a call failed before any connection was made, so the request never reached the provider. The
 * socket's error is the error itself, or its `cause` as fetch wraps it; with both IPv4 and IPv6 tried it
 * is an AggregateError, which counts only when every attempt failed so.
 *
 * @example
 * ```ts
 * import { neverReached } from './africastalking-client.js';
 *
 * const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
 * neverReached(new TypeError('fetch failed', { cause: refused })); // true
 * ```
 */
export function neverReached(error: unknown): boolean {
  const cause = socketErrorOf(error);
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    return cause.errors.every((attempt) => beforeConnecting.has(String(codeOf(attempt))));
  }
  return beforeConnecting.has(String(codeOf(cause)));
}

/**
 * Makes one call to Africa's Talking within the endpoint's time limit; never throws.
 *
 * @example
 * ```ts
 * import { airtimeQueryRequest, callAfricasTalking } from '@topup/providers';
 *
 * const { path, headers } = airtimeQueryRequest({ username: 'sandbox', apiKey: 'key', requestId: 'ATQid_1' });
 * const answer = await callAfricasTalking(
 *   { baseUrl: 'https://api.sandbox.africastalking.com', timeoutMs: 10_000 },
 *   { method: 'GET', path, headers },
 * );
 * if (answer.kind === 'answered') console.log(answer.status, answer.text);
 * ```
 */
export async function callAfricasTalking(
  endpoint: AfricasTalkingEndpoint,
  call: AfricasTalkingCall,
): Promise<AfricasTalkingAnswer> {
  const secret = call.headers['apiKey'] ?? '';
  const blotted = (problem: string) => (secret === '' ? problem : problem.split(secret).join('[apiKey]'));
  let url: URL;
  try {
    url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}${call.path}`);
  } catch {
    return {
      kind: 'not_sent',
      problem: blotted(`the base URL ${JSON.stringify(endpoint.baseUrl)} is not a URL`),
    };
  }
  const outcome = await exchange(url, { ...call, timeoutMs: endpoint.timeoutMs });
  if (outcome.kind === 'answered') return outcome;
  if (outcome.kind === 'timed_out') {
    return { kind: 'no_answer', problem: `no answer within ${String(endpoint.timeoutMs)} ms` };
  }
  const { error } = outcome;
  const code = causeCode(error);
  if (neverReached(error)) {
    return { kind: 'not_sent', problem: `${url.host} could not be reached (${code ?? 'no connection'})` };
  }
  return {
    kind: 'no_answer',
    problem: blotted(
      `the connection failed (${code === undefined ? error.message : `${error.message}: ${code}`})`,
    ),
  };
}
