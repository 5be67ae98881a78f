// Calls to Daraja: the client-credentials token, and authenticated JSON calls that carry the shared token,
// each within a time limit. A call whose token Daraja refuses is made once more with a renewed token; any
// other failure is handed back as a DarajaError for the caller to judge (a money-moving call is never
// repeated here). Credentials never appear in an error or a log line.

import type { IssuedToken, SharedAccessToken } from '../shared-access-token.js';
import { darajaErrorOf, isTokenRejected, type DarajaError } from './daraja-error.js';
import { exchange, socketErrorOf } from '../http-exchange.js';
import { objectOf, parsedJson, textOf } from '../tolerant-json.js';

/**
 * Where Daraja is and how long to wait for it.
 *
 * @example
 * ```ts
 * import type { DarajaEndpoint } from '@topup/providers';
 *
 * const sandbox: DarajaEndpoint = { baseUrl: 'https://sandbox.safaricom.co.ke', timeoutMs: 10_000 };
 * ```
 */
export interface DarajaEndpoint {
  /** `https://api.safaricom.co.ke`, the sandbox, or a fake on loopback. */
  readonly baseUrl: string;
  /** Longest wait for one answer. */
  readonly timeoutMs: number;
  /**
   * A fetch to send every call through instead of the built-in client, which keeps its connections open
   * between calls.
   */
  readonly fetch?: typeof fetch;
}

/**
 * What a call came to: Daraja's JSON answer, its error, or no answer at all (time limit, connection).
 *
 * @example
 * ```ts
 * import type { DarajaAnswer } from '@topup/providers';
 *
 * function taken(answer: DarajaAnswer): boolean | undefined {
 *   if (answer.kind === 'no_answer') return undefined; // unknown: ask before sending it again
 *   return answer.kind === 'ok' && answer.body['ResponseCode'] === '0';
 * }
 * ```
 */
export type DarajaAnswer =
  | { readonly kind: 'ok'; readonly body: Readonly<Record<string, unknown>> }
  | { readonly kind: 'error'; readonly error: DarajaError }
  | { readonly kind: 'no_answer'; readonly problem: string }
  /** The call never reached Daraja (no token could be had, or the connection was refused): nothing taken. */
  | { readonly kind: 'not_sent'; readonly problem: string };

/** Whether a call failed because nothing listened: the request was never sent. */
function connectionRefused(error: Error): boolean {
  return (socketErrorOf(error) as { code?: unknown }).code === 'ECONNREFUSED';
}

interface DarajaRequest {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

async function viaFetch(fetchFn: typeof fetch, url: URL, call: DarajaRequest, timeoutMs: number) {
  try {
    const response = await fetchFn(url, { ...call, signal: AbortSignal.timeout(timeoutMs) });
    return { kind: 'answered', status: response.status, text: await response.text() } as const;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'timed_out' } as const;
    return { kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) } as const;
  }
}

async function send(endpoint: DarajaEndpoint, path: string, call: DarajaRequest): Promise<DarajaAnswer> {
  let url: URL;
  try {
    url = new URL(path, endpoint.baseUrl);
  } catch (error) {
    return { kind: 'no_answer', problem: `the connection failed (${(error as Error).message})` };
  }
  const outcome =
    endpoint.fetch === undefined
      ? await exchange(url, { ...call, timeoutMs: endpoint.timeoutMs })
      : await viaFetch(endpoint.fetch, url, call, endpoint.timeoutMs);
  if (outcome.kind === 'timed_out') {
    return { kind: 'no_answer', problem: `no answer within ${String(endpoint.timeoutMs)} ms` };
  }
  if (outcome.kind === 'failed') {
    if (connectionRefused(outcome.error)) return { kind: 'not_sent', problem: 'the connection was refused' };
    return { kind: 'no_answer', problem: `the connection failed (${outcome.error.message})` };
  }
  const { status, text } = outcome;
  if (status < 200 || status > 299) return { kind: 'error', error: darajaErrorOf(status, text) };
  const body = objectOf(parsedJson(text));
  if (body === undefined) return { kind: 'error', error: darajaErrorOf(status, text) };
  return { kind: 'ok', body };
}

