// Reads the `Idempotency-Key` header with the other request-format checks (1000), before the body is
// validated, so a malformed key, or a key on a function that honours none, is reported as the malformed
// request it is whatever the body says.

import type { Middleware } from 'koa';
import type { ApiState, FunctionState } from '../api-state.js';
import { idempotencyKeyOf } from '../functions/idempotency-key.js';

export function idempotencyHeader(): Middleware<ApiState & FunctionState> {
  return (ctx, next) => {
    const key = idempotencyKeyOf(ctx.get('idempotency-key'), ctx.state.functionName);
    if (key !== undefined) ctx.state.idempotencyKey = key;
    return next();
  };
}
