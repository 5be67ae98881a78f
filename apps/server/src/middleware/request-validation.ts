// Validates the decoded body against the function's schema; every problem becomes one of the spec's
// `3000` strings, in field order.

import type { ValidationResult } from '@topup/validation';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, FunctionState } from '../api-state.js';

export type RequestParser = (body: Record<string, unknown>) => ValidationResult<unknown>;

export function requestValidation(
  parserFor: (name: string) => RequestParser,
): Middleware<ApiState & FunctionState> {
  return async (ctx, next) => {
    const result = parserFor(ctx.state.functionName)(ctx.state.body ?? {});
    if (!result.ok) throw new ApiFailure('3000', result.errors);
    ctx.state.input = result.value;
    await next();
  };
}
