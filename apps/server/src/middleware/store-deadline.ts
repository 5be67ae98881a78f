// Gives each API request its store deadline (see store-deadline.ts): once the request has waited on the
// database that long in all, its next or current store call fails and it is answered 9000/503.

import type { Middleware } from 'koa';
import type { ApiState } from '../api-state.js';
import { StoreBudget } from '../store-deadline.js';

export function storeDeadline(deadlineMs: number): Middleware<ApiState> {
  return (ctx, next) => {
    ctx.state.storeBudget = new StoreBudget(deadlineMs);
    return next();
  };
}
