// An HTTP front for fault tests, put between the service and a provider: it passes each request on and
// its answer back, except that for a request the test picks it passes the request on, waits for the
// provider's answer, and then drops the connection instead of answering. The provider took the call; the
// service cannot know it, as when a network loses a provider's answer.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the front read it, for the test to decide whether its answer is lost. */
export interface FrontRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

export interface AnswerDroppingFront {
  readonly url: string;
  /** The requests whose answers were dropped, oldest first. */
  readonly dropped: readonly FrontRequest[];
  close(): Promise<void>;
}

/** Headers the front sets itself rather than passing on. */
const ownHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

/** Starts the front on a free loopback port before `targetUrl`, dropping the answers `drops` picks. */
export async function startAnswerDroppingFront(
  targetUrl: string,
  drops: (request: FrontRequest) => boolean,
): Promise<AnswerDroppingFront> {
  const dropped: FrontRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const read: FrontRequest = {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          body: Buffer.concat(chunks).toString('utf8'),
        };
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string' && !ownHeaders.has(name)) headers.set(name, value);
        }
        try {
          const answer = await fetch(`${targetUrl}${read.path}`, {
            method: read.method,
            headers,
            ...(read.method === 'GET' || read.method === 'HEAD' ? {} : { body: read.body }),
            redirect: 'manual',
          });
          const body = Buffer.from(await answer.arrayBuffer());
          if (drops(read)) {
            dropped.push(read);
            request.socket.destroy();
            return;
          }
          response.writeHead(answer.status, {
            'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
          });
          response.end(body);
        } catch {
          request.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    dropped,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
