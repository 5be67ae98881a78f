// A real HTTP server on 127.0.0.1 for the client's tests: it records every request with its raw body
// and answers as the test scripts it: an envelope, any body, a dropped connection after the request
// arrived, or no answer at all. Also a port that refuses connections, and a fetch that routes attempts.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { contentTypeOf, encodeJson, encodeXml } from '@topup/envelope';
import type { Envelope, WireFormat } from '@topup/envelope';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly receivedAt: number;
}

/** An HTTP answer, sent after `delayMs`. */
export interface ScriptedAnswer {
  readonly kind: 'answer';
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
  readonly delayMs?: number;
}

export type ScriptedReply =
  | ScriptedAnswer
  /** Destroys the connection once the whole request has arrived. */
  | { readonly kind: 'drop' }
  /** Never answers. */
  | { readonly kind: 'hang' };

/** Decides the reply to the n-th request (0-based). */
export type Script = (request: ReceivedRequest, index: number) => ScriptedReply;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** An envelope as the service would answer it, with a request id unless headers say otherwise. */
export function envelopeReply(
  envelope: Envelope,
  options: { status?: number; headers?: Record<string, string>; format?: WireFormat } = {},
): ScriptedAnswer {
  const format = options.format ?? 'json';
  return {
    kind: 'answer',
    status: options.status ?? (envelope.status.type === 'SUCCESS' ? 200 : 400),
    headers: { 'Content-Type': contentTypeOf(format), 'X-Request-Id': 'req_scripted', ...options.headers },
    body: format === 'xml' ? encodeXml(envelope) : encodeJson(envelope),
  };
}

/** Replies in turn with each entry of `replies`, repeating the last one. */
export function inTurn(...replies: ScriptedReply[]): Script {
  return (_request, index) => {
    const reply = replies[Math.min(index, replies.length - 1)];
    if (reply === undefined) throw new Error('Expected at least one scripted reply, received none.');
    return reply;
  };
}

/** Starts a server on 127.0.0.1 and a free port that answers by `script`. */
export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const reply = script(received, requests.push(received) - 1);
      if (reply.kind === 'drop') {
        request.socket.destroy();
        return;
      }
      if (reply.kind === 'hang') return;
      void sleep(reply.delayMs ?? 0).then(() => {
        if (response.destroyed) return;
        response.writeHead(reply.status, reply.headers);
        response.end(reply.body);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

/** The URL of a loopback port that was free a moment ago and now refuses connections. */
export async function refusingUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return `http://127.0.0.1:${port}`;
}

/**
 * A fetch that sends the n-th call (1-based) to the URL `route` gives for the client's URL, so one
 * test can point attempts of a single call at different servers.
 */
export function routingFetch(route: (url: string, call: number) => string): typeof fetch {
  let calls = 0;
  return (input, init) => {
    calls += 1;
    const url = input instanceof Request ? input.url : input.toString();
    return fetch(route(url, calls), init);
  };
}
