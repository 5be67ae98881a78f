import { describe, expect, it } from 'vitest';
import { attemptOutcome } from './attempt-outcome.js';
import type { CallbackPostResult } from './post-callback.js';
import { STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS } from './retry-schedule.js';

const now = new Date('2025-01-01T00:00:00Z');
const context = {
  attemptsMade: 1,
  schedule: STANDARD_WEBHOOKS_RETRY_SCHEDULE_SECONDS,
  now,
  random: () => 0.5,
};
const answered = (status: number, retryAfter?: string): CallbackPostResult => ({
  kind: 'answered',
  status,
  retryAfter,
  excerpt: '',
  durationMs: 5,
});
const secondsLater = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('attemptOutcome', () => {
  it.each([200, 201, 204, 299])('delivers on %i', (status) => {
    expect(attemptOutcome(answered(status), context)).toEqual({ outcome: 'delivered' });
  });

  it('disables the endpoint on 410 Gone', () => {
    expect(attemptOutcome(answered(410), context)).toEqual({ outcome: 'endpoint_gone' });
  });

  it.each([301, 302, 307, 400, 404, 500, 503])('retries by the schedule on %i', (status) => {
    expect(attemptOutcome(answered(status), context)).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(5),
    });
  });

  it('retries a network failure by the schedule', () => {
    const failed: CallbackPostResult = { kind: 'failed', durationMs: 1, error: 'ECONNREFUSED' };
    expect(attemptOutcome(failed, { ...context, attemptsMade: 2 })).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(300),
    });
  });

  it('waits at least the slow-down floor after a timeout or a 429', () => {
    const timeout: CallbackPostResult = { kind: 'timeout', durationMs: 15_000, error: 'deadline' };
    expect(attemptOutcome(timeout, context)).toEqual({ outcome: 'retry', nextAttemptAt: secondsLater(60) });
    expect(attemptOutcome(answered(429), context)).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(60),
    });
  });

  it('waits the configured slow-down floor after a timeout when one is set', () => {
    const timeout: CallbackPostResult = { kind: 'timeout', durationMs: 300, error: 'deadline' };
    expect(attemptOutcome(timeout, { ...context, slowDownFloorSeconds: 7 })).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(7),
    });
  });

  it('honours Retry-After within twice the scheduled delay', () => {
    expect(attemptOutcome(answered(503, '90'), context)).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(10),
    });
    expect(attemptOutcome(answered(429, '90'), context)).toEqual({
      outcome: 'retry',
      nextAttemptAt: secondsLater(90),
    });
  });

  it('fails the delivery after the last scheduled attempt', () => {
    expect(attemptOutcome(answered(500), { ...context, attemptsMade: 8 })).toEqual({ outcome: 'failed' });
  });

  it('still delivers on the last attempt', () => {
    expect(attemptOutcome(answered(200), { ...context, attemptsMade: 8 })).toEqual({ outcome: 'delivered' });
  });
});
