// An HTTP front for tests with several servers, as a load balancer is in production: each request goes to
// the first server that takes the connection, so a caller (or a provider calling back) reaches the service
// while any one server is down. Bodies are read whole; answers are passed back as they came.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FailoverProxy {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the front on `port` of 127.0.0.1 (any free one by default), before servers on `targetPorts`. */
export async function startFailoverProxy(targetPorts: readonly number[], port = 0): Promise<FailoverProxy> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
        }
        for (const target of targetPorts) {
          try {
            const answer = await fetch(`http://127.0.0.1:${String(target)}${request.url ?? '/'}`, {
              method: request.method ?? 'GET',
              headers,
              ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
              redirect: 'manual',
            });
            const body = Buffer.from(await answer.arrayBuffer());
            response.writeHead(answer.status, {
              'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
            });
            response.end(body);
            return;
          } catch {
            // Down, or died while answering: the next server may take it.
          }
        }
        response.writeHead(502, { 'Content-Type': 'text/plain' });
        response.end('no server is up');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
