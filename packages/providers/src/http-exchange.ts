// One HTTP exchange with a provider: a request out and its whole answer back, within a time limit, over
// connections kept open between calls. The global fetch did the same at several times the CPU per call
// (on a live purchase it was a quarter of the server's CPU and a third of the worker's), and opened no
// fewer connections. What the exchange came to is handed back, never thrown, for the caller to judge:
// only the caller knows whether a failure can have reached the provider.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What one exchange came to. A failure carries the socket's error, whose `code` says how far it got. */
export type HttpExchange =
  | { readonly kind: 'answered'; readonly status: number; readonly text: string }
  | { readonly kind: 'timed_out' }
  | { readonly kind: 'failed'; readonly error: Error };

export interface HttpExchangeRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Longest wait for the whole answer, from the moment the request is made. */
  readonly timeoutMs: number;
}

// A connection left idle is closed within 4 s (sooner when the server announces a shorter keep-alive),
// before the servers and load balancers commonly in front of a provider close it under a request. One
// closed under a request all the same fails as any lost connection does: its call's fate is unknown.
const agentOptions = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' as const };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

/**
 * The socket's error behind a failed call: the `cause` fetch wraps it in, or the error itself as the
 * built-in client hands it back; undefined for a throw that is not an Error.
 */
export function socketErrorOf(error: unknown): unknown {
  return error instanceof Error ? (error.cause ?? error) : undefined;
}

export function exchange(url: URL, call: HttpExchangeRequest): Promise<HttpExchange> {
  // Node refuses some requests before sending anything (a header with a line break in it, say), by
  // throwing where it would otherwise report an error: that too is handed back as a failure.
  return new Promise<HttpExchange>((resolve) => {
    try {
      send(url, call, resolve);
    } catch (error) {
      resolve({ kind: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
    }
  });
}

function send(url: URL, call: HttpExchangeRequest, resolve: (outcome: HttpExchange) => void): void {
  const secure = url.protocol === 'https:';
  const headers: Record<string, string | number> = { ...call.headers };
  if (call.body !== undefined) headers['Content-Length'] = Buffer.byteLength(call.body);
  const request = (secure ? httpsRequest : httpRequest)(url, {
    method: call.method,
    headers,
    agent: secure ? httpsAgent : httpAgent,
  });
  let settled = false;
  const settle = (outcome: HttpExchange) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    resolve(outcome);
  };
  const timer = setTimeout(() => {
    settle({ kind: 'timed_out' });
    request.destroy();
  }, call.timeoutMs);
  request.on('error', (error) => {
    settle({ kind: 'failed', error });
  });
  request.on('response', (response: IncomingMessage) => {
    response.setEncoding('utf8');
    let text = '';
    response.on('data', (chunk: string) => {
      text += chunk;
    });
    response.on('end', () => {
      settle({ kind: 'answered', status: response.statusCode ?? 0, text });
    });
    response.on('error', (error) => {
      settle({ kind: 'failed', error });
    });
    response.on('close', () => {
      if (!response.complete) {
        settle({ kind: 'failed', error: new Error('the connection closed before the whole answer came') });
      }
    });
  });
  request.end(call.body);
}
