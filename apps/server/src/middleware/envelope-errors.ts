// Catches every failure below it and answers with an envelope in the negotiated format: an ApiFailure
// with its code, an outage of the database or of the rate-limit store (Redis) as 9000/503 with
// `Retry-After`, anything else as 9000/502. Never a stack trace.

import { contentTypeOf, failure, type ResponseNegotiation } from '@topup/envelope';
import type { Middleware } from 'koa';
import { ApiFailure } from '../api-failure.js';
import type { ApiState } from '../api-state.js';
import { printableProblem } from '../problem-text.js';
import { encodeReply, sendReply } from '../reply.js';
import type { EncodedReply } from '../reply.js';
import { RateLimitStoreUnavailable } from '../rate-limit/redis-connection.js';
import { isStoreUnavailable } from '../store-errors.js';

const jsonAnswer: ResponseNegotiation = { format: 'json', contentType: contentTypeOf('json') };

export function envelopeErrors(): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const apiFailure = toApiFailure(error);
      if (!(error instanceof ApiFailure)) ctx.state.log.error({ err: error }, 'request failed');
      ctx.state.code = apiFailure.code;
      const envelope = failure(
        apiFailure.code,
        apiFailure.errors.map(printableProblem),
        apiFailure.operation === undefined ? {} : { operation: apiFailure.operation },
      );
      let reply: EncodedReply;
      try {
        reply = encodeReply(envelope, ctx.state.negotiated, apiFailure.httpStatus);
      } catch (encodingError) {
        // Whatever a problem says, the caller still gets an envelope, never Koa's bare 500.
        ctx.state.log.error({ err: encodingError }, 'a failure could not be encoded');
        reply = encodeReply({ ...envelope, data: { errors: [] } }, jsonAnswer, apiFailure.httpStatus);
      }
      sendReply(ctx, reply, apiFailure.headers);
    }
  };
}

function toApiFailure(error: unknown): ApiFailure {
  if (error instanceof ApiFailure) return error;
  if (isStoreUnavailable(error)) {
    return new ApiFailure('9000', ['the store is unavailable; try again shortly'], {
      httpStatus: 503,
      headers: { 'Retry-After': '5' },
    });
  }
  if (error instanceof RateLimitStoreUnavailable) {
    return new ApiFailure('9000', ['the rate-limit store is unavailable; try again shortly'], {
      httpStatus: 503,
      headers: { 'Retry-After': '5' },
    });
  }
  return new ApiFailure('9000', ['internal error; the request id identifies it in the service logs']);
}
