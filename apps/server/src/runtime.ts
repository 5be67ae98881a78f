// The API's HTTP server over a core: the Koa app with its rate limiters, Node's timeouts for slow clients,
// and a close that stops accepting and finishes the requests in flight.

import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Core } from '@topup/service';
import type { Registry } from 'prom-client';
import { createApp } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { createMemoryAuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import type { AuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import { createMemoryRateLimiter } from './rate-limit/memory-rate-limiter.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import { createRedisAuthenticationFailureLimiter } from './rate-limit/redis-authentication-failure-limiter.js';
import { createRedisRateLimiter } from './rate-limit/redis-rate-limiter.js';
import { withSubmissionsInStore } from './store-deadline.js';

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Stops accepting connections and waits for in-flight requests. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  /** What /metrics shows, when more than the server's own registry (the worker's too, in one process). */
  readonly metricsRegistry?: Registry;
  /** The per-token rate limiter, when not the configured one (tests use one on a clock of their own). */
  readonly rateLimiter?: RateLimiter;
  /** The console's clock, when not the real one (tests expire sessions with it). */
  readonly clock?: () => Date;
  /** The console's built files, when not the repository's apps/console/dist. */
  readonly consoleBuildDir?: string;
}

export async function startHttpServer(core: Core, options: HttpServerOptions = {}): Promise<RunningServer> {
  const rateLimiter: RateLimiter =
    options.rateLimiter ??
    (core.config.redisUrl === undefined
      ? createMemoryRateLimiter(core.config.rateLimit)
      : createRedisRateLimiter(core.config.redisUrl, core.config.rateLimit));
  const webhookRateLimiter: RateLimiter =
    core.config.redisUrl === undefined
      ? createMemoryRateLimiter(core.config.providerWebhookRateLimit)
      : createRedisRateLimiter(
          core.config.redisUrl,
          core.config.providerWebhookRateLimit,
          'topup:webhook-rate:',
        );
  const authenticationFailures: AuthenticationFailureLimiter =
    core.config.redisUrl === undefined
      ? createMemoryAuthenticationFailureLimiter(core.config.authFailureLimit)
      : createRedisAuthenticationFailureLimiter(core.config.redisUrl, core.config.authFailureLimit);
  if (core.providerInStore) for (const provider of core.providers.providers) withSubmissionsInStore(provider);
  const app = createApp({ ...core, ...options, rateLimiter, webhookRateLimiter, authenticationFailures });
  const handle = app.callback();
  const { headersMs, requestMs } = core.config.httpTimeouts;
  const responses = new WeakMap<Duplex, ServerResponse>();
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: requestMs,
      // Node checks both timeouts on this interval (30 s by default), so a slow client is cut off on time.
      connectionsCheckingInterval: Math.min(1_000, headersMs),
    },
    (request, response) => {
      responses.set(request.socket, response);
      void handle(request, response);
    },
  );
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server, responses, core.logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(core.config.port, core.config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    async close() {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      server.closeIdleConnections();
      await closed;
      await rateLimiter.close();
      await webhookRateLimiter.close();
      await authenticationFailures.close();
    },
  };
}
