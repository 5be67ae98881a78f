// Sending one callback attempt over HTTP(S): a POST to the endpoint URL, connected to addresses that were
// checked by the callback URL policy (the host name is not resolved again, so DNS rebinding cannot slip
// in), over keep-alive agents owned by one worker, with one deadline for the whole exchange. Redirects are
// never followed: a 3xx is simply an answer that is not 2xx.

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ResolvedAddress } from '../callback-url-policy.js';

/** The part of a receiver's answer kept with each attempt. */
export const RESPONSE_EXCERPT_BYTES = 20 * 1024;
// Past this the rest of a long answer is not drained for keep-alive: the socket is dropped instead.
const DRAIN_LIMIT_BYTES = 1024 * 1024;

export interface CallbackPost {
  readonly url: URL;
  /** The checked addresses to connect to, in preference order. */
  readonly addresses: readonly ResolvedAddress[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Deadline for the whole exchange: connect, send, and read the answer. */
  readonly timeoutMs: number;
}

export type CallbackPostResult =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly retryAfter: string | undefined;
      readonly excerpt: string;
      readonly durationMs: number;
    }
  | { readonly kind: 'timeout'; readonly durationMs: number; readonly error: string }
  | { readonly kind: 'failed'; readonly durationMs: number; readonly error: string };

export interface CallbackHttpClientOptions {
  /** Connections kept per receiver (host and port). */
  readonly maxSocketsPerHost: number;
  /** PEM certificates trusted for https receivers besides Node's own list (a receiver's private CA). */
  readonly trustedCertificates?: readonly string[];
}

class DeadlineExceeded extends Error {}

function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0];
    if (options.all === true) {
      callback(
        null,
        addresses.map((entry) => ({ address: entry.address, family: entry.family })),
      );
    } else if (first !== undefined) {
      callback(null, first.address, first.family);
    } else {
      callback(Object.assign(new Error('no checked address to connect to'), { code: 'ENOTFOUND' }), '', 4);
    }
  };
}

/** Text safe to store: PostgreSQL text cannot hold NUL. */
function excerptText(bytes: Buffer): string {
  return bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined || error.message.includes(code) ? error.message : `${code}: ${error.message}`;
}

/** A worker's HTTP client for callbacks, with its own keep-alive connection pools. */
export class CallbackHttpClient {
  readonly #http: HttpAgent;
  readonly #https: HttpsAgent;

  constructor(options: CallbackHttpClientOptions) {
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSocketsPerHost,
      scheduling: 'lifo' as const,
    };
    this.#http = new HttpAgent(agentOptions);
    const extra = options.trustedCertificates ?? [];
    this.#https = new HttpsAgent(
      extra.length === 0 ? agentOptions : { ...agentOptions, ca: [...rootCertificates, ...extra] },
    );
  }

  /** Posts one callback; never throws, every outcome is a result. */
  post(post: CallbackPost): Promise<CallbackPostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const isHttps = post.url.protocol === 'https:';
    return new Promise<CallbackPostResult>((resolve) => {
      let answer:
        { status: number; retryAfter: string | undefined; chunks: Buffer[]; kept: number } | undefined;
      let settled = false;
      const settle = (result: CallbackPostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const answered = () => {
        if (answer === undefined) return;
        settle({
          kind: 'answered',
          status: answer.status,
          retryAfter: answer.retryAfter,
          excerpt: excerptText(Buffer.concat(answer.chunks)),
          durationMs: elapsed(),
        });
      };

      const request = (isHttps ? httpsRequest : httpRequest)(post.url, {
        method: 'POST',
        headers: post.headers,
        agent: isHttps ? this.#https : this.#http,
        lookup: pinnedLookup(post.addresses),
      });
      const deadline = setTimeout(() => {
        request.destroy(new DeadlineExceeded(`no complete answer within ${post.timeoutMs} ms`));
      }, post.timeoutMs);

      request.on('response', (response: IncomingMessage) => {
        const retryAfter = response.headers['retry-after'];
        answer = { status: response.statusCode ?? 0, retryAfter, chunks: [], kept: 0 };
        const current = answer;
        let seen = 0;
        response.on('data', (chunk: Buffer) => {
          seen += chunk.byteLength;
          if (current.kept < RESPONSE_EXCERPT_BYTES) {
            const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - current.kept);
            current.chunks.push(part);
            current.kept += part.byteLength;
          }
          if (seen > DRAIN_LIMIT_BYTES) response.destroy();
        });
        response.on('end', answered);
        // The status is known: a body cut short (deadline, reset, too long) still leaves an answer.
        response.on('close', answered);
        response.on('error', answered);
      });
      request.on('error', (error) => {
        if (answer !== undefined) {
          answered();
        } else if (error instanceof DeadlineExceeded) {
          settle({ kind: 'timeout', durationMs: elapsed(), error: error.message });
        } else {
          settle({ kind: 'failed', durationMs: elapsed(), error: describeError(error) });
        }
      });
      request.end(post.body);
    });
  }

  /** Closes every pooled connection. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
