// The Koa application: operational endpoints, then `POST /api/<function_name>` through one pipeline in
// a fixed order, so that every answer, including every failure, is an envelope in the negotiated format.

import Router from '@koa/router';
import type { Ledger, Store } from '@topup/ledger';
import type { Provider } from '@topup/worker';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ApiState } from './api-state.js';
import type { Config } from './config.js';
import { functionNames, parserFor } from './functions/registry.js';
import type { Metrics } from './metrics.js';
import { activeAccount, authentication } from './middleware/authentication.js';
import { authenticationFailureLimit } from './middleware/authentication-failures.js';
import { bodyDecoding } from './middleware/body-decoding.js';
import { envelopeErrors } from './middleware/envelope-errors.js';
import { functionLookup, postOnly } from './middleware/function-lookup.js';
import { operation } from './middleware/operation.js';
import { rateLimiting } from './middleware/rate-limiting.js';
import { requestContext } from './middleware/request-context.js';
import { requestValidation } from './middleware/request-validation.js';
import { openApiDocument } from './openapi.js';
import type { AuthenticationFailureLimiter } from './rate-limit/authentication-failure-limiter.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';

export interface AppDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly ledger: Ledger;
  readonly provider: Provider;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** What /metrics shows; the server's own registry by default (see `withWorkerMetrics`). */
  readonly metricsRegistry?: Registry;
  readonly rateLimiter: RateLimiter;
  readonly authenticationFailures: AuthenticationFailureLimiter;
}

export function createApp(deps: AppDependencies): Koa<ApiState> {
  const app = new Koa<ApiState>({ proxy: false });
  const operational = new Router<ApiState>();
  const document = JSON.stringify(openApiDocument());

  operational.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  operational.get('/readyz', async (ctx) => {
    try {
      await deps.store.query('SELECT 1');
      ctx.body = { status: 'ready' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'store unavailable' };
    }
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

  app.use(operational.routes());
  app.use(requestContext(deps.logger, deps.metrics));
  app.use(envelopeErrors());
  app.use(functionLookup(functionNames));
  app.use(postOnly());
  app.use(authenticationFailureLimit(deps.authenticationFailures));
  app.use(authentication(deps.ledger, deps.config.mode));
  app.use(activeAccount());
  app.use(bodyDecoding(deps.config.bodyLimitBytes));
  app.use(requestValidation(parserFor(deps.config)));
  app.use(rateLimiting(deps.rateLimiter));
  app.use(operation(deps));
  app.on('error', (error: unknown) => {
    deps.logger.error({ err: error }, 'unhandled application error');
  });
  return app;
}
