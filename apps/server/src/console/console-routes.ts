// Everything under /console: the API the console's screens call (/console/api/...) and its built pages.
// Console answers are never cached and always carry the console's security headers.

import Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import type { ApiState } from '../api-state.js';
import { accountCalls } from './account-calls.js';
import { consoleFailures, ConsoleFailure } from './console-failure.js';
import type { ConsoleDependencies } from './console-context.js';
import type { ConsoleState } from './console-state.js';
import { serveConsoleFiles, setConsoleHeaders } from './console-static.js';
import { consoleRateLimits } from './console-rate-limits.js';
import { csvExports } from './csv-exports.js';
import { operatorCalls } from './operator-calls.js';
import { sessionRequired, sessionRoutes } from './session-routes.js';

export interface ConsoleRouteOptions {
  /** The console's built files; the repository's apps/console/dist by default. */
  readonly buildDir?: string;
}

export function consoleRoutes(
  deps: ConsoleDependencies,
  options: ConsoleRouteOptions = {},
): Middleware<ApiState> {
  const api = new Router<ConsoleState>({ prefix: '/console/api' });
  api.use(sessionRoutes(deps).routes());
  api.post('/call/:function', sessionRequired(deps), ...(accountCalls(deps) as Middleware<ConsoleState>[]));
  api.post('/operator/:function', sessionRequired(deps), operatorCalls(deps) as Middleware<ConsoleState>);
  api.get('/export/:file', sessionRequired(deps), csvExports(deps) as Middleware<ConsoleState>);
  const apiRoutes = api.routes() as Middleware<ApiState>;
  const failures = consoleFailures();
  const rateLimits = consoleRateLimits(deps.rateLimiter);
  const notFound = (): Promise<void> =>
    Promise.reject(new ConsoleFailure(404, 'not_found', 'No such console function.'));
  const files = serveConsoleFiles(options.buildDir);

  async function served(ctx: ParameterizedContext<ApiState>): Promise<void> {
    ctx.state.operational = false;
    setConsoleHeaders(ctx);
    if (ctx.path.startsWith('/console/api/') || ctx.path === '/console/api') {
      ctx.set('Cache-Control', 'no-store');
      await failures(ctx, async () => {
        await rateLimits(ctx, async () => {
          await apiRoutes(ctx, notFound);
        });
      });
      return;
    }
    await files(ctx);
  }

  return (ctx, next) => (ctx.path === '/console' || ctx.path.startsWith('/console/') ? served(ctx) : next());
}