/**
 * Asks Daraja for a token with the app's consumer key and secret.
 *
 * @throws when no token comes back, saying why (never with the key or secret in the message).
 *
 * @example
 * ```ts
 * import { issueDarajaToken } from '@topup/providers';
 *
 * const issued = await issueDarajaToken(
 *   { baseUrl: 'https://sandbox.safaricom.co.ke', timeoutMs: 10_000 },
 *   { consumerKey: process.env.DARAJA_CONSUMER_KEY ?? '', consumerSecret: process.env.DARAJA_CONSUMER_SECRET ?? '' },
 * );
 * issued.expiresInSeconds; // 3599
 * ```
 */
export async function issueDarajaToken(
  endpoint: DarajaEndpoint,
  credentials: { readonly consumerKey: string; readonly consumerSecret: string },
): Promise<IssuedToken> {
  const basic = Buffer.from(`${credentials.consumerKey}:${credentials.consumerSecret}`, 'utf8').toString(
    'base64',
  );
  const answer = await send(endpoint, '/oauth/v1/generate?grant_type=client_credentials', {
    method: 'GET',
    headers: { Authorization: `Basic ${basic}`, Accept: 'application/json' },
  });
  if (answer.kind === 'no_answer' || answer.kind === 'not_sent') {
    throw new Error(`Daraja issued no token: ${answer.problem}.`);
  }
  if (answer.kind === 'error') {
    const { status, errorCode, errorMessage } = answer.error;
    throw new Error(
      `Daraja refused a token (HTTP ${String(status)} ${errorCode} ${errorMessage}).`.replace(/\s+/g, ' '),
    );
  }
  const token = textOf(answer.body['access_token']);
  // Older answers send expires_in as a string, newer ones as a number.
  const expiresInSeconds = Number(textOf(answer.body['expires_in']));
  if (token === undefined || token === '' || !Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new Error(
      'Expected access_token and a positive expires_in from Daraja, received an answer without them.',
    );
  }
  return { token, expiresInSeconds };
}

/**
 * POSTs a JSON body to a Daraja API with the shared token; refused tokens are renewed and the call made
 * once more, which is safe since Daraja did not take a call whose token it refused.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { callDaraja, createSharedAccessToken, issueDarajaToken } from '@topup/providers';
 *
 * const endpoint = { baseUrl: 'https://sandbox.safaricom.co.ke', timeoutMs: 10_000 };
 * const tokens = createSharedAccessToken({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   provider: 'daraja',
 *   issue: () => issueDarajaToken(endpoint, { consumerKey: 'key', consumerSecret: 'secret' }),
 * });
 * const answer = await callDaraja(endpoint, tokens, '/mpesa/stkpushquery/v1/query', { CheckoutRequestID: 'ws_CO_1' });
 * ```
 */
export async function callDaraja(
  endpoint: DarajaEndpoint,
  tokens: SharedAccessToken,
  path: string,
  body: Readonly<Record<string, unknown>>,
): Promise<DarajaAnswer> {
  const post = (token: string) =>
    send(endpoint, path, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(body),
    });
  let token: string;
  try {
    token = await tokens.current();
  } catch (error) {
    return { kind: 'not_sent', problem: error instanceof Error ? error.message : String(error) };
  }
  const first = await post(token);
  if (first.kind !== 'error' || !isTokenRejected(first.error)) return first;
  let renewed: string;
  try {
    renewed = await tokens.renew(token);
  } catch (error) {
    // The first call was refused for its token, so nothing was taken either.
    return { kind: 'not_sent', problem: error instanceof Error ? error.message : String(error) };
  }
  return post(renewed);
}
