// First for every request, operational routes included: a request id (taken from a sane `X-Request-Id`
// or made), a child logger, the negotiated format and media type of the answer, and one log line and
// metric sample per API request (operational requests are logged at debug level and not counted).

import { randomUUID } from 'node:crypto';
import { negotiateResponse } from '@topup/envelope';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { ApiState } from '../api-state.js';
import type { Metrics } from '@topup/service';

const acceptableRequestId = /^[\w.:-]{1,128}$/;

function requestIdOf(header: string | undefined): string {
  if (header !== undefined && acceptableRequestId.test(header)) return header;
  // randomUUID draws from a cached pool of CSPRNG bytes: far cheaper per request than randomBytes.
  return `req_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

export function requestContext(logger: Logger, metrics: Metrics): Middleware<ApiState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(ctx.get('x-request-id') || undefined);
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.state.negotiated = negotiateResponse(ctx.get('accept') || undefined);
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const fn = ctx.state.functionName ?? 'none';
      const code = ctx.state.code ?? 'none';
      // Probes and scrapes arrive every few seconds: they would drown the API's lines and numbers.
      const operational = ctx.state.operational === true;
      if (!operational) {
        metrics.requests.inc({ function: fn, code });
        metrics.latency.observe({ function: fn }, seconds);
      }
      ctx.state.log[operational ? 'debug' : 'info'](
        {
          method: ctx.method,
          path: ctx.state.loggedPath ?? ctx.path,
          function: fn,
          code,
          status: ctx.status,
          durationMs: Math.round(seconds * 1000 * 100) / 100,
          account: ctx.state.account?.id,
        },
        'request',
      );
    }
  };
}
