// Maps `/api/<function_name>` to a known function (1000 with 404 otherwise) and enforces POST
// (2000 with 405 and `Allow: POST` for any other method on a known function).

import { alternateHttpStatus } from '@topup/envelope';
import type { ApiFunctionName } from '@topup/validation';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState, FunctionState } from '../api-state.js';

const functionPath = /^\/api\/([a-z_]{1,64})\/?$/;

/** Sets the function (`FunctionState`) for every later stage, or answers 1000 with 404. */
export function functionLookup(known: ReadonlySet<string>): Middleware<ApiState & FunctionState> {
  return (ctx, next) => {
    const name = functionPath.exec(ctx.path)?.[1];
    if (name === undefined || !known.has(name)) {
      throw new ApiFailure('1000', [`unknown function: ${ctx.path} is not an API function`], {
        httpStatus: alternateHttpStatus.unknownFunction,
      });
    }
    ctx.state.functionName = name as ApiFunctionName;
    return next();
  };
}

export function postOnly(): Middleware<ApiState> {
  return (ctx, next) => {
    if (ctx.method !== 'POST') {
      throw new ApiFailure('2000', [`method ${ctx.method} is not allowed; use POST`], {
        headers: { Allow: 'POST' },
      });
    }
    return next();
  };
}
