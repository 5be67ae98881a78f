// How the console API fails: a status and `{"error": {"code", "message", "problems"?}}`, never an
// envelope (the console is not the API) and never a stack trace. Rule failures come from
// @topup/operators as OperatorError; this module adds the HTTP-only ones (CSRF, sign-in limit).

import { LedgerError } from '@topup/ledger';
import { OperatorError } from '@topup/operators';
import type { Middleware } from 'koa';
import type { ApiState } from '../api-state.js';
import { isStoreUnavailable } from '../store-errors.js';

export type ConsoleFailureCode =
  OperatorError['code'] | 'csrf' | 'invalid_credentials' | 'rate_limited' | 'unavailable' | 'internal';

export class ConsoleFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ConsoleFailureCode,
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(message);
  }
}

const statusOf: Record<OperatorError['code'], number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  reauthentication_required: 403,
  not_found: 404,
  conflict: 409,
};

function failureOf(error: unknown): ConsoleFailure {
  if (error instanceof ConsoleFailure) return error;
  if (error instanceof OperatorError)
    return new ConsoleFailure(statusOf[error.code], error.code, error.message, error.problems);
  if (error instanceof LedgerError) {
    if (error.code.endsWith('_not_found')) return new ConsoleFailure(404, 'not_found', error.message);
    if (error.code === 'invalid_input')
      return new ConsoleFailure(400, 'invalid', error.message, [error.message]);
    if (error.code !== 'ledger_closed') return new ConsoleFailure(409, 'conflict', error.message);
  }
  if (isStoreUnavailable(error))
    return new ConsoleFailure(503, 'unavailable', 'The store is unavailable; try again shortly.');
  return new ConsoleFailure(
    500,
    'internal',
    'Internal error; the request id identifies it in the service logs.',
  );
}

/** Catches every failure below it and answers it as the console's JSON error. */
export function consoleFailures(): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const failure = failureOf(error);
      if (failure.code === 'internal' || failure.code === 'unavailable')
        ctx.state.log.error({ err: error }, 'console request failed');
      ctx.status = failure.status;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({
        error: {
          code: failure.code,
          message: failure.message,
          ...(failure.problems.length === 0 ? {} : { problems: failure.problems }),
        },
      });
    }
  };
}
