import { describe, expect, it } from 'vitest';
import { ConsoleApiError } from './console-api-error';
import { shouldRetry } from './retry-policy';

describe('shouldRetry', () => {
  it('tries a network failure or a server error again, twice at most', () => {
    expect(shouldRetry(0, new ConsoleApiError(0, 'network', ''))).toBe(true);
    expect(shouldRetry(1, new ConsoleApiError(503, '9000', ''))).toBe(true);
    expect(shouldRetry(2, new ConsoleApiError(503, '9000', ''))).toBe(false);
  });

  it('never tries a refusal again', () => {
    expect(shouldRetry(0, new ConsoleApiError(401, 'unauthenticated', ''))).toBe(false);
    expect(shouldRetry(0, new ConsoleApiError(403, 'forbidden', ''))).toBe(false);
    expect(shouldRetry(0, new ConsoleApiError(422, '3000', ''))).toBe(false);
  });

  it('never tries a bug again', () => {
    expect(shouldRetry(0, new TypeError('x is undefined'))).toBe(false);
  });
});
