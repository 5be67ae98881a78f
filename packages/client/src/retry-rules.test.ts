import type { FailureCode } from '@topup/envelope';
import { describe, expect, it } from 'vitest';
import type { RetrySafety } from './api-functions.js';
import { isRetryable } from './retry-rules.js';
import type { FailureOutcome, TransportOutcome } from './send-attempt.js';

const safeties: RetrySafety[] = ['keyed', 'read', 'change'];

function answered(
  code: FailureCode,
  httpStatus: number,
  extra: Partial<FailureOutcome> = {},
): FailureOutcome {
  return {
    kind: 'failure',
    code,
    message: 'm',
    errors: [],
    httpStatus,
    requestId: undefined,
    replayed: false,
    retryAfterSeconds: undefined,
    ...extra,
  };
}

function transport(mayHaveReachedServer: boolean): TransportOutcome {
  return { kind: 'transport', mayHaveReachedServer, problem: 'p', cause: undefined };
}

/** Which of keyed, read and change retry the outcome. */
function retriedBy(outcome: FailureOutcome | TransportOutcome): RetrySafety[] {
  return safeties.filter((safety) => isRetryable(outcome, safety));
}

describe('isRetryable', () => {
  it.each<[string, FailureOutcome | TransportOutcome, RetrySafety[]]>([
    ['a connection never made', transport(false), ['keyed', 'read', 'change']],
    ['a request that may have arrived', transport(true), ['keyed', 'read']],
    ['9000 (502)', answered('9000', 502), ['keyed', 'read']],
    ['9000 (503)', answered('9000', 503, { retryAfterSeconds: 5 }), ['keyed', 'read']],
    ['a replayed 9000', answered('9000', 502, { replayed: true }), []],
    ['5000 rate limited (429)', answered('5000', 429, { retryAfterSeconds: 1 }), ['keyed', 'read', 'change']],
    ['5000 in progress (409 with Retry-After)', answered('5000', 409, { retryAfterSeconds: 1 }), ['keyed']],
    ['5000 key conflict (409)', answered('5000', 409), []],
    ['5000 not allowed (403)', answered('5000', 403), []],
    ['1000', answered('1000', 400), []],
    ['2000', answered('2000', 405), []],
    ['3000', answered('3000', 422), []],
    ['4000', answered('4000', 401), []],
    ['6000', answered('6000', 403), []],
    ['7000', answered('7000', 402), []],
    ['8000', answered('8000', 409), []],
  ])('retries %s for exactly %j', (_case, outcome, expected) => {
    expect(retriedBy(outcome)).toStrictEqual(expected);
  });
});
