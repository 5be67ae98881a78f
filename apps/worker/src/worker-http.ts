// The small HTTP listener of `pnpm start:worker`: a worker serves no API, but it must still answer a
// liveness probe (/healthz) and be scraped by Prometheus (/metrics: deliveries by outcome, attempt latency,
// queue depth, oldest pending age). It listens on HOST (loopback by default) and WORKER_PORT.

import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';

export interface WorkerHttpOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly registry: Registry;
  readonly logger: Logger;
}

export interface WorkerHttp {
  readonly url: string;
  /** Stops accepting and closes idle connections. */
  close(): Promise<void>;
}

function answer(
  response: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

/** Starts the listener; resolves once it accepts connections. */
export async function startWorkerHttp(options: WorkerHttpOptions): Promise<WorkerHttp> {
  const { registry, logger } = options;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    if (path !== '/healthz' && path !== '/metrics') {
      answer(response, 404, 'text/plain; charset=utf-8', `no ${path} here: try /healthz or /metrics\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      answer(response, 405, 'text/plain; charset=utf-8', `${path} answers GET only\n`, {
        Allow: 'GET, HEAD',
      });
      return;
    }
    if (path === '/healthz') {
      answer(response, 200, 'application/json', '{"status":"ok"}');
      return;
    }
    registry.metrics().then(
      (text) => {
        answer(response, 200, registry.contentType, text);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'collecting the worker metrics failed');
        answer(response, 503, 'text/plain; charset=utf-8', 'metrics unavailable\n');
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      server.closeIdleConnections();
      return closed;
    },
  };
}
