// When a failed read is tried again. A refusal (4xx) will be refused again, and a retried 401 would only
// delay the sign-in screen; a network failure or a 5xx may pass on a second try.

import { ConsoleApiError } from './console-api-error';

const maxRetries = 2;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= maxRetries) return false;
  if (!(error instanceof ConsoleApiError)) return false;
  return error.httpStatus === 0 || error.httpStatus >= 500;
}
