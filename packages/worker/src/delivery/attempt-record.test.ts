import { describe, expect, it } from 'vitest';
import { attemptRecord, CONNECTION_FAILED } from './attempt-record.js';

const answered = {
  kind: 'answered',
  status: 500,
  retryAfter: undefined,
  excerpt: 'stack trace',
  durationMs: 3,
} as const;
const timedOut = {
  kind: 'timeout',
  durationMs: 15_000,
  error: 'no complete answer within 15000 ms',
} as const;
const refused = {
  kind: 'failed',
  durationMs: 1,
  error: 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432',
} as const;

describe('attemptRecord', () => {
  it('keeps a public receiver’s status, answer and failure detail', () => {
    expect(attemptRecord(answered, true)).toEqual({ responseExcerpt: 'stack trace', httpStatus: 500 });
    expect(attemptRecord(timedOut, true)).toEqual({ responseExcerpt: '', error: timedOut.error });
    expect(attemptRecord(refused, true)).toEqual({ responseExcerpt: '', error: refused.error });
  });

  it('keeps only the status of a receiver that is not public, and one word for every failure', () => {
    expect(attemptRecord(answered, false)).toEqual({ responseExcerpt: '', httpStatus: 500 });
    expect(attemptRecord(timedOut, false)).toEqual({ responseExcerpt: '', error: CONNECTION_FAILED });
    expect(attemptRecord(refused, false)).toEqual(attemptRecord(timedOut, false));
  });
});
