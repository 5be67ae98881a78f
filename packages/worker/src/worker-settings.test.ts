import { describe, expect, it } from 'vitest';
import { resolveWorkerSettings } from './worker-settings.js';

const base = { mode: 'sandbox', transactionTimeoutSeconds: 600, providerTimeoutMs: 10_000 } as const;

describe('the worker settings', () => {
  it('takes a retry schedule that starts with the immediate first attempt', () => {
    expect(
      resolveWorkerSettings({ ...base, retryScheduleSeconds: [0, 5, 300] }).retryScheduleSeconds,
    ).toEqual([0, 5, 300]);
  });

  it('refuses a retry schedule whose first entry is not 0, since no delay comes before the first attempt', () => {
    expect(() => resolveWorkerSettings({ ...base, retryScheduleSeconds: [5, 300] })).toThrow(
      'Expected a retry schedule starting with 0, the immediate first attempt (e.g. 0,5,300,1800,7200,18000,36000,36000), received [5,300].',
    );
  });

  it('refuses an empty or negative retry schedule', () => {
    expect(() => resolveWorkerSettings({ ...base, retryScheduleSeconds: [] })).toThrow(RangeError);
    expect(() => resolveWorkerSettings({ ...base, retryScheduleSeconds: [0, -1] })).toThrow(
      /non-negative seconds .* received \[0,-1\]/,
    );
  });
});
