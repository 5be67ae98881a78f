// Last in the pipeline: runs the function's handler and writes its answer.

import type { Middleware } from 'koa';
import type { ApiState, CallerState, FunctionState } from '../api-state.js';
import type { ApiDependencies } from '../functions/api-function.js';
import { handlers } from '../functions/registry.js';
import { encodeReply, sendReply } from '../reply.js';
import { ledgerWithinBudget, providersWithinBudget, type StoreBudget } from '../store-deadline.js';

/** The service's dependencies as one request's handler sees them: store calls charged to `budget`. */
function within(service: ApiDependencies, budget: StoreBudget): ApiDependencies {
  return {
    ...service,
    ledger: ledgerWithinBudget(service.ledger, budget),
    providers: providersWithinBudget(service.providers, budget),
  };
}

export function operation(service: ApiDependencies): Middleware<ApiState & FunctionState & CallerState> {
  return async (ctx) => {
    const { functionName: name, account, storeBudget } = ctx.state;
    const result = await handlers[name]({
      ctx,
      account,
      input: ctx.state.input as never,
      deps: within(service, storeBudget),
      renewedDeps: () => within(service, storeBudget.renewed()),
    });
    if (result.kind === 'envelope') {
      ctx.state.code = result.envelope.status.code;
      sendReply(ctx, encodeReply(result.envelope, ctx.state.negotiated, result.httpStatus));
    } else {
      ctx.state.code ??= codeOf(result.reply.body);
      sendReply(ctx, result.reply, result.headers);
    }
  };
}

/** The status code of an already-encoded (replayed) reply, for logs and metrics. */
function codeOf(body: string): string {
  return /"code":"(\d{4})"|<code>(\d{4})<\/code>/.exec(body)?.slice(1).find(Boolean) ?? 'none';
}
