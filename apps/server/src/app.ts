// The Koa application: the request context (id, log line) for everything, operational endpoints, then
// `POST /api/<function_name>` through one pipeline in a fixed order, so that every answer, including
// every failure, is an envelope in the negotiated format.

import Router from '@koa/router';
import type { Ledger, Store } from '@topup/ledger';
import type { ProviderRoutes } from '@topup/providers';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ApiState } from './api-state.js';
import type { Config, Metrics } from '@topup/service';
import { functionNames, parserFor } from './functions/registry.js';
import { activeAccount, authentication } from './middleware/authentication.js';
import { createAuthenticationGuard } from './middleware/authentication-guard.js';
import { bodyDecoding } from './middleware/body-decoding.js';
import { envelopeErrors } from './middleware/envelope-errors.js';
import { functionLookup, postOnly } from './middleware/function-lookup.js';
import { idempotencyHeader } from './middleware/idempotency-header.js';
import { operation } from './middleware/operation.js';
import { permissions } from './middleware/permissions.js';
import { rateLimiting } from './middleware/rate-limiting.js';
import { requestContext } from './middleware/request-context.js';
import { requestValidation } from './middleware/request-validation.js';
import { storeDeadline } from './middleware/store-deadline.js';
import { providerWebhooks } from './provider-webhooks.js';
import { openApiDocument } from './openapi.js';
import { consoleRoutes } from './console/console-routes.js';
import type { AuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';

export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly ledger: Ledger;
  readonly providers: ProviderRoutes;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** What /metrics shows; the server's own registry by default (see `withWorkerMetrics`). */
  readonly metricsRegistry?: Registry;
  readonly rateLimiter: RateLimiter;
  /** Each source address's calls to the provider webhook routes. */
  readonly webhookRateLimiter: RateLimiter;
  readonly authenticationFailures: AuthenticationFailureLimiter;
  /** The console's clock (sessions, links, audit); tests move it to expire sessions. */
  readonly clock?: () => Date;
  /** The console's built files, when not the repository's apps/console/dist. */
  readonly consoleBuildDir?: string;
}

type Check = 'ok' | 'unavailable';

/** A readiness check that has not answered by then counts as unavailable, so /readyz itself never hangs. */
const readyCheckMs = 1_500;

async function checked(probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(resolve, readyCheckMs, 'unavailable');
  });
  try {
    return await Promise.race([
      probe().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createApp(deps: AppDependencies): Koa<ApiState> {
  // Behind proxies, the client is the address the outermost trusted one saw: the `trustedProxies`-th
  // entry of X-Forwarded-For from the right. Entries further left are whatever the client wrote.
  const proxies = deps.config.trustedProxies;
  const app = new Koa<ApiState>({ proxy: proxies > 0, maxIpsCount: proxies });
  const operational = new Router<ApiState>();
  const document = JSON.stringify(openApiDocument({ serverUrl: deps.config.publicBaseUrl }));

  operational.use(async (ctx, next) => {
    ctx.state.operational = true;
    await next();
  });
  operational.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  // Ready when every store a request needs answers: the database, and Redis when the limits live there.
  operational.get('/readyz', async (ctx) => {
    const [store, redis] = await Promise.all([
      checked(() => deps.store.query('SELECT 1')),
      deps.config.redisUrl === undefined
        ? Promise.resolve('not configured' as const)
        : checked(() => Promise.all([deps.rateLimiter.ping(), deps.authenticationFailures.ping()])),
    ]);
    const ready = store === 'ok' && redis !== 'unavailable';
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not ready', checks: { store, redis } };
  });
  const scraped = deps.metricsRegistry ?? deps.metrics.registry;
  operational.get('/metrics', async (ctx) => {
    ctx.type = scraped.contentType;
    ctx.body = await scraped.metrics();
  });
  operational.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = document;
  });

  // The order of docs/architecture.md, Codes and HTTP statuses and docs/decisions.md: each stage answers its own code, so when a
  // request has several faults the earliest stage's code is the answer. A stage that only checks and passes
  // on is a plain function returning next(): an async one costs every request a promise and two more
  // microtask turns, and koa-compose turns a plain stage's throw into the same rejection.
  app
    .use(requestContext(deps.logger, deps.metrics))
    .use(operational.routes())
    // The console answers in its own JSON (or pages), never in envelopes, and only under /console.
    .use(
      consoleRoutes(
        {
          config: deps.config,
          store: deps.store,
          ledger: deps.ledger,
          api: deps,
          authenticationFailures: deps.authenticationFailures,
          rateLimiter: deps.rateLimiter,
          now: deps.clock ?? (() => new Date()),
        },
        deps.consoleBuildDir === undefined ? {} : { buildDir: deps.consoleBuildDir },
      ),
    )
    // Providers' pushed results answer in each provider's own form, not in envelopes.
    .use(providerWebhooks(deps))
    .use(envelopeErrors())
    .use(storeDeadline(deps.config.storeTimeouts.requestDeadlineMs))
    .use(functionLookup(functionNames))
    .use(postOnly())
    .use(authentication(createAuthenticationGuard(deps.ledger, deps.authenticationFailures)))
    .use(activeAccount())
    // Charged before the body is read: reading and parsing a body (up to BODY_LIMIT_BYTES of XML) is the
    // expensive part, and a token past its limit must not be able to make the server do it.
    .use(rateLimiting(deps.rateLimiter))
    .use(idempotencyHeader())
    .use(bodyDecoding(deps.config.bodyLimitBytes))
    .use(requestValidation(parserFor(deps.config)))
    .use(permissions(deps.config.mode))
    .use(operation(deps));
  app.on('error', (error: unknown) => {
    deps.logger.error({ err: error }, 'unhandled application error');
  });
  return app;
}
