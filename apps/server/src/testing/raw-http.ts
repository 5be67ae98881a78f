// Plain HTTP/1.1 requests for tests that need what `fetch` hides: the local address a request comes from,
// repeated or non-ASCII headers, any method, and the exact answer (status, every header, raw body).

import { request } from 'node:http';
import type { IncomingHttpHeaders, OutgoingHttpHeaders, Agent } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  /** Header values; an array sends the header once per value. */
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  /** The address the request comes from, e.g. 127.0.0.2 (any of 127.0.0.0/8 reaches a loopback server). */
  readonly localAddress?: string;
  readonly agent?: Agent;
  readonly timeoutMs?: number;
}

/** Sends one request to `baseUrl` and resolves with the whole answer. */
export function rawRequest(baseUrl: string, options: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'POST',
        path: options.path,
        headers: options.headers,
        agent: options.agent ?? false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', reject);
      },
    );
    outgoing.setTimeout(options.timeoutMs ?? 30_000, () => {
      outgoing.destroy(new Error(`no answer within ${options.timeoutMs ?? 30_000} ms`));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
