// An HTTP proxy in front of the real service that misbehaves on script: it can pass a request on and
// then drop the connection before the answer reaches the client, or answer by itself without passing
// the request on. Used to prove that retries through real failures never act twice.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedAnswer } from './scripted-server.js';

/**
 * - `forward`: pass the request on and relay the answer;
 * - `forward-then-drop`: pass it on, wait for the answer, then drop the client's connection;
 * - an answer: reply with it without passing the request on.
 */
export type ProxyAction = 'forward' | 'forward-then-drop' | ScriptedAnswer;

export interface ProxiedRequest {
  readonly path: string;
  readonly idempotencyKey: string | undefined;
  readonly action: ProxyAction;
}

export interface FaultyProxy {
  readonly url: string;
  readonly requests: readonly ProxiedRequest[];
  close(): Promise<void>;
}

// Headers the proxy copies from the service's answer to the client.
const relayedHeaders = ['content-type', 'x-request-id', 'idempotency-replayed', 'retry-after'];

/** Starts a proxy to `target` that takes the n-th request's action (0-based) from `script`. */
export async function startFaultyProxy(
  target: string,
  script: (index: number) => ProxyAction,
): Promise<FaultyProxy> {
  const requests: ProxiedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const action = script(requests.length);
      const key = request.headers['idempotency-key'];
      requests.push({
        path: request.url ?? '',
        idempotencyKey: typeof key === 'string' ? key : undefined,
        action,
      });
      if (typeof action === 'object') {
        response.writeHead(action.status, action.headers).end(action.body);
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'accept', 'content-type', 'idempotency-key']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      void fetch(target + (request.url ?? ''), { method: 'POST', headers, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          const body = await answer.text();
          if (action === 'forward-then-drop') {
            request.socket.destroy();
            return;
          }
          const copied: Record<string, string> = {};
          for (const name of relayedHeaders) {
            const value = answer.headers.get(name);
            if (value !== null) copied[name] = value;
          }
          response.writeHead(answer.status, copied).end(body);
        })
        .catch(() => {
          request.socket.destroy();
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
