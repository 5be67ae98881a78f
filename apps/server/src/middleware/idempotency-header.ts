// Reads the `Idempotency-Key` header with the other request-format checks (1000), before the body is
// validated, so a malformed key is reported as the malformed request it is whatever the body says.

import type { Middleware } from 'koa';
import type { ApiState } from '../api-state.js';
import { idempotencyKeyOf } from '../functions/idempotency-key.js';

export function idempotencyHeader(): Middleware<ApiState> {
  return async (ctx, next) => {
    const key = idempotencyKeyOf(ctx.get('idempotency-key'));
    if (key !== undefined) ctx.state.idempotencyKey = key;
    await next();
  };
}
